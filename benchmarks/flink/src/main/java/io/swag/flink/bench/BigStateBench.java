package io.swag.flink.bench;

import io.swag.core.fn.CountMin;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.SwagFlinkOptions;
import io.swag.flink.SwagWindows;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;

/**
 * A job whose keyed state is many times the JVM heap (the mini cluster's TaskManager runs in this
 * JVM, started with a small {@code -Xmx}): {@code keys} keys, each with {@code recordsPerSlice}
 * records per slide of 60 s, a sliding window of {@code slices} slides, and a count-min sketch of
 * {@code width} x 4 counters per slice (its byte form is {@code width * 32} bytes) beside max, count
 * and sum; RocksDB or ForSt with incremental checkpoints every 5 s, compression off so that the bytes
 * on disk are the state's own; a key cache of {@code cacheKeys} keys. Records of keys not in the
 * cache take the cold path (their slice in state, one get and one put); each key's timer loads it
 * once per slide.
 *
 * <p>The state: the slices the job must keep at its largest (per key the slides of its window plus
 * the one filling), times the sketch's bytes; {@code state_over_heap} is that over the heap limit.
 *
 * <p>Checked, exactly, against an oracle computed here from the generator (not by swag): every
 * window of every key, its max, count, sum and the sketch's total. Measured: the heap limit and the
 * largest used heap seen (sampled every 100 ms), the largest size of the backend's local folder (its SST and log files, sampled every 0.5 s),
 * the largest and the last checkpoint's size (its chk-N folder plus the shared files it references, sampled every 0.5 s; the state over the heap limit is the largest), records/s, and the operator's
 * {@code swagColdRecords}.
 *
 * <p>Run: {@code make bench-flink-big-state} (docs/benchmarks-flink.md); arguments: output CSV,
 * backend (rocksdb|forst), keys, slices per window, slides to run, records per slice, sketch width,
 * cache keys. Not a unit test.
 */
public final class BigStateBench {
  static final long SLIDE_MS = 60_000;
  static final Map<String, double[]> GOT = new ConcurrentHashMap<>();
  static final org.apache.flink.api.java.typeutils.RowTypeInfo TYPE =
      (org.apache.flink.api.java.typeutils.RowTypeInfo) org.apache.flink.api.common.typeinfo.Types.ROW_NAMED(
          new String[] {"k", "ts", "v", "id"}, org.apache.flink.api.common.typeinfo.Types.LONG,
          org.apache.flink.api.common.typeinfo.Types.LONG, org.apache.flink.api.common.typeinfo.Types.DOUBLE,
          org.apache.flink.api.common.typeinfo.Types.LONG);

  /** Record i: slide i / (keys * r), key by a permutation of the slide, time spread over the slide. */
  static final class Gen implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final int keys;
    private final int perSlice;

    Gen(int keys, int perSlice) {
      this.keys = keys;
      this.perSlice = perSlice;
    }

    @Override
    public Row map(Long i) {
      return row(i, keys, perSlice);
    }
  }

  static Row row(long i, int keys, int perSlice) {
    long perSlide = (long) keys * perSlice;
    long slide = i / perSlide;
    long j = i % perSlide;
    long k = (j * 7 + slide * 13) % keys; // 7 is prime to the key counts used: a permutation
    long ts = slide * SLIDE_MS + j * (SLIDE_MS / perSlide);
    long v = (i * 7919) % 10_007;
    return Row.of(k, ts, (double) v, i % 50_000);
  }

  /** Keeps (key, window start) -> {max, count, sum, sketch total} of each output row. */
  static final class Digest implements Sink<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<Row> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        @Override
        public void write(Row r, Context ctx) {
          Object cm = r.getField(7);
          double total = cm instanceof CountMin.Sketch s ? s.total()
              : cm instanceof Row row ? ((Number) row.getField("total")).doubleValue()
              : ((Number) ((Map<?, ?>) cm).get("total")).doubleValue();
          GOT.put(r.getField(0) + "@" + r.getField(2), new double[] {
              ((Number) r.getField(4)).doubleValue(), ((Number) r.getField(5)).doubleValue(),
              ((Number) r.getField(6)).doubleValue(), total});
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }

  /**
   * Runs the benchmark and writes its CSV.
   *
   * @param args the CSV path, the state backend, then keys, slices, slides, records per slice, sketch
   *     width and cached keys
   * @throws Exception if the job fails
   */
  public static void main(String[] args) throws Exception {
    String out = args.length > 0 ? args[0] : "target/bench-flink-big-state.csv";
    String backend = args.length > 1 ? args[1] : "rocksdb";
    int keys = args.length > 2 ? Integer.parseInt(args[2]) : 600;
    int slices = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    int slides = args.length > 4 ? Integer.parseInt(args[4]) : 14;
    int perSlice = args.length > 5 ? Integer.parseInt(args[5]) : 2;
    int width = args.length > 6 ? Integer.parseInt(args[6]) : 16_384;
    int cacheKeys = args.length > 7 ? Integer.parseInt(args[7]) : 4;
    long n = (long) keys * perSlice * slides;

    Path dir = Files.createTempDirectory("swag-big-state");
    Configuration c = new Configuration();
    c.setString("state.backend.type", backend);
    c.setString("execution.checkpointing.incremental", "true");
    c.setString("execution.checkpointing.dir", dir.resolve("chk").toUri().toString());
    c.setString("execution.checkpointing.interval", "5s");
    c.setString("execution.checkpointing.num-retained", "1");
    c.setString("restart-strategy.type", "none"); // a failure ends the run
    c.setString("state.backend.rocksdb.compression.per.level", "NO_COMPRESSION");
    c.setString("state.backend.forst.compression.per.level", "NO_COMPRESSION");
    c.setString("io.tmp.dirs", dir.resolve("tmp").toString());
    InMemoryReporter reporter = InMemoryReporter.createWithRetainedMetrics();
    reporter.addToConfiguration(c);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
    env.setParallelism(1);

    DataStream<Row> in = env.fromSource(new DataGeneratorSource<>(new Gen(keys, perSlice), n,
            RateLimiterStrategy.noOp(), TYPE), WatermarkStrategy.noWatermarks(), "gen")
        .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forMonotonousTimestamps()
            .withTimestampAssigner((r, p) -> (Long) r.getField(1)));
    QuerySpec q = QuerySpec.builder().key("k").time("ts")
        .window(WindowSpec.time(slices * SLIDE_MS, SLIDE_MS).aggregate("mx", "max", "v")
            .aggregate("n", "count", null).aggregate("s", "sum", "v")
            .aggregate("cm", "countmin", "id", Map.of("width", width, "depth", 4)))
        .build();
    SwagWindows.aggregate(in, q, SwagFlinkOptions.defaults().withOperatorName("swag").withCacheMaxKeys(cacheKeys))
        .sinkTo(new Digest());

    GOT.clear();
    long[] peakHeap = {0};
    long[] peakSst = {0};
    long[] peakChk = {0};
    JobID[] job = {null};
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          peakSst[0] = Math.max(peakSst[0], size(dir.resolve("tmp")));
          peakChk[0] = Math.max(peakChk[0], lastCheckpointBytes(dir.resolve("chk")));
        } catch (Exception e) {
          // a file went away while the folder was walked: the next sample counts it
        }
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.setDaemon(true);
    for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((javax.management.NotificationEmitter) gc).addNotificationListener((note, hb) -> {
        if (note.getType().equals(com.sun.management.GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
          var info = com.sun.management.GarbageCollectionNotificationInfo.from(
              (javax.management.openmbean.CompositeData) note.getUserData());
          long used = 0;
          for (java.lang.management.MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
            used += u.getUsed();
          }
          synchronized (peakHeap) {
            peakHeap[0] = Math.max(peakHeap[0], used);
          }
        }
      }, null, null);
    }
    sampler.start();
    long t0 = System.nanoTime();
    JobClient client = env.executeAsync("big state " + backend);
    job[0] = client.getJobID();
    client.getJobExecutionResult().get();
    double wallS = (System.nanoTime() - t0) / 1e9;
    sampler.interrupt();
    sampler.join();
    long cold = -1;
    for (OperatorMetricGroup g : reporter.findOperatorMetricGroups(job[0], "swag")) {
      Metric m = reporter.getMetricsByGroup(g).get("swagColdRecords");
      if (m instanceof Counter counter) {
        cold = counter.getCount();
      }
    }
    long chkBytes;
    try {
      chkBytes = lastCheckpointBytes(dir.resolve("chk"));
    } catch (java.io.IOException e) {
      chkBytes = -1; // the job's end removed it meanwhile
    }

    // the oracle: per key and slide, max/count/sum of the generated records; each window of
    // `slices` slides that holds a record
    Map<String, double[]> perSlide = new HashMap<>();
    for (long i = 0; i < n; i++) {
      Row r = row(i, keys, perSlice);
      String id = r.getField(0) + "@" + Math.floorDiv((Long) r.getField(1), SLIDE_MS);
      double v = (Double) r.getField(2);
      double[] a = perSlide.computeIfAbsent(id, x -> new double[] {Double.NEGATIVE_INFINITY, 0, 0});
      a[0] = Math.max(a[0], v);
      a[1]++;
      a[2] += v;
    }
    // the state the job must keep at its largest: while slide j fills, each key keeps its slices of
    // slides j - slices .. j (the oldest until the watermark passes the end of its last window)
    long peakSlices = 0;
    for (int j = 0; j < slides; j++) {
      long live = 0;
      for (int k = 0; k < keys; k++) {
        for (int sl = Math.max(0, j - slices); sl <= j; sl++) {
          live += perSlide.containsKey(k + "@" + sl) ? 1 : 0;
        }
      }
      peakSlices = Math.max(peakSlices, live);
    }
    long stateBytes = peakSlices * width * 32L;
    int wrong = 0;
    int missing = 0;
    int expected = 0;
    for (int k = 0; k < keys; k++) {
      for (long start = -(slices - 1); start < slides; start++) {
        double mx = Double.NEGATIVE_INFINITY;
        double cnt = 0;
        double sum = 0;
        for (long sl = Math.max(0, start); sl < start + slices && sl < slides; sl++) {
          double[] a = perSlide.get(k + "@" + sl);
          if (a != null) {
            mx = Math.max(mx, a[0]);
            cnt += a[1];
            sum += a[2];
          }
        }
        if (cnt == 0) {
          continue;
        }
        expected++;
        double[] g = GOT.get(k + "@" + start * SLIDE_MS);
        if (g == null) {
          missing++;
        } else if (g[0] != mx || g[1] != cnt || g[2] != sum || g[3] != cnt) {
          wrong++;
          if (wrong <= 5) {
            System.out.printf(Locale.ROOT, "window %d@%d: got %s, want max %.0f count %.0f sum %.0f%n", k, start,
                java.util.Arrays.toString(g), mx, cnt, sum);
          }
        }
      }
    }
    long heapMax = Runtime.getRuntime().maxMemory();
    String header = "backend,keys,slices,slides,records_per_slice,partial_bytes,cache_keys,records,heap_max_bytes,"
        + "heap_peak_after_gc_bytes,peak_state_bytes,peak_local_db_bytes,peak_checkpoint_bytes,last_checkpoint_bytes,state_over_heap,wall_s,records_per_s,"
        + "cold_records,windows_expected,windows_out,windows_missing,windows_wrong";
    String line = String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%.0f,%d,%d,%d,%d,%d",
        backend, keys, slices, slides, perSlice, width * 32L, cacheKeys, n, heapMax, peakHeap[0], stateBytes, peakSst[0],
        peakChk[0], chkBytes, (double) stateBytes / heapMax, wallS, n / wallS, cold, expected, GOT.size(), missing, wrong);
    System.out.println(header);
    System.out.println(line);
    boolean exists = Files.exists(Path.of(out));
    try (PrintStream p = new PrintStream(new java.io.FileOutputStream(out, true))) {
      if (!exists) {
        p.println(header);
      }
      p.println(line);
    }
    deleteTree(dir);
    if (missing > 0 || wrong > 0 || GOT.size() != expected) {
      System.out.println("RESULTS DIFFER from the oracle");
      System.exit(1);
    }
    System.exit(0);
  }

  /** Bytes of the newest chk-N folder plus the shared files (what an incremental checkpoint references). */
  static long lastCheckpointBytes(Path chk) throws Exception {
    if (!Files.exists(chk)) {
      return -1;
    }
    long best = -1;
    Path newest = null;
    try (var jobs = Files.list(chk)) { // a folder removed meanwhile: NoSuchFileException, caught by the callers
      for (Path jobDir : jobs.toList()) {
        try (var ds = Files.list(jobDir)) {
          for (Path d : ds.toList()) {
            String name = d.getFileName().toString();
            if (name.startsWith("chk-")) {
              long id = Long.parseLong(name.substring(4));
              if (id > best) {
                best = id;
                newest = d;
              }
            }
          }
        }
        if (newest != null) {
          return size(newest) + size(jobDir.resolve("shared"));
        }
      }
    }
    return -1;
  }

  /** Bytes of the regular files under {@code p}; files that go away while it is walked are skipped. */
  static long size(Path p) throws java.io.IOException {
    long[] n = {0};
    if (!Files.exists(p)) {
      return 0;
    }
    Files.walkFileTree(p, new java.nio.file.SimpleFileVisitor<>() {
      @Override
      public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
        if (a.isRegularFile()) {
          n[0] += a.size();
        }
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path f, java.io.IOException e) {
        return java.nio.file.FileVisitResult.CONTINUE;
      }
    });
    return n[0];
  }

  static void deleteTree(Path p) throws Exception {
    try (var files = Files.walk(p)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}

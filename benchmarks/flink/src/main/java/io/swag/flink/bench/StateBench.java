package io.swag.flink.bench;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.SwagFlinkOptions;
import io.swag.flink.SwagWindows;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.types.Row;

/**
 * State benchmark of the swag operator against Flink's built-in sliding window, same job: 4 keys,
 * one record per ms per key ({@code ts} = record index / 4), {@code max(v)}, slide 1 s, windows of
 * 1 s .. {@code maxWindowS} s (10^3 .. records per key in the window), hashmap (full checkpoints) and
 * RocksDB with incremental checkpoints, a checkpoint every 1 s. The source runs free until the last
 * 40 s of event time, then a map throttles it (about 40,000 records/s) so that several checkpoints
 * fall in the steady state: the figures are the medians over those checkpoints of the bytes each one
 * added (files of its {@code chk-N} folder plus files new in {@code shared/} since the previous
 * one) and of their durations (the job's lastCheckpointDuration gauge), and the used heap after a full GC when the tail starts (the mini cluster runs in this JVM).
 * A pass-through job (same source, keyBy, a map) gives the heap floor. Then throughput with a key
 * cache far smaller than the key count.
 *
 * <p>Run: {@code make bench-flink-state} (docs/benchmarks-flink.md); arguments: output CSV, the
 * largest window in seconds (default 1000), the largest for the built-in (default 100: it pays
 * O(window/slide) per record), then flags: {@code nocache} to leave out the cache runs, {@code sql} for
 * the SQL jobs instead ({@code swag_window} against the HOP window TVF with MAX), {@code keys} for a
 * sweep of the key count (4, 1,000, 10,000 keys at a 100 s window, hashmap). Not a unit test.
 */
public final class StateBench {
  static final int KEYS = 4;
  static final long TAIL_MS = 40_000;
  static final AtomicLong TAIL_START = new AtomicLong();
  static final AtomicLong HEAP = new AtomicLong();
  /**
   * The metrics of the last environment made (checkpoint durations: the job gauges
   * lastCompletedCheckpointId and lastCheckpointDuration); one reporter per mini cluster, as a
   * reporter stops with the cluster that closes it.
   */
  static volatile org.apache.flink.runtime.testutils.InMemoryReporter reporter;

  /** Record i: key i % keys, time i / 4 ms (4 records per ms of event time, whatever the keys). */
  static final class Gen implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final int keys;

    Gen(int keys) {
      this.keys = keys;
    }

    @Override
    public Row map(Long i) {
      return Row.of(i % keys, i / 4, (double) ((i * 7919) % 10_007));
    }
  }

  /** Passes rows on; from {@code tailFrom} on, sleeps 1 ms every 40 rows and records the heap once. */
  static final class Tail extends RichMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final long tailFrom;
    private long seen;

    Tail(long tailFrom) {
      this.tailFrom = tailFrom;
    }

    @Override
    public Row map(Row r) throws Exception {
      seen++;
      if (seen == tailFrom) {
        System.gc();
        HEAP.set(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        TAIL_START.set(System.nanoTime());
      }
      if (seen > tailFrom && seen % 40 == 0) {
        Thread.sleep(1);
      }
      return r;
    }
  }

  /**
   * Watches a checkpoint folder: per completed checkpoint, its time, the bytes it added and its id;
   * and the job's checkpoint duration gauge, per checkpoint id.
   */
  static final class Watcher extends Thread {
    final Path dir;
    final List<long[]> checkpoints = new ArrayList<>(); // {nanoTime, bytes, id}
    final java.util.Map<Long, Long> durations = new java.util.concurrent.ConcurrentHashMap<>();
    volatile org.apache.flink.api.common.JobID job;
    final org.apache.flink.runtime.testutils.InMemoryReporter metrics = reporter;
    final Set<Path> seenShared = new HashSet<>();
    final Set<String> seenChk = new HashSet<>();
    volatile boolean stop;

    Watcher(Path dir) {
      this.dir = dir;
      setDaemon(true);
    }

    @Override
    public void run() {
      while (!stop) {
        try {
          sampleDuration();
          scan();
          Thread.sleep(10);
        } catch (Exception e) {
          // a file deleted while listed: try again
        }
      }
    }

    /** Records the duration of the job's last completed checkpoint under its id. */
    void sampleDuration() {
      org.apache.flink.api.common.JobID j = job;
      if (j == null) {
        return;
      }
      var id = metrics.findMetric(j, "lastCompletedCheckpointId");
      var d = metrics.findMetric(j, "lastCheckpointDuration");
      if (id.isPresent() && d.isPresent()) {
        long n = ((Number) ((org.apache.flink.metrics.Gauge<?>) id.get()).getValue()).longValue();
        long ms = ((Number) ((org.apache.flink.metrics.Gauge<?>) d.get()).getValue()).longValue();
        if (n > 0) {
          durations.put(n, ms);
        }
      }
    }

    void scan() throws IOException {
      if (!Files.isDirectory(dir)) {
        return;
      }
      try (Stream<Path> jobs = Files.list(dir)) {
        for (Path job : jobs.toList()) {
          try (Stream<Path> parts = Files.list(job)) {
            for (Path p : parts.toList()) {
              String n = p.getFileName().toString();
              if (n.startsWith("chk-") && !seenChk.contains(n) && Files.exists(p.resolve("_metadata"))) {
                long bytes = size(p);
                for (String shared : new String[] {"shared", "taskowned"}) {
                  Path s = job.resolve(shared);
                  if (Files.isDirectory(s)) {
                    try (Stream<Path> files = Files.walk(s)) {
                      for (Path f : files.filter(Files::isRegularFile).toList()) {
                        if (seenShared.add(f)) {
                          bytes += Files.size(f);
                        }
                      }
                    }
                  }
                }
                seenChk.add(n);
                synchronized (checkpoints) {
                  checkpoints.add(new long[] {System.nanoTime(), bytes, Long.parseLong(n.substring(4))});
                }
              }
            }
          }
        }
      }
    }

    static long size(Path p) throws IOException {
      try (Stream<Path> files = Files.walk(p)) {
        long n = 0;
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          n += Files.size(f);
        }
        return n;
      }
    }
  }

  static StreamExecutionEnvironment env(String backend, Path dir, long intervalMs) {
    Configuration c = new Configuration();
    c.setString("state.backend.type", backend.startsWith("rocksdb") ? "rocksdb" : "hashmap");
    c.setString("execution.checkpointing.incremental", backend.equals("rocksdb") ? "true" : "false");
    if (intervalMs > 0) {
      c.setString("execution.checkpointing.dir", dir.toUri().toString());
      c.setString("execution.checkpointing.interval", intervalMs + "ms");
    }
    reporter = org.apache.flink.runtime.testutils.InMemoryReporter.createWithRetainedMetrics();
    reporter.addToConfiguration(c);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
    env.setParallelism(1);
    env.getConfig().enableObjectReuse();
    return env;
  }

  static DataStream<Row> source(StreamExecutionEnvironment env, long n, int keys, long tailFrom) {
    DataStream<Row> s = env.fromSource(new DataGeneratorSource<>(new Gen(keys), n, RateLimiterStrategy.noOp(),
        FlinkBench.TYPE), WatermarkStrategy.noWatermarks(), "gen");
    if (tailFrom > 0) {
      s = s.map(new Tail(tailFrom)).returns(FlinkBench.TYPE);
    }
    return s.assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forMonotonousTimestamps()
        .withTimestampAssigner((r, p) -> (Long) r.getField(1)));
  }

  static void job(StreamExecutionEnvironment env, DataStream<Row> in, String engine, long sizeMs, long slideMs,
      int cacheKeys) {
    if (engine.equals("swag")) {
      QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
          .window(WindowSpec.time(sizeMs, slideMs).aggregate("mx", "max", "v")).build();
      SwagWindows.aggregate(in, q, SwagFlinkOptions.defaults().withCacheMaxKeys(cacheKeys))
          .sinkTo(new DiscardingSink<>());
    } else if (engine.equals("builtin")) {
      in.keyBy(r -> (Long) r.getField(0), Types.LONG)
          .window(SlidingEventTimeWindows.of(Duration.ofMillis(sizeMs), Duration.ofMillis(slideMs)))
          .aggregate(new FlinkBench.MaxAgg(), new FlinkBench.EmitWindow(),
              org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO,
              FlinkBench.ROW_OUT)
          .sinkTo(new DiscardingSink<>());
    } else if (engine.equals("swag_window") || engine.equals("hop")) {
      sql(env, in, engine, sizeMs, slideMs, cacheKeys);
    } else { // pass-through: keyBy and a map
      in.keyBy(r -> (Long) r.getField(0), Types.LONG).map(r -> r).returns(FlinkBench.TYPE)
          .sinkTo(new DiscardingSink<>());
    }
  }

  /**
   * The SQL jobs: {@code swag_window} (the process table function, in-order max) or Flink SQL's HOP
   * window TVF with MAX, on the same stream as a table with the stream's watermarks; results discarded.
   */
  static void sql(StreamExecutionEnvironment env, DataStream<Row> in, String engine, long sizeMs, long slideMs,
      int cacheKeys) {
    org.apache.flink.table.api.bridge.java.StreamTableEnvironment tEnv =
        org.apache.flink.table.api.bridge.java.StreamTableEnvironment.create(env);
    tEnv.getConfig().set(org.apache.flink.configuration.PipelineOptions.GLOBAL_JOB_PARAMETERS,
        java.util.Map.of(io.swag.flink.table.SwagWindowFunction.CACHE_PARAM, Integer.toString(cacheKeys)));
    io.swag.flink.table.SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", tEnv.fromDataStream(in, org.apache.flink.table.api.Schema.newBuilder()
        .column("k", "BIGINT").column("ts", "BIGINT").column("v", "DOUBLE")
        .columnByMetadata("rt", org.apache.flink.table.api.DataTypes.TIMESTAMP_LTZ(3), "rowtime").watermark("rt", "SOURCE_WATERMARK()").build()));
    String q;
    if (engine.equals("swag_window")) {
      String spec = QuerySpec.builder().order("in_order")
          .window(WindowSpec.time(sizeMs, slideMs).aggregate("mx", "max", "v")).build().toJson();
      q = "SELECT k, window_end, mx FROM swag_window(input => TABLE t PARTITION BY k, "
          + "on_time => DESCRIPTOR(rt), query => '" + spec + "')";
    } else {
      q = "SELECT k, window_end, MAX(v) FROM TABLE(HOP(TABLE t, DESCRIPTOR(rt), INTERVAL '" + slideMs / 1000.0
          + "' SECOND(6), INTERVAL '" + sizeMs / 1000.0 + "' SECOND(6))) GROUP BY k, window_start, window_end";
    }
    tEnv.toDataStream(tEnv.sqlQuery(q)).sinkTo(new DiscardingSink<>());
  }

  /**
   * One job of {@code engine} on {@code backend}: {@code keys} keys, window {@code sizeMs} / slide 1 s,
   * {@code n} records, the throttled tail from record {@code tailFrom}, a checkpoint every second into
   * {@code dir}; returns the CSV line after {@code prefix}, printed with the job's wall time.
   */
  static String measure(String prefix, String engine, String backend, long sizeMs, int keys, long n, long tailFrom,
      Path dir) throws Exception {
    StreamExecutionEnvironment env = env(backend, dir, 1000);
    job(env, source(env, n, keys, tailFrom), engine, sizeMs, 1000, 100_000);
    Watcher watch = new Watcher(dir);
    watch.start();
    HEAP.set(0);
    TAIL_START.set(Long.MAX_VALUE);
    long t0 = System.nanoTime();
    org.apache.flink.core.execution.JobClient client =
        env.executeAsync("state " + engine + " " + backend + " " + sizeMs + " ms, " + keys + " keys");
    watch.job = client.getJobID();
    JobExecutionResult r = client.getJobExecutionResult().get();
    watch.stop = true;
    watch.join();
    watch.scan();
    watch.sampleDuration();
    long tail = TAIL_START.get();
    List<Long> bytes = new ArrayList<>();
    List<Long> ms = new ArrayList<>();
    synchronized (watch.checkpoints) {
      for (long[] c : watch.checkpoints) {
        if (c[0] > tail) {
          bytes.add(c[1]);
          Long d = watch.durations.get(c[2]);
          if (d != null) {
            ms.add(d);
          }
        }
      }
    }
    long max = bytes.stream().mapToLong(Long::longValue).max().orElse(-1);
    String l = String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%d,%.0f,%d,%d", prefix, engine, backend,
        bytes.size(), median(bytes), max, HEAP.get(), n * 1000.0 / Math.max(1, r.getNetRuntime()), median(ms),
        ms.stream().mapToLong(Long::longValue).max().orElse(-1));
    System.out.println(l + "   (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
    return l;
  }

  static long median(List<Long> xs) {
    if (xs.isEmpty()) {
      return -1;
    }
    List<Long> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }

  /**
   * Runs the benchmark and writes its CSV.
   *
   * @param args the CSV path, the largest window in s, the largest for the built-in window, then flags
   *     ({@code nocache}, {@code sql}, ...)
   * @throws Exception if a job fails
   */
  public static void main(String[] args) throws Exception {
    String out = args.length > 0 ? args[0] : "target/bench-flink-state.csv";
    long maxWindowS = args.length > 1 ? Long.parseLong(args[1]) : 1000;
    long builtinMaxWindowS = args.length > 2 ? Long.parseLong(args[2]) : 100;
    List<String> flags = List.of(args).subList(Math.min(3, args.length), args.length);
    boolean cacheRuns = !flags.contains("nocache");
    // sql: the SQL process table function against SQL's HOP windows, instead of the DataStream jobs
    String[] engines = flags.contains("sql") ? new String[] {"swag_window", "hop"}
        : new String[] {"swag", "builtin", "passthrough"};
    List<String> lines = new ArrayList<>();
    lines.add("bench,window_s,records_per_key_in_window,engine,backend,checkpoints_in_tail,median_bytes_per_checkpoint,"
        + "max_bytes_per_checkpoint,heap_bytes_at_tail,records_per_s,median_checkpoint_ms,max_checkpoint_ms");
    PrintStream o = System.out;
    Path root = Files.createTempDirectory("swag-state-bench");
    // warm-up
    for (String engine : new String[] {engines[0], engines[1]}) {
      StreamExecutionEnvironment env = env("hashmap", root, 0);
      job(env, source(env, 400_000, KEYS, 0), engine, 10_000, 1_000, 100_000);
      env.execute("warm-up " + engine);
    }
    for (long w = 1; w <= maxWindowS; w *= 10) {
      long sizeMs = w * 1000;
      long n = KEYS * (sizeMs + 2 * TAIL_MS);
      long tailFrom = n - KEYS * TAIL_MS;
      for (String backend : new String[] {"hashmap", "rocksdb"}) {
        for (String engine : engines) {
          if (engine.equals("passthrough") && (w > 1 || backend.equals("rocksdb"))) {
            continue; // the heap floor, once
          }
          if (!engine.startsWith("swag") && w > builtinMaxWindowS) {
            continue; // O(window/slide) per record: 1,000 s would take about 12 minutes
          }
          String l = measure("state," + w + "," + sizeMs, engine, backend, sizeMs, KEYS, n, tailFrom,
              root.resolve(engine + "-" + backend + "-" + w));
          lines.add(l);
          Files.write(Path.of(out), lines);
        }
      }
    }
    // keys: heap and checkpoint bytes against the key count at a 100 s window (the same 4 records per
    // ms spread over more keys), hashmap (its state is on the heap too)
    for (int keys : flags.contains("keys") ? new int[] {4, 1_000, 10_000} : new int[0]) {
      long sizeMs = 100_000;
      long n = KEYS * (sizeMs + 2 * TAIL_MS);
      for (String engine : new String[] {engines[0], engines[1]}) {
        lines.add(measure("keys=" + keys + ",100," + KEYS * sizeMs / keys, engine, "hashmap", sizeMs, keys, n,
            n - KEYS * TAIL_MS, root.resolve(engine + "-keys-" + keys)));
        Files.write(Path.of(out), lines);
      }
    }
    // throughput with a key cache far smaller than the key count: 10,000 keys (a record per key every
    // 2.5 s of event time), 10 s / 1 s windows, 1,000 s of event time
    int keys = 10_000;
    long n = 4_000_000;
    for (String backend : cacheRuns ? new String[] {"hashmap", "rocksdb"} : new String[0]) {
      for (int cache : new int[] {100_000, 1_000, 100}) {
        StreamExecutionEnvironment env = env(backend, root.resolve("cache-" + backend + "-" + cache), 0);
        job(env, source(env, n, keys, 0), engines[0], 10_000, 1_000, cache);
        JobExecutionResult r = env.execute("cache " + cache + " " + backend);
        String l = String.format(Locale.ROOT, "cache,10,4,%s-cache-%d,%s,0,0,0,0,%.0f,-1,-1", engines[0], cache, backend, n * 1000.0 / Math.max(1, r.getNetRuntime()));
        lines.add(l);
        o.println(l);
        Files.write(Path.of(out), lines);
      }
      StreamExecutionEnvironment env = env(backend, root, 0);
      job(env, source(env, n, keys, 0), engines[1], 10_000, 1_000, 100_000);
      JobExecutionResult r = env.execute("cache " + engines[1] + " " + backend);
      String l = String.format(Locale.ROOT, "cache,10,4,%s,%s,0,0,0,0,%.0f,-1,-1", engines[1], backend,
          n * 1000.0 / Math.max(1, r.getNetRuntime()));
      lines.add(l);
      o.println(l);
    }
    Files.write(Path.of(out), lines);
    o.println("wrote " + out);
  }
}

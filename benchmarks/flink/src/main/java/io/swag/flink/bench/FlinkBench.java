package io.swag.flink.bench;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.SwagWindows;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.streaming.api.functions.windowing.WindowFunction;
import org.apache.flink.streaming.api.windowing.windows.GlobalWindow;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Throughput harness (records/s) for the swag Flink operator against Flink's built-in sliding
 * window ({@code window(SlidingEventTimeWindows).aggregate(max)}, or {@code countWindow(n, 1)})
 * and Flink SQL HOP (window TVF), with the same job graph shape: a generator source (parallelism 1,
 * no rate limit), timestamps and watermarks, the window operator (parallelism 1), a discarding sink.
 * Records/s = records / job net runtime. Run: {@code make bench-flink} (see docs/benchmarks-flink.md);
 * arguments: {@code full}, {@code quick} (smaller inputs), {@code repeat} (window/slide 1 and 10 only,
 * 5 alternating rounds per engine), {@code ratios} (swag alone at every window/slide, 3 rounds), {@code ceiling} (swag, a
 * pass-through keyed operator, the job graph's ceiling, and Flink's own keyed {@code reduce}, alternating at each window/slide; then the
 * rounds and the ratios, e.g. {@code ceiling out.csv 3 1,10}) or {@code smoke} (tiny inputs, checks that every job runs; its
 * figures mean nothing), output CSV path (default target/bench-flink.csv).
 *
 * <p>Not a unit test: a main class in the test sources so that it sees the test-scope Flink runtime.
 */
public final class FlinkBench {
  static final RowTypeInfo TYPE = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v"},
      Types.LONG, Types.LONG, Types.DOUBLE);
  static final int KEYS = 16;
  static final RowTypeInfo ROW_OUT = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "window_start", "window_end", "mx"},
      Types.LONG, Types.LONG, Types.LONG, Types.DOUBLE);
  static final RowTypeInfo COUNT_OUT = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "mx"}, Types.LONG, Types.DOUBLE);

  private FlinkBench() {}

  /** Row i: key i % keys, time i ms (displaced back by up to {@code disorder} ms), value pseudo-random. */
  static final class Gen implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    final long disorder;
    final long keys;

    Gen(long disorder, long keys) {
      this.disorder = disorder;
      this.keys = keys;
    }

    @Override
    public Row map(Long i) {
      long h = i * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
      long t = i - (disorder > 0 ? Math.floorMod(h, disorder + 1) : 0);
      return Row.of(i % keys, t, (double) Math.floorMod(h >>> 7, 1000));
    }
  }

  static StreamExecutionEnvironment env() {
    Configuration c = new Configuration();
    c.setString("state.backend.type", "hashmap");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
    env.setParallelism(1);
    env.getConfig().enableObjectReuse();
    return env;
  }

  static DataStream<Row> source(StreamExecutionEnvironment env, long n, long disorder) {
    return source(env, n, disorder, KEYS);
  }

  /** {@link #source} over {@code keys} keys. */
  static DataStream<Row> source(StreamExecutionEnvironment env, long n, long disorder, long keys) {
    WatermarkStrategy<Row> wm = (disorder > 0
        ? WatermarkStrategy.<Row>forBoundedOutOfOrderness(Duration.ofMillis(disorder))
        : WatermarkStrategy.<Row>forMonotonousTimestamps())
        .withTimestampAssigner((r, p) -> (Long) r.getField(1));
    return env.fromSource(new DataGeneratorSource<>(new Gen(disorder, keys), n, RateLimiterStrategy.noOp(), TYPE), wm, "gen");
  }

  /** Max over a double, the non-invertible case of the paper. */
  static final class MaxAgg implements AggregateFunction<Row, double[], Double> {
    private static final long serialVersionUID = 1L;

    @Override
    public double[] createAccumulator() {
      return new double[] {Double.NEGATIVE_INFINITY};
    }

    @Override
    public double[] add(Row r, double[] a) {
      a[0] = Math.max(a[0], (Double) r.getField(2));
      return a;
    }

    @Override
    public Double getResult(double[] a) {
      return a[0];
    }

    @Override
    public double[] merge(double[] a, double[] b) {
      a[0] = Math.max(a[0], b[0]);
      return a;
    }
  }

  /** The built-in's result row: key, window start, window end, max (what swag's rows carry). */
  static final class EmitWindow implements WindowFunction<Double, Row, Long, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void apply(Long key, TimeWindow w, Iterable<Double> max, Collector<Row> out) {
      out.collect(Row.of(key, w.getStart(), w.getEnd(), max.iterator().next()));
    }
  }

  /** The built-in count window's result row: key, max. */
  static final class EmitCount implements WindowFunction<Double, Row, Long, GlobalWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void apply(Long key, GlobalWindow w, Iterable<Double> max, Collector<Row> out) {
      out.collect(Row.of(key, max.iterator().next()));
    }
  }

  /** Records of the small job that prices a job's fixed cost in {@code ceiling} mode. */
  static final long STARTUP_RECORDS = 20_000;

  static double run(StreamExecutionEnvironment env, long n, String name) throws Exception {
    ThreadCpu.start();
    JobExecutionResult r = env.execute(name);
    ThreadCpu.stop(n);
    return n * 1000.0 / Math.max(1, r.getNetRuntime());
  }

  /**
   * CPU time per record of a job's two tasks, from the JVM's per-thread CPU clocks: the source task
   * ({@code Source: gen ...}: generator, timestamps, serialization) and the keyed operator's task
   * (deserialization, the operator, the chained sink). A daemon thread reads every live thread's
   * CPU time every {@value #PERIOD_MS} ms while the job runs and keeps each task thread's last
   * reading, so a task's last period (at most {@value #PERIOD_MS} ms) is not counted. Unlike
   * records/s, these do not count the time a thread waits for a core on a shared machine.
   */
  static final class ThreadCpu {
    static final long PERIOD_MS = 10;
    private static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final java.util.Map<Long, long[]> LAST = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<Long, String> NAMES = new java.util.concurrent.ConcurrentHashMap<>();
    private static volatile boolean running;
    private static Thread sampler;
    /** The last job's CPU ns per record: source task, operator task. */
    static double sourceNs;
    static double operatorNs;

    static void start() {
      LAST.clear();
      NAMES.clear();
      running = true;
      sampler = new Thread(() -> {
        while (running) {
          sample();
          try {
            Thread.sleep(PERIOD_MS);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "bench-thread-cpu");
      sampler.setDaemon(true);
      sampler.start();
    }

    private static void sample() {
      for (java.lang.management.ThreadInfo t : MX.getThreadInfo(MX.getAllThreadIds())) {
        if (t == null || !t.getThreadName().contains("(1/1)#")) {
          continue;
        }
        long cpu = MX.getThreadCpuTime(t.getThreadId());
        if (cpu > 0) {
          LAST.computeIfAbsent(t.getThreadId(), k -> new long[1])[0] = cpu;
          NAMES.putIfAbsent(t.getThreadId(), t.getThreadName());
        }
      }
    }

    static void stop(long n) throws InterruptedException {
      running = false;
      sampler.join();
      long source = 0;
      long operator = 0;
      for (var e : LAST.entrySet()) {
        if (NAMES.get(e.getKey()).startsWith("Source: gen")) {
          source += e.getValue()[0];
        } else {
          operator += e.getValue()[0];
        }
      }
      sourceNs = source / (double) n;
      operatorNs = operator / (double) n;
    }
  }

  static double swagTime(long n, long size, long slide, long disorder) throws Exception {
    return swagTime(n, size, slide, disorder, KEYS);
  }

  /** {@link #swagTime} over {@code keys} keys (one record per key and slide when {@code slide} is {@code keys}). */
  static double swagTime(long n, long size, long slide, long disorder, long keys) throws Exception {
    StreamExecutionEnvironment env = env();
    QuerySpec q = QuerySpec.builder().key("k").time("ts")
        .order(disorder > 0 ? "out_of_order" : "in_order")
        .window(WindowSpec.time(size, slide).aggregate("mx", "max", "v")).build();
    SwagWindows.aggregate(source(env, n, disorder, keys), q).sinkTo(new DiscardingSink<>());
    return run(env, n, "swag time " + size + "/" + slide);
  }

  /**
   * The ceiling of the job graph: the same source, timestamps and {@code keyBy(k)} (a {@code BIGINT}
   * key, or with {@code rowKey} a one-column {@code Row}, as swag keys by under {@code key_layout} {@code row}), then a keyed operator that forwards every record (one row out per record, as swag emits at
   * every window/slide of this benchmark: one row per key and slide), then the sink.
   */
  static double passthrough(long n, long size, boolean rowKey) throws Exception {
    StreamExecutionEnvironment env = env();
    DataStream<Row> in = source(env, n, 0);
    (rowKey ? in.keyBy(new RowKey(), new RowTypeInfo(Types.LONG)) : in.keyBy(r -> (Long) r.getField(0), Types.LONG))
        .transform("passthrough", TYPE, new PassThrough()).sinkTo(new DiscardingSink<>());
    return run(env, n, "passthrough " + size + (rowKey ? " row key" : ""));
  }

  /**
   * Flink's own simplest stateful keyed operator in the same job graph: {@code keyBy(k).reduce} keeping
   * the running max of {@code v} per key in keyed {@code ValueState} (one state read and write per record, one
   * row out per record, no allocation in the reducer). What a keyed operator with per-record state reaches
   * against the pass-through, which keeps none.
   */
  static double keyedReduce(long n, long size) throws Exception {
    StreamExecutionEnvironment env = env();
    source(env, n, 0).keyBy(r -> (Long) r.getField(0), Types.LONG)
        .reduce((a, b) -> (Double) b.getField(2) > (Double) a.getField(2) ? b : a).returns(TYPE)
        .sinkTo(new DiscardingSink<>());
    return run(env, n, "keyed reduce " + size);
  }

  /** The key as swag's operator keys it under {@code key_layout} {@code row}: a {@code Row} of the key columns (here one, {@code k}). */
  static final class RowKey implements org.apache.flink.api.java.functions.KeySelector<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row getKey(Row in) {
      Row k = new Row(1);
      k.setField(0, in.getField(0));
      return k;
    }
  }

  /** A keyed operator that does nothing but forward each record (Flink still sets the key per record). */
  static final class PassThrough extends AbstractStreamOperator<Row> implements OneInputStreamOperator<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<Row> element) {
      output.collect(element);
    }
  }

  static double builtinTime(long n, long size, long slide, long disorder) throws Exception {
    StreamExecutionEnvironment env = env();
    source(env, n, disorder).keyBy(r -> (Long) r.getField(0), Types.LONG)
        .window(SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide)))
        .aggregate(new MaxAgg(), new EmitWindow(), org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO, ROW_OUT).sinkTo(new DiscardingSink<>());
    return run(env, n, "builtin time " + size + "/" + slide);
  }

  static double sqlHop(long n, long size, long slide, long disorder) throws Exception {
    StreamExecutionEnvironment env = env();
    return sqlHopOn(env, source(env, n, disorder), n, size, slide, "sql hop " + size + "/" + slide);
  }

  /** Flink SQL HOP window TVF, max(v) per (k, window), over a stream of (k, ts, v) with watermarks. */
  static double sqlHopOn(StreamExecutionEnvironment env, DataStream<Row> stream, long n, long size, long slide, String name)
      throws Exception {
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    Table in = t.fromDataStream(stream, Schema.newBuilder()
        .column("k", "BIGINT").column("ts", "BIGINT").column("v", "DOUBLE")
        .columnByMetadata("rt", org.apache.flink.table.api.DataTypes.TIMESTAMP_LTZ(3), "rowtime").watermark("rt", "SOURCE_WATERMARK()").build());
    t.createTemporaryView("t", in);
    Table res = t.sqlQuery("SELECT k, window_start, window_end, MAX(v) FROM TABLE(HOP(TABLE t, DESCRIPTOR(rt), "
        + interval(slide) + ", " + interval(size) + ")) GROUP BY k, window_start, window_end");
    t.toDataStream(res).sinkTo(new DiscardingSink<>());
    return run(env, n, name);
  }

  /** A SQL day-time interval of {@code ms} milliseconds. */
  static String interval(long ms) {
    return String.format(Locale.ROOT, "INTERVAL '%d.%03d' SECOND(9)", ms / 1000, ms % 1000);
  }

  static double swagCount(long n, long size) throws Exception {
    StreamExecutionEnvironment env = env();
    QuerySpec q = QuerySpec.builder().key("k").time("ts")
        .window(WindowSpec.count(size, 1).aggregate("mx", "max", "v")).build();
    SwagWindows.aggregate(source(env, n, 0), q).sinkTo(new DiscardingSink<>());
    return run(env, n, "swag count " + size);
  }

  static double builtinCount(long n, long size) throws Exception {
    StreamExecutionEnvironment env = env();
    source(env, n, 0).keyBy(r -> (Long) r.getField(0), Types.LONG).countWindow(size, 1)
        .aggregate(new MaxAgg(), new EmitCount(), org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO, COUNT_OUT).sinkTo(new DiscardingSink<>());
    return run(env, n, "builtin count " + size);
  }

  // ---- Citi Bike ----

  static List<Row> citibike(Path dir) throws Exception {
    List<Row> rows = new ArrayList<>();
    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    // JC-201812 has another layout: "start date" (M/d/yyyy) and "start time" (H:mm:ss) columns
    DateTimeFormatter us = DateTimeFormatter.ofPattern("M/d/yyyy H:mm:ss", Locale.ROOT);
    List<Path> files;
    long skipped = 0;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".csv.gz")).sorted().toList();
    }
    for (Path p : files) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(new FileInputStream(p.toFile())),
          StandardCharsets.UTF_8))) {
        String header = r.readLine();
        if (header == null) {
          continue;
        }
        boolean split = header.toLowerCase(Locale.ROOT).contains("start date");
        String line;
        while ((line = r.readLine()) != null) {
          String[] c = line.replace("\"", "").split(",", -1);
          try {
            LocalDateTime start = split ? LocalDateTime.parse(c[3] + " " + c[4], us)
                : LocalDateTime.parse(c[1].substring(0, 19).replace('T', ' '), f);
            long t = start.toInstant(ZoneOffset.UTC).toEpochMilli();
            rows.add(Row.of(Long.parseLong(c[split ? 7 : 3]), t, Double.parseDouble(c[0])));
          } catch (RuntimeException e) {
            skipped++; // counted and reported below
          }
        }
      }
    }
    rows.sort((a, b) -> Long.compare((Long) a.getField(1), (Long) b.getField(1)));
    System.out.println("citibike: " + rows.size() + " trips from " + files.size() + " files, " + skipped + " lines skipped");
    return rows;
  }

  static DataStream<Row> bikes(StreamExecutionEnvironment env, List<Row> rows) {
    return env.fromData(rows, TYPE).assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forMonotonousTimestamps()
        .withTimestampAssigner((r, p) -> (Long) r.getField(1)));
  }

  static double swagBikes(List<Row> rows, long size, long slide) throws Exception {
    StreamExecutionEnvironment env = env();
    QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
        .window(WindowSpec.time(size, slide).aggregate("mx", "max", "v")).build();
    SwagWindows.aggregate(bikes(env, rows), q).sinkTo(new DiscardingSink<>());
    return run(env, rows.size(), "swag citibike");
  }

  static double sqlHopBikes(List<Row> rows, long size, long slide) throws Exception {
    StreamExecutionEnvironment env = env();
    return sqlHopOn(env, bikes(env, rows), rows.size(), size, slide, "sql hop citibike");
  }

  static double builtinBikes(List<Row> rows, long size, long slide) throws Exception {
    StreamExecutionEnvironment env = env();
    bikes(env, rows).keyBy(r -> (Long) r.getField(0), Types.LONG)
        .window(SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide)))
        .aggregate(new MaxAgg(), new EmitWindow(), org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO, ROW_OUT).sinkTo(new DiscardingSink<>());
    return run(env, rows.size(), "builtin citibike");
  }

  /**
   * Runs the benchmark and writes its CSV.
   *
   * @param args the mode ({@code full}, {@code quick}, {@code smoke}, ...), the CSV path, then the
   *     mode's own arguments
   * @throws Exception if a job fails
   */
  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "full";
    boolean smoke = mode.equals("smoke");
    boolean quick = mode.equals("quick") || smoke;
    String outPath = args.length > 1 ? args[1] : "target/bench-flink.csv";
    long base = Long.getLong("swag.bench.records", smoke ? 20_000 : quick ? 200_000 : 2_000_000); // records per job
    long minBuiltin = smoke ? 2_000 : 20_000;
    List<String> lines = new ArrayList<>();
    lines.add("benchmark,param,engine,records,records_per_s");
    PrintStream o = System.out;
    // warm-up (JIT, mini cluster start)
    swagTime(base / 4, 160, 16, 0);
    builtinTime(base / 4, 160, 16, 0);
    if (mode.equals("profile")) {
      // swag at window/slide 1 (or args[2]), for a profiler (no CSV); args[3] rounds, args[4] disorder (ms, 0: in
      // order), args[5] keys (one record per key and slide)
      long ratio = args.length > 2 ? Long.parseLong(args[2]) : 1;
      int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
      long disorder = args.length > 4 ? Long.parseLong(args[4]) : 0;
      long keys = args.length > 5 ? Long.parseLong(args[5]) : KEYS;
      for (int i = 0; i < rounds; i++) {
        double rps = swagTime(base, ratio * keys, keys, disorder, keys);
        o.printf("swag window/slide %d: %.0f records/s, operator task %.0f CPU ns per record, source task %.0f%n", ratio,
            rps, ThreadCpu.operatorNs, ThreadCpu.sourceNs);
      }
      return;
    }
    if (mode.equals("ratios")) {
      // swag alone at every window/slide, 3 rounds (to compare two builds of swag in one sitting)
      for (int round = 0; round < 3; round++) {
        for (long ratio : new long[] {1, 10, 100, 1000, 8192}) {
          add(lines, o, "time_window_swag", ratio, "swag", base, swagTime(base, ratio * KEYS, KEYS, 0));
        }
      }
      Files.write(Path.of(outPath), lines);
      o.println("wrote " + outPath);
      return;
    }
    if (mode.equals("ceiling")) {
      // swag against the pass-through ceiling at each window/slide, alternating which goes first;
      // args: rounds (default 3), window/slide ratios (default 1,10,100,1000,8192)
      int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
      long[] ratios = args.length > 3 ? java.util.Arrays.stream(args[3].split(",")).mapToLong(Long::parseLong).toArray()
          : new long[] {1, 10, 100, 1000, 8192};
      // every engine warmed up at every window/slide (a window fires per record at 1, per thousand at 1,000:
      // other branches for the JIT), so that each measured job runs compiled code
      for (long ratio : ratios) {
        swagTime(base / 4, ratio * KEYS, KEYS, 0);
        passthrough(base / 4, ratio * KEYS, false);
        passthrough(base / 4, ratio * KEYS, true);
        keyedReduce(base / 4, ratio * KEYS);
      }
      String[] engines = {"swag", "passthrough", "passthrough_rowkey", "keyed_reduce"};
      lines.set(0, "benchmark,param,engine,records,records_per_s,source_cpu_ns_per_record,operator_cpu_ns_per_record");
      // each measured job is followed by the same job on STARTUP_RECORDS records: the job's fixed cost (deployment,
      // start and end of the tasks, a few records), which the net runtime of the measured job includes
      for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < ratios.length; i++) {
          long size = ratios[i] * KEYS;
          for (int e = 0; e < engines.length; e++) {
            String engine = engines[(round + i + e) % engines.length];
            for (long n : new long[] {base, STARTUP_RECORDS}) {
              double rps = switch (engine) {
                case "swag" -> swagTime(n, size, KEYS, 0);
                case "passthrough" -> passthrough(n, size, false);
                case "keyed_reduce" -> keyedReduce(n, size);
                default -> passthrough(n, size, true);
              };
              add(lines, o, n == base ? "time_window_ceiling" : "time_window_ceiling_startup", ratios[i], engine, n, rps,
                  ThreadCpu.sourceNs, ThreadCpu.operatorNs);
            }
          }
        }
      }
      Files.write(Path.of(outPath), lines);
      o.println("wrote " + outPath);
      return;
    }
    if (mode.equals("repeat")) {
      // the small ratios, where the two are close: 5 rounds each, alternating which engine goes first
      for (long ratio : new long[] {1, 10}) {
        for (int round = 0; round < 5; round++) {
          for (int e = 0; e < 2; e++) {
            boolean swag = (round + e) % 2 == 0;
            long size = ratio * KEYS;
            add(lines, o, "time_window_repeat", ratio, swag ? "swag" : "builtin", base,
                swag ? swagTime(base, size, KEYS, 0) : builtinTime(base, size, KEYS, 0));
          }
        }
      }
      Files.write(Path.of(outPath), lines);
      o.println("wrote " + outPath);
      return;
    }

    long slide = KEYS; // one record per key per slide
    for (long ratio : new long[] {1, 10, 100, 1000, 8192}) {
      long size = ratio * slide;
      long nSwag = base;
      // the built-ins pay O(ratio) per record: fewer records keep each run to seconds
      long nBuiltin = Math.max(minBuiltin, Math.min(base, base * 10 / ratio));
      add(lines, o, "time_window", ratio, "swag", nSwag, swagTime(nSwag, size, slide, 0));
      add(lines, o, "time_window", ratio, "builtin", nBuiltin, builtinTime(nBuiltin, size, slide, 0));
      long nSql = ratio >= 8192 ? minBuiltin / 4 : nBuiltin; // HOP merges 8,192 slices per window: minutes otherwise
      add(lines, o, "time_window", ratio, "sql_hop", nSql, sqlHop(nSql, size, slide, 0));
    }
    for (long d : new long[] {0, 10, 100, 1000, 10_000}) {
      long size = 1000 * slide;
      add(lines, o, "out_of_order", d, "swag", base, swagTime(base, size, slide, d));
      long nb = Math.max(minBuiltin, base / 100);
      add(lines, o, "out_of_order", d, "builtin", nb, builtinTime(nb, size, slide, d));
      add(lines, o, "out_of_order", d, "sql_hop", nb, sqlHop(nb, size, slide, d));
    }
    long nCount = base;
    add(lines, o, "count_window_8192_slide_1", 8192, "swag", nCount, swagCount(nCount, 8192));
    long nbCount = smoke ? 2_000 : quick ? 20_000 : 50_000;
    add(lines, o, "count_window_8192_slide_1", 8192, "builtin", nbCount, builtinCount(nbCount, 8192));

    Path bikesDir = Path.of(System.getProperty("swag.citibike", "../../../shared/data/citibike"));
    if (Files.isDirectory(bikesDir)) {
      List<Row> all = citibike(bikesDir);
      // per start station: max trip duration over the last 24 h, every minute (ratio 1440), on the
      // first trips (both engines the same rows: the built-in needs minutes for all of them) ...
      List<Row> rows = all.subList(0, Math.min(all.size(), smoke ? 20_000 : 40_000));
      add(lines, o, "citibike_24h_1min", rows.size(), "swag", rows.size(), swagBikes(rows, 86_400_000, 60_000));
      add(lines, o, "citibike_24h_1min", rows.size(), "builtin", rows.size(), builtinBikes(rows, 86_400_000, 60_000));
      // HOP merges 1,440 slices per window and station: about 200 trips/s, so it gets the first 10,000
      List<Row> hopRows = rows.subList(0, Math.min(rows.size(), smoke ? 5_000 : 10_000));
      add(lines, o, "citibike_24h_1min", hopRows.size(), "sql_hop", hopRows.size(), sqlHopBikes(hopRows, 86_400_000, 60_000));
      // ... and swag on all trips
      add(lines, o, "citibike_24h_1min_all", all.size(), "swag", all.size(), swagBikes(all, 86_400_000, 60_000));
    } else {
      o.println("no Citi Bike data at " + bikesDir.toAbsolutePath() + " (set -Dswag.citibike=DIR)");
    }
    Files.write(Path.of(outPath), lines);
    o.println("wrote " + outPath);
  }

  private static void add(List<String> lines, PrintStream o, String bench, long param, String engine, long n, double rps,
      double sourceNs, double operatorNs) {
    String l = bench + "," + param + "," + engine + "," + n + "," + String.format(Locale.ROOT, "%.0f,%.1f,%.1f", rps,
        sourceNs, operatorNs);
    lines.add(l);
    o.println(l);
  }

  private static void add(List<String> lines, PrintStream o, String bench, long param, String engine, long n, double rps) {
    String l = bench + "," + param + "," + engine + "," + n + "," + String.format(Locale.ROOT, "%.0f", rps);
    lines.add(l);
    o.println(l);
  }
}

package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential: swag's OVER aggregates with retraction equal Flink's built-in OVER aggregates
 * (MAX, MIN, SUM, FIRST_VALUE, LAST_VALUE, STDDEV_SAMP, COUNT(DISTINCT) against swag's HLL sketch)
 * on the same frames, ROWS and RANGE (event time; and processing time on rocksdb), on the hashmap,
 * rocksdb and forst state backends, on seeded
 * random rows (in-order times with ties, integer values so ties and exact sums happen), row by
 * row; the accumulator's map view is state-backed on every backend; and a job that fails after a
 * checkpoint and restores from it gives the failure-free output.
 */
class OverFunctionsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final RowTypeInfo TYPE = new RowTypeInfo(new TypeInformation<?>[] {
      Types.STRING, Types.INSTANT, Types.DOUBLE, Types.LONG, Types.LONG}, new String[] {"k", "ts", "v", "c", "id"});

  /** The class of every accumulator view {@code probe_max} saw (the mini cluster runs in this JVM). */
  static final Set<String> VIEWS = ConcurrentHashMap.newKeySet();

  /** {@code swag_max} that also records the class of its accumulator's map view. */
  public static final class ProbeMax extends SwagOverFunction.OfDouble {
    private static final long serialVersionUID = 1L;

    public ProbeMax() {
      super("max");
    }

    @Override
    public Double getValue(OverAccumulator acc) {
      VIEWS.add(acc.slotsView().getClass().getName());
      return super.getValue(acc);
    }
  }

  static Row row(Random r, long t, long id) {
    Double v = r.nextInt(20) == 0 ? null : (double) r.nextInt(50);
    return Row.of("k" + r.nextInt(4), Instant.ofEpochMilli(t), v, (long) r.nextInt(30), id);
  }

  static List<Row> rows(long seed, int n) {
    Random r = new Random(seed);
    List<Row> out = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < n; i++) {
      t += 100L * r.nextInt(4);
      out.add(row(r, t, i));
    }
    return out;
  }

  static final String COLUMNS = "MAX(v) OVER w, swag_max(v) OVER w, MIN(v) OVER w, swag_min(v) OVER w, "
      + "SUM(v) OVER w, swag_sum(v) OVER w, "
      + "FIRST_VALUE(v) OVER w, swag_first(v) OVER w, LAST_VALUE(v) OVER w, swag_last(v) OVER w, "
      + "STDDEV_SAMP(v) OVER w, swag_stddev(v) OVER w, "
      + "CAST(COUNT(DISTINCT c) OVER w AS BIGINT), swag_distinct_count(c) OVER w, probe_max(v) OVER w";

  static StreamTableEnvironment tableEnv(StreamExecutionEnvironment env) {
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    tEnv.createTemporarySystemFunction("probe_max", new ProbeMax());
    return tEnv;
  }

  static Table input(StreamTableEnvironment tEnv, DataStream<Row> in) {
    return tEnv.fromDataStream(in, Schema.newBuilder()
        .column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE").column("c", "BIGINT")
        .column("id", "BIGINT").columnByExpression("pt", "PROCTIME()")
        .watermark("ts", "ts - INTERVAL '0.001' SECOND").build());
  }

  /** {@code frame} ordered by event time, or by processing time when it starts with "PROCTIME ". */
  static String query(String frame) {
    String order = frame.startsWith("PROCTIME ") ? "pt " + frame.substring(9) : "ts " + frame;
    return "SELECT id, k, " + COLUMNS + " FROM t WINDOW w AS (PARTITION BY k ORDER BY " + order + ")";
  }

  /** Rows with a non-null MAX, rows whose two stddevs were compared as numbers. */
  static final int MAX_SEEN = 1, STDDEV_COMPARED = 2;

  /** Checks one output row (id, k, then built-in / swag pairs); returns {@link #MAX_SEEN} | {@link #STDDEV_COMPARED}. */
  static int check(Row r) {
    for (int i = 2; i <= 10; i += 2) {
      assertEquals(r.getField(i), r.getField(i + 1), "column " + i + " of " + r);
    }
    assertEquals(r.getField(2), r.getField(16), "probe_max of " + r);
    Double a = (Double) r.getField(12), b = (Double) r.getField(13);
    int seen = 0;
    if (a == null || b == null) {
      // Flink gives null for a single value; swag's sample stddev of one value is 0 or NaN
      assertTrue(a == null && (b == null || b == 0.0 || b.isNaN()), "stddev of " + r);
    } else {
      assertEquals(a, b, 1e-9 * Math.max(1, Math.abs(a)), "stddev of " + r);
      seen |= STDDEV_COMPARED;
    }
    // HLL is exact for a few dozen distinct values at lgK 12
    assertEquals(r.getField(14), r.getField(15), "distinct count of " + r);
    return seen | (r.getField(2) != null ? MAX_SEEN : 0);
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    out.add(Arguments.of("hashmap", "ROWS BETWEEN 7 PRECEDING AND CURRENT ROW"));
    out.add(Arguments.of("hashmap", "RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW"));
    for (String backend : new String[] {"hashmap", "rocksdb", "forst"}) {
      // frames of about 100 rows per key: several slot chunks, flips and shrinks across them
      out.add(Arguments.of(backend, "ROWS BETWEEN 100 PRECEDING AND CURRENT ROW"));
      out.add(Arguments.of(backend, "RANGE BETWEEN INTERVAL '60' SECOND PRECEDING AND CURRENT ROW"));
    }
    // processing time: the frames depend on arrival times, but both columns of a row see the same
    out.add(Arguments.of("rocksdb", "PROCTIME ROWS BETWEEN 100 PRECEDING AND CURRENT ROW"));
    out.add(Arguments.of("rocksdb", "PROCTIME RANGE BETWEEN INTERVAL '0.05' SECOND PRECEDING AND CURRENT ROW"));
    return out.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void equalsBuiltinOver(String backend, String frame) throws Exception {
    Configuration conf = new Configuration();
    conf.setString("state.backend.type", backend);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    StreamTableEnvironment tEnv = tableEnv(env);
    boolean proctime = frame.startsWith("PROCTIME ");
    DataStream<Row> in = proctime
        // paced, so that processing-time timers keep up with the input
        ? env.fromSource(new DataGeneratorSource<>(new Gen(42, 4000), 4000, RateLimiterStrategy.perSecond(4000), TYPE),
            WatermarkStrategy.noWatermarks(), "gen")
        : env.fromData(rows(42, 4000), TYPE);
    tEnv.createTemporaryView("t", input(tEnv, in));
    VIEWS.clear();
    int n = 0;
    int nonNullMax = 0;
    int stddevCompared = 0;
    try (CloseableIterator<Row> it = tEnv.sqlQuery(query(frame)).execute().collect()) {
      while (it.hasNext()) {
        n++;
        int seen = check(it.next());
        nonNullMax += seen & MAX_SEEN;
        stddevCompared += (seen & STDDEV_COMPARED) >> 1;
      }
    }
    if (frame.startsWith("PROCTIME RANGE")) {
      // the rows of the last milliseconds wait for processing-time timers, which a finished job drops
      assertTrue(n >= 1000 && n <= 4000, "rows: " + n);
    } else {
      assertEquals(4000, n);
    }
    assertTrue(nonNullMax > n * 3 / 4, "rows with a maximum: " + nonNullMax + " of " + n);
    assertTrue(stddevCompared > n * 3 / 4, "stddev compared on " + stddevCompared + " of " + n + " rows");
    // Flink's OVER operators bind the accumulator's MapView to keyed map state on every backend
    assertEquals(1, VIEWS.size(), "view classes " + VIEWS);
    assertTrue(VIEWS.iterator().next().contains("StateMapView"), "view class " + VIEWS);
  }

  // ---- restore ----

  static final int N = 4000;
  static final AtomicBoolean FAILED = new AtomicBoolean();
  static final AtomicBoolean CHECKPOINTED = new AtomicBoolean();

  /** Row i of the seeded input (regenerated in the source, so a replay yields the same rows). */
  static final class Gen implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final long seed;
    private final int n;
    private transient List<Row> all;

    Gen(long seed, int n) {
      this.seed = seed;
      this.n = n;
    }

    @Override
    public Row map(Long i) {
      if (all == null) {
        all = rows(seed, n);
      }
      return all.get(i.intValue());
    }
  }

  /** Throws once, on the first record after a checkpoint completed past a third of the input. */
  static final class FailOnce extends RichMapFunction<Row, Row> implements CheckpointListener {
    private static final long serialVersionUID = 1L;
    private long seen;

    @Override
    public void open(OpenContext ctx) {
      seen = 0;
    }

    @Override
    public Row map(Row r) {
      seen++;
      if (seen > N / 3 && CHECKPOINTED.get() && FAILED.compareAndSet(false, true)) {
        throw new RuntimeException("injected failure (test)");
      }
      return r;
    }

    @Override
    public void notifyCheckpointComplete(long id) {
      if (seen > N / 4) {
        CHECKPOINTED.set(true);
      }
    }
  }

  static List<String> runWithRestore(String backend, boolean fail, Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.setString("state.backend.type", backend);
    conf.setString("execution.checkpointing.dir", dir.toUri().toString());
    conf.setString("execution.checkpointing.interval", "100ms");
    conf.setString("restart-strategy.type", "fixed-delay");
    conf.setString("restart-strategy.fixed-delay.attempts", "2");
    conf.setString("restart-strategy.fixed-delay.delay", "50ms");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    FAILED.set(!fail);
    CHECKPOINTED.set(false);
    DataStream<Row> in = env.fromSource(new DataGeneratorSource<>(new Gen(77, N), N, RateLimiterStrategy.perSecond(1200), TYPE),
            WatermarkStrategy.noWatermarks(), "gen").setParallelism(1)
        .map(new FailOnce()).returns(TYPE).setParallelism(1);
    StreamTableEnvironment tEnv = tableEnv(env);
    tEnv.createTemporaryView("t", input(tEnv, in));
    DataStream<Row> out = tEnv.toDataStream(tEnv.sqlQuery(query("ROWS BETWEEN 100 PRECEDING AND CURRENT ROW")));
    List<String> res = new ArrayList<>();
    try (CloseableIterator<Row> it = out.executeAndCollect("over restore " + backend + (fail ? " with failure" : ""))) {
      while (it.hasNext()) {
        Row r = it.next();
        check(r);
        res.add(format(r));
      }
    }
    if (fail) {
      assertTrue(FAILED.get(), "the failure was injected");
    }
    Collections.sort(res);
    return res;
  }

  static String format(Row r) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < r.getArity(); i++) {
      Object v = r.getField(i);
      b.append(i == 0 ? "" : ", ").append(v instanceof Double d ? String.format(Locale.ROOT, "%.10g", d) : v);
    }
    return b.toString();
  }

  private static List<String> expected;

  static synchronized List<String> expected(Path dir) throws Exception {
    if (expected == null) {
      expected = runWithRestore("hashmap", false, dir.resolve("clean"));
    }
    return expected;
  }

  @ParameterizedTest
  @ValueSource(strings = {"hashmap", "rocksdb", "forst"})
  void failureAndRestoreGiveTheFailureFreeOutput(String backend, @TempDir Path dir) throws Exception {
    List<String> want = expected(dir);
    assertEquals(N, want.size(), "one output row per input row");
    List<String> got = runWithRestore(backend, true, dir.resolve(backend));
    assertEquals(want, got);
  }
}

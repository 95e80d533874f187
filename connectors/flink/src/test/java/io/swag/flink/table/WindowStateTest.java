package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.FailOnce;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code swag_window}'s state on every backend: a job that fails once after a completed checkpoint
 * (partitions restore from their map view of entries, timers from Flink, queries from their query
 * entry) gives every window's values exactly once and right, against oracles that share no code with
 * swag:
 * <ul>
 *   <li><b>slices</b> (max, min, count, sum, hll distinct count, median: every function mergeable, so
 *       the partitions store one entry per slice) with one partition's aggregator on the heap (job
 *       parameter {@value SwagWindowFunction#CACHE_PARAM} = 1: every partition change rebuilds from
 *       state): Flink SQL's HOP window with MAX, MIN, COUNT, SUM, COUNT(DISTINCT), and the failure-free
 *       run's median;</li>
 *   <li><b>rows</b> (first, last, count: non-commutative, so the partitions store their records):
 *       first and last values by event time, computed here from the generated rows.</li>
 * </ul>
 * Rows arrive up to 50 ms out of order (distinct times), the watermark trails by 100 ms.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class WindowStateTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final int N = 3000;
  static final RowTypeInfo TYPE = new RowTypeInfo(
      new TypeInformation<?>[] {Types.STRING, Types.INSTANT, Types.DOUBLE, Types.LONG}, new String[] {"k", "ts", "v", "c"});

  /** Distinct times 10 ms apart, shuffled within blocks of 5 (so up to 40 ms out of order). */
  static List<Row> rows(long seed) {
    Random r = new Random(seed);
    List<Row> out = new ArrayList<>();
    long base = 1_700_000_000_000L;
    for (int i = 0; i < N; i += 5) {
      List<Long> block = new ArrayList<>();
      for (int j = 0; j < 5; j++) {
        block.add(base + 10L * (i + j));
      }
      Collections.shuffle(block, r);
      for (long t : block) {
        out.add(Row.of("k" + r.nextInt(4), Instant.ofEpochMilli(t), (double) r.nextInt(100), (long) r.nextInt(30)));
      }
    }
    return out;
  }



  static final long SIZE = 1000;
  static final long SLIDE = 200;

  static String query(String layout) {
    WindowSpec.Builder w = WindowSpec.time(SIZE, SLIDE);
    if (layout.equals("slices")) {
      w = w.aggregate("mx", "max", "v").aggregate("mn", "min", "v").aggregate("n", "count", null)
          .aggregate("s", "sum", "v").aggregate("d", "hll", "c").aggregate("med", "median", "v");
    } else {
      w = w.aggregate("first", "first", "v").aggregate("last", "last", "v").aggregate("n", "count", null);
    }
    return QuerySpec.builder().window(w).build().toJson();
  }

  static StreamTableEnvironment env(String backend, boolean fail, String cacheKeys, Path dir) {
    StreamExecutionEnvironment env = FailOnce.env(backend, dir,
        cacheKeys == null ? Map.of() : Map.of(SwagWindowFunction.CACHE_PARAM, cacheKeys));
    DataStream<Row> in = FailOnce.source(env, new io.swag.flink.Replay(() -> rows(21)), N, TYPE, fail);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", tEnv.fromDataStream(in, Schema.newBuilder()
        .column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE").column("c", "BIGINT")
        .watermark("ts", "ts - INTERVAL '0.1' SECOND").build()));
    return tEnv;
  }

  /** swag_window's rows: "key@start-end" to the aggregates map, one row per window. */
  static Map<String, Map<String, Double>> swag(StreamTableEnvironment tEnv, String layout) throws Exception {
    Map<String, Map<String, Double>> m = new TreeMap<>();
    String sql = "SELECT * FROM swag_window(input => TABLE t "
        + "PARTITION BY k, on_time => DESCRIPTOR(ts), query => '" + query(layout) + "')";
    var table = tEnv.sqlQuery(sql);
    List<String> cols = table.getResolvedSchema().getColumnNames();
    // k, window, window_start, window_end, the aggregates (typed columns), reason, record, rowtime
    List<String> aggs = cols.subList(4, cols.size() - 3);
    try (CloseableIterator<Row> it = table.execute().collect()) {
      while (it.hasNext()) {
        Row r = it.next();
        assertTrue(!"late".equals(r.getField(1)), "no late rows: " + r);
        Map<String, Double> a = new TreeMap<>();
        for (int j = 0; j < aggs.size(); j++) {
          Object v = r.getField(4 + j);
          a.put(aggs.get(j), v == null ? null : ((Number) v).doubleValue());
        }
        String k = r.getField(0) + "@" + r.getField(2) + "-" + r.getField(3);
        assertEquals(null, m.put(k, a), "one row per window: " + k);
      }
    }
    return m;
  }

  static Stream<Arguments> cases() {
    return Stream.of("hashmap", "rocksdb", "forst").flatMap(b -> Stream.of(
        Arguments.of(b, "slices", "1"), Arguments.of(b, "rows", null)));
  }

  private static Map<String, Map<String, Double>> failureFree;

  static synchronized Map<String, Map<String, Double>> failureFree(Path dir) throws Exception {
    if (failureFree == null) {
      failureFree = swag(env("hashmap", false, null, dir.resolve("clean")), "slices");
    }
    return failureFree;
  }

  @ParameterizedTest(name = "{0} {1} cache {2}")
  @MethodSource("cases")
  void failureAndRestoreGiveEveryWindowOnceAndRight(String backend, String layout, String cacheKeys,
      @TempDir Path dir) throws Exception {
    StreamTableEnvironment tEnv = env(backend, true, cacheKeys, dir.resolve(backend));
    Map<String, Map<String, Double>> got = swag(tEnv, layout);
    assertTrue(FailOnce.failed(), "the failure was injected");
    Map<String, String> want = layout.equals("slices") ? hop(dir) : firstLast();
    Map<String, String> have = new TreeMap<>();
    for (Map.Entry<String, Map<String, Double>> e : got.entrySet()) {
      Map<String, Double> a = e.getValue();
      have.put(e.getKey(), layout.equals("slices")
          ? a.get("mx") + "," + a.get("mn") + "," + a.get("n").longValue() + "," + a.get("s") + "," + a.get("d").longValue()
          : a.get("first") + "," + a.get("last") + "," + a.get("n").longValue());
    }
    assertTrue(want.size() > 500, "windows: " + want.size());
    assertEquals(want, have);
    if (layout.equals("slices")) {
      Map<String, Map<String, Double>> clean = failureFree(dir);
      for (Map.Entry<String, Map<String, Double>> e : clean.entrySet()) {
        assertEquals(e.getValue().get("med"), got.get(e.getKey()).get("med"), "median of " + e.getKey());
      }
    }
  }

  /** Flink's HOP windows with the built-in aggregates, from a failure-free job. */
  static Map<String, String> hop(Path dir) throws Exception {
    StreamTableEnvironment tEnv = env("hashmap", false, null, dir.resolve("hop"));
    Map<String, String> m = new TreeMap<>();
    String sql = "SELECT k, window_start, window_end, MAX(v), MIN(v), COUNT(*), SUM(v), COUNT(DISTINCT c) "
        + "FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '0.2' SECOND, INTERVAL '1' SECOND)) "
        + "GROUP BY k, window_start, window_end";
    try (CloseableIterator<Row> it = tEnv.sqlQuery(sql).execute().collect()) {
      while (it.hasNext()) {
        Row x = it.next();
        m.put(x.getField(0) + "@" + millis(x.getField(1)) + "-" + millis(x.getField(2)),
            x.getField(3) + "," + x.getField(4) + "," + x.getField(5) + "," + x.getField(6) + "," + x.getField(7));
      }
    }
    return m;
  }

  /** First and last value by event time and the count, per key and window, from the rows themselves. */
  static Map<String, String> firstLast() {
    Map<String, TreeMap<Long, Double>> byKey = new TreeMap<>();
    for (Row r : rows(21)) {
      byKey.computeIfAbsent((String) r.getField(0), x -> new TreeMap<>())
          .put(((Instant) r.getField(1)).toEpochMilli(), (Double) r.getField(2));
    }
    Map<String, String> m = new TreeMap<>();
    for (Map.Entry<String, TreeMap<Long, Double>> e : byKey.entrySet()) {
      TreeMap<Long, Double> vs = e.getValue();
      long lo = Math.floorDiv(vs.firstKey() - SIZE + SLIDE, SLIDE) * SLIDE;
      for (long s = lo; s <= vs.lastKey(); s += SLIDE) {
        var in = vs.subMap(s, true, s + SIZE, false);
        if (!in.isEmpty()) {
          m.put(e.getKey() + "@" + s + "-" + (s + SIZE),
              in.firstEntry().getValue() + "," + in.lastEntry().getValue() + "," + in.size());
        }
      }
    }
    return m;
  }

  private static long millis(Object o) {
    if (o instanceof LocalDateTime l) {
      return l.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    return ((Instant) o).toEpochMilli();
  }
}

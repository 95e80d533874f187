package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.flink.FailOnce;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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

/**
 * The OVER functions' state on every backend: a job that fails once after a completed checkpoint
 * (the frames restore from their map views and rebuild their aggregators) and keeps at most one key's
 * aggregator on the heap (job parameter {@value SwagOverFunction#CACHE_PARAM} = 1, so every key
 * change rebuilds from state) gives, row for row, the built-in OVER aggregates' values (max, min,
 * distinct count: an oracle that shares no code with swag) and the failure-free run's sketch
 * (median, quantile) values.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class OverStateTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final int N = 3000;
  static final RowTypeInfo TYPE = OverFunctionsTest.TYPE;



  static final String ROWS = "ROWS BETWEEN 40 PRECEDING AND CURRENT ROW";
  static final String RANGE = "RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW";

  static List<String> run(String backend, String frame, boolean fail, String cacheKeys, Path dir) throws Exception {
    StreamExecutionEnvironment env = FailOnce.env(backend, dir,
        cacheKeys == null ? Map.of() : Map.of(SwagOverFunction.CACHE_PARAM, cacheKeys));
    DataStream<Row> in = FailOnce.source(env, new io.swag.flink.Replay(() -> OverFunctionsTest.rows(11, N)), N, TYPE,
        fail);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", OverFunctionsTest.table(tEnv, in));
    Table res = tEnv.sqlQuery("SELECT k, ts, v, "
        + "MAX(v) OVER w, swag_max(v) OVER w, MIN(v) OVER w, swag_min(v) OVER w, "
        + "CAST(COUNT(DISTINCT c) OVER w AS BIGINT), swag_distinct_count(c) OVER w, "
        + "swag_median(v) OVER w, swag_quantile(v, 0.9) OVER w "
        + "FROM t WINDOW w AS (PARTITION BY k ORDER BY ts " + frame + ")");
    List<String> out = new ArrayList<>();
    try (CloseableIterator<Row> it = res.execute().collect()) {
      while (it.hasNext()) {
        Row r = it.next();
        assertEquals(r.getField(3), r.getField(4), "max of " + r);
        assertEquals(r.getField(5), r.getField(6), "min of " + r);
        // HLL is exact for a few dozen distinct values at lgK 12
        assertEquals(r.getField(7), r.getField(8), "distinct count of " + r);
        out.add(r.getField(0) + " " + r.getField(1) + " " + r.getField(2) + " " + r.getField(4) + " "
            + r.getField(6) + " " + r.getField(8) + " " + r.getField(9) + " " + r.getField(10));
      }
    }
    if (fail) {
      assertTrue(FailOnce.failed(), "the failure was injected");
    }
    Collections.sort(out);
    return out;
  }

  static Stream<Arguments> cases() {
    return Stream.of("hashmap", "rocksdb", "forst").flatMap(b -> Stream.of(
        Arguments.of(b, "rows", "1"), Arguments.of(b, "range", null)));
  }

  private static final Map<String, List<String>> EXPECTED = new java.util.HashMap<>();

  static synchronized List<String> expected(String frame, Path dir) throws Exception {
    List<String> e = EXPECTED.get(frame);
    if (e == null) {
      e = run("hashmap", frame.equals("rows") ? ROWS : RANGE, false, null, dir.resolve("clean-" + frame));
      EXPECTED.put(frame, e);
    }
    return e;
  }

  @ParameterizedTest(name = "{0} {1} cache {2}")
  @MethodSource("cases")
  void failureAndRestoreGiveTheBuiltinsAndTheFailureFreeSketches(String backend, String frame, String cacheKeys,
      @TempDir Path dir) throws Exception {
    List<String> want = expected(frame, dir);
    assertEquals(N, want.size(), "rows of the failure-free run");
    List<String> got = run(backend, frame.equals("rows") ? ROWS : RANGE, true, cacheKeys, dir.resolve(backend));
    assertEquals(want, got);
  }
}

package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential: swag's OVER aggregates with retraction equal Flink's built-in OVER aggregates
 * (MAX, MIN, FIRST_VALUE, LAST_VALUE, STDDEV_SAMP) on the same frames, for ROWS and RANGE frames, on
 * seeded random rows (in-order times with ties, integer values so ties and exact sums happen).
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class OverFunctionsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static List<Row> rows(long seed, int n) {
    Random r = new Random(seed);
    List<Row> out = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < n; i++) {
      t += 100L * r.nextInt(4);
      Double v = r.nextInt(20) == 0 ? null : (double) r.nextInt(50);
      out.add(Row.of("k" + r.nextInt(4), Instant.ofEpochMilli(t), v, (long) r.nextInt(30)));
    }
    return out;
  }

  /** The rows of {@link #rows}: key, time, value (null at times), a small integer. */
  static final RowTypeInfo TYPE = new RowTypeInfo(new org.apache.flink.api.common.typeinfo.TypeInformation<?>[] {
      Types.STRING, Types.INSTANT, Types.DOUBLE, Types.LONG}, new String[] {"k", "ts", "v", "c"});

  /** {@code in} as a table with an event-time watermark 1 ms behind (the rows' times never decrease). */
  static Table table(StreamTableEnvironment tEnv, DataStream<Row> in) {
    return tEnv.fromDataStream(in, Schema.newBuilder()
        .column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE").column("c", "BIGINT")
        .watermark("ts", "ts - INTERVAL '0.001' SECOND").build());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ROWS BETWEEN 7 PRECEDING AND CURRENT ROW", "RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW"})
  void equalsBuiltinOver(String frame) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", table(tEnv, env.fromData(rows(42, 4000), TYPE)));
    Table res = tEnv.sqlQuery("SELECT k, ts, "
        + "MAX(v) OVER w, swag_max(v) OVER w, MIN(v) OVER w, swag_min(v) OVER w, "
        + "FIRST_VALUE(v) OVER w, swag_first(v) OVER w, LAST_VALUE(v) OVER w, swag_last(v) OVER w, "
        + "STDDEV_SAMP(v) OVER w, swag_stddev(v) OVER w, "
        + "CAST(COUNT(DISTINCT c) OVER w AS BIGINT), swag_distinct_count(c) OVER w "
        + "FROM t WINDOW w AS (PARTITION BY k ORDER BY ts " + frame + ")");
    int n = 0;
    int nonNullMax = 0;
    int stddevCompared = 0;
    try (CloseableIterator<Row> it = res.execute().collect()) {
      while (it.hasNext()) {
        Row r = it.next();
        n++;
        for (int i = 2; i <= 8; i += 2) {
          assertEquals(r.getField(i), r.getField(i + 1), "column " + i + " of " + r);
        }
        if (r.getField(2) != null) {
          nonNullMax++;
        }
        Double a = (Double) r.getField(10), b = (Double) r.getField(11);
        if (a == null || b == null) {
          // Flink gives null for a single value; swag's sample stddev of one value is 0 or NaN
          assertTrue(a == null && (b == null || b == 0.0 || b.isNaN()), "stddev of " + r);
        } else {
          assertEquals(a, b, 1e-9 * Math.max(1, Math.abs(a)), "stddev of " + r);
          stddevCompared++;
        }
        // HLL is exact for a few dozen distinct values at lgK 12
        assertEquals(r.getField(12), r.getField(13), "distinct count of " + r);
      }
    }
    assertEquals(4000, n);
    assertTrue(nonNullMax > 3000);
    assertTrue(stddevCompared > 3000, "stddev compared on " + stddevCompared + " rows");
  }

  /**
   * A NaN argument is ignored like a null (and so is its retraction), and counted; the built-ins run
   * on the same rows with null where the NaN was. With the job parameter swag.on-error = fail the job
   * fails naming the function.
   */
  @org.junit.jupiter.api.Test
  void aNaNArgumentIsIgnoredLikeANullUnlessTheJobAsksToFail() throws Exception {
    List<Row> withNaN = new ArrayList<>();
    List<Row> withNull = new ArrayList<>();
    int nans = 0;
    for (Row r : rows(43, 3000)) {
      Row a = Row.copy(r);
      Row b = Row.copy(r);
      if (((Long) r.getField(3)) % 11 == 0 && r.getField(2) != null) {
        a.setField(2, Double.NaN);
        b.setField(2, null);
        nans++;
      }
      withNaN.add(a);
      withNull.add(b);
    }
    assertTrue(nans > 100, "NaN rows: " + nans);
    String w = " FROM t WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 7 PRECEDING AND CURRENT ROW)";
    java.util.Map<String, List<String>> swag = overRows(withNaN, "SELECT k, swag_max(v) OVER w, swag_min(v) OVER w, "
        + "swag_first(v) OVER w, swag_last(v) OVER w" + w, java.util.Map.of());
    java.util.Map<String, List<String>> builtin = overRows(withNull, "SELECT k, MAX(v) OVER w, MIN(v) OVER w, "
        + "FIRST_VALUE(v) OVER w, LAST_VALUE(v) OVER w" + w, java.util.Map.of());
    assertEquals(builtin, swag);
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> overRows(withNaN,
        "SELECT k, swag_max(v) OVER w" + w, java.util.Map.of(SwagOverFunction.ON_ERROR_PARAM, "fail")));
    Throwable c = e;
    while (c.getCause() != null && !String.valueOf(c.getMessage()).contains("is NaN")) {
      c = c.getCause();
    }
    assertTrue(String.valueOf(c.getMessage()).contains("swag_max: the argument is NaN"), String.valueOf(c));
  }

  /** Per key, the result rows in order (columns after the key as text). */
  private static java.util.Map<String, List<String>> overRows(List<Row> rows, String sql,
      java.util.Map<String, String> params) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    if (!params.isEmpty()) {
      tEnv.getConfig().set(org.apache.flink.configuration.PipelineOptions.GLOBAL_JOB_PARAMETERS, params);
    }
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", table(tEnv, env.fromData(rows, TYPE)));
    java.util.Map<String, List<String>> out = new java.util.TreeMap<>();
    try (CloseableIterator<Row> it = tEnv.sqlQuery(sql).execute().collect()) {
      while (it.hasNext()) {
        Row r = it.next();
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < r.getArity(); i++) {
          b.append(r.getField(i)).append(',');
        }
        out.computeIfAbsent((String) r.getField(0), k -> new ArrayList<>()).add(b.toString());
      }
    }
    return out;
  }
}

package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Differential: {@code swag_window} (the process table function) gives the same windows and values
 * as Flink SQL's HOP window TVF with MAX/MIN/COUNT/SUM, on seeded random rows with a watermark
 * trailing by a bound larger than the disorder (so HOP drops nothing); with NaN values, the same
 * against HOP on the rows without them, and one {@code rejected} row per NaN.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class SwagWindowFunctionTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  @Test
  void swagWindowEqualsHop() throws Exception {
    run(0);
  }

  /**
   * A NaN value is not a job failure: the record comes out as a {@code rejected} row with the
   * reason every engine gives, and the windows are those of the stream without it.
   */
  @Test
  void aRefusedValueIsARejectedRowAndTheWindowsIgnoreIt() throws Exception {
    run(97);
  }

  /** Every {@code nanEvery}-th row (none if 0) gets a NaN value, which HOP's input leaves out. */
  private static void run(int nanEvery) throws Exception {
    Random r = new Random(5);
    List<Row> rows = new ArrayList<>();
    List<Row> clean = new ArrayList<>();
    java.util.Set<String> nans = new java.util.TreeSet<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 3000; i++) {
      t += r.nextInt(30);
      Row row = Row.of("k" + r.nextInt(4), Instant.ofEpochMilli(t - r.nextInt(50)), (double) r.nextInt(100));
      if (nanEvery > 0 && i % nanEvery == nanEvery - 1) {
        row.setField(2, Double.NaN);
        nans.add(row.getField(0) + "@" + ((Instant) row.getField(1)).toEpochMilli() + " column 'v' is NaN");
      } else {
        clean.add(row);
      }
      rows.add(row);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    tEnv.createTemporaryView("t", table(env, tEnv, rows));
    tEnv.createTemporaryView("t_clean", table(env, tEnv, clean));
    String q = QuerySpec.builder().window(WindowSpec.time(1000, 200).aggregate("mx", "max", "v")
        .aggregate("mn", "min", "v").aggregate("n", "count", null).aggregate("s", "sum", "v")).build().toJson();
    String swagWindow = "swag_window(input => TABLE t PARTITION BY k, on_time => DESCRIPTOR(ts), query => '" + q + "')";
    Map<String, String> swag = collect(tEnv, "SELECT k, window_start, window_end, mx, mn, n, s FROM " + swagWindow + " WHERE `window` <> 'rejected'", false);
    Map<String, String> hop = collect(tEnv, "SELECT k, window_start, window_end, MAX(v), MIN(v), COUNT(*), SUM(v) "
        + "FROM TABLE(HOP(TABLE t_clean, DESCRIPTOR(ts), INTERVAL '0.2' SECOND, INTERVAL '1' SECOND)) "
        + "GROUP BY k, window_start, window_end", true);
    assertTrue(hop.size() > 500, "windows: " + hop.size());
    assertEquals(hop, swag);
    java.util.Set<String> rejected = new java.util.TreeSet<>();
    try (CloseableIterator<Row> it = tEnv.sqlQuery("SELECT k, window_start, window_end, reason FROM " + swagWindow
        + " WHERE `window` = 'rejected'").execute().collect()) {
      while (it.hasNext()) {
        Row x = it.next();
        assertEquals(x.getField(1), x.getField(2), "a rejected row's start and end are its time");
        rejected.add(x.getField(0) + "@" + x.getField(1) + " " + x.getField(3));
      }
    }
    assertEquals(nans, rejected);
    assertEquals(nanEvery > 0, !nans.isEmpty());
  }

  private static Table table(StreamExecutionEnvironment env, StreamTableEnvironment tEnv, List<Row> rows) {
    return tEnv.fromDataStream(env.fromData(rows, new RowTypeInfo(
            new TypeInformation<?>[] {Types.STRING, Types.INSTANT, Types.DOUBLE}, new String[] {"k", "ts", "v"})),
        Schema.newBuilder().column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE")
            .watermark("ts", "ts - INTERVAL '0.1' SECOND").build());
  }

  private static Map<String, String> collect(StreamTableEnvironment tEnv, String sql, boolean timestamps) throws Exception {
    Map<String, String> m = new TreeMap<>();
    try (CloseableIterator<Row> it = tEnv.sqlQuery(sql).execute().collect()) {
      while (it.hasNext()) {
        Row x = it.next();
        long s = timestamps ? millis(x.getField(1)) : (Long) x.getField(1);
        long e = timestamps ? millis(x.getField(2)) : (Long) x.getField(2);
        String k = x.getField(0) + "@" + s + "-" + e;
        String v = x.getField(3) + "," + x.getField(4) + "," + x.getField(5) + "," + x.getField(6);
        String prev = m.put(k, v);
        assertEquals(null, prev, "one row per window: " + k);
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

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
 * trailing by a bound larger than the disorder (so HOP drops nothing).
 */
class SwagWindowFunctionTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  @Test
  void swagWindowEqualsHop() throws Exception {
    Random r = new Random(5);
    List<Row> rows = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 3000; i++) {
      t += r.nextInt(30);
      rows.add(Row.of("k" + r.nextInt(4), Instant.ofEpochMilli(t - r.nextInt(50)), (double) r.nextInt(100)));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    Table in = tEnv.fromDataStream(env.fromData(rows, new RowTypeInfo(
            new TypeInformation<?>[] {Types.STRING, Types.INSTANT, Types.DOUBLE}, new String[] {"k", "ts", "v"})),
        Schema.newBuilder().column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE")
            .watermark("ts", "ts - INTERVAL '0.1' SECOND").build());
    tEnv.createTemporaryView("t", in);
    String q = QuerySpec.builder().window(WindowSpec.time(1000, 200).aggregate("mx", "max", "v")
        .aggregate("mn", "min", "v").aggregate("n", "count", null).aggregate("s", "sum", "v")).build().toJson();
    Map<String, String> swag = collect(tEnv, "SELECT k, window_start, window_end, aggregates['mx'], aggregates['mn'], "
        + "CAST(aggregates['n'] AS BIGINT), aggregates['s'] FROM swag_window(input => TABLE t PARTITION BY k, "
        + "on_time => DESCRIPTOR(ts), query => '" + q + "')", false);
    Map<String, String> hop = collect(tEnv, "SELECT k, window_start, window_end, MAX(v), MIN(v), COUNT(*), SUM(v) "
        + "FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '0.2' SECOND, INTERVAL '1' SECOND)) "
        + "GROUP BY k, window_start, window_end", true);
    assertTrue(hop.size() > 500, "windows: " + hop.size());
    assertEquals(hop, swag);
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

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input is never lost: rows with a null key, a null time or a NaN value go to the rejected side
 * output as (reason, record), the reason naming the column; the job goes on, and the other rows'
 * windows are not affected by them (the same as for the input without the bad rows).
 */
class RejectedTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").window(WindowSpec.time(400, 100)
        .aggregate("mx", "max", "v").aggregate("n", "count", null)).build();
  }

  static WatermarkStrategy<Row> watermarks() {
    return WatermarkStrategy.<Row>forGenerator(ctx -> new TestStreams.Punctuated())
        .withTimestampAssigner((row, prev) -> row.getField(1) == null ? Long.MIN_VALUE : (Long) row.getField(1));
  }

  static List<String> run(List<Row> input, String name) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(watermarks()).setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, query());
    out.sinkTo(new StaticSink<>(name));
    out.getSideOutput(SwagWindows.rejectedTag(TestStreams.type())).sinkTo(new StaticSink<>(name + "-rejected"));
    env.execute(name);
    List<String> rows = new java.util.ArrayList<>();
    for (Row r : StaticSink.<Row>get(name)) {
      rows.add(String.valueOf(r));
    }
    java.util.Collections.sort(rows);
    return rows;
  }

  @Test
  void badRowsGoToTheRejectedOutputWithTheirReason() throws Exception {
    List<Row> good = TestStreams.generate(8, 800, 3, 6, 0, 50);
    List<String> want = run(good, "rejected-clean");
    assertTrue(want.size() > 50, "windows of the clean input: " + want.size());
    assertTrue(StaticSink.<Row>get("rejected-clean-rejected").isEmpty());

    List<Row> bad = new java.util.ArrayList<>(good);
    long wm = (Long) good.get(100).getField(4);
    bad.add(100, Row.of(null, 1_000_000L + 300, 1.0, 9001L, wm));
    bad.add(200, Row.of("k1", null, 1.0, 9002L, wm));
    bad.add(300, Row.of("k2", (Long) good.get(299).getField(1), Double.NaN, 9003L, wm));
    List<String> got = run(bad, "rejected-bad");
    Map<Long, String> reasons = new TreeMap<>();
    for (Row r : StaticSink.<Row>get("rejected-bad-rejected")) {
      reasons.put((Long) ((Row) r.getField(1)).getField(3), (String) r.getField(0));
    }
    assertEquals(List.of(9001L, 9002L, 9003L), List.copyOf(reasons.keySet()), "rejected records: " + reasons);
    assertTrue(reasons.get(9001L).contains("'k'") && reasons.get(9001L).contains("null"), reasons.get(9001L));
    assertTrue(reasons.get(9002L).contains("'ts'") && reasons.get(9002L).contains("null"), reasons.get(9002L));
    assertTrue(reasons.get(9003L).contains("v") && reasons.get(9003L).contains("NaN"), reasons.get(9003L));
    assertEquals(want, got, "the other rows' windows");
  }

  @Test
  void onErrorFailFailsTheJobWithTheReason() {
    List<Row> bad = new java.util.ArrayList<>(TestStreams.generate(9, 200, 3, 6, 0, 50));
    bad.add(50, Row.of("k2", (Long) bad.get(49).getField(1), Double.NaN, 9003L, (Long) bad.get(49).getField(4)));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    DataStream<Row> in = env.fromData(bad, TestStreams.TYPE).assignTimestampsAndWatermarks(watermarks());
    SwagWindows.aggregate(in, query().toJson(), SwagFlinkOptions.defaults().withOnError("fail"))
        .sinkTo(new StaticSink<>("rejected-fail"));
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> env.execute("rejected-fail"));
    Throwable c = e;
    while (c != null && io.swag.core.SwagException.kindOf(c) != io.swag.core.SwagException.Kind.REJECTED_RECORD) {
      c = c.getCause();
    }
    assertTrue(c != null, "the job failed for the rejected record: " + e);
    assertTrue(c.getMessage().contains("'v' is NaN") && c.getMessage().contains("9003"), c.getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> SwagFlinkOptions.defaults().withOnError("ignore"));
  }
}

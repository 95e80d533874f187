package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * User-defined functions (examples/udaf: TopK, Trend) in the DataStream operator: output columns
 * typed by the functions' declared result types, Trend (non-commutative) equal to last - first in
 * time order per window, and a value TopK refuses in {@code lift} on the rejected side output with
 * the class and column in the reason, the other rows' windows unchanged.
 */
class UdafTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final String TOPK = "io.swag.examples.udaf.TopK";
  static final String TREND = "io.swag.examples.udaf.Trend";

  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").window(WindowSpec.time(400, 100)
        .aggregate("top", "udaf", "v", Map.of("class", TOPK, "k", 2))
        .aggregate("trend", "udaf", "v", Map.of("class", TREND))).build();
  }

  static List<Row> run(List<Row> input, String name) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(RejectedTest.watermarks()).setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, query());
    out.sinkTo(new StaticSink<>(name));
    out.getSideOutput(SwagWindows.rejectedTag(TestStreams.type())).sinkTo(new StaticSink<>(name + "-rejected"));
    env.execute(name);
    return new ArrayList<>(StaticSink.<Row>get(name));
  }

  private static List<String> sorted(List<Row> rows) {
    List<String> s = new ArrayList<>();
    for (Row r : rows) {
      s.add(String.valueOf(r));
    }
    Collections.sort(s);
    return s;
  }

  /** A class that is missing or is not a swag function fails the job's construction, naming class and column. */
  @Test
  void badClassesFailAtJobBuildingNamingClassAndColumn() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataStream<Row> in = env.fromData(TestStreams.generate(1, 10, 2, 5, 0, 10), TestStreams.TYPE)
        .assignTimestampsAndWatermarks(RejectedTest.watermarks());
    for (String[] c : new String[][] {{"com.example.Missing", "not found"},
        {"java.lang.String", "does not implement io.swag.core.AggregateFunction"}}) {
      String json = "{\"key\":[\"k\"],\"time\":\"ts\",\"windows\":[{\"size\":400,\"slide\":100,\"aggregates\":"
          + "[{\"output\":\"x\",\"function\":\"udaf\",\"column\":\"v\",\"options\":{\"class\":\"" + c[0] + "\"}}]}]}";
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> SwagWindows.aggregate(in, json));
      assertTrue(e.getMessage().contains("'" + c[0] + "'") && e.getMessage().contains("column 'v'")
          && e.getMessage().contains(c[1]), e.getMessage());
    }
  }

  @Test
  void outputColumnsHaveTheDeclaredTypes() {
    RowTypeInfo t = SwagWindows.outputType(query(), TestStreams.TYPE);
    assertEquals(Types.STRING, t.getTypeAt(t.getFieldIndex("top")));
    assertEquals(Types.DOUBLE, t.getTypeAt(t.getFieldIndex("trend")));
  }

  @Test
  void trendIsLastMinusFirstInTimeOrderAndRefusedValuesAreRejected() throws Exception {
    List<Row> good = new ArrayList<>(); // out of order, none late: each row after the watermark it arrives with
    long prevWm = Long.MIN_VALUE;
    for (Row r : TestStreams.generate(12, 800, 3, 6, 40, 50)) {
      if ((Long) r.getField(1) > prevWm) {
        good.add(r);
      }
      prevWm = (Long) r.getField(4);
    }
    List<Row> clean = run(good, "udaf-clean");
    // independent recompute of Trend: per (key, window) the values in (time, arrival) order
    Map<String, Double> want = new HashMap<>();
    int checked = 0;
    for (Row r : clean) {
      String k = (String) r.getField(0);
      long start = (Long) r.getField(2);
      long end = (Long) r.getField(3);
      double first = Double.NaN;
      double last = Double.NaN;
      long ft = Long.MAX_VALUE;
      long lt = Long.MIN_VALUE;
      for (Row in : good) {
        long ts = (Long) in.getField(1);
        if (k.equals(in.getField(0)) && ts >= start && ts < end) {
          if (ts < ft) {
            ft = ts;
            first = (Double) in.getField(2);
          }
          if (ts >= lt) {
            lt = ts;
            last = (Double) in.getField(2);
          }
        }
      }
      assertEquals(last - first, (Double) r.getField(r.getArity() - 1), 1e-9, r.toString());
      checked++;
    }
    assertTrue(checked > 50, "windows: " + checked);
    assertTrue(StaticSink.<Row>get("udaf-clean-rejected").isEmpty());

    List<Row> bad = new ArrayList<>(good);
    long wm = (Long) good.get(100).getField(4);
    bad.add(100, Row.of("k1", (Long) good.get(99).getField(1), Double.POSITIVE_INFINITY, 9001L, wm));
    List<Row> got = run(bad, "udaf-bad");
    List<Row> rejected = StaticSink.get("udaf-bad-rejected");
    assertEquals(1, rejected.size(), rejected.toString());
    String reason = (String) rejected.get(0).getField(0);
    assertTrue(reason.contains(TOPK) && reason.contains("column 'v'") && reason.contains("finite"), reason);
    assertEquals(9001L, ((Row) rejected.get(0).getField(1)).getField(3));
    assertEquals(sorted(clean), sorted(got), "the other rows' windows");
  }
}

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Differential test on a local mini cluster: for seeded random out-of-order rows with punctuated
 * watermarks, the swag operator's rows (two sliding windows of one query sharing one aggregator,
 * with allowed lateness) equal Flink's built-in {@code window(SlidingEventTimeWindows).allowedLateness
 * (...).aggregate(...)} per window, including the updated rows of late records, per key and window
 * in emission order; and swag's late side output equals the records the built-in drops as late for
 * every window. Each row leaves the other windows' columns null.
 */
class SwagVsBuiltinTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final long[][] WINDOWS = {{1000, 100}, {300, 300}};

  @ParameterizedTest(name = "seed {0}, lateness {1}")
  @CsvSource({"1, 0", "2, 250", "3, 800"})
  void swagEqualsBuiltinSlidingWindows(long seed, long lateness) throws Exception {
    List<Row> input = TestStreams.generate(seed, 6000, 7, 6, 150, 200);
    QuerySpec.Builder q = QuerySpec.builder().key("k").time("ts").latenessMs(lateness);
    for (int w = 0; w < WINDOWS.length; w++) {
      q.window(WindowSpec.time(WINDOWS[w][0], WINDOWS[w][1]).name("w" + w)
          .aggregate("max" + w, "max", "v").aggregate("sum" + w, "sum", "v").aggregate("n" + w, "count", null)
          .aggregate("sd" + w, "stddev", "v").aggregate("ids" + w, "collect", "id"));
    }
    QuerySpec spec = q.build();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String run = "diff-" + seed + "-" + lateness;
    SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(in, spec);
    swag.sinkTo(new StaticSink<>(run + "-swag"));
    swag.getSideOutput(SwagWindows.lateTag(TestStreams.type())).sinkTo(new StaticSink<>(run + "-swag-late"));
    for (int w = 0; w < WINDOWS.length; w++) {
      OutputTag<Row> late = new OutputTag<>("late" + w, TestStreams.type());
      SingleOutputStreamOperator<Row> b = in.keyBy(r -> (String) r.getField(0), org.apache.flink.api.common.typeinfo.Types.STRING)
          .window(SlidingEventTimeWindows.of(Duration.ofMillis(WINDOWS[w][0]), Duration.ofMillis(WINDOWS[w][1])))
          .allowedLateness(Duration.ofMillis(lateness))
          .sideOutputLateData(late)
          .aggregate(new BuiltinWindows.Agg(), new BuiltinWindows.Emit());
      b.sinkTo(new StaticSink<>(run + "-builtin" + w));
      b.getSideOutput(late).sinkTo(new StaticSink<>(run + "-builtin-late" + w));
    }
    env.execute("swag vs built-in " + run);

    // group swag rows by window name
    List<Row> swagRows = StaticSink.get(run + "-swag");
    int updates = 0;
    for (int w = 0; w < WINDOWS.length; w++) {
      List<Row> mine = new ArrayList<>();
      for (Row r : swagRows) {
        if (r.getField(1).equals("w" + w)) {
          int b = 4 + 5 * w;
          for (int c = 4; c < r.getArity(); c++) {
            if (c < b || c >= b + 5) {
              assertTrue(r.getField(c) == null, "another window's column " + c + " in a row of w" + w + ": " + r);
            }
          }
          Object sd = r.getField(b + 3);
          if (sd instanceof Double d && d.isNaN()) {
            sd = null;
          }
          mine.add(Row.of(r.getField(0), r.getField(2), r.getField(3), r.getField(b), r.getField(b + 1),
              r.getField(b + 2), sd, String.valueOf(r.getField(b + 4))));
        }
      }
      List<Row> theirs = StaticSink.get(run + "-builtin" + w);
      Map<String, List<Row>> a = byKeyAndWindow(mine);
      Map<String, List<Row>> b = byKeyAndWindow(theirs);
      assertEquals(b.keySet(), a.keySet(), "windows of w" + w);
      for (String k : b.keySet()) {
        List<Row> x = a.get(k), y = b.get(k);
        assertEquals(y.size(), x.size(), "rows (first + late updates) of " + k + " in w" + w + ": " + y + " vs swag " + x);
        for (int i = 0; i < x.size(); i++) {
          assertRowEquals(y.get(i), x.get(i), k + " w" + w + " row " + i);
        }
        updates += x.size() - 1;
      }
      assertTrue(theirs.size() > 100, "few windows: " + theirs.size());
    }
    // late: too late for every window of the query = dropped by every built-in pipeline
    Set<Long> builtinLate = null;
    for (int w = 0; w < WINDOWS.length; w++) {
      Set<Long> s = ids(StaticSink.get(run + "-builtin-late" + w));
      if (builtinLate == null) {
        builtinLate = s;
      } else {
        builtinLate.retainAll(s);
      }
    }
    Set<Long> swagLate = ids(StaticSink.get(run + "-swag-late"));
    assertEquals(builtinLate, swagLate, "late records");
    assertTrue(!swagLate.isEmpty(), "the input should have records too late for every window");
    if (lateness > 0) {
      assertTrue(updates > 0, "the input should have late records within the allowed lateness");
    }
  }

  private static Set<Long> ids(List<Row> rows) {
    Set<Long> s = new HashSet<>();
    for (Row r : rows) {
      s.add((Long) r.getField(3));
    }
    return s;
  }

  private static Map<String, List<Row>> byKeyAndWindow(List<Row> rows) {
    Map<String, List<Row>> m = new TreeMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.getField(0) + "@" + r.getField(1) + "-" + r.getField(2), x -> new ArrayList<>()).add(r);
    }
    return m;
  }

  private static void assertRowEquals(Row expected, Row actual, String what) {
    for (int i = 0; i < 6; i++) {
      assertEquals(expected.getField(i), actual.getField(i), what + " field " + i + ": " + expected + " vs swag " + actual);
    }
    Double e = (Double) expected.getField(6), a = (Double) actual.getField(6);
    if (e == null || a == null) {
      assertEquals(e, a, what + " stddev");
    } else {
      assertEquals(e, a, 1e-9 * Math.max(1, e), what + " stddev");
    }
    assertEquals(expected.getField(7), actual.getField(7), what + " collect(id) in time order");
  }
}

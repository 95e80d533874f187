package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A query of one scalar double function in one window (the operator inserts a record of a cached key
 * by its time and value alone, {@code insertScalar}, and refills one row array for the others: no
 * group keeps an inserted row) gives the rows, late records and rejected records of the same window
 * with a second function (a generic product: a new row array per record), per key and window in
 * emission order, in order and out of order, with and without allowed lateness, with the key cache
 * large or of two keys (keys loaded back from state and on the cold path take the general path), keyed
 * by the value or by a {@code Row}, with object reuse on; records with a NaN or a null value go to the
 * rejected side output on both.
 */
class ScalarPathTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}, cache {3}, key layout {4}")
  @CsvSource({"11, 0, 0, 100000, value", "12, 150, 0, 100000, value", "13, 150, 400, 100000, value",
      "14, 0, 0, 2, value", "15, 150, 400, 2, value", "16, 150, 400, 100000, row"})
  void oneMaxEqualsTheGeneralPath(long seed, int disorder, long lateness, int cacheKeys, String keyLayout)
      throws Exception {
    List<Row> all = TestStreams.generate(seed, 5000, 5, 6, disorder, 200);
    List<Row> input = new ArrayList<>();
    Set<Long> nan = new HashSet<>();
    Set<Long> nulls = new HashSet<>();
    for (int i = 0; i < all.size(); i++) {
      Row r = all.get(i);
      if (i % 97 == 5 || i % 89 == 7) { // a NaN, a null value
        r = Row.of(r.getField(0), r.getField(1), i % 97 == 5 ? Double.NaN : null, r.getField(3), r.getField(4));
        (i % 97 == 5 ? nan : nulls).add((Long) r.getField(3));
      }
      input.add(r);
    }
    // the same window with max alone (one scalar function: one row array refilled per record) and with
    // max and count (a generic product: a new row array per record)
    QuerySpec lean = QuerySpec.builder().key("k").time("ts").latenessMs(lateness)
        .window(WindowSpec.time(600, 100).name("w").aggregate("mx", "max", "v")).build();
    QuerySpec general = QuerySpec.builder().key("k").time("ts").latenessMs(lateness)
        .window(WindowSpec.time(600, 100).name("w").aggregate("mx", "max", "v").aggregate("n", "count", null)).build();
    // the two queries take the two paths (else this test compares a path with itself)
    assertTrue(liftsRowsAtInsert(lean), "max alone: the lean path (one row array refilled per record)");
    assertFalse(liftsRowsAtInsert(general), "max and count: the general path");

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().enableObjectReuse(); // the refilled row must not leak into what the sinks keep
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String run = "scalar-" + seed + "-" + disorder + "-" + lateness + "-" + cacheKeys + "-" + keyLayout;
    SwagFlinkOptions options = SwagFlinkOptions.defaults().withCacheMaxKeys(cacheKeys).withKeyLayout(keyLayout);
    for (String name : new String[] {"lean", "general"}) {
      SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(in, name.equals("lean") ? lean : general, options);
      swag.map(Row::copy, swag.getType()).sinkTo(new StaticSink<>(run + name));
      swag.getSideOutput(SwagWindows.lateTag(TestStreams.type()))
          .map(r -> (Long) r.getField(3), org.apache.flink.api.common.typeinfo.Types.LONG).sinkTo(new StaticSink<>(run + name + "-late"));
      swag.getSideOutput(SwagWindows.rejectedTag(TestStreams.type()))
          .map(r -> (Long) ((Row) r.getField(1)).getField(3), org.apache.flink.api.common.typeinfo.Types.LONG)
          .sinkTo(new StaticSink<>(run + name + "-rejected"));
    }
    env.execute("swag scalar path " + run);

    Map<String, List<Object>> lean1 = maxes(StaticSink.get(run + "lean"));
    Map<String, List<Object>> general1 = maxes(StaticSink.get(run + "general"));
    assertEquals(general1, lean1, "max per key and window, first row and late updates in emission order");
    assertTrue(lean1.size() > 100, "few windows: " + lean1.size());
    Set<Long> late = new HashSet<>(StaticSink.<Long>get(run + "lean-late"));
    assertEquals(new HashSet<>(StaticSink.<Long>get(run + "general-late")), late, "late records");
    assertTrue(!late.isEmpty(), "the input should have records too late for every window");
    // a NaN value is rejected before the record's lateness is judged (RowContract first); a null value
    // by the function (max refuses it), once the record is in time
    Set<Long> rejected = new HashSet<>(StaticSink.<Long>get(run + "lean-rejected"));
    assertEquals(new HashSet<>(StaticSink.<Long>get(run + "general-rejected")), rejected, "rejected records");
    assertTrue(rejected.containsAll(nan), "every NaN rejected");
    Set<Long> bad = new HashSet<>(nan);
    bad.addAll(nulls);
    assertTrue(bad.containsAll(rejected), "only NaN and null values rejected");
    assertTrue(rejected.stream().anyMatch(nulls::contains), "null values rejected");
    if (lateness > 0) {
      assertTrue(lean1.values().stream().anyMatch(l -> l.size() > 1), "the input should have late updates");
    }
  }

  /** Whether the query's one time group lifts its rows at insert (the operator then refills one row array). */
  private static boolean liftsRowsAtInsert(QuerySpec q) {
    List<String> used = LocalExecutor.usedColumns(q);
    List<WindowGroup> groups = WindowGroup.storedGroups(Planner.plan(q), used, false);
    assertEquals(1, groups.size());
    return groups.get(0).liftsRowsAtInsert();
  }

  /** Per key and window, the max column of its rows in emission order. */
  private static Map<String, List<Object>> maxes(List<Row> rows) {
    Map<String, List<Object>> m = new TreeMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.getField(0) + "@" + r.getField(2) + "-" + r.getField(3), x -> new ArrayList<>()).add(r.getField(4));
    }
    return m;
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The local executor runs the plan that {@link Plan#explain()} prints: per query shape (in order,
 * unknown order, out of order with its tree arity, several windows sharing one tree, sliced, count
 * windows) the executor's read-back ({@link LocalExecutor#executedPlan()}, from the aggregators it
 * builds) is checked against the explain text ({@link ExplainedPlan}); and a key's own read-back
 * follows its aggregator (an adaptive key switching to its tree).
 */
class ExecutedPlanTest {
  /** Rows (k, ts, v) over 3 keys, 100 s of event time; shuffled a little unless {@code inOrder}. */
  static List<Object[]> rows(boolean inOrder) {
    Random r = new Random(3);
    List<Object[]> out = new ArrayList<>();
    long t = 1_000_000;
    for (int i = 0; i < 600; i++) {
      t += r.nextInt(300);
      long ts = inOrder ? t : t - r.nextInt(200);
      out.add(new Object[] {"k" + r.nextInt(3), ts, (double) r.nextInt(50)});
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.swag.core.plan.PlanCases#queries")
  void localExecutorRunsTheExplainedPlan(String name, QuerySpec spec, String rule) {
    Plan plan = Planner.plan(spec);
    ExplainedPlan explained = ExplainedPlan.parse(plan.explain());
    PlanCases.assertExercises(explained, rule);
    LocalExecutor ex = new LocalExecutor(plan, List.of("k", "ts", "v"));
    for (Object[] row : rows(!spec.order().equals("out_of_order"))) {
      ex.process(row);
    }
    ex.finish();
    assertTrue(ex.takeRows().size() > 10, "the query emitted rows");
    ExecutedPlan executed = ex.executedPlan();
    explained.assertExecutedBy(executed, false);
    assertEquals("local", executed.engine().get("name"));
    assertEquals(executed, ExecutedPlan.fromJson(executed.toJson()), "JSON round trip");
  }

  @Test
  void aKeysReadBackFollowsItsAggregator() {
    QuerySpec spec = PlanCases.query("unknown").window(WindowSpec.time(1000, 100).name("w").aggregate("mx", "max", "v")).build();
    WindowGroup g = WindowGroup.timeGroups(Planner.plan(spec), List.of("k", "ts", "v"), false).get(0);
    KeyWindows kw = g.newKey(false, false);
    KeyWindows.WindowOutput none = (w, s, e, r) -> { };
    kw.insert(10, new Object[] {"a", 10L, 1.0}, Long.MIN_VALUE, none);
    kw.insert(20, new Object[] {"a", 20L, 2.0}, Long.MIN_VALUE, none);
    ExecutedPlan.Group before = kw.executed();
    assertEquals("daba_lite", before.algorithm());
    assertEquals("DoubleDabaLite", before.structure(), "one max: the typed in-order class");
    assertTrue(before.adaptive() && !before.switched());
    assertEquals("bfiba8", before.tree());
    kw.insert(15, new Object[] {"a", 15L, 3.0}, Long.MIN_VALUE, none); // out of order: the key switches
    ExecutedPlan.Group after = kw.executed();
    assertEquals("bfiba8", after.algorithm());
    assertEquals("BulkFingerBTree", after.structure());
    assertTrue(after.adaptive() && after.switched());
    assertEquals(8, after.minArity());
    assertEquals(before, g.executed(), "the group's read-back is an unswitched key's");
  }

  @Test
  void aSlicedKeyReportsItsSliceWidth() {
    QuerySpec spec = PlanCases.query("out_of_order").window(WindowSpec.time(60_000, 20_000).name("m")
        .aggregate("mx", "max", "v")).build();
    Plan plan = Planner.plan(spec);
    WindowGroup g = WindowGroup.timeGroups(plan, List.of("k", "ts", "v"), false).get(0);
    ExecutedPlan.Group x = g.newKey(false, true).executed();
    assertTrue(x.slicing());
    assertEquals(20_000, x.sliceMs());
    assertEquals("sliced(20000 ms, bfiba8)", x.aggregator());
    // the same group with slicing switched off in the plan builds an unsliced tree
    WindowGroup off = WindowGroup.timeGroups(plan.withGroup(0, plan.groups().get(0).withSlicing(false)),
        List.of("k", "ts", "v"), false).get(0);
    assertFalse(off.executed().slicing());
    assertEquals(Map.of(), new ExecutedPlan(List.of(x)).engine());
    assertTrue(new ExecutedPlan(List.of(x)).describe().contains("bfiba8 (BulkFingerBTree, min arity 8), sliced 20000 ms"),
        new ExecutedPlan(List.of(x)).describe());
  }
}

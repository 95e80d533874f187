package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import io.swag.core.AggregateFunction;
import io.swag.core.DoublePartials;
import io.swag.core.LongPartials;
import io.swag.core.ObjectPartials;
import io.swag.core.Partials;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import io.swag.core.TimedAggregator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Planner rules, explain() and plan JSON; the product function and its store. */
class PlannerAndProductTest {

  static QuerySpec q(String order, String emit, String windows) {
    return QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"order\":\"" + order + "\",\"emit\":\"" + emit
        + "\",\"windows\":[" + windows + "]}");
  }

  static String w(long size, long slide, String... fns) {
    StringBuilder a = new StringBuilder();
    for (String f : fns) {
      a.append(a.length() == 0 ? "" : ",").append("{\"output\":\"").append(f).append(size).append(slide)
          .append("\",\"function\":\"").append(f).append("\",\"column\":").append(f.equals("count") ? "null" : "\"v\"")
          .append("}");
    }
    return "{\"size\":" + size + ",\"slide\":" + slide + ",\"aggregates\":[" + a + "]}";
  }

  @Test
  void algorithmAndArityRules() {
    GroupPlan g = Planner.plan(q("in_order", "window_end", w(1000, 100, "max"))).groups().get(0);
    assertEquals(Algorithm.DABA_LITE, g.algorithm());
    assertEquals(8, g.minArity());
    assertEquals(Algorithm.DABA_LITE, Planner.plan(q("in_order", "window_end", w(1000, 100, "sum", "count"))).groups()
        .get(0).algorithm(), "time windows in order: DABA Lite also for cheap invertible functions (measured)");
    assertEquals(Algorithm.ADAPTIVE, Planner.plan(q("unknown", "window_end", w(1000, 100, "max"))).groups().get(0)
        .algorithm());
    assertEquals(Algorithm.BFIBA8, Planner.plan(q("out_of_order", "window_end", w(1000, 100, "max"))).groups().get(0)
        .algorithm());
    assertEquals(Algorithm.BFIBA4, Planner.plan(q("out_of_order", "window_end", w(1000, 100, "variance"))).groups().get(0)
        .algorithm());
    assertEquals(Algorithm.BFIBA2, Planner.plan(q("out_of_order", "window_end", w(1000, 100, "hll"))).groups().get(0)
        .algorithm());
    assertEquals(Algorithm.BFIBA4, Planner.plan(q("out_of_order", "window_end", w(1000, 100, "bloom"))).groups().get(0)
        .algorithm(), "the default bloom (32 words) combines at medium cost");
    // several windows share a tree, whatever the order
    Plan p = Planner.plan(q("in_order", "window_end", w(60_000, 10_000, "max") + "," + w(3_600_000, 60_000, "max",
        "count") + "," + w(120_000, 120_000, "max")));
    assertEquals(1, p.groups().size());
    g = p.groups().get(0);
    assertEquals(Algorithm.BFIBA8, g.algorithm());
    assertEquals(1, g.evictionWindow());
    assertEquals(List.of(0, 2), g.rangeQueryWindows());
    assertEquals(10_000, g.sliceMs());
    assertTrue(g.slicing());
    assertEquals(2, g.product().size(), "max(v) is computed once for all windows: " + g.product());
    assertEquals(List.of(List.of(0), List.of(0, 1), List.of(0)), g.members());
    // per_record never slices; small gcd does not slice
    assertFalse(Planner.plan(q("out_of_order", "per_record", w(60_000, 10_000, "max") + "," + w(120_000, 60_000,
        "max"))).groups().get(0).slicing());
    assertFalse(Planner.plan(q("out_of_order", "window_end", w(600, 100, "max") + "," + w(1200, 300, "max")))
        .groups().get(0).slicing());
  }

  @Test
  void countWindowsAreSeparateGroups() {
    Plan p = Planner.plan(QuerySpec.fromJson(QuerySpecTest.DOC_EXAMPLE));
    assertEquals(2, p.groups().size());
    assertEquals(GroupKind.TIME, p.groups().get(0).kind());
    // quantile is a sketch (expensive) and the gcd is 1 min: a sliced tree, though the order is unknown
    assertEquals(Algorithm.BFIBA2, p.groups().get(0).algorithm());
    assertTrue(p.groups().get(0).slicing());
    assertEquals(2, p.groups().get(0).minArity(), "quantile is a sketch: expensive");
    // cheap functions under order unknown: the adaptive aggregator, not sliced
    GroupPlan cheap = Planner.plan(q("unknown", "window_end", w(3_600_000, 60_000, "max"))).groups().get(0);
    assertEquals(Algorithm.ADAPTIVE, cheap.algorithm());
    assertFalse(cheap.slicing());
    // an expensive product below its slicing threshold keeps the ordering rules
    GroupPlan fine = Planner.plan(q("in_order", "window_end", w(60_000, 500, "hll"))).groups().get(0);
    assertEquals(Algorithm.DABA_LITE, fine.algorithm());
    assertFalse(fine.slicing());
    GroupPlan coarse = Planner.plan(q("in_order", "window_end", w(60_000, 1_000, "hll"))).groups().get(0);
    assertEquals(Algorithm.BFIBA2, coarse.algorithm());
    assertTrue(coarse.slicing());
    assertTrue(coarse.reasons().get("algorithm").contains("expensive"), coarse.reasons().toString());
    assertEquals(GroupKind.COUNT, p.groups().get(1).kind());
    assertEquals(Algorithm.SOE, p.groups().get(1).algorithm()); // count is cheap and invertible
    assertEquals(List.of(1), p.groups().get(1).windows());
  }

  /**
   * The one rule for what engines with state keep: slices when the emission is window_end and every
   * function is commutative with a byte form, whatever the algorithm, gcd or order; else records.
   */
  @Test
  void storedSlicesRule() {
    java.util.function.BiFunction<String, WindowSpec.Builder, GroupPlan> plan = (order, w) ->
        Planner.plan(QuerySpec.builder().key("k").time("t").order(order).window(w).build()).groups().get(0);
    // small gcd, in order: the local executor does not slice, engines with state do
    GroupPlan g = plan.apply("in_order", WindowSpec.time(60_000, 1_000).aggregate("m", "max", "v"));
    assertFalse(g.slicing());
    assertTrue(g.storedSlices());
    assertTrue(Planner.plan(QuerySpec.builder().key("k").time("t").order("in_order")
        .window(WindowSpec.time(60_000, 1_000).aggregate("m", "max", "v")).build()).explain()
        .contains("engines with state (Flink operator and swag_window, Spark): used, records combined into slices of"
            + " 1000 ms"));
    assertTrue(plan.apply("out_of_order", WindowSpec.time(10, 1).aggregate("h", "hll", "v")
        .aggregate("q", "median", "v").aggregate("s", "stddev", "v")).storedSlices());
    // order-sensitive functions: records (the planner's own slicing may still hold them per slice)
    g = plan.apply("out_of_order", WindowSpec.time(3_600_000, 60_000).aggregate("f", "first", "v"));
    assertTrue(g.slicing());
    assertFalse(g.storedSlices());
    assertTrue(g.reasons().get("state").startsWith("a function is order-sensitive"), g.reasons().get("state"));
    assertFalse(plan.apply("in_order", WindowSpec.time(60_000, 1_000).aggregate("m", "max", "v")
        .aggregate("l", "last", "v")).storedSlices());
    // per-record emission: records
    g = Planner.plan(QuerySpec.builder().key("k").time("t").emit("per_record")
        .window(WindowSpec.time(60_000, 1_000).aggregate("m", "max", "v")).build()).groups().get(0);
    assertFalse(g.storedSlices());
    assertTrue(g.reasons().get("state").startsWith("emit is per_record"));
    // count windows never; the decision survives JSON and the with* copies
    Plan p = Planner.plan(QuerySpec.builder().key("k").time("t")
        .window(WindowSpec.time(60_000, 1_000).aggregate("m", "max", "v")).window(WindowSpec.count(10, 1)
        .aggregate("n", "max", "v")).build());
    assertFalse(p.groups().get(1).storedSlices());
    assertTrue(Plan.fromJson(p.toJson()).groups().get(0).storedSlices());
    assertTrue(p.groups().get(0).withAlgorithm("bfiba4", 4).withSlicing(true).storedSlices());
    assertFalse(p.groups().get(0).withStoredSlices(false).storedSlices());
    assertThrows(IllegalArgumentException.class, () -> p.groups().get(1).withStoredSlices(true));
  }

  @Test
  void explainShowsEveryChoiceAndPlanRoundTrips() {
    Plan p = Planner.plan(QuerySpec.fromJson(QuerySpecTest.DOC_EXAMPLE));
    String e = p.explain();
    for (String s : List.of("group 0 (time windows: 1h/1min)", "algorithm: bfiba2", "min arity: 2",
        "product aggregate: max(duration) x quantile(duration){\"rank\":0.95}", "gcd 60000 ms, used",
        "eviction bounded by: 1h/1min", "group 1 (count windows: last100)", "algorithm: soe", "because")) {
      assertTrue(e.contains(s), "explain lacks '" + s + "':\n" + e);
    }
    assertEquals(p, Plan.fromJson(p.toJson()));
    assertEquals(p.toJson(), Plan.fromJson(p.toJson()).toJson());
    assertEquals(e, Plan.fromJson(p.toJson()).explain());
    Plan changed = p.withGroup(0, p.groups().get(0).withAlgorithm("bfiba8", 8).withSlicing(true));
    assertEquals(changed, Plan.fromJson(changed.toJson()));
    assertTrue(changed.explain().contains("set explicitly"));
    assertThrows(IllegalArgumentException.class, () -> Plan.fromJson("{\"spec\":{}}"));
  }

  @Test
  void productKeepsNumericSubStoresPrimitive() {
    ProductFunction f = new ProductFunction(List.of(Functions.byName("sum"), Functions.byName("argmax"),
        Functions.byName("collect")));
    ProductPartials p = (ProductPartials) f.newPartials();
    assertInstanceOf(DoublePartials.class, p.sub(0));
    assertInstanceOf(LongPartials.class, p.sub(1));
    assertInstanceOf(ObjectPartials.class, p.sub(2));
    assertFalse(f.isCommutative());
    assertFalse(f.isInvertible());
    assertEquals(1 + 1 + 5, f.combineCost());
  }

  /** The product in a tree equals each function in its own tree; the generic form agrees. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  @Test
  void productEqualsSeparateFunctions() {
    List<String> names = List.of("sum", "max", "argmax", "collect", "count", "mean", "first");
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    for (String n : names) {
      fns.add(Functions.byName(n));
    }
    // rows: [x, label]; count reads no column
    int[] cols = {0, 0, 0, 1, -1, 0, 0};
    ProductFunction f = new ProductFunction(fns, cols);
    TimedAggregator prod = Trees.create("bfiba4", f);
    List<TimedAggregator> each = new ArrayList<>();
    for (String n : names) {
      each.add(Trees.create("bfiba4", Functions.byName(n)));
    }
    Random rnd = new Random(3);
    Object[] acc = f.identity();
    for (int i = 0; i < 2000; i++) {
      long t = rnd.nextInt(500);
      Object[] row = {(double) rnd.nextInt(9), "r" + i};
      prod.insert(t, (Object) row);
      for (int j = 0; j < names.size(); j++) {
        each.get(j).insert(t, cols[j] < 0 ? null : row[cols[j]]);
      }
      if (i % 97 == 0) {
        long from = rnd.nextInt(500);
        long to = from + rnd.nextInt(200);
        List<Object> r = (List<Object>) prod.query(from, to);
        for (int j = 0; j < names.size(); j++) {
          assertEquals(each.get(j).query(from, to), r.get(j), names.get(j) + " at op " + i);
        }
      }
    }
    // generic form: lift/combine/lower of the product = per-function results
    Object[] a = f.lift(new Object[] {2.0, "a"}, 5);
    Object[] b = f.lift(new Object[] {7.0, "b"}, 9);
    List<Object> r = f.lower(f.combine(a, b));
    assertEquals(Arrays.asList(9.0, 7.0, 9L, List.of("a", "b"), 2L, 4.5, 2.0), r);
  }

  @Test
  void batchLiftEqualsSequentialInserts() {
    ProductFunction f = new ProductFunction(List.of(Functions.byName("collect"), Functions.byName("argmax")));
    Partials p = f.newPartials();
    p.resize(3);
    List<Object> vals = List.<Object>of(new Object[] {1.0, 1.0}, new Object[] {2.0, 5.0}, new Object[] {3.0, 5.0});
    p.liftObject(0, new ProductFunction.Batch(vals, new long[] {10, 11, 12}), 0);
    p.liftObject(1, vals.get(0), 10);
    p.liftObject(2, vals.get(1), 11);
    p.combine(1, 1, 2);
    p.liftObject(2, vals.get(2), 12);
    p.combine(1, 1, 2);
    assertEquals(p.lower(1), p.lower(0));
    assertEquals(List.of(List.of(1.0, 2.0, 3.0), 11L), p.lower(0));
    p.resize(40); // grows with the scratch slot moving along
    assertEquals(List.of(List.of(1.0, 2.0, 3.0), 11L), p.lower(0));
    assertEquals(Arrays.asList(List.of(), null), p.lower(3));
    assertThrows(IllegalArgumentException.class, () -> p.liftObject(0, new Object[] {1.0, Double.NaN}, 0));
  }
}

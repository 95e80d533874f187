package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plan JSON keeps its form under the typed vocabulary ({@link GroupKind}, {@link Algorithm},
 * {@link GroupPlan.Part}): strings {@code "time"}/{@code "count"}, the algorithm's name, product
 * parts as {@code {function, column, options}} objects. {@link #STORED} is this query's plan as the
 * planner wrote it when the vocabulary was strings and maps (a stored plan, as Python and the
 * engines' saved jobs hold it).
 */
class PlanJsonTest {
  static final String QUERY = """
      {"version": 1, "key": ["k"], "time": "t", "lateness_ms": 0, "order": "in_order", "emit": "window_end",
       "columns": {"v": "double", "k": "long"},
       "windows": [
         {"name": "big", "kind": "time", "size": 60000, "slide": 10000,
          "aggregates": [{"output": "mx", "function": "max", "column": "v"},
                         {"output": "p9", "function": "quantile", "column": "v", "options": {"rank": 0.9}}]},
         {"name": "small", "kind": "time", "size": 20000, "slide": 10000,
          "aggregates": [{"output": "mx2", "function": "max", "column": "v"}]},
         {"name": "c", "kind": "count", "size": 5, "slide": 1,
          "aggregates": [{"output": "n", "function": "count", "column": null}]}]}
      """;

  static final String STORED = "{\"version\":1,\"spec\":{\"version\":1,\"key\":[\"k\"],\"time\":\"t\",\"lateness_ms\":0,\"order"
      + "\":\"in_order\",\"emit\":\"window_end\",\"columns\":{\"k\":\"long\",\"v\":\"double\"},\"windows\""
      + ":[{\"name\":\"big\",\"kind\":\"time\",\"size\":60000,\"slide\":10000,\"offset\":0,\"aggregates\""
      + ":[{\"output\":\"mx\",\"function\":\"max\",\"column\":\"v\",\"options\":{}},{\"output\":\"p9\",\""
      + "function\":\"quantile\",\"column\":\"v\",\"options\":{\"rank\":0.9}}]},{\"name\":\"small\",\"kin"
      + "d\":\"time\",\"size\":20000,\"slide\":10000,\"offset\":0,\"aggregates\":[{\"output\":\"mx2\",\"f"
      + "unction\":\"max\",\"column\":\"v\",\"options\":{}}]},{\"name\":\"c\",\"kind\":\"count\",\"size\""
      + ":5,\"slide\":1,\"offset\":0,\"aggregates\":[{\"output\":\"n\",\"function\":\"count\",\"column\":"
      + "null,\"options\":{}}]}]},\"groups\":[{\"kind\":\"time\",\"windows\":[0,1],\"algorithm\":\"bfiba2"
      + "\",\"min_arity\":2,\"slice_ms\":10000,\"slicing\":true,\"stored_slices\":true,\"product\":[{\"fu"
      + "nction\":\"max\",\"column\":\"v\",\"options\":{}},{\"function\":\"quantile\",\"column\":\"v\",\""
      + "options\":{\"rank\":0.9}}],\"members\":[[0,1],[0]],\"eviction_window\":0,\"range_query_windows\""
      + ":[1],\"reasons\":{\"arity\":\"the product combine costs 1001 (sum over 2 function(s)); expensive"
      + " (>= 100, sketches/filters) prefers narrow nodes, fewer combines per repair\",\"algorithm\":\"2 "
      + "time windows share one aggregator per key: range queries of different extents need a tree (FiBA "
      + "with bulk evict/insert); FIFO aggregators answer only whole-window queries\",\"slicing\":\"windo"
      + "w_end emission, a tree, and gcd 10000 ms >= 1000 ms (the threshold for an expensive product): re"
      + "cords are pre-aggregated per key into slices [k*10000, (k+1)*10000), one tree entry per slice, s"
      + "o the tree does one insert per slice instead of one per record\",\"sharing\":\"the largest windo"
      + "w (big, 60000 ms) bounds eviction: entries older than the oldest window still open (end - 1 + la"
      + "teness > watermark) are bulk-evicted; the other windows are range queries over the same aggregat"
      + "or; all 2 distinct aggregate(s) are one product aggregate\",\"state\":\"window_end emission and "
      + "every function mergeable (commutative, partials with a byte form): engines that keep state combi"
      + "ne each key's records into slices of gcd 10000 ms as they arrive and keep one partial per slice "
      + "in state and on the heap, O(window / 10000 ms) per key like the engines' own sliding windows, wh"
      + "atever the record rate; a checkpoint writes the slices touched since the last one\"}},{\"kind\":"
      + "\"count\",\"windows\":[2],\"algorithm\":\"soe\",\"min_arity\":8,\"slice_ms\":0,\"slicing\":false"
      + ",\"stored_slices\":false,\"product\":[{\"function\":\"count\",\"column\":null,\"options\":{}}],"
      + "\"members\":[[0]],\"eviction_window\":2,\"range_query_windows\":[],\"reasons\":{\"arity\":\"the p"
      + "roduct combine costs 1 (sum over 1 function(s)); cheap (<= 2) prefers wide nodes\",\"algorithm\""
      + ":\"count window: the key's last 5 records in arrival order, an in-order aggregator; every functi"
      + "on is invertible and cheap: subtract-on-evict, 1 combine + 1 inverse per record (floating-point "
      + "sums may drift by rounding)\",\"slicing\":\"count windows are not sliced\",\"sharing\":\"a count"
      + " window has its own aggregator per key (whole-window queries)\"}}]}";

  @Test
  void aStoredPlanReadsAndWritesBackUnchanged() {
    Plan p = Plan.fromJson(STORED);
    assertEquals(STORED, p.toJson());
    GroupPlan time = p.groups().get(0);
    GroupPlan count = p.groups().get(1);
    assertEquals(GroupKind.TIME, time.kind());
    assertEquals(GroupKind.COUNT, count.kind());
    assertEquals(Algorithm.BFIBA2, time.algorithm());
    assertEquals(Algorithm.SOE, count.algorithm());
    assertEquals(new GroupPlan.Part("quantile", "v", Map.of("rank", 0.9)), time.product().get(1));
    assertEquals(new GroupPlan.Part("count", null, Map.of()), count.product().get(0));
  }

  /** The planner's plan has the stored plan's form and choices (the reasons' wording aside). */
  @Test
  void thePlannerWritesTheStoredForm() {
    Plan fresh = Planner.plan(QuerySpec.fromJson(QUERY));
    assertEquals(withoutReasons(STORED), withoutReasons(fresh.toJson()));
    assertEquals(fresh.toJson(), Plan.fromJson(fresh.toJson()).toJson());
    assertEquals(fresh, Plan.fromJson(fresh.toJson()));
  }

  @SuppressWarnings("unchecked")
  private static Object withoutReasons(String planJson) {
    Map<String, Object> m = (Map<String, Object>) Json.parse(planJson);
    for (Object g : (List<Object>) m.get("groups")) {
      assertInstanceOf(Map.class, ((Map<String, Object>) g).remove("reasons"));
    }
    return m;
  }

  @Test
  void aliasesReadAsTheirCanonicalAlgorithm() {
    String reactive = STORED.replace("\"algorithm\":\"soe\"", "\"algorithm\":\"reactive\"");
    assertTrue(reactive.contains("reactive"));
    GroupPlan g = Plan.fromJson(reactive).groups().get(1);
    assertEquals(Algorithm.FLATFAT, g.algorithm());
    assertTrue(Plan.fromJson(reactive).toJson().contains("\"algorithm\":\"flatfat\""));
  }

  @Test
  void badKindOrAlgorithmNamesTheValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Plan.fromJson(STORED.replace("\"kind\":\"count\",\"windows\":[2]", "\"kind\":\"counts\",\"windows\":[2]")));
    assertTrue(e.getMessage().contains("kind") && e.getMessage().contains("'counts'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Plan.fromJson(STORED.replace("\"algorithm\":\"soe\"", "\"algorithm\":\"quick_sort\"")));
    String text = io.swag.core.SwagException.text(e);
    assertTrue(text.startsWith("groups[1].algorithm: unknown algorithm 'quick_sort'") && text.contains("daba_lite"), text);
  }
}

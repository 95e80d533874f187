package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The queries whose executed plan every engine's test reads back (in-order, unknown order,
 * out-of-order, two windows sharing a tree, sliced, expensive sliced, count windows), each with the
 * planner rule it is meant to exercise. Shared with the connectors' tests through swag-core's test jar.
 */
public final class PlanCases {
  private PlanCases() {}

  /** A query on (k, ts, v) with the given order. */
  public static QuerySpec.Builder query(String order) {
    return QuerySpec.builder().key("k").time("ts").order(order);
  }

  /** Name, query, and the planner rule the query is meant to exercise (checked on the explain text). */
  public static Stream<Arguments> queries() {
    return Stream.of(
        Arguments.of("in_order", query("in_order").window(WindowSpec.time(1000, 100).name("w")
            .aggregate("mx", "max", "v")).build(), "daba_lite"),
        Arguments.of("unknown", query("unknown").window(WindowSpec.time(1000, 100).name("w")
            .aggregate("mx", "max", "v")).build(), "adaptive"),
        Arguments.of("out_of_order", query("out_of_order").window(WindowSpec.time(1000, 100).name("w")
            .aggregate("mx", "max", "v").aggregate("sd", "stddev", "v")).build(), "bfiba4"),
        Arguments.of("shared_tree", query("out_of_order").window(WindowSpec.time(500, 100).name("short")
            .aggregate("mx", "max", "v")).window(WindowSpec.time(2000, 100).name("long")
            .aggregate("mx_long", "max", "v")).build(), "range"),
        Arguments.of("sliced", query("out_of_order").window(WindowSpec.time(60_000, 20_000).name("m1")
            .aggregate("mx", "max", "v")).window(WindowSpec.time(120_000, 20_000).name("m2")
            .aggregate("s", "sum", "v")).build(), "sliced"),
        Arguments.of("sliced_expensive", query("in_order").window(WindowSpec.time(10_000, 2_000).name("h")
            .aggregate("u", "hll", "v")).build(), "bfiba2"),
        Arguments.of("count", query("in_order").window(WindowSpec.time(1000, 100).name("w")
            .aggregate("mx", "max", "v")).window(WindowSpec.count(5, 1).name("c5").aggregate("s", "sum", "v"))
            .window(WindowSpec.count(4, 2).name("c4").aggregate("mx4", "max", "v")).build(), "count"));
  }

  /** Asserts that the explained plan has the feature the query is meant to exercise. */
  public static void assertExercises(ExplainedPlan e, String rule) {
    ExplainedPlan.Group g = e.groups().get(0);
    switch (rule) {
      case "range" -> assertFalse(g.rangeQueries().isEmpty(), "range queries: " + e);
      case "sliced" -> assertTrue(g.slicing() && g.sliceMs() == 20_000 && g.rangeQueries().size() == 1, "sliced: " + e);
      case "bfiba2" -> assertTrue(g.algorithm().equals("bfiba2") && g.slicing() && g.sliceMs() == 2_000, "" + e);
      case "count" -> assertEquals(List.of("time", "count", "count"), e.groups().stream().map(ExplainedPlan.Group::kind)
          .toList(), "" + e);
      default -> assertEquals(rule, g.algorithm(), "" + e);
    }
  }
}

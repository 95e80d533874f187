package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test oracle: the groups as {@link Plan#explain()} prints them (algorithm, fallback tree, min
 * arity, slices, eviction window, range queries), parsed from the text with no use of
 * {@link ExecutedPlan}, and the check that an engine's read-back ran exactly that. Shared with the
 * connectors' tests through swag-core's test jar.
 */
public record ExplainedPlan(List<Group> groups) {
  public record Group(String kind, List<String> windows, String algorithm, String fallbackTree, int minArity,
      long sliceMs, boolean slicing, boolean storedSlices, String evictionWindow, List<String> rangeQueries) {}

  private static final Pattern HEAD = Pattern.compile("^group \\d+ \\((time|count) windows: (.*)\\): one aggregator per key$");
  private static final Pattern ALGORITHM = Pattern.compile("^  algorithm: (\\S+)(?: \\(fallback tree (\\S+)\\))?$");
  private static final Pattern ARITY = Pattern.compile("^  min arity: (\\d+|none \\(no tree\\))$");
  private static final Pattern SLICES = Pattern.compile(
      "^  slices(?:, local executor \\(in memory\\))?: (?:gcd (\\d+) ms, (used|not used)|none \\(count windows\\))$");
  private static final Pattern STORED = Pattern.compile(
      "^  slices, engines with state \\(Flink operator and swag_window, Spark\\): (used|not used), .*$");
  private static final Pattern SHARING = Pattern.compile("^  eviction bounded by: (.*); range queries: (.*)$");
  /** The in-order algorithm an in-order plan starts with (Planner: {@code adaptive} is DABA Lite until out of order). */
  private static final Map<String, String> IN_ORDER_START = Map.of("daba_lite", "daba_lite", "adaptive", "daba_lite");

  public static ExplainedPlan parse(String explain) {
    List<Group> out = new ArrayList<>();
    String[] lines = explain.split("\n");
    for (int i = 0; i < lines.length; i++) {
      Matcher h = HEAD.matcher(lines[i]);
      if (!h.matches()) {
        continue;
      }
      String kind = h.group(1);
      List<String> windows = List.of(h.group(2).split(", "));
      String algorithm = null;
      String fallback = null;
      int arity = -1;
      long slice = -1;
      boolean slicing = false;
      boolean stored = false;
      String eviction = null;
      List<String> range = null;
      for (int j = i + 1; j < lines.length && !HEAD.matcher(lines[j]).matches(); j++) {
        Matcher m;
        if ((m = ALGORITHM.matcher(lines[j])).matches()) {
          algorithm = m.group(1);
          fallback = m.group(2);
        } else if ((m = ARITY.matcher(lines[j])).matches()) {
          arity = m.group(1).startsWith("none") ? 0 : Integer.parseInt(m.group(1));
        } else if ((m = SLICES.matcher(lines[j])).matches()) {
          slice = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
          slicing = "used".equals(m.group(2));
        } else if ((m = STORED.matcher(lines[j])).matches()) {
          stored = m.group(1).equals("used");
        } else if ((m = SHARING.matcher(lines[j])).matches()) {
          eviction = m.group(1);
          range = m.group(2).equals("none") ? List.of() : List.of(m.group(2).split(", "));
        }
      }
      if (algorithm == null || arity < 0 || slice < 0 || eviction == null) {
        throw new AssertionError("explain() text not understood for group at line " + i + ":\n" + explain);
      }
      out.add(new Group(kind, windows, algorithm, fallback, arity, slice, slicing, stored, eviction, range));
    }
    assertFalse(out.isEmpty(), "no group in explain():\n" + explain);
    return new ExplainedPlan(out);
  }

  /**
   * Asserts that {@code executed} runs these groups as an engine that keeps state runs them
   * ({@link WindowGroup#storedGroups}): a group explained with slices for engines with state on the
   * plan's tree (the explained one, or the fallback tree of an in-order plan), its records combined
   * into slices of the explained gcd; any other group as explained for the local executor.
   */
  public void assertExecutedWithStoredSlices(ExecutedPlan executed) {
    List<Group> asRun = new ArrayList<>();
    for (Group e : groups) {
      if (e.storedSlices()) {
        e = new Group(e.kind(), e.windows(), e.algorithm(), e.fallbackTree(), e.minArity(), e.sliceMs(), true, true,
            e.evictionWindow(), e.rangeQueries());
      }
      asRun.add(e);
    }
    new ExplainedPlan(asRun).assertExecutedBy(executed, false);
  }

  /**
   * Asserts that {@code executed} runs these groups: per group the same windows, the algorithm
   * (an in-order plan: DABA Lite with the fallback tree; a tree plan: that tree), the min arity of the
   * tree, slicing on/off and its width, the eviction window and the range-query windows.
   * {@code slicedByEngine}: the engine slices before the aggregator (Spark's pre-aggregation), so the
   * aggregator itself is expected not to slice.
   */
  public void assertExecutedBy(ExecutedPlan executed, boolean slicedByEngine) {
    assertEquals(groups.size(), executed.groups().size(), "groups, executed: " + executed.describe());
    for (int i = 0; i < groups.size(); i++) {
      Group e = groups.get(i);
      ExecutedPlan.Group x = executed.groups().get(i);
      String where = "group " + i + " executed as " + x + "\nexplained: " + e;
      assertEquals(e.kind(), x.kind().json(), where);
      assertEquals(e.windows(), x.windowNames(), where);
      if (e.kind().equals("count")) {
        assertEquals(e.algorithm(), x.algorithm(), where);
        assertNull(x.tree(), where);
        assertEquals(0, x.minArity(), where);
        assertFalse(x.slicing(), where);
        continue;
      }
      if (e.algorithm().startsWith("bfiba")) {
        assertEquals(e.algorithm(), x.algorithm(), where);
        assertFalse(x.adaptive(), where);
        assertEquals(e.algorithm(), x.tree(), where);
      } else {
        assertEquals(IN_ORDER_START.get(e.algorithm()), x.algorithm(), where);
        assertTrue(x.adaptive(), where);
        assertFalse(x.switched(), where);
        assertEquals(e.fallbackTree(), x.tree(), where);
      }
      assertEquals(e.minArity(), x.minArity(), where);
      assertEquals(e.slicing() && !slicedByEngine, x.slicing(), where);
      assertEquals(e.slicing() && !slicedByEngine ? e.sliceMs() : 0, x.sliceMs(), where);
      assertEquals(e.evictionWindow(), x.windowNames().get(x.windows().indexOf(x.evictionWindow())), where);
      List<String> range = new ArrayList<>();
      for (int w : x.rangeQueryWindows()) {
        range.add(x.windowNames().get(x.windows().indexOf(w)));
      }
      assertEquals(e.rangeQueries(), range, where);
    }
  }
}

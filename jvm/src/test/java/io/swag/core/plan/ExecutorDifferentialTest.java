package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link LocalExecutor} against {@link NaiveOracle} on seeded random out-of-order streams with a
 * bounded-out-of-orderness watermark (max time seen - delay, advanced after each record), some
 * records far behind it (late beyond lateness). After every call, the rows emitted by the call are
 * compared as multisets (their order within one call may differ); late records exactly.
 */
class ExecutorDifferentialTest {

  static final String FNS = "[{\"output\":\"%1$s_sum\",\"function\":\"sum\",\"column\":\"v\"},"
      + "{\"output\":\"%1$s_max\",\"function\":\"max\",\"column\":\"v\"},"
      + "{\"output\":\"%1$s_argmax\",\"function\":\"argmax\",\"column\":\"v\"},"
      + "{\"output\":\"%1$s_collect\",\"function\":\"collect\",\"column\":\"v\"},"
      + "{\"output\":\"%1$s_n\",\"function\":\"count\",\"column\":null}]";

  static String win(String name, long size, long slide, long offset) {
    return "{\"name\":\"" + name + "\",\"size\":" + size + ",\"slide\":" + slide + ",\"offset\":" + offset
        + ",\"aggregates\":" + String.format(FNS, name) + "}";
  }

  static String countWin(String name, long size, long slide) {
    return "{\"name\":\"" + name + "\",\"kind\":\"count\",\"size\":" + size + ",\"slide\":" + slide
        + ",\"aggregates\":" + String.format(FNS, name) + "}";
  }

  static QuerySpec spec(String emit, String order, long lateness, String... windows) {
    return QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"lateness_ms\":" + lateness + ",\"order\":\""
        + order + "\",\"emit\":\"" + emit + "\",\"windows\":[" + String.join(",", windows) + "]}");
  }

  /** Three time windows: tumbling, sliding, sliding with offset; gcd 10. */
  static final String[] SHARED = {win("tumble", 100, 100, 0), win("slide", 300, 100, 0), win("off", 250, 50, 20)};

  /** Records: keys k0..k{keys-1}, times drifting forward with jitter, integer values (ties). */
  static List<Map<String, Object>> stream(long seed, int n, int keys, int disorder, double farLate) {
    Random rnd = new Random(seed);
    List<Map<String, Object>> out = new ArrayList<>();
    long base = 1000;
    for (int i = 0; i < n; i++) {
      base += rnd.nextInt(4);
      long t = base - (rnd.nextDouble() < 0.5 ? rnd.nextInt(disorder + 1) : 0);
      if (rnd.nextDouble() < farLate) {
        t -= 200 + rnd.nextInt(600);
      }
      Map<String, Object> r = new HashMap<>();
      r.put("k", "k" + rnd.nextInt(keys));
      r.put("t", t);
      r.put("v", (double) rnd.nextInt(7));
      out.add(r);
    }
    return out;
  }

  /** Rows compared and late records of one {@link #run}. */
  record Counts(int rows, long late) {}

  /** Runs executor and oracle side by side; returns the rows compared and the late records. */
  static Counts run(Plan plan, List<Map<String, Object>> records, long delay) {
    LocalExecutor ex = new LocalExecutor(plan);
    NaiveOracle or = new NaiveOracle(plan.spec());
    long max = Long.MIN_VALUE;
    int rows = 0;
    for (int i = 0; i < records.size(); i++) {
      Map<String, Object> r = records.get(i);
      ex.process(r);
      or.process(r);
      rows += compare(ex, or, "record " + i + " " + r);
      max = Math.max(max, ((Number) r.get("t")).longValue());
      ex.advanceWatermark(max - delay);
      or.advance(max - delay);
      rows += compare(ex, or, "watermark " + (max - delay) + " after record " + i);
    }
    ex.finish();
    or.finish();
    rows += compare(ex, or, "finish");
    assertEquals(or.lateTotal, ex.lateCount(), "late count");
    assertEquals(0, ex.rejectedCount(), "rejected: " + ex.takeRejected());
    return new Counts(rows, ex.lateCount());
  }

  static int compare(LocalExecutor ex, NaiveOracle or, String where) {
    List<String> a = canon(ex.takeRows());
    List<String> b = canon(new ArrayList<>(or.rows));
    or.rows.clear();
    assertEquals(b, a, "rows at " + where);
    List<Map<String, Object>> late = ex.takeLate();
    assertEquals(or.late, late, "late records at " + where);
    or.late.clear();
    return a.size();
  }

  static List<String> canon(List<Map<String, Object>> rows) {
    List<String> s = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      s.add(r.toString());
    }
    s.sort(null);
    return s;
  }

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    for (long lateness : new long[] {0, 150}) {
      l.add(Arguments.of("shared window_end L=" + lateness, spec("window_end", "out_of_order", lateness, SHARED),
          null, 11L));
    }
    l.add(Arguments.of("shared window_end sliced", spec("window_end", "out_of_order", 150, SHARED),
        (UnaryOperator<GroupPlan>) g -> g.withSlicing(true), 12L));
    l.add(Arguments.of("shared window_end sliced L=0", spec("window_end", "out_of_order", 0, SHARED),
        (UnaryOperator<GroupPlan>) g -> g.withSlicing(true), 13L));
    l.add(Arguments.of("shared window_end bfiba2", spec("window_end", "out_of_order", 40, SHARED),
        (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("bfiba2", 2), 14L));
    l.add(Arguments.of("shared window_end adaptive forced", spec("window_end", "unknown", 40, SHARED),
        (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("adaptive", 8), 15L));
    for (long lateness : new long[] {0, 60}) {
      l.add(Arguments.of("per_record L=" + lateness, spec("per_record", "out_of_order", lateness, win("a", 100, 100, 0),
          win("b", 300, 10, 0)), null, 16L + lateness));
    }
    l.add(Arguments.of("single adaptive", spec("window_end", "unknown", 30, win("one", 200, 50, 10)), null, 17L));
    l.add(Arguments.of("single per_record adaptive", spec("per_record", "unknown", 30, win("one", 200, 50, 10)),
        null, 18L));
    l.add(Arguments.of("count + time", spec("window_end", "out_of_order", 20, win("tw", 100, 50, 0),
        countWin("c5", 5, 2), countWin("c3", 3, 1)), null, 19L));
    l.add(Arguments.of("count per_record", spec("per_record", "out_of_order", 0, countWin("c4", 4, 2)), null, 20L));
    return l.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void againstOracle(String name, QuerySpec spec, UnaryOperator<GroupPlan> change, long seed) {
    Plan plan = Planner.plan(spec);
    if (change != null) {
      plan = plan.withGroup(0, change.apply(plan.groups().get(0)));
    }
    plan = Plan.fromJson(plan.toJson()); // run what was serialized
    int rows = 0;
    long late = 0;
    for (int round = 0; round < 3; round++) {
      List<Map<String, Object>> recs = stream(seed * 100 + round, 1500, 1 + round * 2, 30, 0.03);
      Counts c = run(plan, recs, 10 + round * 10);
      rows += c.rows();
      late += c.late();
    }
    assertTrue(rows > 500, "only " + rows + " rows compared");
    // about 3% of the records are 200..800 ms behind: late, except where a count window takes every record
    boolean countWindows = spec.windows().stream().anyMatch(w -> !w.isTime());
    if (countWindows) {
      assertEquals(0, late, "count windows accept every record");
    } else {
      assertTrue(late > 10, "only " + late + " late records compared");
    }
  }

  @Test
  void inOrderStreamsUseTheFifoAndMatch() {
    QuerySpec spec = spec("window_end", "in_order", 0, win("one", 200, 50, 10));
    Plan plan = Planner.plan(spec);
    assertEquals(Algorithm.DABA_LITE, plan.groups().get(0).algorithm());
    List<Map<String, Object>> recs = stream(5, 2000, 3, 0, 0);
    Counts c = run(plan, recs, 0);
    assertTrue(c.rows() > 100, "rows: " + c.rows());
    assertEquals(0, c.late(), "an in-order stream has no late records");
  }

  @Test
  void soeRunsCheapInvertibleFunctions() {
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"order\":\"in_order\",\"windows\":[{\"size\":"
        + "200,\"slide\":50,\"aggregates\":[{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"},"
        + "{\"output\":\"n\",\"function\":\"count\"}]}]}");
    Plan planned = Planner.plan(spec);
    assertEquals(Algorithm.DABA_LITE, planned.groups().get(0).algorithm(), "in order, time windows: DABA Lite for every function");
    Plan plan = planned.withGroup(0, planned.groups().get(0).withAlgorithm("soe", 8));
    assertTrue(run(plan, stream(6, 2000, 3, 0, 0), 0).rows() > 100);
    Counts broken = run(plan, stream(7, 2000, 3, 20, 0.02), 5); // broken promise: switches to the tree
    assertTrue(broken.rows() > 100 && broken.late() > 0, "rows, late: " + broken);
  }

  @Test
  void noKeyAndTwoKeys() {
    QuerySpec none = QuerySpec.fromJson("{\"key\":[],\"time\":\"t\",\"lateness_ms\":20,\"windows\":["
        + win("a", 100, 20, 0) + "]}");
    assertTrue(run(Planner.plan(none), stream(8, 1500, 3, 30, 0.02), 10).rows() > 50);
    QuerySpec two = QuerySpec.fromJson("{\"key\":[\"k\",\"j\"],\"time\":\"t\",\"lateness_ms\":20,\"windows\":["
        + win("a", 100, 20, 0) + "," + win("b", 60, 60, 0) + "]}");
    List<Map<String, Object>> recs = stream(9, 1500, 3, 30, 0.02);
    Random rnd = new Random(1);
    for (Map<String, Object> r : recs) {
      r.put("j", (long) rnd.nextInt(2));
    }
    assertTrue(run(Planner.plan(two), recs, 10).rows() > 50);
  }
}

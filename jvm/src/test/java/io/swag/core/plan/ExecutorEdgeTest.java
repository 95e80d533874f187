package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rejected and late records, row layout, the row fast path, processing time, hand-checked rows. */
class ExecutorEdgeTest {

  static final QuerySpec SPEC = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"lateness_ms\":10,"
      + "\"windows\":[{\"name\":\"w\",\"size\":100,\"slide\":50,\"aggregates\":["
      + "{\"output\":\"mx\",\"function\":\"max\",\"column\":\"v\"},{\"output\":\"n\",\"function\":\"count\"}]}]}");

  static Map<String, Object> rec(Object k, Object t, Object v) {
    Map<String, Object> m = new HashMap<>();
    m.put("k", k);
    m.put("t", t);
    m.put("v", v);
    return m;
  }

  @Test
  void handCheckedRowsLateAndRejected() {
    LocalExecutor ex = new LocalExecutor(Planner.plan(SPEC));
    ex.process(rec("a", 10L, 1.0));
    ex.process(rec("a", 60L, 5.0));
    ex.process(rec("b", 70L, 2.0));
    ex.advanceWatermark(99);
    List<Map<String, Object>> rows = ex.takeRows();
    // windows [-50, 50) (fired at 49) and [0, 100) (fired at 99)
    assertEquals(ExecutorDifferentialTest.canon(List.of(
        row("a", -50, 50, 1.0, 1L),
        row("a", 0, 100, 5.0, 2L),
        row("b", 0, 100, 2.0, 1L))), ExecutorDifferentialTest.canon(rows));
    assertEquals(row("a", -50, 50, 1.0, 1L), rows.get(0), "fires in watermark order");
    assertEquals(List.of("k", "window", "window_start", "window_end", "mx", "n"), new ArrayList<>(rows.get(0).keySet()));
    // late but allowed (99 < 99 + 10): updates [0, 100) and [50, 150) is still open
    ex.process(rec("a", 95L, 9.0));
    assertEquals(List.of(row("a", 0, 100, 9.0, 3L)), ex.takeRows());
    // too late for every window: [0,100) closed at 109, [50,150) still open -> accepted
    ex.advanceWatermark(120);
    ex.process(rec("a", 40L, 7.0)); // windows [-50,50) and [0,100): both past lateness -> late
    assertEquals(1, ex.lateCount());
    Map<String, Object> lateRec = ex.takeLate().get(0);
    assertEquals(40L, lateRec.get("t"));
    // rejected records, with reasons
    Map<String, Object> bad = rec(null, 130L, 1.0);
    ex.process(bad);
    ex.process(rec("a", null, 1.0));
    ex.process(rec("a", "soon", 1.0));
    ex.process(rec("a", 130L, Double.NaN));
    ex.process(rec("a", 130L, "text"));
    assertEquals(5, ex.rejectedCount());
    List<Map<String, Object>> rej = ex.takeRejected();
    assertSame(bad, rej.get(0).get("record"));
    List<String> reasons = new ArrayList<>();
    for (Map<String, Object> r : rej) {
      reasons.add((String) r.get("reason"));
    }
    assertEquals("key column 'k' is null", reasons.get(0));
    assertEquals("time column 't' is null", reasons.get(1));
    assertEquals("time column 't': unparsable time \"soon\" (epoch ms, a timestamp or an ISO-8601 string)",
        reasons.get(2));
    assertEquals("column 'v' is NaN", reasons.get(3));
    assertTrue(reasons.get(4).contains("max") && reasons.get(4).contains("text"), reasons.get(4));
    ex.finish();
    assertEquals(ExecutorDifferentialTest.canon(List.of(row("a", 50, 150, 9.0, 2L), row("b", 50, 150, 2.0, 1L))),
        ExecutorDifferentialTest.canon(ex.takeRows()));
    assertEquals(0, ex.takeLate().size());
  }

  static Map<String, Object> row(String k, long s, long e, double mx, long n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("k", k);
    m.put("window", "w");
    m.put("window_start", s);
    m.put("window_end", e);
    m.put("mx", mx);
    m.put("n", n);
    return m;
  }

  @Test
  void rowFastPathEqualsMapPath() {
    List<Map<String, Object>> recs = ExecutorDifferentialTest.stream(3, 2000, 3, 30, 0.03);
    Plan plan = Planner.plan(ExecutorDifferentialTest.spec("window_end", "out_of_order", 40,
        ExecutorDifferentialTest.SHARED));
    LocalExecutor a = new LocalExecutor(plan);
    List<String> order = List.of("x", "v", "t", "k");
    LocalExecutor b = new LocalExecutor(plan, order);
    for (Map<String, Object> r : recs) {
      a.process(r);
      b.process(new Object[] {"ignored", r.get("v"), r.get("t"), r.get("k")});
      a.advanceWatermark(((Number) r.get("t")).longValue() - 20);
      b.advanceWatermark(((Number) r.get("t")).longValue() - 20);
    }
    a.finish();
    b.finish();
    List<Map<String, Object>> ra = a.takeRows();
    assertTrue(ra.size() > 300, "rows: " + ra.size());
    assertEquals(ra, b.takeRows());
    List<Map<String, Object>> la = a.takeLate();
    List<Map<String, Object>> lb = b.takeLate();
    assertEquals(la.size(), lb.size());
    assertTrue(la.size() > 0);
    assertEquals(la.get(0).get("t"), lb.get(0).get("t"));
    assertEquals(Arrays.asList("x", "v", "t", "k"), new ArrayList<>(lb.get(0).keySet()));
    assertThrows(IllegalArgumentException.class, () -> new LocalExecutor(plan, List.of("k", "t")));
  }

  @Test
  void processingTimeAndTimeFormats() {
    QuerySpec spec = QuerySpec.fromJson("{\"windows\":[{\"size\":3,\"slide\":3,\"aggregates\":["
        + "{\"output\":\"c\",\"function\":\"collect\",\"column\":\"v\"}]}]}");
    LocalExecutor ex = new LocalExecutor(Planner.plan(spec));
    for (int i = 0; i < 7; i++) {
      ex.process(Map.of("v", (long) i));
    }
    List<Map<String, Object>> rows = ex.takeRows();
    assertEquals(2, rows.size());
    assertEquals(List.of(0L, 1L, 2L), rows.get(0).get("c"));
    assertEquals(List.of(3L, 4L, 5L), rows.get(1).get("c"));
    ex.finish();
    assertEquals(List.of(6L), ex.takeRows().get(0).get("c"));
    assertEquals(1_000L, RowContract.parseTime(Instant.ofEpochMilli(1000)));
    assertEquals(1_000L, RowContract.parseTime("1970-01-01T00:00:01Z"));
    assertEquals(1_000L, RowContract.parseTime("1970-01-01 00:00:01"));
    assertEquals(1_000L, RowContract.parseTime(1000.0));
    assertEquals(null, RowContract.parseTime(1000.5));
    assertEquals(null, RowContract.parseTime(List.of()));
  }

  @Test
  void perRecordRows() {
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"emit\":\"per_record\",\"windows\":["
        + "{\"name\":\"w\",\"size\":100,\"aggregates\":[{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"}]}]}");
    LocalExecutor ex = new LocalExecutor(Planner.plan(spec));
    ex.process(rec("a", 10L, 1.0));
    ex.process(rec("a", 100L, 2.0));
    ex.process(rec("a", 110L, 4.0));
    List<Map<String, Object>> rows = ex.takeRows();
    assertEquals(List.of(1.0, 3.0, 6.0), rows.stream().map(r -> r.get("s")).toList());
    assertEquals(List.of(11L, 101L, 111L), rows.stream().map(r -> r.get("window_end")).toList());
    ex.process(rec("a", 200L, 8.0)); // (100, 200]: 4 + 8
    assertEquals(12.0, ex.takeRows().get(0).get("s"));
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CountWindow} (the count window every engine runs) against a recompute from the raw records
 * on seeded traces: {@code collect} (order-sensitive) and {@code sum} of the last {@code size} records,
 * every {@code slide} records or every record; the ring of retained rows (what an engine writes to its
 * state) against the records themselves; and a restore from those rows continuing exactly as the
 * window it was taken from.
 */
class CountWindowTest {
  private static CountGroup group(long size, long slide, boolean perRecord) {
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"emit\":\""
        + (perRecord ? "per_record" : "window_end") + "\",\"windows\":[{\"name\":\"c\",\"kind\":\"count\",\"size\":"
        + size + ",\"slide\":" + slide + ",\"aggregates\":[{\"output\":\"l\",\"function\":\"collect\",\"column\":\"v\"},"
        + "{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"}]}]}");
    return CountGroup.countGroups(Planner.plan(spec), List.of("k", "t", "v")).get(0);
  }

  /** The rows a count window must emit after each record of {@code values}: "start end [values] sum". */
  private static List<String> expected(List<Double> values, long size, long slide, boolean perRecord, int from) {
    List<String> out = new ArrayList<>();
    for (int c = from + 1; c <= values.size(); c++) {
      if (perRecord || c % slide == 0) {
        int lo = (int) Math.max(0, c - size);
        List<Double> in = values.subList(lo, c);
        double sum = 0;
        for (double v : in) {
          sum += v;
        }
        out.add(lo + " " + c + " " + in + " " + sum);
      }
    }
    return out;
  }

  private static CountWindow.Output into(List<String> got, CountGroup g) {
    return (start, end, res) -> {
      Object[] v = g.outputValues(res);
      got.add(start + " " + end + " " + v[0] + " " + v[1]);
    };
  }

  @Test
  void matchesARecomputeAndRestoresFromItsRows() {
    Random rnd = new Random(42);
    for (int trial = 0; trial < 60; trial++) {
      long size = 1 + rnd.nextInt(trial < 30 ? 8 : 200);
      long slide = 1 + rnd.nextInt((int) size);
      boolean perRecord = rnd.nextBoolean();
      CountGroup g = group(size, slide, perRecord);
      CountWindow w = g.newKey(true);
      int n = 1 + rnd.nextInt(600);
      int cut = rnd.nextInt(n + 1);
      List<Double> values = new ArrayList<>();
      List<Long> times = new ArrayList<>();
      List<String> got = new ArrayList<>();
      for (int i = 0; i < cut; i++) {
        double v = rnd.nextInt(50) - 25;
        long t = 1000 + i;
        values.add(v);
        times.add(t);
        w.insert(t, new Object[] {"a", t, v}, into(got, g));
      }
      // what an engine stores: the count and the window's rows, oldest first
      List<Object[]> rows = new ArrayList<>();
      List<Long> rowTimes = new ArrayList<>();
      w.forEachRow((t, r) -> {
        rowTimes.add(t);
        rows.add(r);
      });
      int held = (int) Math.min(size, cut);
      assertEquals(held, rows.size(), "retained rows");
      for (int i = 0; i < held; i++) {
        assertEquals(values.get(cut - held + i), rows.get(i)[2], "retained row " + i);
        assertEquals(times.get(cut - held + i), rowTimes.get(i), "retained time " + i);
      }
      CountWindow r = g.newKey(true);
      r.restore(w.count(), rowTimes.stream().mapToLong(Long::longValue).toArray(), rows.toArray(new Object[0][]),
          rows.size());
      assertEquals(w.count(), r.count());
      assertEquals(w.size(), r.size());
      for (int i = cut; i < n; i++) {
        double v = rnd.nextInt(50) - 25;
        values.add(v);
        r.insert(1000 + i, new Object[] {"a", 1000L + i, v}, into(got, g));
      }
      assertEquals(expected(values, size, slide, perRecord, 0), got,
          "size " + size + " slide " + slide + " per_record " + perRecord + " cut " + cut);
    }
  }

  @Test
  void keepsNoRowsUnlessAsked() {
    CountGroup g = group(3, 1, false);
    CountWindow w = g.newKey(false);
    w.insert(1, new Object[] {"a", 1L, 1.0}, (s, e, r) -> {});
    assertThrows(IllegalStateException.class, () -> w.forEachRow((t, r) -> {}));
  }

  @Test
  void refusesARestoreOfMoreRowsThanRecords() {
    CountGroup g = group(3, 1, false);
    assertThrows(IllegalArgumentException.class,
        () -> g.newKey(true).restore(1, new long[] {1, 2}, new Object[][] {{"a", 1L, 1.0}, {"a", 2L, 2.0}}, 2));
  }

  @Test
  void aCountGroupRefusesATimeGroupPlan() {
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"windows\":[{\"name\":\"w\",\"size\":10,"
        + "\"aggregates\":[{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"}]}]}");
    Plan p = Planner.plan(spec);
    assertThrows(IllegalArgumentException.class,
        () -> new CountGroup(spec, p.groups().get(0), java.util.Map.of("k", 0, "t", 1, "v", 2)));
  }
}

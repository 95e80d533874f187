package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WindowGroup} / {@link KeyWindows} driven the way the engine operators drive them, against
 * {@link NaiveOracle} on seeded out-of-order streams:
 *
 * <ul>
 *   <li>{@code flink}: one record at a time, the watermark advanced after each record, every key
 *       whose {@link KeyWindows#nextTimer()} is due fired (a timer service);
 *   <li>{@code spark-update}: micro-batches; per key one {@link KeyWindows#insertBatch} with the
 *       watermark of the previous batch, then the timers; one updated row per window and batch;
 *   <li>{@code spark-final}: micro-batches, {@linkplain WindowGroup#finalOnly() final} emission
 *       (append mode): each window exactly once, after its lateness.
 * </ul>
 * Every few steps every key is checkpointed ({@link KeyWindows#forEachRow}) and rebuilt
 * ({@link KeyWindows#restore}) in a fresh object, as after a failure. Compared: per (key, window,
 * start) the latest row, after every step; late records in total; {@code collect} checks order.
 */
class KeyWindowsEngineTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    String[] shared = ExecutorDifferentialTest.SHARED;
    long seed = 100;
    for (String mode : new String[] {"flink", "spark-update", "spark-final"}) {
      for (long lateness : new long[] {0, 150}) {
        l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "out_of_order", lateness, shared), null,
            seed++));
      }
      l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "out_of_order", 150, shared),
          (UnaryOperator<GroupPlan>) g -> g.withSlicing(true), seed++));
      l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "unknown", 40, shared),
          (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("adaptive", 8), seed++));
      l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "out_of_order", 40, shared),
          (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("bfiba2", 2), seed++));
    }
    l.add(Arguments.of("flink", ExecutorDifferentialTest.spec("per_record", "out_of_order", 60,
        ExecutorDifferentialTest.win("a", 100, 100, 0), ExecutorDifferentialTest.win("b", 300, 10, 0)), null, seed++));
    return l.stream();
  }

  @ParameterizedTest(name = "{0} {1} seed {3}")
  @MethodSource("cases")
  void engineDrivenEqualsOracle(String mode, QuerySpec spec, UnaryOperator<GroupPlan> change, long seed) {
    Plan plan = Planner.plan(spec);
    if (change != null) {
      plan = plan.withGroup(0, change.apply(plan.groups().get(0)));
    }
    boolean spark = mode.startsWith("spark");
    boolean finalOnly = mode.equals("spark-final");
    List<WindowGroup> groups = WindowGroup.timeGroups(plan, List.of("k", "t", "v"), finalOnly);
    assertEquals(1, groups.size());
    WindowGroup g = groups.get(0);
    assertEquals(finalOnly, g.finalOnly());
    List<Map<String, Object>> records = ExecutorDifferentialTest.stream(seed, 1500, 4, 40, 0.03);
    NaiveOracle or = new NaiveOracle(plan.spec());
    Map<String, KeyWindows> keys = new TreeMap<>();
    Map<String, String> got = new HashMap<>();
    Map<String, String> want = new HashMap<>();
    Map<String, Integer> finalEmits = new HashMap<>();
    long late = 0;
    long wm = Long.MIN_VALUE;
    long max = Long.MIN_VALUE;
    int batch = spark ? 23 : 1;
    int step = 0;
    for (int from = 0; from < records.size(); from += batch) {
      List<Map<String, Object>> part = records.subList(from, Math.min(records.size(), from + batch));
      Map<String, List<Object[]>> byKey = new LinkedHashMap<>();
      for (Map<String, Object> r : part) {
        or.process(r);
        long t = ((Number) r.get("t")).longValue();
        max = Math.max(max, t);
        if (!g.accepts(t, wm)) {
          late++;
          continue;
        }
        byKey.computeIfAbsent((String) r.get("k"), x -> new ArrayList<>()).add(new Object[] {r.get("k"), t, r.get("v")});
      }
      for (Map.Entry<String, List<Object[]>> e : byKey.entrySet()) {
        KeyWindows kw = keys.computeIfAbsent(e.getKey(), x -> g.newKey(true));
        Out out = new Out(g, e.getKey(), got, finalEmits);
        if (spark) {
          List<Object[]> rs = e.getValue();
          long[] ts = new long[rs.size()];
          for (int i = 0; i < ts.length; i++) {
            ts[i] = (Long) rs.get(i)[1];
          }
          kw.insertBatch(ts, rs.toArray(new Object[0][]), ts.length, wm, out);
        } else {
          for (Object[] row : e.getValue()) {
            kw.insert((Long) row[1], row, wm, out);
          }
        }
      }
      long next = max - 30;
      if (next > wm) {
        wm = next;
        or.advance(wm);
        fireAll(g, keys, wm, got, finalEmits);
      }
      latest(or.rows, want);
      or.rows.clear();
      if (!finalOnly && step % (spark ? 1 : 10) == 0) {
        assertEquals(want, got, "latest rows after step " + step);
      }
      if (++step % 7 == 0) {
        restoreAll(g, keys);
      }
    }
    or.finish();
    fireAll(g, keys, Long.MAX_VALUE, got, finalEmits);
    latest(or.rows, want);
    assertEquals(want, got, "latest rows at the end");
    assertEquals(or.lateTotal, late, "late records");
    assertTrue(want.size() > 50, "rows compared: " + want.size());
    if (finalOnly) {
      for (Map.Entry<String, Integer> e : finalEmits.entrySet()) {
        assertEquals(1, e.getValue(), "final mode emits " + e.getKey() + " once");
      }
    }
    for (KeyWindows kw : keys.values()) {
      assertTrue(kw.isIdle(), "every key idle after the final watermark");
      assertEquals(Long.MAX_VALUE, kw.nextTimer());
    }
  }

  private static void fireAll(WindowGroup g, Map<String, KeyWindows> keys, long wm, Map<String, String> got,
      Map<String, Integer> emits) {
    List<String> idle = new ArrayList<>();
    for (Map.Entry<String, KeyWindows> e : keys.entrySet()) {
      KeyWindows kw = e.getValue();
      if (kw.nextTimer() <= wm) {
        kw.fire(wm, new Out(g, e.getKey(), got, emits));
        assertTrue(wm == Long.MAX_VALUE || kw.nextTimer() > wm, "nothing due after fire: next " + kw.nextTimer() + " wm " + wm + " entries " + kw.entries() + " youngest " + (kw.entries() > 0 ? kw.aggregator().youngestTime() : 0) + " oldest " + (kw.entries() > 0 ? kw.aggregator().oldestTime() : 0));
      }
      if (kw.isIdle()) {
        idle.add(e.getKey());
      }
    }
    if (wm != Long.MAX_VALUE) {
      idle.forEach(keys::remove);
    }
  }

  /** Checkpoint and restore every key into a fresh KeyWindows. */
  private static void restoreAll(WindowGroup g, Map<String, KeyWindows> keys) {
    for (Map.Entry<String, KeyWindows> e : keys.entrySet()) {
      KeyWindows old = e.getValue();
      List<Long> ts = new ArrayList<>();
      List<Object[]> rows = new ArrayList<>();
      old.forEachRow((t, row) -> {
        ts.add(t);
        rows.add(row);
      });
      assertEquals(old.records(), rows.size());
      long[] ta = ts.stream().mapToLong(Long::longValue).toArray();
      KeyWindows fresh = g.newKey(true);
      fresh.restore(ta, rows.toArray(new Object[0][]), ta.length, old.firedWatermark());
      assertEquals(old.nextTimer(), fresh.nextTimer(), "next timer after restore of " + e.getKey());
      e.setValue(fresh);
    }
  }

  private record Out(WindowGroup g, String key, Map<String, String> got, Map<String, Integer> emits)
      implements KeyWindows.WindowOutput {
    @Override
    public void emit(int window, long start, long end, List<Object> results) {
      String id = key + "|" + g.window(window).name() + "|" + start;
      Object[] vals = g.outputValues(window, results);
      String[] cols = g.outputColumns(window);
      Map<String, Object> m = new TreeMap<>();
      for (int j = 0; j < cols.length; j++) {
        m.put(cols[j], vals[j]);
      }
      m.put("window_end", end);
      got.put(id, m.toString());
      emits.merge(id, 1, Integer::sum);
    }
  }

  private static void latest(List<Map<String, Object>> rows, Map<String, String> into) {
    for (Map<String, Object> r : rows) {
      String id = r.get("k") + "|" + r.get("window") + "|" + r.get("window_start");
      Map<String, Object> m = new TreeMap<>(r);
      m.remove("k");
      m.remove("window");
      m.remove("window_start");
      into.put(id, m.toString());
    }
  }
}

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
 *   <li>{@code spark-update-pre}, {@code spark-final-pre}: as the Spark connector runs a query of
 *       mergeable functions: each micro-batch is split in two "partitions", each combines its records
 *       per (key, slice) into one {@link ProductFunction.Lifted} partial, a slice is judged late or
 *       not by its start (its records' count goes to the late total) and inserted at its start.
 * </ul>
 * Every few steps every key is checkpointed ({@link KeyWindows#forEachRow}) and rebuilt
 * ({@link KeyWindows#restore}) in a fresh object, as after a failure. Compared: per (key, window,
 * start) the latest row, after every step; late records in total; {@code collect} checks order.
 */
class KeyWindowsEngineTest {

  /** The shared windows with only mergeable functions (commutative, primitive partials); exact on integer values. */
  static final String[] MERGEABLE = {mergeable("tumble", 100, 100, 0), mergeable("slide", 300, 100, 0),
      mergeable("off", 250, 50, 20)};

  private static String mergeable(String name, long size, long slide, long offset) {
    StringBuilder a = new StringBuilder("[");
    String[][] fns = {{"n", "count", null}, {"sum", "sum", "v"}, {"mean", "mean", "v"}, {"min", "min", "v"},
        {"max", "max", "v"}, {"maxc", "maxcount", "v"}, {"minc", "mincount", "v"}, {"bloom", "bloom", "v"},
        {"cm", "countmin", "v"}};
    for (String[] f : fns) {
      a.append(a.length() > 1 ? "," : "").append("{\"output\":\"").append(name).append('_').append(f[0])
          .append("\",\"function\":\"").append(f[1]).append("\",\"column\":")
          .append(f[2] == null ? "null" : "\"" + f[2] + "\"").append('}');
    }
    return "{\"name\":\"" + name + "\",\"size\":" + size + ",\"slide\":" + slide + ",\"offset\":" + offset
        + ",\"aggregates\":" + a + "]}";
  }

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
    for (String mode : new String[] {"spark-update-pre", "spark-final-pre"}) {
      for (long lateness : new long[] {0, 150}) {
        l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "out_of_order", lateness, MERGEABLE), null,
            seed++));
      }
      l.add(Arguments.of(mode, ExecutorDifferentialTest.spec("window_end", "unknown", 40, MERGEABLE),
          (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("adaptive", 8), seed++));
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
    boolean pre = mode.endsWith("-pre");
    boolean finalOnly = mode.startsWith("spark-final");
    List<WindowGroup> groups = WindowGroup.timeGroups(plan, List.of("k", "t", "v"), finalOnly);
    assertEquals(1, groups.size());
    WindowGroup g = groups.get(0);
    assertEquals(finalOnly, g.finalOnly());
    assertEquals(pre, g.function().isMergeable());
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
      if (pre) {
        late += insertPreAggregated(g, part, or, keys, wm, got, finalEmits);
        for (Map<String, Object> r : part) {
          max = Math.max(max, ((Number) r.get("t")).longValue());
        }
      } else {
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
        restoreAll(g, keys, pre);
      }
    }
    or.finish();
    fireAll(g, keys, Long.MAX_VALUE, got, finalEmits);
    latest(or.rows, want);
    assertEquals(want, got, "latest rows at the end");
    assertEquals(or.lateTotal, late, "late records");
    assertTrue(late > 5, "the stream (3% of the records 200..800 ms behind) makes late records: " + late);
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

  /**
   * The Spark connector's pre-aggregation of one micro-batch: two partitions (halves of the batch),
   * each one partial per (key, slice) in byte form; a slice late by its start counts its records
   * late; per key one insert of the accepted slices at their starts. Returns the late records.
   */
  private static long insertPreAggregated(WindowGroup g, List<Map<String, Object>> part, NaiveOracle or,
      Map<String, KeyWindows> keys, long wm, Map<String, String> got, Map<String, Integer> finalEmits) {
    long width = g.plan().sliceMs();
    long late = 0;
    Map<String, List<Object[]>> slicesByKey = new LinkedHashMap<>(); // (slice start, Lifted)
    int half = part.size() / 2;
    for (List<Map<String, Object>> partition : List.of(part.subList(0, half), part.subList(half, part.size()))) {
      Map<String, Map<Long, List<Object[]>>> groups = new LinkedHashMap<>();
      for (Map<String, Object> r : partition) {
        or.process(r);
        long t = ((Number) r.get("t")).longValue();
        groups.computeIfAbsent((String) r.get("k"), x -> new TreeMap<>())
            .computeIfAbsent(Math.floorDiv(t, width) * width, x -> new ArrayList<>())
            .add(new Object[] {r.get("k"), t, r.get("v")});
      }
      for (Map.Entry<String, Map<Long, List<Object[]>>> e : groups.entrySet()) {
        for (Map.Entry<Long, List<Object[]>> sl : e.getValue().entrySet()) {
          long s = sl.getKey();
          if (!g.accepts(s, wm)) {
            late += sl.getValue().size();
            continue;
          }
          ProductPartials p = (ProductPartials) g.function().newPartials();
          p.resize(2);
          List<Object[]> rows = sl.getValue();
          p.liftObject(0, rows.get(0), (Long) rows.get(0)[1]);
          for (int i = 1; i < rows.size(); i++) {
            p.liftObject(1, rows.get(i), (Long) rows.get(i)[1]);
            p.combine(0, 0, 1);
          }
          // through bytes, as over a shuffle and in the state store
          byte[] bytes = p.lifted(0).bytes().clone();
          slicesByKey.computeIfAbsent(e.getKey(), x -> new ArrayList<>())
              .add(new Object[] {s, new ProductFunction.Lifted(bytes)});
        }
      }
    }
    for (Map.Entry<String, List<Object[]>> e : slicesByKey.entrySet()) {
      KeyWindows kw = keys.computeIfAbsent(e.getKey(), x -> g.newKey(true));
      List<Object[]> sl = e.getValue();
      long[] ts = new long[sl.size()];
      Object[] values = new Object[sl.size()];
      for (int i = 0; i < ts.length; i++) {
        ts[i] = (Long) sl.get(i)[0];
        values[i] = sl.get(i)[1];
      }
      kw.insertCheckedBatch(ts, values, ts.length, wm, new Out(g, e.getKey(), got, finalEmits));
    }
    return late;
  }

  /** Checkpoint and restore every key into a fresh KeyWindows ({@code pre}: its values are slices). */
  private static void restoreAll(WindowGroup g, Map<String, KeyWindows> keys, boolean pre) {
    for (Map.Entry<String, KeyWindows> e : keys.entrySet()) {
      KeyWindows old = e.getValue();
      List<Long> ts = new ArrayList<>();
      List<Object> rows = new ArrayList<>();
      if (pre) {
        old.forEachValue((v, t) -> {
          ts.add(t);
          rows.add(v);
        });
      } else {
        old.forEachRow((t, row) -> {
          ts.add(t);
          rows.add(row);
        });
        assertEquals(old.records(), rows.size());
      }
      long[] ta = ts.stream().mapToLong(Long::longValue).toArray();
      KeyWindows fresh = g.newKey(true);
      fresh.restore(ta, rows.toArray(), ta.length, old.firedWatermark());
      assertEquals(old.nextTimer(), fresh.nextTimer(), "next timer after restore of " + e.getKey());
      e.setValue(fresh);
    }
  }

  record Out(WindowGroup g, String key, Map<String, String> got, Map<String, Integer> emits)
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

  static void latest(List<Map<String, Object>> rows, Map<String, String> into) {
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

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streams of {@link SlicedStragglersTest} (600/100 windows of {@code max} and {@code sum}, with
 * stragglers) through {@link KeyWindows} driven as the Spark connector drives it: micro-batches of
 * 23 records, each judged against the watermark of the batch before; the batch pre-aggregated in two
 * "partitions" into one partial per (key, slice) (through bytes), a slice late by its start counting
 * its records late; per key one {@link KeyWindows#insertCheckedBatch} of the slices at their
 * starts; then every key whose timer is due fired. Update mode (a row per window and batch) and
 * final mode (each window once, after its lateness). Compared with a naive recompute: per window the
 * latest row equals the aggregate of the records accepted by the batch contract, and the late count.
 */
class SlicedStragglersSparkTest {
  static final int BATCH = 23;

  static Stream<Arguments> cases() {
    List<Arguments> a = new ArrayList<>();
    for (long seed = 1; seed <= 6; seed++) {
      for (int d : new int[] {0, 150}) {
        for (long l : new long[] {0, 200, 1000}) {
          for (int q = 0; q < SlicedStragglersTest.QUERIES.length; q++) {
            for (boolean finalOnly : new boolean[] {false, true}) {
              a.add(Arguments.of(seed, d, l, q, finalOnly));
            }
          }
        }
      }
    }
    return a.stream();
  }

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}, query {3}, final {4}")
  @MethodSource("cases")
  void preAggregatedBatchesEqualNaiveRecompute(long seed, int disorder, long lateness, int query, boolean finalOnly) {
    long[][] windows = SlicedStragglersTest.QUERIES[query];
    List<Object[]> input = SlicedStragglersTest.generate(seed, 5000, 5, 6, disorder, 200);
    QuerySpec.Builder q = QuerySpec.builder().key("k").time("ts").latenessMs(lateness);
    for (int i = 0; i < windows.length; i++) {
      q.window(WindowSpec.time(windows[i][0], windows[i][1]).name("w" + i)
          .aggregate("mx" + i, "max", "v").aggregate("s" + i, "sum", "v"));
    }
    Plan plan = Planner.plan(q.build());
    List<WindowGroup> groups = WindowGroup.timeGroups(plan, SlicedStragglersTest.COLUMNS, finalOnly);
    assertEquals(1, groups.size());
    WindowGroup g = groups.get(0);
    assertTrue(g.preaggregates(), "every function mergeable: the connector pre-aggregates");
    long width = g.plan().sliceMs();

    Map<String, KeyWindows> keys = new TreeMap<>();
    Map<String, List<Object>> got = new TreeMap<>();
    Map<String, Integer> emits = new HashMap<>();
    // naive: per "key wN start" the accepted values; the late records
    Map<String, List<Double>> want = new TreeMap<>();
    long wantLate = 0, late = 0;
    long wm = Long.MIN_VALUE;
    for (int from = 0; from < input.size(); from += BATCH) {
      List<Object[]> part = input.subList(from, Math.min(input.size(), from + BATCH));
      for (Object[] r : part) {
        long t = (Long) r[1];
        boolean used = false;
        for (int i = 0; i < windows.length; i++) {
          long size = windows[i][0], slide = windows[i][1];
          for (long s = Math.floorDiv(t, slide) * slide; s > t - size; s -= slide) {
            if (s + size - 1 + lateness > wm || wm == Long.MIN_VALUE) {
              used = true;
              want.computeIfAbsent(r[0] + " w" + i + " " + s, x -> new ArrayList<>()).add((Double) r[2]);
            }
          }
        }
        if (!used) {
          wantLate++;
        }
      }
      Map<String, List<Object[]>> slicesByKey = new LinkedHashMap<>();
      int half = part.size() / 2;
      for (List<Object[]> partition : List.of(part.subList(0, half), part.subList(half, part.size()))) {
        Map<String, Map<Long, List<Object[]>>> byKey = new LinkedHashMap<>();
        for (Object[] r : partition) {
          long t = (Long) r[1];
          byKey.computeIfAbsent((String) r[0], x -> new TreeMap<>())
              .computeIfAbsent(Math.floorDiv(t, width) * width, x -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, Map<Long, List<Object[]>>> e : byKey.entrySet()) {
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
            byte[] bytes = p.lifted(0).bytes().clone();
            slicesByKey.computeIfAbsent(e.getKey(), x -> new ArrayList<>()).add(new Object[] {s, new ProductFunction.Lifted(bytes)});
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
        kw.insertCheckedBatch(ts, values, ts.length, wm, out(g, e.getKey(), got, emits));
      }
      long next = (Long) part.get(part.size() - 1)[4];
      if (next > wm) {
        wm = next;
        fire(g, keys, wm, got, emits);
      }
    }
    fire(g, keys, Long.MAX_VALUE, got, emits);
    Map<String, List<Object>> expected = new TreeMap<>();
    for (Map.Entry<String, List<Double>> e : want.entrySet()) {
      double max = Double.NEGATIVE_INFINITY, sum = 0;
      for (double v : e.getValue()) {
        max = Math.max(max, v);
        sum += v;
      }
      expected.put(e.getKey(), List.of(max, sum));
    }
    assertEquals(expected, got, "latest row per window");
    assertEquals(wantLate, late, "late records");
    if (finalOnly) {
      for (Map.Entry<String, Integer> e : emits.entrySet()) {
        assertEquals(1, e.getValue(), "final mode emits " + e.getKey() + " once");
      }
    }
    assertTrue(expected.size() > 200);
  }

  private static void fire(WindowGroup g, Map<String, KeyWindows> keys, long wm, Map<String, List<Object>> got,
      Map<String, Integer> emits) {
    for (Map.Entry<String, KeyWindows> e : keys.entrySet()) {
      if (e.getValue().nextTimer() <= wm) {
        e.getValue().fire(wm, out(g, e.getKey(), got, emits));
      }
    }
  }

  private static KeyWindows.WindowOutput out(WindowGroup g, String k, Map<String, List<Object>> got,
      Map<String, Integer> emits) {
    return (window, start, end, results) -> {
      Map<String, Object> m = SlicedStragglersTest.named(g, window, results);
      int i = g.queryWindowIndex(window);
      String id = k + " w" + i + " " + start;
      got.put(id, List.of(m.get("mx" + i), m.get("s" + i)));
      emits.merge(id, 1, Integer::sum);
    };
  }
}

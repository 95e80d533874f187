package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sliced 600/100 window of mergeable functions ({@code max}, {@code sum}) and the same window with
 * a non-commutative function ({@code first}, {@code last}), run by {@link LocalExecutor} on seeded
 * streams with stragglers (some before the first window that fired, some within the allowed
 * lateness, some too late) and punctuated watermarks, against a naive recompute of the lateness
 * contract of docs/query-spec.md: per (key, window) every row in emission order, and the late
 * records.
 */
class SlicedStragglersTest {
  /** The query's windows (size, slide): one window, and two sharing slices with different horizons. */
  static final long[][][] QUERIES = {{{600, 100}}, {{1000, 100}, {300, 300}}, {{600, 100}, {200, 100}}};

  static Stream<Arguments> cases() {
    List<Arguments> a = new ArrayList<>();
    for (long seed = 1; seed <= 6; seed++) {
      for (int d : new int[] {0, 150}) {
        for (long l : new long[] {0, 200, 599, 1000, 5000}) {
          for (int q = 0; q < QUERIES.length; q++) {
            a.add(Arguments.of(seed, d, l, q));
          }
        }
      }
    }
    return a.stream();
  }

  /** Rows (k, ts, v, id, wm) as the Flink connector's test streams: wm is the watermark after the row. */
  static List<Object[]> generate(long seed, int n, int keys, int step, int disorder, int delay) {
    Random r = new Random(seed);
    List<Object[]> rows = new ArrayList<>(n);
    long base = 1_000_000, maxT = Long.MIN_VALUE, wm = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      base += r.nextInt(step);
      long t = base - (disorder > 0 ? r.nextInt(disorder + 1) : 0);
      if (r.nextInt(100) < 3) {
        t = base - r.nextInt(15 * delay + 1);
      }
      maxT = Math.max(maxT, t);
      if (r.nextInt(4) == 0) {
        wm = Math.max(wm, maxT - delay);
      }
      double v = r.nextInt(64);
      rows.add(new Object[] {"k" + r.nextInt(keys), t, v, (long) i, wm});
    }
    return rows;
  }

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}, query {3}")
  @MethodSource("cases")
  void slicedEqualsNaiveRecompute(long seed, int disorder, long lateness, int query) throws Exception {
    long[][] windows = QUERIES[query];
    List<Object[]> input = generate(seed, 5000, 5, 6, disorder, 200);
    for (boolean ordered : new boolean[] {false, true}) {
      QuerySpec.Builder q = QuerySpec.builder().key("k").time("ts").latenessMs(lateness);
      for (int i = 0; i < windows.length; i++) {
        WindowSpec.Builder w = WindowSpec.time(windows[i][0], windows[i][1]).name("w" + i)
            .aggregate("mx" + i, "max", "v").aggregate("s" + i, "sum", "v");
        if (ordered) {
          w = w.aggregate("f" + i, "first", "v").aggregate("l" + i, "last", "v");
        }
        q.window(w);
      }
      QuerySpec spec = q.build();
      Plan planned = Planner.plan(spec);
      assertEquals(!ordered, planned.groups().get(0).storedSlices(), "stored slices iff every function is mergeable");
      Oracle o = new Oracle(input, windows, lateness, ordered);
      Map<String, List<List<Object>>> want = byWindow(o.rows);
      assertTrue(o.rows.size() > 200);
      for (boolean slicing : new boolean[] {false, true}) {
        Plan plan = planned.withGroup(0, planned.groups().get(0).withSlicing(slicing));
        LocalExecutor ex = new LocalExecutor(plan, COLUMNS);
        List<List<Object>> got = new ArrayList<>();
        List<Long> late = new ArrayList<>();
        for (Object[] r : input) {
          ex.process(r);
          ex.advanceWatermark((Long) r[4]);
          take(ex, got, late, ordered);
        }
        ex.finish();
        take(ex, got, late, ordered);
        assertEquals(List.of(), diff(want, byWindow(got)), "local executor, " + ex.executedPlan().groups());
        assertEquals(o.late, late, "late records");
      }
      for (boolean stored : ordered ? new boolean[] {false} : new boolean[] {true, false}) {
        Plan plan = planned.withGroup(0, planned.groups().get(0).withStoredSlices(stored));
        List<Long> late = new ArrayList<>();
        List<List<Object>> got = operator(plan, input, ordered, late);
        assertEquals(List.of(), diff(want, byWindow(got)), "StoredWindows, stored slices " + stored);
        assertEquals(o.late, late, "late records");
      }
    }
  }

  static final List<String> COLUMNS = List.of("k", "ts", "v", "id", "wm");

  /**
   * {@link StoredWindows} of the groups {@link WindowGroup#storedGroups} builds (slices when every
   * function is mergeable, else rows), driven as the Flink operator drives them: each record
   * inserted with the watermark before it (or reported late), then each key whose next timer is due
   * fired; every key flushed to a store and rebuilt from it every 50 records, as after a restore.
   */
  private static List<List<Object>> operator(Plan plan, List<Object[]> input, boolean ordered, List<Long> late)
      throws Exception {
    List<WindowGroup> groups = WindowGroup.storedGroups(plan, COLUMNS, false);
    assertEquals(1, groups.size());
    WindowGroup g = groups.get(0);
    assertEquals(!ordered && plan.groups().get(0).storedSlices(), g.storesSlices());
    Map<String, StoredWindows> keys = new TreeMap<>();
    Map<String, StoredWindowsTest.MapStore> stores = new HashMap<>();
    List<List<Object>> got = new ArrayList<>();
    long wm = Long.MIN_VALUE;
    int n = 0;
    for (Object[] r : input) {
      String k = (String) r[0];
      long t = (Long) r[1];
      if (!g.accepts(t, wm)) {
        late.add((Long) r[3]);
      } else {
        keys.computeIfAbsent(k, x -> new StoredWindows(g, 1)).insert(t, r.clone(), wm, out(g, k, got, ordered));
      }
      long next = (Long) r[4];
      if (next > wm) {
        wm = next;
        fire(keys, wm, g, got, ordered);
      }
      if (++n % 50 == 0) {
        for (Map.Entry<String, StoredWindows> e : keys.entrySet()) {
          StoredWindowsTest.MapStore store = stores.computeIfAbsent(e.getKey(), x -> new StoredWindowsTest.MapStore());
          e.getValue().flush(store);
          java.io.ByteArrayOutputStream meta = new java.io.ByteArrayOutputStream();
          e.getValue().writeMeta(new java.io.DataOutputStream(meta));
          e.setValue(StoredWindows.load(g, 1, new java.io.DataInputStream(new java.io.ByteArrayInputStream(meta.toByteArray())), store));
        }
      }
    }
    fire(keys, Long.MAX_VALUE, g, got, ordered);
    return got;
  }

  private static void fire(Map<String, StoredWindows> keys, long wm, WindowGroup g, List<List<Object>> got, boolean ordered) {
    for (Map.Entry<String, StoredWindows> e : keys.entrySet()) {
      KeyWindows kw = e.getValue().windows();
      if (kw.nextTimer() <= wm) {
        kw.fire(wm, out(g, e.getKey(), got, ordered));
      }
    }
  }

  private static KeyWindows.WindowOutput out(WindowGroup g, String k, List<List<Object>> got, boolean ordered) {
    return (window, start, end, results) -> {
      Map<String, Object> m = named(g, window, results);
      int i = g.queryWindowIndex(window);
      List<Object> row = new ArrayList<>(List.of(k, "w" + i, start, end, m.get("mx" + i), m.get("s" + i)));
      if (ordered) {
        row.add(m.get("f" + i));
        row.add(m.get("l" + i));
      }
      got.add(row);
    };
  }

  private static void take(LocalExecutor ex, List<List<Object>> got, List<Long> late, boolean ordered) {
    for (Map<String, Object> m : ex.takeRows()) {
      String i = ((String) m.get("window")).substring(1);
      List<Object> row = new ArrayList<>(List.of(m.get("k"), "w" + i, m.get("window_start"), m.get("window_end"),
          m.get("mx" + i), m.get("s" + i)));
      if (ordered) {
        row.add(m.get("f" + i));
        row.add(m.get("l" + i));
      }
      got.add(row);
    }
    for (Map<String, Object> m : ex.takeLate()) {
      late.add((Long) m.get("id"));
    }
  }

  private static Map<String, List<List<Object>>> byWindow(List<List<Object>> rows) {
    Map<String, List<List<Object>>> m = new TreeMap<>();
    for (List<Object> r : rows) {
      m.computeIfAbsent(r.get(0) + "@" + r.get(1) + ":" + r.get(2) + "-" + r.get(3), x -> new ArrayList<>()).add(r);
    }
    return m;
  }

  private static List<String> diff(Map<String, List<List<Object>>> e, Map<String, List<List<Object>>> a) {
    List<String> out = new ArrayList<>();
    java.util.Set<String> all = new java.util.TreeSet<>(e.keySet());
    all.addAll(a.keySet());
    for (String k : all) {
      if (e.get(k) == null || !e.get(k).equals(a.get(k))) {
        out.add(k + ": " + e.get(k) + " vs " + a.get(k));
      }
    }
    return out;
  }

  /**
   * The contract replayed: a record counts in window [s, s + size) iff s + size - 1 + lateness >
   * watermark (the watermark before the record), and is late iff it counts in no window of the
   * query; a window fires when the watermark reaches end - 1 (or at the end of the input); a record
   * counted in a window the watermark already passed emits an updated row at once. first/last: of
   * the counted records in event-time order, ties in arrival order.
   */
  static final class Oracle {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Long> late = new ArrayList<>();
    /** per "key wN", per window start: the counted (time, value) pairs. */
    private final Map<String, TreeMap<Long, List<double[]>>> state = new TreeMap<>();
    private final long[][] windows;
    private final boolean ordered;

    Oracle(List<Object[]> input, long[][] windows, long lateness, boolean ordered) {
      this.windows = windows;
      this.ordered = ordered;
      long wm = Long.MIN_VALUE;
      for (Object[] r : input) {
        String k = (String) r[0];
        long t = (Long) r[1];
        double v = (Double) r[2];
        boolean used = false;
        for (int i = 0; i < windows.length; i++) {
          long size = windows[i][0], slide = windows[i][1];
          for (long s = Math.floorDiv(t, slide) * slide; s > t - size; s -= slide) {
            long last = s + size - 1;
            if (last + lateness <= wm) {
              continue;
            }
            used = true;
            List<double[]> vs = state.computeIfAbsent(k + " " + i, x -> new TreeMap<>()).computeIfAbsent(s, x -> new ArrayList<>());
            vs.add(new double[] {t, v});
            if (last <= wm) {
              rows.add(row(k, i, s, vs));
            }
          }
        }
        if (!used) {
          late.add((Long) r[3]);
        }
        long next = (Long) r[4];
        if (next > wm) {
          fire(wm, next);
          wm = next;
        }
      }
      fire(wm, Long.MAX_VALUE);
    }

    private void fire(long from, long to) {
      for (Map.Entry<String, TreeMap<Long, List<double[]>>> e : state.entrySet()) {
        String[] ki = e.getKey().split(" ");
        int i = Integer.parseInt(ki[1]);
        for (Map.Entry<Long, List<double[]>> w : e.getValue().entrySet()) {
          long last = w.getKey() + windows[i][0] - 1;
          if (last > from && last <= to) {
            rows.add(row(ki[0], i, w.getKey(), w.getValue()));
          }
        }
      }
    }

    private List<Object> row(String k, int i, long s, List<double[]> vs) {
      double max = Double.NEGATIVE_INFINITY, sum = 0;
      double[] first = null, last = null;
      for (double[] x : vs) {
        max = Math.max(max, x[1]);
        sum += x[1];
        if (first == null || x[0] < first[0]) {
          first = x;
        }
        if (last == null || x[0] >= last[0]) {
          last = x;
        }
      }
      List<Object> row = new ArrayList<>(List.of(k, "w" + i, s, s + windows[i][0], max, sum));
      if (ordered) {
        row.add(first[1]);
        row.add(last[1]);
      }
      return row;
    }
  }

  /** A fired window's output values by column name. */
  static Map<String, Object> named(WindowGroup g, int window, List<Object> results) {
    Object[] vals = g.outputValues(window, results);
    String[] cols = g.outputColumns(window);
    Map<String, Object> m = new HashMap<>();
    for (int j = 0; j < cols.length; j++) {
      m.put(cols[j], vals[j]);
    }
    return m;
  }
}

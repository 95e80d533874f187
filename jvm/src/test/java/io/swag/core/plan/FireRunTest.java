package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link AdaptiveAggregator#fireRun}: a key of one window whose in-order ring serves as its time log
 * fires its due windows as runs. On seeded traces (one record per slice, gaps of up to three windows,
 * random window shapes with and without an offset, slides that divide the size and slides that do
 * not; rows at window end, or once after a lateness, which delays every firing), for {@code max},
 * {@code min} and {@code sum}:
 * <ul>
 *   <li>with integer values, the rows of a key whose watermark jumps now and then (runs of many
 *       windows) and of a key whose watermark follows every record (runs of one window, or of the
 *       windows a gap makes due at once) are exactly the windows holding a record, in start order,
 *       each once, with the result a plain loop over the trace gives;</li>
 *   <li>with values in no order and of any magnitude (a float sum depends on the order of its
 *       combines to the bit), the key whose watermark jumps emits the same rows, results equal to the
 *       bit, as the same key fired window by window ({@link KeyWindows#fireWindow}, then the eviction
 *       {@link KeyWindows#fire} ends with) at the same watermarks, and after every firing holds the
 *       same next fire watermark and FIFO positions; so does it when its output throws at a row and
 *       the firing is repeated;</li>
 *   <li>the run key took runs ({@link AdaptiveAggregator#firedRuns}), the window-by-window key none.</li>
 * </ul>
 * And a firing at watermark {@code Long.MAX_VALUE} of windows near {@code Long.MAX_VALUE}, whose fire
 * watermarks saturate, ends with the rows the window-by-window path gives.
 */
class FireRunTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 4100;
    for (String fn : new String[] {"max", "min", "sum"}) {
      for (boolean finalOnly : new boolean[] {false, true}) {
        for (int i = 0; i < 3; i++) {
          l.add(Arguments.of(fn, finalOnly, seed++));
        }
      }
    }
    return l.stream();
  }

  /** One record: time, value. */
  private record Rec(long t, double v) {}

  @ParameterizedTest(name = "{0} final {1} seed {2}")
  @MethodSource("cases")
  void runsEqualTheOracleAndWindowByWindow(String fn, boolean finalOnly, long seed) {
    Random rnd = new Random(seed);
    long slide = 1 + rnd.nextInt(9);
    long size = slide * (1 + rnd.nextInt(8)) + (rnd.nextInt(3) == 0 ? 1 + rnd.nextInt((int) slide) : 0);
    long offset = rnd.nextBoolean() ? rnd.nextInt((int) slide) : 0;
    long lateness = finalOnly ? 1 + rnd.nextInt((int) (3 * size)) : 0;
    WindowGroup g = group(fn, size, slide, offset, lateness, finalOnly);
    long width = g.plan().sliceMs();
    String shape = "size " + size + " slide " + slide + " offset " + offset + " lateness " + lateness;

    // integer values: long runs and short ones against a plain loop over the trace
    List<Rec> ints = trace(rnd, width, size, true);
    List<String> want = oracle(ints, fn, size, slide, offset);
    Fired jumps = drive(g, ints, new Random(rnd.nextLong()), true, false, -1);
    Fired steps = drive(g, ints, rnd, false, false, -1);
    assertEquals(want, jumps.rows, "long runs against the oracle, " + shape);
    assertEquals(want, steps.rows, "short runs against the oracle, " + shape);
    assertTrue(jumps.longestRun >= 10 && steps.longestRun < jumps.longestRun,
        "longest runs " + jumps.longestRun + ", " + steps.longestRun + ", " + shape);
    assertFalse(jumps.switched || steps.switched, "the ring served to the end, " + shape);
    assertTrue(jumps.runs > 0 && steps.runs > 0, "runs taken: " + jumps.runs + ", " + steps.runs);

    // values in no order: runs against window by window at the same watermarks, to the bit, and the same state
    List<Rec> any = trace(rnd, width, size, false);
    long seedAny = rnd.nextLong();
    int throwAt = 50 + rnd.nextInt(500);
    for (int at : new int[] {-1, throwAt}) {
      Fired runs = drive(g, any, new Random(seedAny), true, false, at);
      Fired byWindow = drive(g, any, new Random(seedAny), true, true, at);
      String what = (at < 0 ? "" : "output throwing at row " + at + ", ") + shape;
      assertEquals(byWindow.rows, runs.rows, "runs against window by window, " + what);
      assertEquals(byWindow.states, runs.states, "next fire and FIFO positions after each firing, " + what);
      assertTrue(runs.longestRun >= 10, "longest run " + runs.longestRun + ", " + what);
      assertTrue(runs.runs > 0 && byWindow.runs == 0, "runs taken: " + runs.runs + ", " + byWindow.runs);
    }
  }

  /** Windows near {@code Long.MAX_VALUE} fired at watermark {@code Long.MAX_VALUE}: the run stops as window by window does. */
  @Test
  void saturatedFireWatermarksEndTheRun() {
    WindowGroup g = group("sum", 10, 5, 0, 1000, true);
    List<Rec> trace = new ArrayList<>();
    for (long back : new long[] {5000, 4990, 1000, 995}) {
      trace.add(new Rec(Long.MAX_VALUE - back, back));
    }
    List<List<String>> rows = new ArrayList<>();
    for (boolean byWindow : new boolean[] {false, true}) {
      StoredWindows w = new StoredWindows(g, 1);
      List<String> out = new ArrayList<>();
      KeyWindows.WindowOutput o = (i, s, e, r) -> {
        out.add(s + " " + e + " " + bits(r.get(0)));
      };
      KeyWindows.WindowOutput bounded = new KeyWindows.WindowOutput() {
        @Override
        public void emit(int i, long s, long e, List<Object> r) {
          o.emit(i, s, e, r);
        }

        @Override
        public void emitOne(int i, long s, long e, Object r) {
          if (out.size() > 100) {
            throw new AssertionError("more than 100 rows from four records");
          }
          out.add(s + " " + e + " " + bits(r));
        }
      };
      for (Rec r : trace) {
        w.insertDouble(r.t, r.v, Long.MIN_VALUE, bounded);
      }
      fire(g, w, Long.MAX_VALUE, bounded, new Fired(), byWindow);
      rows.add(out);
    }
    assertEquals(rows.get(1), rows.get(0), "rows at watermark Long.MAX_VALUE");
    assertTrue(rows.get(0).size() >= 4, "rows: " + rows.get(0));
  }

  private static WindowGroup group(String fn, long size, long slide, long offset, long lateness, boolean finalOnly) {
    String win = "{\"name\":\"a\",\"size\":" + size + ",\"slide\":" + slide + ",\"offset\":" + offset
        + ",\"aggregates\":[{\"output\":\"x\",\"function\":\"" + fn + "\",\"column\":\"v\"}]}";
    Plan plan = Planner.plan(ExecutorDifferentialTest.spec("window_end", "in_order", lateness, win));
    return WindowGroup.storedGroups(plan, List.of("k", "t", "v"), finalOnly).get(0);
  }

  /** 3,000 records, one per slice, the next slice mostly the next one, sometimes up to three windows later. */
  private static List<Rec> trace(Random rnd, long width, long size, boolean integers) {
    List<Rec> out = new ArrayList<>();
    long slice = 100;
    for (int i = 0; i < 3000; i++) {
      slice += 1 + (rnd.nextInt(12) == 0 ? rnd.nextInt((int) (3 * size / width) + 1) : 0);
      long t = slice * width + rnd.nextInt((int) width);
      double v = integers ? rnd.nextInt(101) - 50 : (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(30) - 10);
      out.add(new Rec(t, v));
    }
    return out;
  }

  /** What a key emitted, in order, its state after each firing, the longest run one firing emitted, its runs. */
  private static final class Fired {
    final List<String> rows = new ArrayList<>();
    final List<String> states = new ArrayList<>();
    int longestRun;
    boolean switched;
    long runs;
  }

  /**
   * Drives one key as an engine does: each record in, and the key's due windows fired when its timer
   * is at or below the watermark; the watermark follows every record ({@code jumps} false) or jumps now
   * and then, over about 300 records. {@code byWindow}: fired with {@link KeyWindows#fireWindow}, one
   * window at a time, then the eviction {@link KeyWindows#fire} ends with. {@code throwAt} >= 0: the
   * output throws once, at that row (not added), and the firing is repeated at the same watermark.
   */
  private static Fired drive(WindowGroup g, List<Rec> trace, Random rnd, boolean jumps, boolean byWindow,
      int throwAt) {
    Fired f = new Fired();
    StoredWindows w = new StoredWindows(g, 1);
    boolean[] thrown = {false};
    KeyWindows.WindowOutput counted = new KeyWindows.WindowOutput() {
      @Override
      public void emit(int i, long s, long e, List<Object> r) {
        emitOne(i, s, e, r.get(0));
      }

      @Override
      public void emitOne(int i, long s, long e, Object r) {
        if (!thrown[0] && f.rows.size() == throwAt) {
          thrown[0] = true;
          f.rows.add("thrown at " + s);
          throw new IllegalStateException("the output fails");
        }
        f.rows.add(s + " " + e + " " + bits(r));
      }
    };
    long wm = Long.MIN_VALUE;
    for (int i = 0; i < trace.size(); i++) {
      Rec r = trace.get(i);
      w.insertDouble(r.t, r.v, wm, counted);
      boolean advance = jumps ? rnd.nextInt(300) == 0 : true;
      if (advance && r.t - 1 > wm) {
        wm = r.t - 1;
        fireOrRepeat(g, w, wm, counted, f, byWindow);
      }
    }
    fireOrRepeat(g, w, Long.MAX_VALUE, counted, f, byWindow);
    AdaptiveAggregator a = (AdaptiveAggregator) w.windows().aggregator();
    f.switched = a.switched();
    f.runs = a.firedRuns();
    if (throwAt >= 0) {
      assertTrue(thrown[0], "the output threw at row " + throwAt);
    }
    return f;
  }

  /** {@link #fire}; when the output throws, notes the key's state and fires again at the same watermark. */
  private static void fireOrRepeat(WindowGroup g, StoredWindows w, long wm, KeyWindows.WindowOutput out, Fired f,
      boolean byWindow) {
    try {
      fire(g, w, wm, out, f, byWindow);
    } catch (IllegalStateException e) { // the output's failure: the key as the failure left it, then again
      note(w, f);
      fire(g, w, wm, out, f, byWindow);
    }
  }

  private static void fire(WindowGroup g, StoredWindows w, long wm, KeyWindows.WindowOutput out, Fired f,
      boolean byWindow) {
    KeyWindows k = w.windows();
    if (k.nextTimer() <= wm) {
      int before = f.rows.size();
      if (byWindow) {
        while (k.nextFire(0) != Long.MAX_VALUE && k.nextFire(0) <= wm) {
          k.fireWindow(0, out);
        }
        k.evict(g.evictBound(wm));
      } else {
        k.fire(wm, out);
      }
      f.longestRun = Math.max(f.longestRun, f.rows.size() - before);
      note(w, f);
    }
  }

  /** The key's next fire watermark and, while its ring serves, the FIFO's positions. */
  private static void note(StoredWindows w, Fired f) {
    KeyWindows k = w.windows();
    AdaptiveAggregator a = (AdaptiveAggregator) k.aggregator();
    f.states.add(k.nextFire(0) + (a.switched() ? " switched" : " " + Arrays.toString(a.fifoPositions())));
  }

  /** Every window [s, s + size) with s = offset mod slide that holds a record, in start order, with its aggregate. */
  private static List<String> oracle(List<Rec> trace, String fn, long size, long slide, long offset) {
    TreeMap<Long, Double> agg = new TreeMap<>();
    for (Rec r : trace) {
      long last = r.t - Math.floorMod(r.t - offset, slide); // the last start at or before t
      for (long s = last; s > r.t - size; s -= slide) {
        Double a = agg.get(s);
        agg.put(s, a == null ? r.v : switch (fn) {
          case "max" -> Math.max(a, r.v);
          case "min" -> Math.min(a, r.v);
          default -> a + r.v;
        });
      }
    }
    List<String> rows = new ArrayList<>();
    agg.forEach((s, a) -> rows.add(s + " " + (s + size) + " " + bits(a + 0.0)));
    return rows;
  }

  private static String bits(Object r) {
    return r instanceof Double d ? Long.toHexString(Double.doubleToRawLongBits(d)) : String.valueOf(r);
  }
}

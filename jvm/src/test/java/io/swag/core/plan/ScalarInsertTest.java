package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StoredWindows#insertDouble} (a record as its time and value alone) against
 * {@link StoredWindows#insert} of the record's row, on seeded traces of one key driven as an engine
 * drives it (the watermark after each record, due windows fired, flushes and reloads from the store
 * at random points): for each scalar function whose groups store slices ({@code max}, {@code min}
 * and float {@code sum}, whose results depend on the order of its combines to the bit; {@code first}
 * and {@code last} are not mergeable over out-of-order slices, keep rows and never take this path),
 * in order with one record per slice (the ring serves), in order with shared slices (the key
 * switches to its tree), in order on a tree (two windows) and out of order with lateness, the two
 * keys hold the same entries (one per slice) and switch to the tree at the same record, emit the same
 * rows in the same order with results equal to the bit, and write the same entries and meta at
 * every flush; with integer values the rows equal {@link NaiveOracle}'s. Values
 * include -0.0, 0.0, the infinities, the extremes and a subnormal (two-key comparison only); a NaN
 * is refused by {@code insertDouble} with nothing changed.
 */
class ScalarInsertTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 900;
    for (String fn : new String[] {"max", "min", "sum"}) {
      for (String mode : new String[] {"ring", "shared", "ring2", "disorder"}) {
        for (boolean special : new boolean[] {false, true}) {
          l.add(Arguments.of(fn, mode, special, seed++));
        }
      }
    }
    return l.stream();
  }

  private static final double[] SPECIAL = {-0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.7e308,
      -1.7e308, Double.MIN_VALUE, 112.375, -44.5, 3.0, Double.NaN};

  /** A key as an engine keeps it: its windows, its store, its meta after the last flush. */
  private static final class Key {
    StoredWindows w;
    final StoredWindowsTest.MapStore store = new StoredWindowsTest.MapStore();
    byte[] meta;
  }

  @ParameterizedTest(name = "{0} {1} special {2} seed {3}")
  @MethodSource("cases")
  void insertDoubleEqualsInsertOfTheRow(String fn, String mode, boolean special, long seed) throws Exception {
    long lateness = mode.equals("disorder") ? 150 : 0;
    String order = mode.equals("disorder") ? "out_of_order" : "in_order";
    // one window (in order: the adaptive aggregator, its ring, then its tree), or two windows of the
    // same aggregate (one product of one function, on a tree)
    String agg = "[{\"output\":\"%s\",\"function\":\"" + fn + "\",\"column\":\"v\"}]";
    String a = "{\"name\":\"a\",\"size\":60,\"slide\":20,\"offset\":0,\"aggregates\":" + String.format(agg, "a_" + fn) + "}";
    String b = "{\"name\":\"b\",\"size\":100,\"slide\":20,\"offset\":0,\"aggregates\":" + String.format(agg, "b_" + fn) + "}";
    boolean adaptive = mode.equals("ring") || mode.equals("shared");
    QuerySpec spec = adaptive ? ExecutorDifferentialTest.spec("window_end", order, lateness, a)
        : ExecutorDifferentialTest.spec("window_end", order, lateness, a, b);
    Plan plan = Planner.plan(spec);
    List<String> used = List.of("k", "t", "v");
    WindowGroup g = WindowGroup.storedGroups(plan, used, false).get(0);
    assertEquals(2, g.scalarColumn(), "one scalar function over v: the group lifts rows at insert");
    assertEquals(adaptive, new StoredWindows(g, 1).windows().aggregator() instanceof AdaptiveAggregator, "the aggregator");
    long width = g.plan().sliceMs();
    Random rnd = new Random(seed);
    NaiveOracle or = new NaiveOracle(plan.spec());
    Key byRow = new Key();
    Key byValue = new Key();
    byRow.w = new StoredWindows(g, 1);
    byValue.w = new StoredWindows(g, 1);
    List<String> rowOut = new ArrayList<>();
    List<String> valueOut = new ArrayList<>();
    Map<String, String> got = new HashMap<>();
    Map<String, String> want = new HashMap<>();
    KeyWindows.WindowOutput toRow = bits(rowOut, null);
    KeyWindows.WindowOutput toValue = bits(valueOut, new KeyWindowsEngineTest.Out(g, "k", got, new HashMap<>()));
    long wm = Long.MIN_VALUE;
    long max = Long.MIN_VALUE;
    long t = 1000;
    long base = 1000;
    int refused = 0;
    int reloads = 0;
    int inserted = 0;
    for (int i = 0; i < 3000; i++) {
      t = switch (mode) {
        case "ring", "ring2" -> (t / width + 1) * width + rnd.nextInt((int) width); // the next slice: one record each
        case "shared" -> t + rnd.nextInt(12); // slices of several records: the tree
        default -> (base += rnd.nextInt(4)) - (rnd.nextBoolean() ? rnd.nextInt(60) : 0) - (rnd.nextInt(40) == 0 ? 300 : 0);
      };
      double v = special ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextInt(101) - 50;
      if (!g.accepts(t, wm)) {
        if (!special) {
          or.process(Map.of("k", "k", "t", t, "v", v));
        }
        continue;
      }
      if (v != v) { // refused before any change: the row path is never given it (the engine rejects it first)
        assertThrows(IllegalArgumentException.class, () -> byValue.w.insertDouble(-1, Double.NaN, Long.MIN_VALUE, toValue));
        long tt = t;
        long ww = wm;
        assertThrows(IllegalArgumentException.class, () -> byValue.w.insertDouble(tt, Double.NaN, ww, toValue));
        refused++;
        continue;
      }
      if (!special) {
        or.process(Map.of("k", "k", "t", t, "v", v));
      }
      byRow.w.insert(t, new Object[] {"k", t, v}, wm, toRow);
      byValue.w.insertDouble(t, v, wm, toValue);
      inserted++;
      max = Math.max(max, t);
      if (max - 30 > wm) {
        wm = max - 30;
        if (!special) {
          or.advance(wm);
        }
        if (byRow.w.windows().nextTimer() <= wm) {
          byRow.w.windows().fire(wm, toRow);
        }
        if (byValue.w.windows().nextTimer() <= wm) {
          byValue.w.windows().fire(wm, toValue);
        }
      }
      assertEquals(byRow.w.windows().nextTimer(), byValue.w.windows().nextTimer(), "next timer at record " + i);
      // the same structure: one entry per slice, the switch to the tree at the same record
      assertEquals(byRow.w.windows().entries(), byValue.w.windows().entries(), "entries at record " + i);
      assertEquals(byRow.w.windows().aggregator().algorithm(), byValue.w.windows().aggregator().algorithm(),
          "algorithm at record " + i);
      int dice = rnd.nextInt(50);
      if (dice < 2) { // a checkpoint: the two keys write the same entries and meta
        flush(byRow);
        flush(byValue);
        assertStoresEqual(byRow, byValue, "flush at record " + i);
        if (dice == 0) { // the cache drops the keys: rebuilt from their stores
          byRow.w = reload(g, byRow);
          byValue.w = reload(g, byValue);
          reloads++;
        }
      }
    }
    byRow.w.windows().fire(Long.MAX_VALUE, toRow);
    byValue.w.windows().fire(Long.MAX_VALUE, toValue);
    assertEquals(rowOut, valueOut, "rows in emission order, results to the bit");
    flush(byRow);
    flush(byValue);
    assertStoresEqual(byRow, byValue, "the last flush");
    if (!special) {
      or.finish();
      KeyWindowsEngineTest.latest(or.rows, want);
      assertEquals(want, got, "latest rows against the oracle");
    } else {
      assertTrue(refused > 10, "NaNs refused: " + refused);
    }
    assertTrue(rowOut.size() > 200, "rows: " + rowOut.size());
    assertTrue(reloads > 5 && inserted > 2000, "reloads " + reloads + ", inserted " + inserted);
  }

  /** A group of {@code first} or {@code last} keeps rows: no value-only insert. */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"first", "last"})
  void groupsOfRowsTakeNoValueInsert(String fn) {
    QuerySpec spec = ExecutorDifferentialTest.spec("window_end", "in_order", 0,
        "{\"name\":\"a\",\"size\":60,\"slide\":20,\"offset\":0,\"aggregates\":[{\"output\":\"x\",\"function\":\""
            + fn + "\",\"column\":\"v\"}]}");
    WindowGroup g = WindowGroup.storedGroups(Planner.plan(spec), List.of("k", "t", "v"), false).get(0);
    assertEquals(-1, g.scalarColumn());
    StoredWindows w = new StoredWindows(g, 1);
    assertThrows(IllegalStateException.class, () -> w.insertDouble(5, 1.0, Long.MIN_VALUE, (i, s, e, r) -> { }));
  }

  /** An output adding "window start end result-bits" to {@code out}, then passing the row to {@code next}. */
  private static KeyWindows.WindowOutput bits(List<String> out, KeyWindows.WindowOutput next) {
    return new KeyWindows.WindowOutput() {
      @Override
      public void emit(int w, long s, long e, List<Object> r) {
        emitOne(w, s, e, r.get(0));
      }

      @Override
      public void emitOne(int w, long s, long e, Object r) {
        out.add(w + " " + s + " " + e + " " + (r instanceof Double d ? Long.toHexString(Double.doubleToRawLongBits(d)) : r));
        if (next != null) {
          next.emitOne(w, s, e, r);
        }
      }
    };
  }

  private static void flush(Key key) throws Exception {
    key.w.flush(key.store);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    key.w.writeMeta(new DataOutputStream(b));
    key.meta = b.toByteArray();
  }

  private static StoredWindows reload(WindowGroup g, Key key) throws Exception {
    return StoredWindows.load(g, 1, new DataInputStream(new ByteArrayInputStream(key.meta)), key.store);
  }

  private static void assertStoresEqual(Key a, Key b, String when) {
    assertArrayEquals(a.meta, b.meta, when + ": meta");
    assertEquals(a.store.map.keySet(), b.store.map.keySet(), when + ": stored slices");
    for (Long s : a.store.map.keySet()) {
      assertArrayEquals(a.store.map.get(s), b.store.map.get(s), when + ": slice " + s);
    }
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a flush of a key that stores slices writes: the slices changed since the last flush, against
 * a set of slice starts kept here per record. For one scalar function on the in-order adaptive
 * aggregator (its ring, then its tree), on seeded traces mixing {@link StoredWindows#insertDouble}
 * (whose slices appended to the ring are noted by a mark) and {@link StoredWindows#insert} of the
 * row (noted one by one), with flushes at random points, sometimes thousands of records apart: each
 * flush puts exactly the set's slices above the key's evicted time (its meta), once each, in
 * ascending order, with the bytes and meta of a twin key driven by {@code insert} alone; the switch to
 * the tree comes mid-run at a record of a shared slice or a record behind the ring's youngest slice,
 * with marked slices pending. {@code max}, {@code min} and float {@code sum}: results depend on the
 * combine order to the bit, compared too.
 */
class SliceNotesTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 4100;
    for (String fn : new String[] {"max", "min", "sum"}) {
      for (String mode : new String[] {"ring", "shared", "behind"}) {
        for (int flushEvery : new int[] {3, 40, 5000}) {
          l.add(Arguments.of(fn, mode, flushEvery, seed++));
        }
      }
    }
    return l.stream();
  }

  @ParameterizedTest(name = "{0} {1} flush 1/{2} seed {3}")
  @MethodSource("cases")
  void aFlushPutsTheSlicesChangedSinceTheLast(String fn, String mode, int flushEvery, long seed) throws Exception {
    String a = "{\"name\":\"a\",\"size\":60,\"slide\":20,\"offset\":0,\"aggregates\":[{\"output\":\"x\",\"function\":\""
        + fn + "\",\"column\":\"v\"}]}";
    QuerySpec spec = ExecutorDifferentialTest.spec("window_end", "in_order", 0, a);
    WindowGroup g = WindowGroup.storedGroups(Planner.plan(spec), List.of("k", "t", "v"), false).get(0);
    long width = g.plan().sliceMs();
    Random rnd = new Random(seed);
    StoredWindows mixed = new StoredWindows(g, 1);
    StoredWindows byRow = new StoredWindows(g, 1);
    assertTrue(mixed.windows().aggregator() instanceof AdaptiveAggregator, "the in-order adaptive aggregator");
    StoredWindowsTest.MapStore mixedStore = new StoredWindowsTest.MapStore();
    StoredWindowsTest.MapStore rowStore = new StoredWindowsTest.MapStore();
    List<String> mixedOut = new ArrayList<>();
    List<String> rowOut = new ArrayList<>();
    KeyWindows.WindowOutput toMixed = (w, s, e, r) -> mixedOut.add(w + " " + s + " " + e + " " + bits(r.get(0)));
    KeyWindows.WindowOutput toRow = (w, s, e, r) -> rowOut.add(w + " " + s + " " + e + " " + bits(r.get(0)));
    TreeSet<Long> changed = new TreeSet<>(); // slice starts of the records since the last flush
    int switchAt = 200 + rnd.nextInt(2500);
    long wm = Long.MIN_VALUE;
    long max = 1000;
    long t = 1000;
    int flushes = 0;
    int lean = 0;
    boolean switchedWithMarks = false;
    for (int i = 0; i < 3000; i++) {
      boolean behind = i >= switchAt && (mode.equals("behind") ? rnd.nextInt(10) == 0 : mode.equals("shared"));
      t = behind ? (mode.equals("shared") ? t + rnd.nextInt(3) : max - 1 - rnd.nextInt(25))
          : (max / width + 1) * width + rnd.nextInt((int) width); // the next slice: one record each
      if (!g.accepts(t, wm)) {
        continue;
      }
      double v = rnd.nextInt(2001) / 8.0 - 125;
      boolean wasRing = !ring(mixed).switched();
      if (rnd.nextInt(4) != 0) {
        mixed.insertDouble(t, v, wm, toMixed);
        lean++;
      } else {
        mixed.insert(t, new Object[] {"k", t, v}, wm, toMixed);
      }
      byRow.insert(t, new Object[] {"k", t, v}, wm, toRow);
      if (wasRing && ring(mixed).switched() && mixed.heldSinceFlush() > 1) {
        switchedWithMarks = true;
      }
      changed.add(Math.floorDiv(t, width) * width);
      max = Math.max(max, t);
      if (max - 30 > wm) {
        wm = max - 30;
        if (mixed.windows().nextTimer() <= wm) {
          mixed.windows().fire(wm, toMixed);
        }
        if (byRow.windows().nextTimer() <= wm) {
          byRow.windows().fire(wm, toRow);
        }
      }
      if (rnd.nextInt(flushEvery) == 0 || i == 2999) {
        mixedStore.putIds.clear();
        byte[] meta = flush(mixed, mixedStore);
        byte[] rowMeta = flush(byRow, rowStore);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(meta));
        in.readLong();
        long evicted = in.readLong();
        List<Long> want = new ArrayList<>(changed.tailSet(evicted, false));
        assertEquals(want, mixedStore.putIds, "slices put at the flush after record " + i);
        assertArrayEquals(rowMeta, meta, "meta at record " + i);
        assertEquals(rowStore.map.keySet(), mixedStore.map.keySet(), "stored slices at record " + i);
        for (Long s : rowStore.map.keySet()) {
          assertArrayEquals(rowStore.map.get(s), mixedStore.map.get(s), "slice " + s + " at record " + i);
        }
        assertEquals(0, mixed.heldSinceFlush(), "nothing held after a flush");
        changed.clear();
        flushes++;
      }
    }
    assertEquals(rowOut, mixedOut, "rows in emission order, results to the bit");
    assertTrue(lean > 1500 && flushes > 0, "lean inserts " + lean + ", flushes " + flushes);
    assertEquals(!mode.equals("ring"), ring(mixed).switched(), "the switch to the tree");
    if (!mode.equals("ring") && flushEvery > 3) {
      assertTrue(switchedWithMarks, "switched with marked slices pending");
    }
  }

  private static AdaptiveAggregator ring(StoredWindows w) {
    return (AdaptiveAggregator) w.windows().aggregator();
  }

  private static String bits(Object r) {
    return r instanceof Double d ? Long.toHexString(Double.doubleToRawLongBits(d)) : String.valueOf(r);
  }

  private static byte[] flush(StoredWindows w, EntryStore store) throws Exception {
    w.flush(store);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    w.writeMeta(new DataOutputStream(b));
    return b.toByteArray();
  }
}

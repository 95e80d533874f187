package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The in-order path an engine operator runs for most keys, against a naive recompute on seeded
 * random traces: the adaptive aggregator's ring while it grows and wraps (a one-function product of
 * a non-commutative function, typed, and a two-function product, generic), and a key's slices held
 * for a flush across many evictions without one (the list of touched slices compacted while it
 * grows), reloaded from its store at random points and compared with the key that never left.
 */
class InOrderPathTest {

  /** Forward range queries and evictions over in-order entries: equal to a recompute of the entries in range. */
  @Test
  void adaptiveRingEqualsRecomputeWhileItGrowsAndWraps() {
    for (String fns : new String[] {"last", "first", "first,last"}) {
      for (long seed = 0; seed < 8; seed++) {
        Random rnd = new Random(seed * 31 + fns.length());
        List<io.swag.core.AggregateFunction<?, ?, ?>> fs = new ArrayList<>();
        for (String f : fns.split(",")) {
          fs.add(Functions.byName(f));
        }
        ProductFunction p = new ProductFunction(fs);
        AdaptiveAggregator a = new AdaptiveAggregator("daba_lite", "bfiba4", p);
        List<long[]> live = new ArrayList<>(); // {time, value} in insertion order, not evicted
        long t = 0;
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        long evicted = Long.MIN_VALUE;
        for (int i = 0; i < 6000; i++) {
          t += rnd.nextInt(3); // equal times too
          long v = rnd.nextInt(1000);
          Object[] in = new Object[fs.size()];
          Arrays.fill(in, (double) v);
          a.insert(t, in);
          live.add(new long[] {t, v});
          // bursts: the ring grows by doubling with its front anywhere in the array
          int burst = (i / 500) % 3 == 0 ? 2 : 400;
          if (rnd.nextInt(burst) == 0) {
            from = Math.max(from, t - rnd.nextInt(200));
            to = Math.max(Math.max(to, from), t - rnd.nextInt(3));
            assertEquals(recompute(fns, live, from, to), a.query(from, to), fns + " seed " + seed + " op " + i);
            long c = from + rnd.nextInt(10);
            assertEquals(ceiling(live, c), a.ceilingTime(c), "ceilingTime(" + c + ") seed " + seed + " op " + i);
          }
          if (rnd.nextInt(burst * 2) == 0) {
            long e = Math.min(from - 1, t - rnd.nextInt(300));
            if (e > evicted) {
              a.bulkEvict(e);
              evicted = e;
              live.removeIf(x -> x[0] <= e);
              assertEquals(live.size(), a.size(), "size after evicting up to " + e);
            }
          }
        }
        assertFalse(a.switched(), "forward queries over in-order data keep the FIFO");
      }
    }
  }

  /** The product's result over the live entries with time in [from, to]: first / last value of each function. */
  private static List<Object> recompute(String fns, List<long[]> live, long from, long to) {
    Double first = null;
    Double last = null;
    for (long[] e : live) {
      if (e[0] >= from && e[0] <= to) {
        if (first == null) {
          first = (double) e[1];
        }
        last = (double) e[1];
      }
    }
    List<Object> r = new ArrayList<>();
    for (String f : fns.split(",")) {
      r.add(f.equals("first") ? first : last);
    }
    return r;
  }

  private static long ceiling(List<long[]> live, long c) {
    for (long[] e : live) {
      if (e[0] >= c) {
        return e[0];
      }
    }
    return Long.MAX_VALUE;
  }

  /**
   * A key of slices runs in order for thousands of records between flushes (its list of touched
   * slices compacted as it fills, evictions in between); at random points it is flushed and a copy
   * is loaded from the store: the copy emits exactly the rows the key emits from there on.
   */
  @Test
  void slicesHeldAcrossEvictionsWithoutFlushesReloadEqual() throws Exception {
    for (long ratio : new long[] {1, 4, 16}) {
      for (long seed = 0; seed < 4; seed++) {
        Random rnd = new Random(seed + 100 * ratio);
        QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
            .window(WindowSpec.time(ratio * 16, 16).aggregate("mx", "max", "v").aggregate("s", "sum", "v")).build();
        List<String> used = LocalExecutor.usedColumns(q);
        WindowGroup g = WindowGroup.storedGroups(Planner.plan(q), used, false).get(0);
        int ts = used.indexOf("ts");
        StoredWindowsTest.MapStore store = new StoredWindowsTest.MapStore();
        StoredWindows key = new StoredWindows(g, ts);
        StoredWindows copy = null;
        List<String> keyOut = new ArrayList<>();
        List<String> copyOut = new ArrayList<>();
        KeyWindows.WindowOutput toKey = (w, s, e, r) -> keyOut.add(w + " " + s + " " + e + " " + r);
        KeyWindows.WindowOutput toCopy = (w, s, e, r) -> copyOut.add(w + " " + s + " " + e + " " + r);
        long wm = Long.MIN_VALUE;
        long nextCheck = 500 + rnd.nextInt(5000);
        int checks = 0;
        long t = 0;
        for (long i = 0; i < 40_000; i++) {
          // in order: one record per slice (even seeds: the FIFO serves), or gaps of 0..19 ms (shared slices: the tree)
          t = Math.max(seed % 2 == 0 ? i * 16 + rnd.nextInt(16) : t + rnd.nextInt(20), wm + 1);
          Object[] row = new Object[used.size()];
          row[ts] = t;
          row[used.indexOf("k")] = "k";
          row[used.indexOf("v")] = (double) rnd.nextInt(100);
          key.insert(t, row.clone(), wm, toKey);
          if (copy != null) {
            copy.insert(t, row.clone(), wm, toCopy);
          }
          if (rnd.nextInt(64) == 0) {
            wm = t - rnd.nextInt(40);
            key.windows().fire(wm, toKey);
            if (copy != null) {
              copy.windows().fire(wm, toCopy);
            }
          }
          if (i == nextCheck) {
            if (copy != null) {
              assertEquals(keyOut, copyOut, "ratio " + ratio + " seed " + seed + " up to record " + i);
            }
            key.flush(store);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            key.writeMeta(new DataOutputStream(b));
            copy = StoredWindows.load(g, ts, new DataInputStream(new ByteArrayInputStream(b.toByteArray())), store);
            keyOut.clear();
            copyOut.clear();
            nextCheck = i + 500 + rnd.nextInt(5000);
            checks++;
          }
        }
        assertEquals(keyOut, copyOut, "ratio " + ratio + " seed " + seed + " at the end");
        assertTrue(checks > 3);
        assertTrue(key.windows().entries() > 0);
      }
    }
  }

  /**
   * A key of one non-commutative function (a {@link ScalarProduct}: {@code first}, {@code last}) fired
   * in order, through an output that takes one result without a list ({@link
   * KeyWindows.WindowOutput#emitOne}, as the engines' operators do): every non-empty window fires once,
   * in order, with the result of a recompute over its records, whether the key's FIFO serves (one
   * record per slice, where the lean path must be the one taken) or its tree (shared slices).
   */
  @Test
  void oneFunctionKeyEmitsOneResultEqualToRecompute() {
    for (String fn : new String[] {"first", "last"}) {
      for (long ratio : new long[] {1, 3, 16}) {
        for (long seed = 0; seed < 4; seed++) {
          Random rnd = new Random(seed * 7 + ratio + fn.length());
          long slide = 16;
          long size = ratio * slide;
          QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
              .window(WindowSpec.time(size, slide).aggregate("a", fn, "v")).build();
          List<String> used = LocalExecutor.usedColumns(q);
          WindowGroup g = WindowGroup.storedGroups(Planner.plan(q), used, false).get(0);
          int ts = used.indexOf("ts");
          StoredWindows key = new StoredWindows(g, ts);
          List<long[]> records = new ArrayList<>(); // {time, value} in arrival order
          List<String> out = new ArrayList<>();
          int[] ones = {0};
          KeyWindows.WindowOutput o = collecting(out, ones);
          long wm = Long.MIN_VALUE;
          long t = 0;
          for (int i = 0; i < 5_000; i++) {
            t = Math.max(seed % 2 == 0 ? i * slide + rnd.nextInt((int) slide) : t + rnd.nextInt(20), wm + 1);
            Object[] row = new Object[used.size()];
            row[ts] = t;
            row[used.indexOf("k")] = "k";
            long v = rnd.nextInt(100);
            row[used.indexOf("v")] = (double) v;
            key.insert(t, row, wm, o); // the row is reused by no one here: a fresh one per record
            records.add(new long[] {t, v});
            if (rnd.nextInt(48) == 0) {
              wm = t - rnd.nextInt(40);
              key.windows().fire(wm, o);
            }
          }
          wm = t + size;
          key.windows().fire(wm, o);
          List<String> expected = new ArrayList<>();
          long lastStart = Math.floorDiv(t, slide) * slide;
          for (long st = Math.floorDiv(records.get(0)[0] - size + 1, slide) * slide; st <= lastStart; st += slide) {
            Double first = null;
            Double last = null;
            for (long[] r : records) {
              if (r[0] >= st && r[0] < st + size) {
                if (first == null) {
                  first = (double) r[1];
                }
                last = (double) r[1];
              }
            }
            if (first != null) {
              expected.add(st + " " + (st + size) + " " + java.util.Collections.singletonList(fn.equals("first") ? first : last));
            }
          }
          String at = fn + " ratio " + ratio + " seed " + seed;
          assertEquals(expected, out, at);
          if (seed % 2 == 0) {
            assertFalse(((AdaptiveAggregator) key.windows().aggregator()).switched(), at + ": the FIFO serves");
            assertEquals(out.size(), ones[0], at + ": every row without a list");
          }
        }
      }
    }
  }

  /**
   * A key of slices whose in-order ring serves as its time log (no second copy while the FIFO
   * serves), in order with gaps of empty slices and windows, flushed at random points: every
   * non-empty window fires once with the result of a recompute ({@code max}, {@code sum}, both),
   * no empty one fires (the ring's cursor finds the next window's first record), and after each
   * flush the store holds exactly the slices above the eviction bound (the ring reports every
   * evicted slice), as many as the key's records.
   */
  @Test
  void ringServesAsTheTimeLogWithGaps() throws Exception {
    for (String fns : new String[] {"max", "sum", "max,sum"}) {
      for (long[] sizeSlide : new long[][] {{16, 16}, {64, 16}, {48, 32}, {80, 48}}) { // slices of 16 ms
        for (long seed = 0; seed < 6; seed++) {
          long size = sizeSlide[0];
          long slide = sizeSlide[1];
          long width = 16;
          long ratio = (size + slide - 1) / slide;
          Random rnd = new Random(seed * 13 + size + slide + fns.length());
          WindowSpec.Builder spec = WindowSpec.time(size, slide);
          String[] fs = fns.split(",");
          for (int j = 0; j < fs.length; j++) {
            spec = spec.aggregate("a" + j, fs[j], "v");
          }
          QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order").window(spec).build();
          List<String> used = LocalExecutor.usedColumns(q);
          WindowGroup g = WindowGroup.storedGroups(Planner.plan(q), used, false).get(0);
          int ts = used.indexOf("ts");
          StoredWindows key = new StoredWindows(g, ts);
          assertTrue(key.storesSlices(), "a sliding window of mergeable functions keeps slices");
          StoredWindowsTest.MapStore store = new StoredWindowsTest.MapStore();
          List<long[]> records = new ArrayList<>();
          List<String> out = new ArrayList<>();
          KeyWindows.WindowOutput o = collecting(out, new int[1]);
          long wm = Long.MIN_VALUE;
          long bound = Long.MIN_VALUE;
          long slice = 0;
          long t = 0;
          int flushes = 0;
          for (int i = 0; i < 4_000; i++) {
            slice += 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3 * (int) ratio + 3) : 0); // gaps: empty slices and windows
            t = slice * width + rnd.nextInt((int) width);
            Object[] row = new Object[used.size()];
            row[ts] = t;
            row[used.indexOf("k")] = "k";
            long v = rnd.nextInt(100);
            row[used.indexOf("v")] = (double) v;
            key.insert(t, row, wm, o);
            records.add(new long[] {t, v});
            if (rnd.nextInt(24) == 0) {
              wm = Math.max(wm, t - rnd.nextInt(3 * (int) size));
              key.windows().fire(wm, o);
              bound = Math.max(bound, g.evictBound(wm));
            }
            if (rnd.nextInt(200) == 0) {
              key.flush(store);
              flushes++;
              java.util.TreeSet<Long> live = new java.util.TreeSet<>();
              for (long[] r : records) {
                long s = Math.floorDiv(r[0], width) * width;
                if (s > bound) {
                  live.add(s);
                }
              }
              String at = fns + " size " + size + " slide " + slide + " seed " + seed + " record " + i;
              assertEquals(live, store.map.keySet(), at + ": the stored slices are those above the eviction bound");
              assertEquals(live.size(), key.windows().records(), at + ": records");
            }
          }
          key.windows().fire(t + size, o);
          List<String> expected = new ArrayList<>();
          long lastStart = Math.floorDiv(t, slide) * slide;
          for (long st = Math.floorDiv(records.get(0)[0] - size + 1, slide) * slide; st <= lastStart; st += slide) {
            Double max = null;
            double sum = 0;
            for (long[] r : records) {
              if (r[0] >= st && r[0] < st + size) {
                max = max == null ? (double) r[1] : Math.max(max, (double) r[1]);
                sum += r[1];
              }
            }
            if (max != null) {
              List<Object> res = new ArrayList<>();
              for (String f : fs) {
                res.add(f.equals("max") ? max : (Object) sum);
              }
              expected.add(st + " " + (st + size) + " " + res);
            }
          }
          String at = fns + " size " + size + " slide " + slide + " seed " + seed;
          assertEquals(expected, out, at);
          assertTrue(flushes > 3, at);
          assertFalse(((AdaptiveAggregator) key.windows().aggregator()).switched(), at + ": the FIFO serves");
        }
      }
    }
  }

  /**
   * {@link AdaptiveAggregator#queryOne} answers a range of one entry from the ring, its FIFO left
   * empty, for {@code max}, {@code min}, {@code first} and {@code last} (on each typed FIFO
   * algorithm): on seeded in-order traces with gaps, equal times and sliding windows of one to three
   * slides (one-entry ranges interleaved with longer and empty ones), evictions between, values that
   * include -0.0, 0.0, the infinities, the extremes and a subnormal, and NaNs (refused by both, which
   * stay as they were), every answer equals to the bit that of an aggregator that takes every range
   * through its FIFO ({@code query}'s list path) and that of a recompute of the entries in range; a
   * one-entry range asked of an empty FIFO leaves it empty; both agree after their switch to the tree. {@code sum}, whose float
   * combine rounds by its bracketing, never takes the ring's answer (and equals the FIFO's).
   */
  @Test
  void oneEntryRangeFromTheRingEqualsTheFifoToTheBit() {
    double[] special = {-0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE,
        -Double.MAX_VALUE, Double.MIN_VALUE, 1e-300, -1.5};
    String[] fifos = {"daba_lite", "daba", "two_stacks_lite", "flatfit"};
    for (String fn : new String[] {"max", "min", "first", "last", "sum"}) {
      for (long seed = 0; seed < 8; seed++) {
        Random rnd = new Random(seed * 131 + fn.hashCode());
        ProductFunction p = new ProductFunction(List.of(Functions.byName(fn)));
        String fifo = fifos[(int) seed % fifos.length];
        AdaptiveAggregator a = new AdaptiveAggregator(fifo, "bfiba4", p);
        AdaptiveAggregator ref = new AdaptiveAggregator(fifo, "bfiba4", p);
        List<double[]> live = new ArrayList<>(); // {time, value}
        long slide = 1 + rnd.nextInt(4);
        long size = slide * (1 + rnd.nextInt(3));
        long t = 0;
        long st = 0; // the next window's start
        long evicted = Long.MIN_VALUE;
        int ones = 0;
        int many = 0;
        String at = fn + " on " + fifo + " seed " + seed + " size " + size + " slide " + slide;
        for (int i = 0; i < 3000; i++) {
          int gap = rnd.nextInt(8);
          t += gap < 2 ? 0 : gap < 6 ? 1 : rnd.nextInt(4 * (int) size); // equal times, next times, gaps
          double v = rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : (rnd.nextInt(2000) - 1000) / 8.0;
          if (rnd.nextInt(100) == 0) { // a NaN is refused by both, which stay as they were
            long tn = t;
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> a.insert(tn, new Object[] {Double.NaN}), at);
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ref.insert(tn, new Object[] {Double.NaN}), at);
          }
          a.insert(t, new Object[] {v});
          ref.insert(t, new Object[] {v});
          live.add(new double[] {t, v});
          while (st + size - 1 < t) { // the windows that end before t: fired in order, as a key fires them
            long from = st;
            long to = st + size - 1;
            int n = 0;
            for (double[] e : live) {
              n += e[0] >= from && e[0] <= to ? 1 : 0;
            }
            boolean empty = a.fifo().size() == 0;
            Object got = a.queryOne(from, to);
            Object want = ((List<?>) ref.query(from, to)).get(0); // the list path: every range through the FIFO
            StringBuilder inw = new StringBuilder();
            for (double[] e : live) {
              if (e[0] >= from && e[0] <= to) {
                inw.append(' ').append((long) e[0]).append(':').append(e[1]);
              }
            }
            String w = at + " window [" + from + ", " + to + "] of " + n + " entries" + inw + ", op " + i + " empty " + empty;
            assertEquals(bits(want), bits(got), w);
            if (!fn.equals("sum")) {
              assertEquals(bits(recomputeOne(fn, live, from, to)), bits(got), w + ": recompute");
            }
            if (n == 1 && empty) {
              ones += a.fifo().size() == 0 ? 1 : 0;
              if (!fn.equals("sum")) {
                assertEquals(0, a.fifo().size(), w + ": the FIFO stays empty");
              }
            } else if (n > 1) {
              many++;
            }
            st += slide;
          }
          if (rnd.nextInt(64) == 0) {
            long e = st - 1 - rnd.nextInt(3 * (int) size);
            if (e > evicted) {
              evicted = e;
              assertEquals(ref.bulkEvict(e), a.bulkEvict(e), at + " evict " + e);
              live.removeIf(x -> x[0] <= e);
            }
          }
        }
        assertFalse(a.switched(), at + ": the FIFO serves");
        if (fn.equals("sum")) {
          assertEquals(0, ones, at + ": no range from the ring (float sum rounds by its bracketing)");
        } else {
          assertTrue(ones > 100 && many > 100, at + ": " + ones + " one-entry and " + many + " longer ranges");
        }
        a.switchToTree();
        ref.switchToTree();
        long from = st - 2 * size;
        assertEquals(bits(ref.queryOne(from, t)), bits(a.queryOne(from, t)), at + ": after the switch");
      }
    }
  }

  /** The function's result over the live entries in [from, to] (null if none), recomputed: max, min, first, last. */
  private static Object recomputeOne(String fn, List<double[]> live, long from, long to) {
    Double r = null;
    for (double[] e : live) {
      if (e[0] < from || e[0] > to) {
        continue;
      }
      double v = e[1];
      r = switch (fn) {
        case "max" -> r == null || v > r ? v + 0.0 : r; // max and min: one zero, 0.0 (MinMax)
        case "min" -> r == null || v < r ? v + 0.0 : r;
        case "first" -> r == null ? v : r;
        default -> v;
      };
    }
    return r;
  }

  /** A result as comparable bits: a double's raw bits, else the object. */
  private static Object bits(Object o) {
    return o instanceof Double d ? (Object) Double.doubleToRawLongBits(d) : o;
  }

  /**
   * An output that adds each row to {@code out} as "start end [results]" and counts in {@code ones[0]}
   * the rows that came without a list.
   */
  private static KeyWindows.WindowOutput collecting(List<String> out, int[] ones) {
    return new KeyWindows.WindowOutput() {
      @Override
      public void emit(int w, long s, long e, List<Object> r) {
        out.add(s + " " + e + " " + r);
      }

      @Override
      public void emitOne(int w, long s, long e, Object result) {
        ones[0]++;
        out.add(s + " " + e + " " + java.util.Collections.singletonList(result));
      }
    };
  }
}

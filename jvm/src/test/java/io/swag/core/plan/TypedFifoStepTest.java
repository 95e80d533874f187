package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fifo.DoubleFifo;
import io.swag.core.fn.Functions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The FIFO of an {@link AdaptiveAggregator} of one scalar function, moved by ring position on a typed
 * algorithm ({@link DoubleFifo}) and by time on the others (a {@code TimedFifo}): on seeded traces of
 * in-order entries (equal times, gaps), sliding ranges of every shape asked by {@code queryOne} and by
 * the list path in turn, bulk evictions before, inside and past the FIFO's run and exact evictions of
 * the oldest time, every answer equals a left fold of the entries in range written here (the
 * function's own rule per name; {@code sum} of small integers, exact in any bracketing; {@code first}
 * and {@code last} are not commutative, so an entry moved out of order shows). After every answer the
 * FIFO holds exactly the entries of the range (none for a one-entry range answered from the ring).
 */
class TypedFifoStepTest {
  private static final String[] FIFOS = {"daba_lite", "daba", "two_stacks_lite", "flatfit", "two_stacks", "recalc"};

  @Test
  void theFifoHoldsTheRangeAndAnswersAsAFold() {
    for (String fn : new String[] {"max", "min", "first", "last", "sum"}) {
      for (String fifo : FIFOS) {
        for (long seed = 0; seed < 6; seed++) {
          run(fn, fifo, seed);
        }
      }
    }
  }

  private static void run(String fn, String fifo, long seed) {
    Random rnd = new Random(seed * 7919 + fn.hashCode() * 31L + fifo.hashCode());
    AdaptiveAggregator a = new AdaptiveAggregator(fifo, "bfiba4", new ProductFunction(List.of(Functions.byName(fn))));
    boolean typed = a.fifo() instanceof DoubleFifo;
    List<double[]> live = new ArrayList<>(); // {time, value}, oldest first
    long slide = 1 + rnd.nextInt(5);
    long size = slide * (1 + rnd.nextInt(6));
    long t = 0;
    long st = -size; // the next range's start
    long evicted = Long.MIN_VALUE;
    int moved = 0;
    String at = fn + " on " + fifo + " seed " + seed + " size " + size + " slide " + slide;
    for (int i = 0; i < 2500; i++) {
      int gap = rnd.nextInt(8);
      t += gap < 2 ? 0 : gap < 6 ? 1 : rnd.nextInt(3 * (int) size); // equal times, next times, gaps
      double v = rnd.nextInt(41) - 20;
      a.insert(t, new Object[] {v});
      live.add(new double[] {t, v});
      while (st + size - 1 < t) { // the ranges that end before t, in order
        long from = st;
        long to = st + size - 1;
        int n = 0;
        for (double[] e : live) {
          n += e[0] >= from && e[0] <= to ? 1 : 0;
        }
        boolean list = rnd.nextInt(3) == 0;
        Object got = list ? ((List<?>) a.query(from, to)).get(0) : a.queryOne(from, to);
        String w = at + " range [" + from + ", " + to + "] of " + n + " entries, op " + i + (list ? " (list)" : "");
        assertEquals(bits(fold(fn, live, from, to)), bits(got), w);
        int held = a.fifo().size();
        assertTrue(held == n || (held == 0 && n == 1 && !list && !fn.equals("sum") && typed), w + ": the FIFO holds "
            + held);
        moved += n > 1 ? 1 : 0;
        st += slide;
      }
      int r = rnd.nextInt(48);
      if (r == 0) { // a bulk evict anywhere up to the next range's start
        long e = st - 1 - rnd.nextInt(2 * (int) size + 1);
        if (e > evicted) {
          evicted = e;
          int want = 0;
          for (double[] x : live) {
            want += x[0] <= e ? 1 : 0;
          }
          assertEquals(want, a.bulkEvict(e), at + " bulk evict " + e);
          live.removeIf(x -> x[0] <= e);
        }
      } else if (r == 1 && !live.isEmpty() && live.get(0)[0] < st) { // the oldest time, exactly
        long e = (long) live.get(0)[0];
        assertTrue(a.evict(e), at + " evict " + e);
        live.removeIf(x -> x[0] == e);
        evicted = Math.max(evicted, e);
      }
    }
    assertFalse(a.switched(), at + ": the FIFO serves");
    assertTrue(moved > 100, at + ": " + moved + " ranges of several entries");
  }

  /** The function's value of the entries in {@code [from, to]}, folded oldest first; null if none. */
  private static Object fold(String fn, List<double[]> live, long from, long to) {
    Double r = null;
    for (double[] e : live) {
      if (e[0] < from || e[0] > to) {
        continue;
      }
      double v = e[1] + 0.0;
      r = r == null ? v : switch (fn) {
        case "max" -> Math.max(r, v);
        case "min" -> Math.min(r, v);
        case "first" -> r;
        case "last" -> v;
        default -> r + v;
      };
    }
    if (r == null) {
      return fn.equals("sum") ? 0.0 : null;
    }
    return r;
  }

  private static Object bits(Object o) {
    return o instanceof Double d ? (Object) Double.doubleToRawLongBits(d) : o;
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveAggregator#queryOne(long, long, Object)}: the result held by the caller comes back
 * exactly when it is the answer (a {@code Double} with the answer's bits, the answer not NaN, for
 * {@code max}, {@code min}, {@code first}, {@code last}, {@code sum}), and otherwise the answer of
 * an aggregator asked without it, to the bit and of the same type. Seeded in-order traces with
 * gaps, equal times, sliding windows of one to three slides, evictions; values in runs (the answer
 * repeats) with -0.0, 0.0, the infinities and the extremes; held objects: the window's previous
 * answer, a new box of the answer's bits, the other zero, a NaN box, a {@code Long} of the same
 * value, null.
 */
class HeldResultTest {
  private static final double[] SPECIAL = {-0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
      Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, -1.5};

  @Test
  void heldResultComesBackExactlyWhenItIsTheAnswer() {
    String[] fifos = {"daba_lite", "daba", "two_stacks_lite", "flatfit"};
    for (String fn : new String[] {"max", "min", "first", "last", "sum"}) {
      for (long seed = 0; seed < 8; seed++) {
        Random rnd = new Random(seed * 977 + fn.hashCode());
        ProductFunction p = new ProductFunction(List.of(Functions.byName(fn)));
        String fifo = fifos[(int) seed % fifos.length];
        AdaptiveAggregator a = new AdaptiveAggregator(fifo, "bfiba4", p);
        AdaptiveAggregator ref = new AdaptiveAggregator(fifo, "bfiba4", p);
        assertTrue(a.answersOne(), fn);
        long slide = 1 + rnd.nextInt(3);
        long size = slide * (1 + rnd.nextInt(3));
        long t = 0;
        long st = 0;
        double v = 1;
        Object previous = null;
        int reused = 0;
        int answers = 0;
        String at = fn + " on " + fifo + " seed " + seed + " size " + size + " slide " + slide;
        for (int i = 0; i < 3000; i++) {
          int gap = rnd.nextInt(8);
          t += gap < 1 ? 0 : gap < 6 ? 1 : rnd.nextInt(3 * (int) size);
          if (rnd.nextInt(3) == 0) { // values in runs: a window's answer often repeats
            v = rnd.nextInt(4) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextInt(6) - 2;
          }
          a.insert(t, new Object[] {v});
          ref.insert(t, new Object[] {v});
          while (st + size - 1 < t) {
            long from = st;
            long to = st + size - 1;
            Object want = ref.queryOne(from, to);
            Object held = switch (rnd.nextInt(6)) {
              case 0 -> previous;
              case 1 -> want instanceof Double d ? Double.valueOf(d) : Double.valueOf(0.0); // a new box, the same bits
              case 2 -> want instanceof Double d && d == 0.0 ? Double.valueOf(-d) : Double.valueOf(-0.0); // the other zero
              case 3 -> Double.valueOf(Double.NaN);
              case 4 -> want instanceof Double d ? (Object) Long.valueOf(d.longValue()) : Long.valueOf(0);
              default -> null;
            };
            Object got = a.queryOne(from, to, held);
            String w = at + " window [" + from + ", " + to + "] held " + held + " want " + want;
            assertEquals(type(want), type(got), w);
            assertEquals(bits(want), bits(got), w);
            boolean same = held instanceof Double h && want instanceof Double d && !d.isNaN()
                && Double.doubleToRawLongBits(h) == Double.doubleToRawLongBits(d);
            if (same) {
              assertSame(held, got, w + ": the held result comes back");
              reused++;
            } else {
              assertTrue(got != held || got == null, w + ": a held object that is not the answer never comes back");
            }
            answers++;
            previous = got;
            st += slide;
          }
          if (rnd.nextInt(64) == 0) {
            long e = st - 1 - rnd.nextInt(3 * (int) size);
            assertEquals(ref.bulkEvict(e), a.bulkEvict(e), at + " evict " + e);
          }
        }
        assertTrue(reused > 100 && answers - reused > 100, at + ": " + reused + " of " + answers + " held results came back");
      }
    }
  }

  private static Object type(Object o) {
    return o == null ? null : o.getClass();
  }

  private static Object bits(Object o) {
    return o instanceof Double d ? (Object) Double.doubleToRawLongBits(d) : o;
  }
}

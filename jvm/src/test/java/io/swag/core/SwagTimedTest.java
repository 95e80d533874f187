package io.swag.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Swag#timed}: one interface over the trees and the in-order aggregators, so they can be
 * swapped; the in-order ones do what they can and say clearly what they cannot.
 */
class SwagTimedTest {

  @Test
  void namesAndArity() {
    assertEquals("bfiba4", Swag.timed("fiba", "sum").algorithm());
    assertEquals("bfiba8", Swag.timed("fiba", "sum", Map.of("minArity", 8)).algorithm());
    assertEquals("nbfiba2", Swag.timed("fiba4", "sum", Map.of("minArity", 2)).algorithm());
    assertEquals("nbfiba8", Swag.timed("nbfiba", "sum", Map.of("minArity", 8)).algorithm());
    assertEquals("bclassic4", Swag.timed("bclassic", "sum").algorithm());
    assertEquals("daba_lite", Swag.timed("daba_lite", "sum").algorithm());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Swag.timed("fiba", "sum", Map.of("minArity", 3)));
    assertTrue(e.getMessage().contains("minArity") && e.getMessage().contains("3"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Swag.timed("daba_lite", "sum", Map.of("minArity", 4)));
    assertTrue(e.getMessage().contains("daba_lite"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Swag.timed("fibb", "sum"));
    assertTrue(e.getMessage().contains("daba_lite") && e.getMessage().contains("bfiba4"), e.getMessage());
    // function options still reach the function
    assertEquals(1024, ((io.swag.core.fn.Bloom) Swag.timed("fiba", "bloom", Map.of("bits", 1024, "minArity", 2))
        .function()).bits());
  }

  /** On in-order input every algorithm behind the interface gives the same results. */
  @Test
  void swappableOnInOrderInput() {
    List<String> algos = List.of("fiba", "bfiba2", "fiba8", "nbfiba4", "bclassic4", "daba_lite", "two_stacks_lite",
        "flatfit", "flatfat", "reactive", "daba", "two_stacks", "recalc");
    for (String fn : List.of("collect", "sum", "argmax")) {
      SplittableRandom r = new SplittableRandom(9);
      TimedAggregator[] ws = new TimedAggregator[algos.size()];
      for (int i = 0; i < ws.length; i++) {
        ws[i] = Swag.timed(algos.get(i), Functions.byName(fn), null);
      }
      long t = 0;
      int compared = 0; // queries of a non-empty window
      long bulkEvicted = 0;
      for (int step = 0; step < 20_000; step++) {
        int op = r.nextInt(10);
        if (op < 6) {
          t += 1 + r.nextInt(3); // distinct, increasing times: the trees and the FIFOs agree on size
          double v = r.nextInt(20);
          for (TimedAggregator w : ws) {
            w.insert(t, v);
          }
        } else if (op < 8 && !ws[0].isEmpty()) {
          long upTo = ws[0].oldestTime() + r.nextInt(8);
          int n = ws[0].bulkEvict(upTo);
          bulkEvicted += n;
          for (int i = 1; i < ws.length; i++) {
            assertEquals(n, ws[i].bulkEvict(upTo), algos.get(i));
          }
        } else if (op < 9 && !ws[0].isEmpty()) {
          long oldest = ws[0].oldestTime();
          for (TimedAggregator w : ws) {
            assertTrue(w.evict(oldest));
            assertFalse(w.evict(oldest));
          }
        } else {
          Object want = ws[0].query();
          compared += ws[0].isEmpty() ? 0 : 1;
          for (int i = 1; i < ws.length; i++) {
            assertEquals(want, ws[i].query(), algos.get(i) + " " + fn + " step " + step);
            assertEquals(ws[0].size(), ws[i].size());
            assertEquals(want, ws[i].query(Long.MIN_VALUE, Long.MAX_VALUE));
          }
        }
      }
      assertTrue(compared > 1000, fn + ": only " + compared + " queries of a non-empty window");
      assertTrue(bulkEvicted > 1000, fn + ": bulkEvict removed only " + bulkEvicted);
    }
  }

  @Test
  void inOrderLimitsAreExplicit() {
    TimedAggregator w = Swag.timed("daba_lite", "sum");
    w.bulkInsert(new long[] {1, 2, 2, 4}, new double[] {1, 2, 3, 4}, 0, 4);
    assertEquals(10.0, w.queryDouble(0, 4));
    assertEquals(0.0, w.queryDouble(5, 9), "a range after the window is empty");
    UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class, () -> w.query(2, 3));
    assertTrue(u.getMessage().contains("whole window") && u.getMessage().contains("fiba"), u.getMessage());
    u = assertThrows(UnsupportedOperationException.class, () -> w.evict(2));
    assertTrue(u.getMessage().contains("oldest"), u.getMessage());
    assertFalse(w.evict(3), "absent time");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> w.bulkInsert(new long[] {5, 3}, new double[] {1, 1}, 0, 2));
    assertTrue(e.getMessage().contains("index 1"), e.getMessage());
    assertEquals(4, w.size(), "a rejected batch inserts nothing");
    assertTrue(w.evict(1));
    assertEquals(9.0, w.queryDouble());
  }
}

package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.FifoAggregator;
import io.swag.core.Swag;
import io.swag.core.TimedFifoAggregator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Timestamped windows and the errors of the FIFO aggregators. */
class TimedAndErrorsTest {

  static List<String> algorithms() {
    return Swag.FIFO_ALGORITHMS;
  }

  @ParameterizedTest
  @MethodSource("algorithms")
  void timedWindowEvictsByTime(String algorithm) {
    TimedFifoAggregator w = Swag.timedFifo(algorithm, algorithm.equals("soe") ? "sum" : "max");
    long[] times = {10, 10, 11, 15, 20, 20, 21};
    double[] vals = {5, 1, 9, 2, 3, 8, 4};
    for (int i = 0; i < times.length; i++) {
      w.insert(times[i], vals[i]);
    }
    assertEquals(10, w.oldestTime());
    assertEquals(21, w.youngestTime());
    assertEquals(3, w.evictUpTo(11));
    assertEquals(15, w.oldestTime());
    assertEquals(algorithm.equals("soe") ? 17.0 : 8.0, w.queryDouble());
    assertEquals(0, w.evictUpTo(14));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.insert(19, 1.0));
    assertTrue(e.getMessage().contains("19") && e.getMessage().contains("21"), e.getMessage());
    assertEquals(4, w.size(), "rejected insert changed nothing");
    assertEquals(4, w.evictUpTo(Long.MAX_VALUE));
    assertThrows(NoSuchElementException.class, w::oldestTime);
    assertThrows(NoSuchElementException.class, w::evict);
    w.insert(3, 1.0); // an emptied window accepts any time again
    assertEquals(1, w.size());
  }

  @Test
  void argmaxOfATimedWindowIsATime() {
    TimedFifoAggregator w = Swag.timedFifo("daba_lite", "argmax");
    long t0 = 1_700_000_000_000_000_000L; // nanoseconds: all 64 bits kept
    w.insert(t0, 3.0);
    w.insert(t0 + 5, 7.0);
    w.insert(t0 + 9, 7.0);
    w.insert(t0 + 12, 1.0);
    assertEquals(t0 + 5, w.query());
    w.evictUpTo(t0 + 5);
    assertEquals(t0 + 9, w.query());
    assertArrayEquals(new long[] {t0 + 9, t0 + 12}, ((TimedFifo) w).times());
  }

  @Test
  void untimedArgmaxIsASequenceNumber() {
    FifoAggregator w = Swag.fifo("two_stacks_lite", "argmax");
    for (double v : new double[] {1, 9, 3, 9}) {
      w.insert(v);
    }
    assertEquals(1L, w.query());
    w.evict();
    w.evict();
    assertEquals(3L, w.query());
  }

  @ParameterizedTest
  @MethodSource("algorithms")
  void errors(String algorithm) {
    FifoAggregator w = Swag.fifo(algorithm, algorithm.equals("soe") ? "sum" : "min");
    NoSuchElementException empty = assertThrows(NoSuchElementException.class, w::evict);
    assertTrue(empty.getMessage().contains("empty") && empty.getMessage().contains(algorithm), empty.getMessage());
    w.insert(2.0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.insert("x"));
    assertTrue(e.getMessage().contains("\"x\""), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> w.insert(Double.NaN));
    assertEquals(1, w.size(), "rejected values leave the window unchanged");
    assertEquals(2.0, w.queryDouble());
  }

  @Test
  void unknownNamesAndNonInvertible() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Swag.fifo("dabalite", "max"));
    assertTrue(e.getMessage().contains("'dabalite'") && e.getMessage().contains("daba_lite"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Swag.fifo("soe", "max"));
    assertTrue(e.getMessage().contains("invertible") && e.getMessage().contains("max"), e.getMessage());
    assertEquals("daba_lite", Swag.fifo("DABA-Lite", "max").algorithm());
  }

  @ParameterizedTest
  @MethodSource("algorithms")
  void memoryShrinksAfterABurst(String algorithm) {
    FifoBase w = Swag.fifo(algorithm, "sum");
    for (int i = 0; i < 100_000; i++) {
      w.insert(1.0);
    }
    int big = w.allocatedPartials();
    while (w.size() > 10) {
      w.evict();
    }
    assertTrue(w.allocatedPartials() < big / 100, algorithm + " kept " + w.allocatedPartials() + " slots");
    assertEquals(10.0, w.queryDouble());
  }
}

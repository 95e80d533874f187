package io.swag.core.ooo;

import io.swag.core.CountingSum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.TimedAggregator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The complexity shapes of the FiBA paper, counted in combine calls (not timed): with in-order data
 * the mean per round stays flat as n grows from 2^10 to 2^20 (amortized O(1)); with out-of-order
 * distance d it grows like log d; the classic B-tree pays log n regardless. Generous margins.
 */
class ComplexityTest {

  /** Mean combines per round (evict oldest + insert at distance d + query) in a window of n. */
  static double perRound(String algorithm, int n, int d, int rounds) {
    CountingSum f = new CountingSum();
    TimedAggregator w = Trees.create(algorithm, f);
    long high = 1L << 62;
    long low = 0;
    for (int i = 0; i < n - d; i++) {
      w.insert(low++, 1.0);
    }
    for (int i = 0; i < d; i++) {
      w.insert(high + i, 1.0);
    }
    for (int i = 0; i < n; i++) { // let amortization settle
      w.evict(w.oldestTime());
      w.insert(low++, 1.0);
      w.queryDouble();
    }
    f.take();
    for (int i = 0; i < rounds; i++) {
      w.evict(w.oldestTime());
      w.insert(low++, 1.0);
      assertEquals(n, w.queryDouble());
    }
    return (double) f.take() / rounds;
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiba2", "fiba4", "bfiba4", "fiba8"})
  void inOrderIsFlatInN(String algorithm) {
    double small = perRound(algorithm, 1 << 10, 0, 1 << 16);
    double large = perRound(algorithm, 1 << 20, 0, 1 << 16);
    assertTrue(large <= small * 1.5 + 1, algorithm + ": " + small + " combines/round at n=2^10, " + large + " at 2^20");
    int mu = Integer.parseInt(algorithm.replaceAll("[^0-9]", ""));
    assertTrue(large < 8 * mu + 8, algorithm + " in-order combines per round " + large);
  }

  @ParameterizedTest
  @ValueSource(strings = {"bclassic4"})
  void classicGrowsWithN(String algorithm) {
    double small = perRound(algorithm, 1 << 10, 0, 1 << 15);
    double large = perRound(algorithm, 1 << 20, 0, 1 << 15);
    // log_4(2^20) / log_4(2^10) = 2: the classic tree repairs the whole root path
    assertTrue(large > small * 1.5, algorithm + ": " + small + " at n=2^10 vs " + large + " at 2^20");
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiba4", "bfiba4"})
  void outOfOrderGrowsLikeLogD(String algorithm) {
    int n = 1 << 18;
    double[] c = new double[5];
    int[] logD = {2, 6, 10, 14, 17};
    for (int i = 0; i < logD.length; i++) {
      c[i] = perRound(algorithm, n, 1 << logD[i], 1 << 14);
    }
    String all = java.util.Arrays.toString(c) + " combines/round for log2 d = " + java.util.Arrays.toString(logD);
    // grows with d ...
    assertTrue(c[3] > c[0] + 10, algorithm + " does not grow with d: " + all);
    // ... but like log d: each 16x step of d (two levels of a min-arity-4 tree) adds a bounded
    // amount, while d itself grows 4096x from the first point to the fourth
    for (int i = 1; i < c.length; i++) {
      double step = c[i] - c[i - 1];
      assertTrue(step < 60, algorithm + " step " + i + " adds " + step + ": " + all);
    }
    assertTrue(c[3] < 8 * c[0], algorithm + " growth looks more than logarithmic: " + all);
    // and the finger tree is far cheaper than a root-to-leaf repair near the young end
    double classic = perRound("bclassic4", n, 1 << logD[0], 1 << 14);
    assertTrue(c[0] < classic, algorithm + " at small d (" + c[0] + ") vs classic (" + classic + ")");
  }
}

package io.swag.core.ooo;

import io.swag.core.CountingSum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import java.util.Iterator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Cost of the bulk operations of VLDB 2023 in combine calls, counted by an instrumented sum
 * ({@link CountingSum}): {@code bulkEvict} of m entries costs amortized O(log m) (not O(m), as
 * the loop of single evicts of {@code fiba4} does), and {@code bulkInsert} of m sorted entries
 * costs clearly fewer combines than m single inserts into an equal tree (in order, and
 * interleaved at an out-of-order distance d). Results are checked against an independent sum and
 * the {@link TreeOracle}; the criteria are also shown to reject the loops.
 */
class BulkCostTest {

  static final int LOG_M_MIN = 4;
  static final int LOG_M_MAX = 12;

  /** Value of the entry at time {@code t} (small integers: sums are exact). */
  static double v(long t) {
    return (double) (Math.floorMod(t * 2654435761L, 19) - 9);
  }

  /**
   * Average combines per {@code bulkEvict} of the m oldest entries of a window of n (times 2i),
   * over {@code rounds} rounds; between rounds m entries are appended (not counted). Checks the
   * count removed, the window's sum and, at the end, the invariants.
   */
  static double evictCost(String algorithm, int n, int m, int rounds) {
    CountingSum f = new CountingSum();
    BTreeCore t = (BTreeCore) Trees.create(algorithm, f);
    int cap = Math.max(n, m);
    long[] ts = new long[cap];
    double[] vs = new double[cap];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      ts[i] = 2L * i;
      vs[i] = v(ts[i]);
      sum += vs[i];
    }
    t.bulkInsert(ts, vs, 0, n);
    long oldest = 0;
    long next = 2L * n;
    long total = 0;
    for (int r = 0; r < rounds; r++) {
      f.take();
      int removed = t.bulkEvict(oldest + 2L * (m - 1));
      total += f.take();
      assertEquals(m, removed, algorithm + ": bulkEvict removed");
      for (int i = 0; i < m; i++) {
        sum -= v(oldest + 2L * i);
      }
      oldest += 2L * m;
      for (int i = 0; i < m; i++) {
        ts[i] = next + 2L * i;
        vs[i] = v(ts[i]);
        sum += vs[i];
      }
      t.bulkInsert(ts, vs, 0, m);
      next += 2L * m;
      assertEquals(n, t.size());
      assertEquals(oldest, t.oldestTime());
    }
    assertEquals(sum, t.queryDouble(), algorithm + ": window sum");
    t.checkInvariants();
    return total / (double) rounds;
  }

  static double[] evictCosts(String algorithm, int n) {
    double[] c = new double[LOG_M_MAX + 1];
    for (int lg = LOG_M_MIN; lg <= LOG_M_MAX; lg++) {
      int m = 1 << lg;
      c[lg] = evictCost(algorithm, n, m, Math.max(16, Math.min(256, (8 * n) / m)));
    }
    return c;
  }

  /**
   * The O(log m) shape: every doubling of m adds at most {@code perDoubling} combines, and at
   * m = 2^12 the cost is below m / 16.
   */
  static String logShapeViolation(double[] c, double perDoubling) {
    for (int lg = LOG_M_MIN + 1; lg <= LOG_M_MAX; lg++) {
      if (c[lg] - c[lg - 1] > perDoubling) {
        return "doubling m to 2^" + lg + " adds " + (c[lg] - c[lg - 1]) + " combines";
      }
    }
    if (c[LOG_M_MAX] >= (1 << LOG_M_MAX) / 16.0) {
      return "m = 2^" + LOG_M_MAX + " costs " + c[LOG_M_MAX] + " combines";
    }
    return null;
  }

  static String show(double[] c) {
    StringBuilder sb = new StringBuilder();
    for (int lg = LOG_M_MIN; lg <= LOG_M_MAX; lg++) {
      sb.append(String.format(" 2^%d:%.1f", lg, c[lg]));
    }
    return sb.toString();
  }

  @Test
  void bulkEvictCostsLogM() {
    for (int logN : new int[] {16, 18}) {
      int n = 1 << logN;
      double[] bulk = evictCosts("bfiba4", n);
      double[] loop = evictCosts("fiba4", n);
      String msg = "n=2^" + logN + " bfiba4" + show(bulk) + " | fiba4" + show(loop);
      System.out.println("bulkEvict combines per call, " + msg);
      String v = logShapeViolation(bulk, 24);
      assertTrue(v == null, "bfiba4 bulkEvict not O(log m): " + v + "; " + msg);
      for (int lg = LOG_M_MIN; lg <= LOG_M_MAX; lg++) {
        int m = 1 << lg;
        assertTrue(bulk[lg] <= 12 * lg, "bfiba4 bulkEvict of m=" + m + " costs " + bulk[lg] + "; " + msg);
        if (m >= 256) {
          assertTrue(bulk[lg] < m / 4.0, "bfiba4 bulkEvict of m=" + m + " costs " + bulk[lg] + "; " + msg);
        }
        // the loop of single evicts is about proportional to m: the criteria must reject it
        assertTrue(loop[lg] >= m, "fiba4 loop of m=" + m + " evicts costs only " + loop[lg] + "; " + msg);
      }
      assertFalse(logShapeViolation(loop, 24) == null, "the O(log m) criterion accepts a loop: " + msg);
    }
  }

  @Test
  void bulkEvictCostsLogMArities() {
    for (String a : new String[] {"bfiba2", "bfiba8"}) {
      double[] c = evictCosts(a, 1 << 16);
      String v = logShapeViolation(c, a.equals("bfiba8") ? 48 : 24);
      assertTrue(v == null, a + " bulkEvict not O(log m): " + v + ";" + show(c));
    }
  }

  // ---------------------------------------------------------------- bulkInsert

  enum Shape { IN_ORDER, INTERLEAVED }

  /**
   * Total combines of {@code rounds} bulk inserts of m sorted records into a window of about n
   * (times 2i): appended in order, or interleaved at distance {@code d = 4m} (odd times spread
   * over the youngest 4m entries, with a few equal times inside the batch and equal to existing
   * times). The window is first filled by single in-order inserts, so every algorithm starts from
   * the same tree. Between rounds the window is cut back to n by {@code bulkEvict} (not counted). The
   * batches depend only on the seed, so two algorithms see the same ones. Checks the window and
   * a range query against the {@link TreeOracle} after each round.
   */
  static long insertCost(String algorithm, boolean loop, int n, int m, int rounds, Shape shape) {
    CountingSum f = new CountingSum();
    BTreeCore t = (BTreeCore) Trees.create(algorithm, f);
    if (loop) {
      ((BulkFingerBTree) t).loopBulkInsert = true;
    }
    TreeOracle o = new TreeOracle(Functions.byName("sum"));
    SplittableRandom rnd = new SplittableRandom(42 + m);
    long[] ts = new long[Math.max(n, m)];
    double[] vs = new double[ts.length];
    for (int i = 0; i < n; i++) {
      ts[i] = 2L * i;
      vs[i] = v(ts[i]);
      o.insert(ts[i], vs[i]);
    }
    for (int i = 0; i < n; i++) { // the same starting tree for every algorithm: single in-order inserts
      t.insert(ts[i], vs[i]);
    }
    long youngest = 2L * (n - 1);
    long total = 0;
    for (int r = 0; r < rounds; r++) {
      if (shape == Shape.IN_ORDER) {
        for (int i = 0; i < m; i++) {
          ts[i] = youngest + 2 + 2L * i;
        }
      } else {
        long d = 4L * m;
        long lo = youngest - 2 * d;
        long prev = lo;
        for (int i = 0; i < m; i++) {
          long ti = lo + 2 * ((i * d) / m) + 1 + 2L * rnd.nextInt(2);
          int k = rnd.nextInt(32);
          if (k == 0 && i > 0) {
            ti = prev; // equal time inside the batch
          } else if (k == 1) {
            ti = Math.max(prev, ti - 1); // an existing (even) time
          }
          ti = Math.max(ti, prev);
          ts[i] = ti;
          prev = ti;
        }
      }
      for (int i = 0; i < m; i++) {
        vs[i] = rnd.nextInt(21) - 10;
        o.insert(ts[i], vs[i]);
      }
      f.take();
      t.bulkInsert(ts, vs, 0, m);
      total += f.take();
      youngest = Math.max(youngest, ts[m - 1]);
      assertEquals(o.size(), t.size(), algorithm + ": size");
      assertEquals(((double[]) o.query())[0], t.queryDouble(), algorithm + ": window sum");
      long from = ts[0] - 3;
      long to = ts[m - 1] + 3;
      assertEquals(((double[]) o.query(from, to))[0], t.queryDouble(from, to), algorithm + ": range sum");
      // cut back to n entries
      int excess = o.size() - n;
      if (excess > 0) {
        Iterator<Long> it = o.map.keySet().iterator();
        long cut = it.next();
        for (int i = 1; i < excess; i++) {
          cut = it.next();
        }
        assertEquals(o.bulkEvict(cut), t.bulkEvict(cut), algorithm + ": bulkEvict");
      }
    }
    t.checkInvariants();
    return total;
  }

  @Test
  void bulkInsertBeatsSingleInserts() {
    int n = 1 << 16;
    StringBuilder report = new StringBuilder();
    for (Shape shape : Shape.values()) {
      for (int lg : new int[] {0, 2, 4, 6, 8, 10, 12, 14}) {
        int m = 1 << lg;
        int rounds = Math.max(4, Math.min(32, (1 << 16) / m));
        long bulk = insertCost("bfiba4", false, n, m, rounds, shape);
        long single = insertCost("fiba4", false, n, m, rounds, shape);
        double ratio = bulk / (double) single;
        report.append(String.format("%n  %-11s m=2^%-2d bulk %.2f vs single %.2f combines per record (ratio %.2f)",
            shape, lg, bulk / (double) rounds / m, single / (double) rounds / m, ratio));
        if (m >= 1024) {
          assertTrue(ratio <= 0.5, shape + " m=" + m + ": bulk " + bulk + " vs single " + single + report);
        } else if (m >= 16) {
          assertTrue(ratio <= 0.8, shape + " m=" + m + ": bulk " + bulk + " vs single " + single + report);
        } else {
          assertTrue(ratio <= 1.25, shape + " m=" + m + ": bulk " + bulk + " vs single " + single + report);
        }
      }
    }
    System.out.println("bulkInsert vs single inserts, n=2^16:" + report);
    // the criterion rejects a loop: the same bulk tree with its loop fallback costs as much as fiba4
    long asLoop = insertCost("bfiba4", true, n, 4096, 8, Shape.INTERLEAVED);
    long single = insertCost("fiba4", false, n, 4096, 8, Shape.INTERLEAVED);
    assertTrue(asLoop > 0.5 * single, "loop fallback " + asLoop + " vs single " + single);
  }

  @Test
  void bulkInsertOtherAritiesAndDistances() {
    int n = 1 << 16;
    for (String a : new String[] {"bfiba2", "bfiba8", "fiba"}) {
      String single = "fiba" + (a.equals("fiba") ? 4 : a.charAt(a.length() - 1) - '0');
      for (Shape shape : Shape.values()) {
        long bulk = insertCost(a, false, n, 2048, 8, shape);
        long loop = insertCost(single, false, n, 2048, 8, shape);
        assertTrue(bulk <= 0.5 * loop, a + " " + shape + ": bulk " + bulk + " vs single " + loop);
      }
    }
  }
}

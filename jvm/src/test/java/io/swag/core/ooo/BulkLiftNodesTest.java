package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The detached nodes that hold a bulk insert's lifted values stay with the tree from one bulk to
 * the next: a slide of bulk evictions and bulk inserts of varying sizes (short bulks below the
 * arity, which take the single-append path, and long ones, which take the passes) keeps the
 * window's sum and the invariants, and allocates no more nodes once the window has slid through.
 */
class BulkLiftNodesTest {
  @ParameterizedTest
  @ValueSource(strings = {"bfiba2", "bfiba4", "bfiba8"})
  void liftNodesKeptAcrossBulks(String algorithm) {
    BTreeCore t = (BTreeCore) Trees.create(algorithm, Functions.byName("sum"));
    SplittableRandom r = new SplittableRandom(0x11F7L ^ algorithm.hashCode());
    ArrayDeque<Double> oracle = new ArrayDeque<>();
    final int n = 4096;
    long next = 0;
    for (int i = 0; i < n; i++) {
      double v = r.nextInt(1000);
      t.insert(next++, v);
      oracle.addLast(v);
    }
    long[] ts = new long[400];
    double[] vs = new double[400];
    int high = -1;
    for (int op = 0; op < 2500; op++) {
      int m = r.nextInt(10) < 3 ? 2 + r.nextInt(6) : 2 + r.nextInt(399);
      t.bulkEvict(t.oldestTime() + m - 1);
      for (int i = 0; i < m; i++) {
        oracle.removeFirst();
      }
      for (int i = 0; i < m; i++) {
        ts[i] = next++;
        vs[i] = r.nextInt(1000);
        oracle.addLast(vs[i]);
      }
      t.bulkInsert(ts, vs, 0, m);
      double want = 0;
      for (double v : oracle) {
        want += v;
      }
      assertEquals(want, t.queryDouble(), algorithm + " op " + op + " m " + m);
      assertEquals(oracle.size(), t.size(), algorithm + " op " + op);
      if (op % 25 == 0) {
        t.checkInvariants();
      }
      if (op == 1000) {
        high = t.nodeHigh;
      }
    }
    t.checkInvariants();
    assertTrue(t.nodeHigh <= high + high / 4,
        algorithm + ": nodes allocated " + high + " after 1,000 bulks, " + t.nodeHigh + " after 2,500");
  }
}

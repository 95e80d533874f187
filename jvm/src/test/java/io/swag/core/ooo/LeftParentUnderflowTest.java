package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Values;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The left finger's merge that underflows its parent ({@link BTreeCore#evictUnderflowAtLeft} →
 * {@code evictUnderflowAtLeftParent}: the parent's move or merge with its sibling through the
 * grandparent, whose own part is repaired from its suffix folds, {@link BTreeCore#gsfx}), against
 * the {@link TreeOracle} with non-commutative functions ({@code first}, {@code last}: the scalar
 * register folds; {@code mean}: two doubles per partial, the primitive store's slot folds;
 * {@code collect}: the object store, which keeps no suffix folds and takes the general path).
 *
 * <p>Each trace fills a window in order or in reverse order, large enough for the finger's
 * grandparent to be below the root, then slides it (evict the oldest, append the newest), with a
 * few inserts and evictions inside the window's old end (they recompute up-aggregates under the
 * grandparent and so invalidate its folds) and, on the bulk trees, small bulk evictions and bulk
 * inserts at the ends. The invariant checker (which verifies the folds of both the finger's parent
 * and grandparent) runs after every operation on the smallest windows and, on the larger ones,
 * after every operation that took the shortcut, every eviction that rebalanced the left finger
 * (μ <= 4) and every 64th operation; the whole window and
 * range queries are compared with the oracle after every shortcut taken and every 64th operation.
 * Asserts that the shortcut ran in every slide of a tree with a primitive store.
 */
class LeftParentUnderflowTest {

  static Stream<Arguments> cases() {
    Stream<Arguments> scalar = OooDriver.pairs(new String[] {"bfiba2", "bfiba4", "bfiba8", "nbfiba4"},
        new String[] {"first", "last", "mean"});
    return Stream.concat(scalar, Stream.of(Arguments.of("bfiba2", "collect"), Arguments.of("bfiba4", "collect")));
  }

  /** A window whose in-order fill has the left finger's grandparent below the root. */
  static int window(int minArity) {
    return minArity == 2 ? 500 : minArity == 4 ? 5_000 : 66_000;
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void slideAgainstOracle(String algorithm, String function) {
    for (boolean reversed : new boolean[] {false, true}) {
      OooDriver d = new OooDriver(algorithm, function, 0x6A11L ^ (algorithm.hashCode() * 31L + function.hashCode()) ^ (reversed ? 1 : 0),
          1 << 20, true);
      BTreeCore t = (BTreeCore) d.tree;
      final int n = window(t.minArity());
      final boolean everyOp = n <= 500;
      final boolean bulk = algorithm.startsWith("bfiba");
      String what = algorithm + " x " + function + (reversed ? " reversed" : " in order");
      for (int i = 0; i < n; i++) {
        put(d, reversed ? 1000L * (n - i) : 1000L * i);
      }
      check(d, what, true, 4);
      long u0 = t.leftParentUnderflows;
      long next = 1000L * (n + 1);
      final int rounds = Math.min(2 * n, 6_000);
      for (int i = 0; i < rounds; i++) {
        long before = t.leftParentUnderflows + t.leftUnderflows;
        long took = t.leftParentUnderflows;
        d.evict(d.oracle.map.firstKey());
        boolean slow = t.leftParentUnderflows + t.leftUnderflows != before && t.minArity() <= 4;
        boolean took2 = t.leftParentUnderflows != took;
        step(d, what, everyOp || slow || took2 || i % 64 == 0, took2 || i % 64 == 0);
        put(d, next);
        next += 1000;
        step(d, what, everyOp || i % 64 == 0, false);
        if (i % 37 == 0) { // inside the old end: a new time between two entries, or an existing one
          long at = nth(d, d.rnd.nextInt(Math.min(d.oracle.size(), 6 * t.maxArity * t.maxArity)));
          put(d, at + (d.rnd.nextBoolean() ? 500 : 0));
          step(d, what, t.minArity() <= 4, false);
        }
        if (i % 53 == 0) { // an inner eviction near the old end
          d.evict(nth(d, 1 + d.rnd.nextInt(Math.min(d.oracle.size() - 1, 4 * t.maxArity * t.maxArity))));
          step(d, what, t.minArity() <= 4, false);
        }
        if (bulk && i % 29 == 0) { // 1 to 4 of the oldest: single evictions at the finger or the bulk passes
          long to = nth(d, d.rnd.nextInt(4)) + d.rnd.nextInt(2);
          int want = d.oracle.bulkEvict(to);
          int got = d.tree.bulkEvict(to);
          assertEquals(want, got, what + ": " + d.where() + "bulkEvict(" + to + ")");
          step(d, what, t.minArity() <= 4, false);
          d.bulkInsert(OooDriver.BulkShape.NEWER, 1 + d.rnd.nextInt(4));
          next = d.oracle.map.lastKey() + 1000;
          step(d, what, t.minArity() <= 4, false);
        }
      }
      check(d, what, true, 4);
      if (t.finger && !t.objectStore) {
        assertTrue(t.leftParentUnderflows > u0, what + ": no underflow of the left finger's parent repaired through the grandparent's suffix folds");
      }
    }
  }

  static Stream<Arguments> touchCases() {
    return OooDriver.pairs(new String[] {"bfiba2", "bfiba4", "bfiba8", "nbfiba4"}, new String[] {"first", "mean"});
  }

  /**
   * {@link BTreeCore#touchAhead} (the loads of the finger's parent's sibling and its children ahead
   * of the left finger's next underflows) runs during an in-order slide and changes nothing: the
   * invariant checker and the oracle's whole window after every eviction that ran it and after the
   * next underflow of the finger's parent, and the tree's shape against a tree that does not touch
   * (the object store's, which takes the general path).
   */
  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("touchCases")
  void touchAheadChangesNothing(String algorithm, String function) {
    OooDriver d = new OooDriver(algorithm, function, 0x70C4L ^ (algorithm.hashCode() * 31L + function.hashCode()), 1 << 20, true);
    BTreeCore t = (BTreeCore) d.tree;
    BTreeCore plain = (BTreeCore) Trees.create(algorithm, io.swag.core.fn.Functions.byName("collect"));
    final int n = window(t.minArity());
    String what = algorithm + " x " + function;
    for (int i = 0; i < n; i++) {
      put(d, 1000L * i);
      plain.insert(1000L * i, (Object) Long.valueOf(i));
    }
    long next = 1000L * (n + 1);
    long touches0 = t.touches;
    boolean pending = false;
    for (int i = 0; i < Math.min(2 * n, 6_000); i++) {
      long touched = t.touches;
      long parent = t.leftParentUnderflows;
      d.evict(d.oracle.map.firstKey());
      plain.evict(plain.oldestTime());
      pending |= t.touches != touched;
      boolean after = pending && t.leftParentUnderflows != parent;
      step(d, what, t.touches != touched || after, t.touches != touched || after);
      if (after) {
        pending = false;
      }
      put(d, next);
      plain.insert(next, (Object) Long.valueOf(i));
      next += 1000;
      if (t.touches != touched || i % 256 == 0) {
        assertEquals(plain.height(), t.height(), what + ": " + d.where() + "height");
        assertEquals(plain.cnt[plain.leftFinger], t.cnt[t.leftFinger] , what + ": " + d.where() + "left finger's entries");
        assertEquals(plain.cnt[plain.parent[plain.leftFinger]], t.cnt[t.parent[t.leftFinger]], what + ": " + d.where() + "finger's parent's entries");
      }
    }
    check(d, what, true, 4);
    assertTrue(t.touches > touches0, what + ": touchAhead never ran");
  }

  static void put(OooDriver d, long t) {
    Object v = Values.next(d.function, d.rnd, d.seq++);
    d.tree.insert(t, v);
    d.oracle.insert(t, v);
  }

  /** The {@code k}-th oldest time of the window. */
  static long nth(OooDriver d, int k) {
    Iterator<Long> it = d.oracle.map.keySet().iterator();
    long t = it.next();
    for (int i = 0; i < k; i++) {
      t = it.next();
    }
    return t;
  }

  static void step(OooDriver d, String what, boolean invariants, boolean oracle) {
    d.op++;
    check(d, what, invariants, oracle ? 1 : -1);
  }

  static void check(OooDriver d, String what, boolean invariants, int ranges) {
    if (invariants) {
      try {
        ((BTreeCore) d.tree).checkInvariants();
      } catch (IllegalStateException e) {
        throw new AssertionError(what + ": " + d.where() + "invariant: " + e.getMessage(), e);
      }
    }
    if (ranges >= 0) {
      d.checkAll(ranges);
    }
  }
}

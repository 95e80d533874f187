package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Values;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rebalancing moves that keep nodes full ({@link BTreeCore#shiftLeft} and
 * {@link BTreeCore#shiftRight}: an overflowing node fills a sibling before it splits, an
 * underflowing one takes all its sibling can spare), on every tree variant, against the
 * {@link TreeOracle} with non-commutative functions ({@code collect}: order; {@code first}: the
 * scalar register folds) and {@code mean} (two doubles per partial: the primitive store's generic
 * folds, the left finger's suffix folds among them). Each trace fills a window in order, in reverse order or at random
 * distances, slides it (evict at one end, insert at the other), evicts one by one from the old
 * end, then bulk-evicts and bulk-inserts; the invariant checker runs after every operation and the
 * oracle is compared every few. Asserts that the moves ran in each phase and that in-order and
 * reverse-order fills leave the leaves at least 80 % full (splits alone leave them about half full),
 * and that an in-order slide on a finger tree with a primitive store underflows the left finger
 * through the shortcut that repairs its parent from the parent's own suffix folds
 * ({@link BTreeCore#psfx}; the invariant checker verifies those folds after every operation).
 */
class NodeFillTest {

  enum Order { IN_ORDER, REVERSED, RANDOM }

  static final int N = 600;

  static Stream<Arguments> cases() {
    return OooDriver.pairs(Trees.NAMES.toArray(new String[0]), new String[] {"collect", "first", "mean"});
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void fillSlideEvictAgainstOracle(String algorithm, String function) {
    for (Order order : Order.values()) {
      OooDriver d = new OooDriver(algorithm, function, 0xF111L ^ (algorithm.hashCode() * 31L + order.ordinal()), N, true);
      d.maxBulk = N;
      BTreeCore t = (BTreeCore) d.tree;
      String what = algorithm + " x " + function + " " + order;
      // fill
      long s0 = t.shifts;
      for (int i = 0; i < N; i++) {
        put(d, order, i);
        step(d, i);
      }
      assertTrue(t.shifts > s0, what + ": no shift while filling");
      if (order != Order.RANDOM) {
        double fill = leafFill(t);
        assertTrue(fill >= 0.8 * (2 * t.minArity() - 1), what + ": " + fill + " entries per leaf");
      }
      // slide: the old end out, a new entry in
      s0 = t.shifts;
      long u0 = t.leftUnderflows;
      for (int i = 0; i < N; i++) {
        d.evict(order == Order.REVERSED ? d.oracle.map.lastKey() : d.oracle.map.firstKey());
        step(d, i);
        put(d, order, N + i);
        step(d, i);
      }
      assertTrue(t.shifts > s0, what + ": no shift while sliding");
      if (order == Order.IN_ORDER && t.finger && !t.objectStore) { // the parent's own suffix folds at the left finger
        assertTrue(t.leftUnderflows > u0, what + ": no underflow at the left finger repaired through the parent's suffix folds");
      }
      assertTrue(d.oracle.size() > N / 2, what + ": window of " + d.oracle.size() + " after sliding");
      // evict one by one from the old end: only underflow moves shift
      s0 = t.shifts;
      for (int i = 0; i < N / 2; i++) {
        d.evict(order == Order.REVERSED ? d.oracle.map.lastKey() : d.oracle.map.firstKey());
        step(d, i);
      }
      assertTrue(t.shifts > s0, what + ": no underflow move");
      // bulk evicts and bulk inserts on the filled tree
      for (int i = 0; i < 40; i++) {
        if (i % 2 == 0) {
          d.bulkEvict();
        } else {
          d.bulkInsert(OooDriver.BulkShape.values()[i % OooDriver.BulkShape.values().length], 1 + i * 7);
        }
        step(d, 0);
        d.resize(N / 2);
        step(d, 0);
      }
      d.checkAll(4);
    }
  }

  /**
   * The {@code i}-th insert of a trace: times 1000 apart, ascending or descending, or at a random
   * distance of up to {@code i} such steps below the newest.
   */
  static void put(OooDriver d, Order order, int i) {
    long t = switch (order) {
      case IN_ORDER -> 1000L * i;
      case REVERSED -> -1000L * i;
      case RANDOM -> 1000L * (i - d.rnd.nextInt(i + 1)) - d.rnd.nextInt(1000);
    };
    Object v = Values.next(d.function, d.rnd, d.seq++);
    d.tree.insert(t, v);
    d.oracle.insert(t, v);
  }

  /** Invariants after every operation; window, ranges and ends against the oracle every 8th. */
  static void step(OooDriver d, int i) {
    d.op++;
    try {
      ((BTreeCore) d.tree).checkInvariants();
    } catch (IllegalStateException e) {
      throw new AssertionError(d.where() + "invariant: " + e.getMessage(), e);
    }
    if (i % 8 == 0) {
      d.checkAll(2);
    }
  }

  /** Mean number of entries per leaf. */
  static double leafFill(BTreeCore t) {
    long[] c = new long[2];
    walk(t, t.root, c);
    return c[1] / (double) c[0];
  }

  private static void walk(BTreeCore t, int k, long[] c) {
    if (t.isLeaf(k)) {
      c[0]++;
      c[1] += t.n(k);
      return;
    }
    for (int i = 0; i <= t.n(k); i++) {
      walk(t, t.kid(k, i), c);
    }
  }
}

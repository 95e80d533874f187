package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Values;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The insert hint ({@code BTreeCore.hintLeaf}: the leaf of the last insert that searched, with the
 * times bounding it) against the {@link TreeOracle} (a sorted map folded from scratch) with
 * non-commutative functions, the invariant checker after every operation (which checks that every
 * entry strictly between the hint's bounds lies in the hint leaf), on the trace that uses it: a
 * stream at a steady delay d (evict the oldest, insert just below the d youngest entries, as the
 * out-of-order benchmark does), mixed with inserts at times already present (combined into their
 * entry through the hint), evictions inside the window (evictInner and rebalancing), single
 * inserts at the far left, and bulk evictions and bulk insertions (which clear the hint).
 */
class InsertHintTest {

  static final int N = 400;

  static Stream<Arguments> cases() {
    return OooDriver.pairs(new String[] {"bfiba2", "bfiba4", "bfiba8", "nbfiba4", "bclassic2", "bclassic4"}, new String[] {"collect", "first", "last"});
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void steadyDelayAgainstOracle(String algorithm, String function) {
    OooDriver d = new OooDriver(algorithm, function, 0x41E7L ^ algorithm.hashCode() * 31L ^ function.hashCode(), N, true);
    BTreeCore t = (BTreeCore) d.tree;
    long seq = 0;
    long low = 0;
    long high = 1L << 40;
    int delay = 37;
    for (int i = 0; i < N - delay; i++) {
      d.insertAt(8 * low++, seq++);
    }
    for (int i = 0; i < delay; i++) {
      d.insertAt(high + i, seq++);
    }
    d.checkTree();
    for (int round = 0; round < 6 * N; round++) {
      d.evict(d.oracle.map.firstKey());
      d.checkTree();
      d.insertAt(8 * low++, seq++); // just below the `delay` youngest entries
      d.checkTree();
      int k = (int) (seq * 7919 % 23);
      if (k == 0) { // an existing time: combined into its entry
        Long[] keys = d.oracle.map.keySet().toArray(new Long[0]);
        d.insertAt(keys[keys.length - 1 - delay - (int) (seq % 5)], seq++);
        d.checkTree();
      } else if (k == 1) { // an eviction inside the window, and a new time in the hint's gap
        Long[] keys = d.oracle.map.keySet().toArray(new Long[0]);
        d.evict(keys[(int) (seq * 104729 % keys.length)]);
        d.checkTree();
        d.insertAt(8 * (low - 1) + 1 + seq % 7, seq++);
        d.checkTree();
      } else if (k == 2) { // far left, then a bulk eviction of a few oldest entries
        d.insertAt(d.oracle.map.firstKey() - 3, seq++);
        d.checkTree();
        Long[] keys = d.oracle.map.keySet().toArray(new Long[0]);
        long to = keys[1 + (int) (seq % 6)];
        d.oracle.bulkEvict(to);
        t.bulkEvict(to);
        d.checkTree();
      } else if (k == 3) { // a bulk insert in the hint's gap
        long[] ts = {8 * low, 8 * low + 1, 8 * low + 2};
        low++;
        Object[] vs = new Object[ts.length];
        for (int i = 0; i < ts.length; i++) {
          vs[i] = Values.next(d.function, d.rnd, seq++);
          d.oracle.insert(ts[i], vs[i]);
        }
        t.bulkInsert(ts, vs, 0, ts.length);
        d.checkTree();
      }
      while (d.oracle.size() > N) {
        d.evict(d.oracle.map.firstKey());
        d.checkTree();
      }
    }
    assertTrue(t.hintHits > N / 2, algorithm + " x " + function + ": " + t.hintHits + " inserts through the hint");
  }

  /**
   * A plain slide at a steady delay (evict the oldest, insert just below the {@code delay} youngest
   * entries), the oracle and the invariant checker after every operation: the hint is set again
   * after the hint leaf rebalances (split or shift, the new entry ending its leaf) and kept through
   * the left finger's underflow (its move or merge with the right sibling). With {@code μ >= 4}
   * at a delay beyond the right finger's leaf every insert after the first rounds goes through the
   * hint.
   */
  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void plainSlideKeepsTheHint(String algorithm, String function) {
    for (int delay : new int[] {5, 37, 300}) {
      OooDriver d = new OooDriver(algorithm, function, 0x5EEDL ^ algorithm.hashCode() * 17L ^ function.hashCode() ^ delay, N, true);
      BTreeCore t = (BTreeCore) d.tree;
      long seq = 0;
      long low = 0;
      long high = 1L << 40;
      for (int i = 0; i < 2 * N - delay; i++) {
        d.insertAt(low++, seq++);
      }
      for (int i = 0; i < delay; i++) {
        d.insertAt(high + i, seq++);
      }
      d.checkTree();
      int rounds = 4 * N;
      for (int round = 0; round < rounds; round++) {
        if (round == N) {
          t.hintHits = 0;
        }
        d.evict(d.oracle.map.firstKey());
        d.checkTree();
        d.insertAt(low++, seq++);
        d.checkTree();
      }
      long hits = t.hintHits;
      boolean expectAll = t.minArity >= 4 && delay >= 2 * t.maxArity; // the boundary leaf off the right finger
      assertTrue(!expectAll || hits == rounds - N, algorithm + " x " + function + " d=" + delay + ": " + hits + " of "
          + (rounds - N) + " inserts through the hint");
    }
  }

  static Stream<Arguments> boundaryCases() {
    return OooDriver.pairs(new String[] {"bclassic4", "bclassic8", "bfiba4", "bfiba8"}, new String[] {"collect", "last"});
  }

  /**
   * A slide at a steady delay whose new entry lands inside the boundary leaf (the leaf holds old
   * entries and the oldest of the {@code delay} young ones): its rebalancing may move the new entry
   * into the sibling that takes entries (a split's new leaf, a shift's sibling) or lift it into the
   * parent as the separator before one of the two, and the hint is set on the leaf holding it or
   * starting right after it. Every few rounds a second insert falls in the gap above the last
   * insert; the oracle and the invariant checker (the hint's bounds within its leaf's) after every
   * operation. After the first rounds every insert goes through the hint, in the classic tree too.
   */
  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("boundaryCases")
  void rebalancedBoundaryLeafKeepsTheHint(String algorithm, String function) {
    final int w = 512;
    for (int delay : new int[] {37, 40, 64, 200}) {
      OooDriver d = new OooDriver(algorithm, function, 0x11F7L ^ algorithm.hashCode() * 13L ^ function.hashCode() ^ delay, w, true);
      BTreeCore t = (BTreeCore) d.tree;
      long seq = 0;
      long low = 0;
      long high = 1L << 40;
      for (int i = 0; i < w - delay; i++) {
        d.insertAt(3 * low++, seq++);
      }
      for (int i = 0; i < delay; i++) {
        d.insertAt(high + i, seq++);
      }
      int rounds = 4 * w;
      long inserts = 0;
      for (int round = 0; round < rounds; round++) {
        if (round == w) {
          t.hintHits = 0;
          inserts = 0;
        }
        d.evict(d.oracle.map.firstKey());
        d.checkTree();
        d.insertAt(3 * low++, seq++);
        inserts++;
        d.checkTree();
        if (round % 5 == 0) { // into the gap above the last insert
          d.evict(d.oracle.map.firstKey());
          d.checkTree();
          d.insertAt(3 * (low - 1) + 1, seq++);
          inserts++;
          d.checkTree();
        }
      }
      assertTrue(t.hintHits == inserts, algorithm + " x " + function + " d=" + delay + ": " + t.hintHits + " of " + inserts
          + " inserts through the hint");
    }
  }
}

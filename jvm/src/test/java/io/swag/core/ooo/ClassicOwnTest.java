package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.CountingSum;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The classic tree's own parts on the left spine ({@code BTreeCore.OWN}: everything of a node but
 * its first child's subtree, so that a change coming up through first children costs one combine
 * per level). Against the {@link TreeOracle} (a sorted map folded from scratch) with
 * non-commutative functions ({@code collect}, {@code first}, {@code last}) and {@code sum}, the
 * invariant checker (which recomputes every stored own part) after every operation, on the traces
 * that use them: rounds at the left end (evict the oldest, insert below it), rounds at a small
 * distance from the right end (the insert's walk reaches the root from a later child), in-order
 * rounds (appends extend the root's last child), and random evictions inside the window.
 */
class ClassicOwnTest {

  static final int N = 300;

  static Stream<Arguments> cases() {
    return OooDriver.pairs(new String[] {"bclassic2", "bclassic4", "bclassic8"}, new String[] {"collect", "first", "last", "sum"});
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void roundsAgainstOracle(String algorithm, String function) {
    OooDriver d = new OooDriver(algorithm, function, 0xC1A5L ^ algorithm.hashCode() * 31L ^ function.hashCode(), N, true);
    BTreeCore t = (BTreeCore) d.tree;
    long base = 1L << 40;
    long seq = 0;
    // fill in order from base, leaving room below for the left-end rounds
    for (int i = 0; i < N; i++) {
      d.insertAt(base + 1024L * i, seq++);
    }
    d.checkTree();
    long low = base;
    long high = base + 1024L * (N - 1);
    int ownSeen = 0;
    for (int round = 0; round < 3 * N; round++) {
      int phase = round / N;
      d.evict(d.oracle.map.firstKey());
      d.checkTree();
      if (phase == 0) { // left end: below the oldest entry
        low -= 1024;
        d.insertAt(low, seq++);
      } else if (phase == 1) { // distance 17 from the right end
        long[] keys = d.oracle.map.descendingKeySet().stream().limit(18).mapToLong(Long::longValue).toArray();
        long between = keys[17] + 1 + seq % 64;
        if (between >= keys[16]) { // the gap is used up: in order instead
          between = high += 1024;
        }
        d.insertAt(between, seq++);
      } else { // in order
        high += 1024;
        d.insertAt(high, seq++);
      }
      d.checkTree();
      ownSeen += ownOnLeftSpine(t);
      if (round % 7 == 0) { // an eviction inside the window (evictInner, rebalancing at any depth)
        Long[] keys = d.oracle.map.keySet().toArray(new Long[0]);
        d.evict(keys[(int) (seq * 7919 % keys.length)]);
        d.checkTree();
        d.insertAt(high += 1024, seq++);
        d.checkTree();
      }
    }
    assertEquals(N, d.tree.size());
    assertTrue(ownSeen > 0, algorithm + " x " + function + ": no own part on the left spine");
  }


  private static int ownOnLeftSpine(BTreeCore t) {
    int c = 0;
    for (int y = t.root; !t.isLeaf(y); y = t.kid(y, 0)) {
      if ((t.flags[y] & BTreeCore.OWN) != 0) {
        c++;
      }
    }
    return c;
  }

  /**
   * At the left end (evict the oldest, insert below it) a round repairs the leaf and climbs the
   * left spine: one combine per level with the own parts (about {@code 2μ} per level without).
   */
  @ParameterizedTest
  @ValueSource(strings = {"bclassic2", "bclassic4", "bclassic8"})
  void leftEndCostsOneCombinePerLevel(String algorithm) {
    CountingSum f = new CountingSum();
    BTreeCore w = (BTreeCore) Trees.create(algorithm, f);
    int n = 1 << 16;
    long high = 1L << 40;
    for (int i = 0; i < n; i++) {
      w.insert(high + i, 1.0);
    }
    long low = 0;
    for (int i = 0; i < n; i++) {
      w.evict(w.oldestTime());
      w.insert(low++, 1.0);
    }
    int height = 0;
    for (int y = w.root; !w.isLeaf(y); y = w.kid(y, 0)) {
      height++;
    }
    f.take();
    int rounds = 1 << 14;
    for (int i = 0; i < rounds; i++) {
      w.evict(w.oldestTime());
      w.insert(low++, 1.0);
      assertEquals(n, w.queryDouble());
    }
    double perRound = (double) f.take() / rounds;
    // the evicted leaf (< 2μ), one combine per level up, one per level for the prepend's extension
    assertTrue(perRound <= 2 * height + 2 * w.maxArity + 2,
        algorithm + ": " + perRound + " combines per round at height " + height);
  }
}

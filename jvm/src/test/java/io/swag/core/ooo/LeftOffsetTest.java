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
 * The left finger's entry offset ({@code BTreeCore.lfOff}: evicting the oldest entry advances it,
 * a prepend below the oldest entry takes it back, every other path moves the entries back to slot
 * 0 first) against the {@link TreeOracle} with non-commutative functions, on seeded traces that let
 * the offset grow: evictions of the oldest entry interleaved with prepends below it (with and
 * without overflow of the finger), appends at the right finger (with its shifts and splits, one
 * level up and at the root), inserts inside the window and at the oldest time, evictions inside
 * the window, small bulk evictions (single evictions at the finger) and larger ones, bulk inserts;
 * for the finger trees and the classic tree (whose offset paths also repair the finger's ancestors'
 * up-aggregates).
 * After every operation the invariant checker (which reads the finger past its offset and checks
 * the offset's bounds), the whole-window query and the end times, none of which moves the entries;
 * range queries and {@code ceilingTime}, which do, on a sample. The functions
 * with a primitive store ({@code first}, {@code last}, {@code sum}) take the offset paths;
 * {@code collect} (an object store) never does.
 */
class LeftOffsetTest {

  static final int N = 300;

  static Stream<Arguments> cases() {
    return OooDriver.pairs(new String[] {"bfiba2", "bfiba4", "bfiba8", "nbfiba4", "bclassic2", "bclassic4", "bclassic8"}, new String[] {"first", "last", "sum", "collect"});
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("cases")
  void offsetPathsAgainstOracle(String algorithm, String function) {
    OooDriver d = new OooDriver(algorithm, function, 0x0FF5E7L ^ algorithm.hashCode() * 131L ^ function.hashCode(), N, true);
    BTreeCore t = (BTreeCore) d.tree;
    long seq = 0;
    long high = 0; // appends go above this
    long low = 0; // prepends go below this
    for (int i = 0; i < N; i++) {
      d.insertAt(high += 2, seq++);
    }
    int maxOff = 0;
    int offsetPrepends = 0;
    int phase = 0;
    for (int op = 0; op < 40 * N; op++) {
      if (op % 500 == 0) {
        phase = d.rnd.nextInt(3); // 0: slide at the left end (d = n), 1: in-order slide, 2: mixed
      }
      int r = d.rnd.nextInt(100);
      int n = d.oracle.size();
      boolean grow = n < N / 2 || (n < 2 * N && d.rnd.nextBoolean());
      if (n == 0) {
        d.insertAt(high += 2, seq++);
      } else if (phase == 0 && r < 90 || phase == 1 && r < 20) {
        if (grow) {
          int offBefore = t.lfOff;
          low = Math.min(low, d.oracle.map.firstKey()) - 1 - d.rnd.nextInt(3);
          d.insertAt(low, seq++);
          if (offBefore > 0 && t.lfOff == offBefore - 1) {
            offsetPrepends++;
          }
        } else {
          d.evict(d.oracle.map.firstKey());
        }
      } else if (phase == 1 && r < 95 || phase == 2 && r < 40) {
        if (grow) {
          high = Math.max(high, d.oracle.map.lastKey()) + 1 + d.rnd.nextInt(3);
          d.insertAt(high, seq++);
        } else {
          d.evict(d.oracle.map.firstKey());
        }
      } else if (r < 60) { // inside the window, sometimes at an existing time (the oldest among them)
        long oldest = d.oracle.map.firstKey();
        long span = d.oracle.map.lastKey() - oldest;
        long x = d.rnd.nextInt(4) == 0 ? oldest : oldest + d.rnd.nextLong(span + 1);
        d.insertAt(x, seq++);
      } else if (r < 70) { // an entry inside the window, or absent
        long oldest = d.oracle.map.firstKey();
        d.evict(oldest + d.rnd.nextLong(d.oracle.map.lastKey() - oldest + 2));
      } else if (r < 85) { // a bulk eviction: a few oldest entries (single evictions at the finger), or more
        int m = d.rnd.nextInt(4) == 0 ? 1 + d.rnd.nextInt(Math.max(1, n / 4)) : 1 + d.rnd.nextInt(6);
        Iterator<Long> it = d.oracle.map.keySet().iterator();
        long to = it.next();
        for (int i = 1; i < m && it.hasNext(); i++) {
          to = it.next();
        }
        to += d.rnd.nextInt(2);
        assertEquals(d.oracle.bulkEvict(to), t.bulkEvict(to), d.where() + "bulkEvict(" + to + ")");
      } else { // a bulk insert below the oldest or above the youngest entry
        int m = 2 + d.rnd.nextInt(6);
        long[] ts = new long[m];
        boolean older = d.rnd.nextBoolean();
        long base = older ? (low = Math.min(low, d.oracle.map.firstKey()) - 3 * m - 1) : (high = Math.max(high, d.oracle.map.lastKey()) + 1);
        for (int i = 0; i < m; i++) {
          ts[i] = base + 3L * i;
        }
        if (!older) {
          high = ts[m - 1];
        }
        Object[] vs = new Object[m];
        for (int i = 0; i < m; i++) {
          vs[i] = Values.next(d.function, d.rnd, seq++);
          d.oracle.insert(ts[i], vs[i]);
        }
        t.bulkInsert(ts, vs, 0, m);
      }
      maxOff = Math.max(maxOff, t.lfOff);
      d.op = op;
      check(d, t, op);
    }
    if (!function.equals("collect")) {
      assertTrue(maxOff >= (t.minArity >= 4 ? 3 : 1), algorithm + " x " + function + ": offset reached only " + maxOff);
      assertTrue(offsetPrepends > 0, algorithm + " x " + function + ": no prepend into the offset");
    } else {
      assertEquals(0, maxOff, "an object store keeps no offset");
    }
  }

  static Stream<Arguments> smallCases() {
    return OooDriver.pairs(new String[] {"bfiba2", "bfiba4", "bclassic2", "bclassic4", "bclassic8"}, new String[] {"first", "last", "sum"});
  }

  /**
   * Windows of at most three leaves, so that the right finger's left sibling is often the left
   * finger: evictions of the oldest entry and prepends below it (which move the offset) mixed with
   * appends that overflow the right finger (whose shift into its left sibling must not meet the
   * finger's offset or its suffix folds) and inserts inside the window.
   */
  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("smallCases")
  void smallWindowsAgainstOracle(String algorithm, String function) {
    OooDriver d = new OooDriver(algorithm, function, 0x5A11L ^ algorithm.hashCode() * 31L ^ function.hashCode(), 64, true);
    BTreeCore t = (BTreeCore) d.tree;
    int most = 3 * t.maxArity - 1;
    long seq = 0;
    long high = 0;
    long low = 0;
    int offsetAppends = 0;
    for (int op = 0; op < 20_000; op++) {
      int n = d.oracle.size();
      int r = d.rnd.nextInt(100);
      boolean grow = n < most / 2 || (n < most && d.rnd.nextBoolean());
      if (n == 0) {
        d.insertAt(high += 2, seq++);
      } else if (r < 45) {
        if (grow) {
          low = Math.min(low, d.oracle.map.firstKey()) - 1;
          d.insertAt(low, seq++);
        } else {
          d.evict(d.oracle.map.firstKey());
        }
      } else if (r < 90) {
        if (grow) {
          int off = t.lfOff;
          high = Math.max(high, d.oracle.map.lastKey()) + 1;
          d.insertAt(high, seq++);
          if (off > 0) {
            offsetAppends++;
          }
        } else {
          d.evict(d.oracle.map.firstKey());
        }
      } else if (r < 95) {
        long oldest = d.oracle.map.firstKey();
        d.insertAt(oldest + d.rnd.nextLong(d.oracle.map.lastKey() - oldest + 1), seq++);
      } else {
        long oldest = d.oracle.map.firstKey();
        d.evict(oldest + d.rnd.nextLong(d.oracle.map.lastKey() - oldest + 1));
      }
      d.op = op;
      check(d, t, op);
    }
    assertTrue(offsetAppends > 0, algorithm + " x " + function + ": no append with the offset set");
  }

  /** After every operation: invariants, whole query, end times (none moves entries); the rest on a sample. */
  private static void check(OooDriver d, BTreeCore t, int op) {
    try {
      t.checkInvariants();
    } catch (IllegalStateException e) {
      throw new AssertionError(d.where() + "invariant: " + e.getMessage(), e);
    }
    d.compare("query()", t.queryPartial(), d.oracle.query());
    assertEquals(d.oracle.size(), t.size(), d.where() + "size");
    if (d.oracle.size() == 0) {
      return;
    }
    assertEquals(d.oracle.map.firstKey(), t.oldestTime(), d.where() + "oldestTime");
    assertEquals(d.oracle.map.lastKey(), t.youngestTime(), d.where() + "youngestTime");
    if (op % 7 == 3) { // these move the finger's entries back to slot 0
      long first = d.oracle.map.firstKey();
      long c = first + d.rnd.nextInt(6);
      d.compare("query(min, " + c + ")", t.queryPartial(Long.MIN_VALUE, c), d.oracle.query(Long.MIN_VALUE, c));
      d.compare("query(" + first + ", " + (c + 3) + ")", t.queryPartial(first, c + 3), d.oracle.query(first, c + 3));
      d.checkCeiling(first + d.rnd.nextInt(4));
      t.checkInvariants();
    }
  }
}

package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.swag.core.AggregateFunction;
import io.swag.core.TimedAggregator;
import io.swag.core.Values;
import io.swag.core.fn.Functions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Drives a {@link TimedAggregator} and a {@link TreeOracle} with the same seeded random operations
 * and compares them: out-of-order inserts (distance distributions uniform, geometric, d = n,
 * d = n/2, in order), duplicate times, evicts of present and absent times, bulk evicts of up to
 * 10^4 entries, bulk inserts of every {@link BulkShape} (entirely newer or older, interleaved,
 * mostly existing times, sparse or dense over the whole window; equal times inside), whole-window and
 * range queries (random, empty, outside the window). The window size drifts between phase targets
 * (0, small, up to {@code maxWindow}).
 *
 * <p>The oracle is consulted on every query when the window is small and on a sample of about
 * {@code 128/n} of the queries otherwise; sizes, evict results and end times on every operation.
 * With {@code invariants} the tree's {@link BTreeCore#checkInvariants()} runs after every operation.
 */
final class OooDriver {
  enum Dist { IN_ORDER, UNIFORM, GEOMETRIC, ADV_N, ADV_HALF }

  final String algorithm;
  final String function;
  final AggregateFunction<?, ?, ?> fn;
  final TimedAggregator tree;
  final TreeOracle oracle;
  final SplittableRandom rnd;
  final int maxWindow;
  final boolean invariants;
  /** Largest bulk size (bulkEvict and bulkInsert). */
  int maxBulk = 10_000;
  Dist dist = Dist.UNIFORM;
  int target;
  int phaseLeft;
  long now;
  long seq;
  int op;
  int checkedQueries;
  int checkedRanges;
  int bulkEvicts;
  int bulkInserts;
  int maxSize;
  /** Operations counting each element of a bulk operation. */
  long elementOps;

  OooDriver(String algorithm, String function, long seed, int maxWindow, boolean invariants) {
    this.algorithm = algorithm;
    this.function = function;
    this.fn = Functions.byName(function);
    this.tree = Trees.create(algorithm, fn);
    this.oracle = new TreeOracle(fn);
    this.rnd = new SplittableRandom(seed);
    this.maxWindow = maxWindow;
    this.invariants = invariants;
  }

  void run(int ops) {
    for (int i = 0; i < ops; i++) {
      step();
    }
  }

  void step() {
    op++;
    elementOps++;
    if (phaseLeft-- <= 0) {
      newPhase();
    }
    int n = oracle.size();
    int r = rnd.nextInt(100);
    if (r < 25) {
      query();
    } else {
      int pInsert = n < target ? 80 : n > target ? 20 : 50;
      boolean ins = n == 0 || rnd.nextInt(100) < pInsert;
      int kind = rnd.nextInt(100);
      if (ins) {
        if (kind < 4) {
          bulkInsert();
        } else {
          insert();
        }
      } else {
        if (kind < 4) {
          bulkEvict();
        } else if (kind < 70) {
          evict(oracle.map.firstKey());
        } else if (kind < 80) {
          evict(oracle.map.lastKey());
        } else {
          long lo = oracle.map.firstKey() - 3;
          long hi = oracle.map.lastKey() + 3;
          evict(lo + rnd.nextLong(hi - lo + 1)); // present or absent
        }
      }
    }
    maxSize = Math.max(maxSize, tree.size());
    if (tree.size() != oracle.size()) {
      fail(where() + "size " + tree.size() + " vs oracle " + oracle.size());
    }
    if (invariants) {
      try {
        ((BTreeCore) tree).checkInvariants();
      } catch (IllegalStateException e) {
        throw new AssertionError(where() + "invariant: " + e.getMessage(), e);
      }
    }
  }

  private void newPhase() {
    int k = rnd.nextInt(10);
    if (k == 0) {
      target = 0;
    } else if (k <= 3) {
      target = rnd.nextInt(17);
    } else if (k <= 6) {
      target = rnd.nextInt(Math.min(1000, maxWindow) + 1);
    } else {
      target = (int) Math.min(maxWindow, Math.exp(rnd.nextDouble() * Math.log(maxWindow + 1.0)));
    }
    Dist[] ds = Dist.values();
    dist = ds[rnd.nextInt(ds.length)];
    phaseLeft = 2 * Math.abs(target - oracle.size()) + 50 + rnd.nextInt(200);
  }

  String where() {
    return algorithm + " x " + function + " op " + op + " (n=" + oracle.size() + ", " + dist + "): ";
  }

  long nextTime() {
    if (oracle.size() == 0) {
      now += 1 + rnd.nextInt(3);
      return now;
    }
    long oldest = oracle.map.firstKey();
    long youngest = oracle.map.lastKey();
    long span = youngest - oldest;
    return switch (rnd.nextInt(8) == 0 ? Dist.IN_ORDER : dist) {
      case IN_ORDER -> {
        now = Math.max(now, youngest) + 1 + rnd.nextInt(3);
        yield now;
      }
      case UNIFORM -> oldest - 1 + rnd.nextLong(span + 3);
      case GEOMETRIC -> {
        long g = 0;
        while (rnd.nextInt(4) != 0 && g < span) {
          g += 1 + rnd.nextInt(4);
        }
        yield youngest + 1 - g;
      }
      case ADV_N -> oldest - 1 - rnd.nextInt(3);
      case ADV_HALF -> oldest + span / 2 + rnd.nextInt(3) - 1;
    };
  }

  void insert() {
    long t = nextTime();
    Object v = Values.next(function, rnd, seq++);
    tree.insert(t, v);
    oracle.insert(t, v);
  }

  /**
   * Inserts a value of the function at time {@code t} into the tree and the oracle, the value drawn
   * from the driver's random stream with sequence number {@code n}.
   *
   * @param t the time
   * @param n the sequence number passed to {@link Values#next}
   */
  void insertAt(long t, long n) {
    Object v = Values.next(function, rnd, n);
    tree.insert(t, v);
    oracle.insert(t, v);
  }

  /** The tree's invariants, then every query of {@link #checkAll} at stride 1. */
  void checkTree() {
    ((BTreeCore) tree).checkInvariants();
    checkAll(1);
  }

  /**
   * Every pair of an algorithm and a function, as parameterized tests take them.
   *
   * @param algorithms the tree algorithms
   * @param functions the functions
   * @return one {@code Arguments.of(algorithm, function)} per pair
   */
  static Stream<Arguments> pairs(String[] algorithms, String[] functions) {
    List<Arguments> out = new ArrayList<>();
    for (String a : algorithms) {
      for (String f : functions) {
        out.add(Arguments.of(a, f));
      }
    }
    return out.stream();
  }

  void evict(long t) {
    boolean want = oracle.evict(t);
    boolean got = tree.evict(t);
    if (got != want) {
      fail(where() + "evict(" + t + ") returned " + got + ", expected " + want);
    }
  }

  void bulkEvict() {
    bulkEvicts++;
    int n = oracle.size();
    int m = (int) Math.exp(rnd.nextDouble() * Math.log(Math.min(maxBulk, n) + 1.0));
    long t;
    int k = rnd.nextInt(20);
    if (k == 0) {
      t = oracle.map.firstKey() - 1 - rnd.nextInt(3); // nothing
    } else if (k == 1) {
      t = oracle.map.lastKey() + rnd.nextInt(3); // everything
    } else {
      Iterator<Long> it = oracle.map.keySet().iterator();
      t = it.next();
      for (int i = 1; i < m && it.hasNext(); i++) {
        t = it.next();
      }
      t += rnd.nextInt(2); // on an entry or between entries
    }
    int want = oracle.bulkEvict(t);
    elementOps += Math.max(0, want - 1);
    int got = tree.bulkEvict(t);
    if (got != want) {
      fail(where() + "bulkEvict(" + t + ") removed " + got + ", expected " + want);
    }
  }

  /** Shapes of bulk-insert batches (sorted; all may repeat times inside the batch). */
  enum BulkShape {
    /** Entirely newer than the youngest entry. */
    NEWER,
    /** Entirely older than the oldest entry. */
    OLDER,
    /** Interleaved with the young end of the window (small gaps: many equal existing times). */
    INTERLEAVED,
    /** Mostly times already present (internal-node entries included), some new ones between. */
    EXISTING,
    /** Sparse, from before the oldest to beyond the youngest entry. */
    SPANNING,
    /** Every time from just before the oldest on, gap 1 (dense over the whole window). */
    DENSE
  }

  void bulkInsert() {
    bulkInserts++;
    int m = 1 + (int) Math.exp(rnd.nextDouble() * Math.log(Math.min(maxBulk, Math.max(2 * target, 16))));
    BulkShape[] shapes = BulkShape.values();
    bulkInsert(shapes[rnd.nextInt(shapes.length)], m);
  }

  /** A batch of {@code m} sorted times of the given shape (at index 1..m of the result). */
  long[] bulkTimes(BulkShape shape, int m) {
    long[] ts = new long[m + 2];
    if (oracle.size() == 0) {
      shape = BulkShape.NEWER;
    }
    long start;
    int gap;
    if (shape == BulkShape.EXISTING) {
      long oldest = oracle.map.firstKey();
      long youngest = oracle.map.lastKey();
      long t = oldest - 1 + rnd.nextLong(youngest - oldest + 2);
      Iterator<Long> it = oracle.map.tailMap(t, true).keySet().iterator();
      for (int i = 1; i <= m; i++) {
        int k = rnd.nextInt(10);
        if (i > 1 && k == 0) {
          // equal time inside the batch
        } else if (k < 7 && it.hasNext()) {
          long x = it.next();
          while (x < t && it.hasNext()) {
            x = it.next();
          }
          t = Math.max(t, x);
        } else {
          t += 1 + rnd.nextInt(2);
        }
        ts[i] = t;
      }
      return ts;
    }
    if (oracle.size() == 0) {
      start = now + 1;
      gap = 1 + rnd.nextInt(3);
    } else {
      long oldest = oracle.map.firstKey();
      long youngest = oracle.map.lastKey();
      long span = youngest - oldest;
      switch (shape) {
        case NEWER -> {
          start = Math.max(now, youngest) + 1;
          gap = 1 + rnd.nextInt(3);
        }
        case INTERLEAVED -> {
          start = youngest - rnd.nextLong(span + 1);
          gap = 1 + rnd.nextInt(4);
        }
        case SPANNING -> {
          start = oldest - 2 - rnd.nextInt(5);
          gap = (int) Math.max(1, Math.min(1 << 20, (span + 10) / m));
        }
        case DENSE -> {
          start = oldest - 1 - rnd.nextInt(2);
          gap = 1;
        }
        default -> { // OLDER: entirely before the window
          start = oldest - (long) m * 2 - 1 - rnd.nextInt(10);
          gap = 1 + rnd.nextInt(2);
        }
      }
    }
    long t = start;
    for (int i = 1; i <= m; i++) {
      ts[i] = t;
      if (gap == 1 && shape == BulkShape.DENSE) {
        t += rnd.nextInt(10) == 0 ? 0 : 1;
      } else {
        t += rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(gap); // some equal times inside the batch
      }
    }
    return ts;
  }

  /** Bulk-inserts a batch of the given shape into tree and oracle (values through either API). */
  void bulkInsert(BulkShape shape, int m) {
    long[] ts = bulkTimes(shape, m);
    Object[] vs = new Object[m + 2];
    double[] ds = new double[m + 2];
    boolean numeric = function.equals("sum") || function.equals("argmax");
    for (int i = 1; i <= m; i++) {
      vs[i] = Values.next(function, rnd, seq++);
      ds[i] = vs[i] instanceof Number num ? num.doubleValue() : 0;
    }
    now = Math.max(now, ts[m]);
    elementOps += m - 1;
    if (numeric && rnd.nextBoolean()) {
      tree.bulkInsert(ts, ds, 1, m);
      for (int i = 1; i <= m; i++) {
        oracle.insert(ts[i], ds[i]);
      }
    } else {
      tree.bulkInsert(ts, vs, 1, m);
      for (int i = 1; i <= m; i++) {
        oracle.insert(ts[i], vs[i]);
      }
    }
  }

  /** Brings the window to about {@code n} entries: random inserts, or a bulk evict of the oldest. */
  void resize(int n) {
    while (oracle.size() < n) {
      insert();
    }
    int excess = oracle.size() - n;
    if (excess > 0) {
      Iterator<Long> it = oracle.map.keySet().iterator();
      long cut = it.next();
      for (int i = 1; i < excess; i++) {
        cut = it.next();
      }
      int want = oracle.bulkEvict(cut);
      int got = tree.bulkEvict(cut);
      if (got != want) {
        fail(where() + "bulkEvict(" + cut + ") removed " + got + ", expected " + want);
      }
    }
  }

  /**
   * Compares the whole window, {@code ranges} random range queries, sizes and end times with the
   * oracle (every time, not sampled).
   */
  void checkAll(int ranges) {
    BTreeCore bt = (BTreeCore) tree;
    if (tree.size() != oracle.size()) {
      fail(where() + "size " + tree.size() + " vs oracle " + oracle.size());
    }
    compare("query()", bt.queryPartial(), oracle.query());
    if (oracle.size() == 0) {
      return;
    }
    assertEquals(oracle.map.firstKey(), tree.oldestTime(), "oldestTime");
    assertEquals(oracle.map.lastKey(), tree.youngestTime(), "youngestTime");
    long oldest = oracle.map.firstKey();
    long span = oracle.map.lastKey() - oldest;
    for (int i = 0; i < ranges; i++) {
      long a = oldest - 2 + rnd.nextLong(span + 5);
      long b = a + rnd.nextLong(span + 5);
      checkedRanges++;
      compare("query(" + a + ", " + b + ")", bt.queryPartial(a, b), oracle.query(a, b));
      // suffixes and prefixes: a bound beyond the window's end (the spine shortcut at the root)
      long c = oldest + rnd.nextLong(span + 1);
      compare("query(" + c + ", max)", bt.queryPartial(c, Long.MAX_VALUE), oracle.query(c, Long.MAX_VALUE));
      compare("query(min, " + c + ")", bt.queryPartial(Long.MIN_VALUE, c), oracle.query(Long.MIN_VALUE, c));
      checkCeiling(a);
    }
  }

  /** ceilingTime(t) against the oracle's map. */
  void checkCeiling(long t) {
    Long want = oracle.map.ceilingKey(t);
    long got = tree.ceilingTime(t);
    if (got != (want == null ? Long.MAX_VALUE : want)) {
      fail(where() + "ceilingTime(" + t + ") = " + got + ", expected " + want);
    }
  }

  boolean sample(int n) {
    return n <= 128 || rnd.nextInt(n) < 128;
  }

  void query() {
    BTreeCore bt = (BTreeCore) tree;
    int n = oracle.size();
    if (n > 0) {
      assertEquals(oracle.map.firstKey(), tree.oldestTime(), "oldestTime");
      assertEquals(oracle.map.lastKey(), tree.youngestTime(), "youngestTime");
      if (sample(n)) {
        checkCeiling(oracle.map.firstKey() - 1 + rnd.nextLong(oracle.map.lastKey() - oracle.map.firstKey() + 3));
      }
    } else {
      checkCeiling(rnd.nextLong());
    }
    if (rnd.nextInt(3) == 0) {
      Object got = bt.queryPartial();
      if (sample(n)) {
        checkedQueries++;
        compare("query()", got, oracle.query());
        if (checkedQueries % 64 == 0) {
          compare("lowered query()", tree.query(), fn(oracle.query()));
        }
      }
      return;
    }
    long from;
    long to;
    if (n == 0) {
      from = now - rnd.nextInt(10);
      to = from + rnd.nextInt(10);
    } else {
      long oldest = oracle.map.firstKey();
      long youngest = oracle.map.lastKey();
      long span = youngest - oldest;
      long a = oldest - 3 + rnd.nextLong(span + 7);
      long b;
      switch (rnd.nextInt(6)) {
        case 0 -> b = a - 1 - rnd.nextInt(5); // empty: from > to
        case 1 -> b = a + rnd.nextInt(8); // short
        case 2 -> { // outside the window
          a = rnd.nextBoolean() ? youngest + 1 + rnd.nextInt(5) : oldest - 10 - rnd.nextInt(5);
          b = a + rnd.nextInt(8);
        }
        case 3 -> { // suffix (t_to = now)
          b = youngest + rnd.nextInt(3);
        }
        case 4 -> { // prefix
          b = a;
          a = oldest - rnd.nextInt(3);
        }
        default -> b = a + rnd.nextLong(span + 4);
      }
      from = a;
      to = b;
    }
    Object got = bt.queryPartial(from, to);
    if (sample(n) || oracle.atMost(from, to, 128)) {
      checkedRanges++;
      compare("query(" + from + ", " + to + ")", got, oracle.query(from, to));
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object fn(Object partial) {
    return ((AggregateFunction) fn).lower(partial);
  }

  void compare(String what, Object got, Object want) {
    if (!Objects.deepEquals(got, want)) {
      fail(where() + what + " = " + show(got) + ", expected " + show(want));
    }
  }

  static String show(Object o) {
    if (o instanceof double[] d) {
      return Arrays.toString(d);
    }
    if (o instanceof long[] l) {
      return l.length > 8 ? "long[" + l.length + "]@" + Arrays.hashCode(l) : Arrays.toString(l);
    }
    String s = String.valueOf(o);
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}

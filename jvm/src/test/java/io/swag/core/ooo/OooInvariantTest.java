package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs {@link BTreeCore#checkInvariants()} after every operation of random traces on small trees
 * (n <= 200): 10^5 operations with {@code sum} and 3 * 10^4 with {@code collect} (non-commutative,
 * so an operand swap in any repair path shows) per variant.
 */
class OooInvariantTest {

  static java.util.List<String> variants() {
    return Trees.NAMES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void invariantsAfterEveryOperation(String algorithm) {
    OooDriver d = new OooDriver(algorithm, "sum", 7L + algorithm.hashCode(), 200, true);
    d.maxBulk = 60;
    d.run(100_000);
    assertTrue(d.maxSize >= 150, "trace never grew the window: max " + d.maxSize);
    OooDriver c = new OooDriver(algorithm, "collect", 11L + algorithm.hashCode(), 200, true);
    c.maxBulk = 60;
    c.run(30_000);
    assertTrue(d.checkedQueries + d.checkedRanges > 10_000, "too few checked queries (sum)");
    assertTrue(c.maxSize >= 150, "collect trace never grew the window: max " + c.maxSize);
    assertTrue(c.checkedQueries + c.checkedRanges > 3_000, "too few checked queries (collect): "
        + (c.checkedQueries + c.checkedRanges));
  }

  /**
   * Bulk inserts of 1 .. 2000 records of every shape into small trees (n <= 200), with
   * {@code collect}: the invariants after every bulk insert and every bulk evict back to a small
   * window, and the whole window and range queries against the oracle.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bfiba2", "bfiba4", "bfiba8", "fiba"})
  void invariantsAfterEveryBulkInsert(String algorithm) {
    OooDriver d = new OooDriver(algorithm, "collect", 13L + algorithm.hashCode(), 200, true);
    java.util.SplittableRandom r = new java.util.SplittableRandom(17L + algorithm.hashCode());
    OooDriver.BulkShape[] shapes = OooDriver.BulkShape.values();
    BTreeCore t = (BTreeCore) d.tree;
    for (int round = 0; round < 1500; round++) {
      d.resize(r.nextInt(4) == 0 ? r.nextInt(8) : r.nextInt(201));
      t.checkInvariants();
      int m = 1 + (int) Math.exp(r.nextDouble() * Math.log(2000));
      OooDriver.BulkShape shape = shapes[r.nextInt(shapes.length)];
      d.bulkInsert(shape, m);
      try {
        t.checkInvariants();
      } catch (IllegalStateException e) {
        throw new AssertionError(d.where() + shape + " m=" + m + ": invariant: " + e.getMessage(), e);
      }
      d.checkAll(2);
    }
    assertTrue(d.checkedRanges >= 3000);
  }

  /** A rejected value (or unsorted times) anywhere in a bulk leaves the tree as it was. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bfiba2", "bfiba4", "fiba"})
  void rejectedBulkLeavesTreeUnchanged(String algorithm) {
    OooDriver d = new OooDriver(algorithm, "sum", 5L, 500, true);
    d.resize(300);
    BTreeCore t = (BTreeCore) d.tree;
    Object before = t.queryPartial();
    int size = t.size();
    long y = t.youngestTime();
    long[] ts = new long[400];
    Object[] vs = new Object[400];
    double[] ds = new double[400];
    for (int i = 0; i < ts.length; i++) {
      ts[i] = y - 350 + 2L * i;
      vs[i] = (double) i;
      ds[i] = i;
    }
    vs[399] = "not a number";
    ds[200] = Double.NaN;
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.bulkInsert(ts, vs, 0, 400));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.bulkInsert(ts, ds, 0, 400));
    ts[300] = ts[299] - 1;
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.bulkInsert(ts, ds, 0, 301));
    t.checkInvariants();
    org.junit.jupiter.api.Assertions.assertEquals(size, t.size());
    d.compare("query() after rejected bulks", t.queryPartial(), before);
    d.checkAll(20);
    // and the tree still works
    d.bulkInsert(OooDriver.BulkShape.INTERLEAVED, 1000);
    t.checkInvariants();
    d.checkAll(20);
  }
}

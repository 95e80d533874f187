package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every out-of-order variant against the sorted-map {@link TreeOracle} on seeded random traces
 * (see {@link OooDriver}) with windows up to 10^4 and bulks up to 10^4: {@code sum} (exact small
 * integers), {@code collect} (order), {@code argmax} (ties) and {@code bloom} (object-sized
 * partials in a primitive store); about 1.2 * 10^5 steps per variant, which
 * are about 2 * 10^6 element operations (a bulk operation of m entries counts m). Plus a
 * systematic sweep of bulk-insert shapes and sizes 1 .. 10^4 for the bulk variants
 * ({@link #bulkInsertShapesAgainstOracle}).
 */
class OooDifferentialTest {

  static final int[][] PLAN = {
      // function index, operations
      {0, 100_000}, {1, 30_000}, {2, 30_000}, {3, 5_000}, {4, 20_000}, {5, 20_000}};
  /** {@code first} and {@code last}: non-commutative scalar functions (the trees' register folds). */
  static final String[] FUNCTIONS = {"sum", "collect", "argmax", "bloom", "first", "last"};

  /** Element operations per variant over all functions. */
  static final Map<String, Long> TOTALS = new ConcurrentHashMap<>();

  @AfterAll
  static void enoughOperationsPerVariant() {
    for (String a : Trees.NAMES) {
      long total = TOTALS.getOrDefault(a, 0L);
      if (total > 0) { // (skipped when a single case is selected)
        assertTrue(total >= (TOTALS.size() == Trees.NAMES.size() ? 1_000_000 : 0),
            a + ": only " + total + " element operations");
      }
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String a : Trees.NAMES) {
      for (int[] p : PLAN) {
        out.add(Arguments.of(a, FUNCTIONS[p[0]], p[1]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} x {1}, {2} ops")
  @MethodSource("cases")
  void againstOracle(String algorithm, String function, int ops) {
    OooDriver d = new OooDriver(algorithm, function, 0x5EEDL ^ (algorithm.hashCode() * 31L + function.hashCode()),
        10_000, false);
    d.run(ops);
    assertTrue(d.checkedQueries > ops / 200, "too few checked queries: " + d.checkedQueries);
    assertTrue(d.checkedRanges > ops / 100, "too few checked range queries: " + d.checkedRanges);
    assertTrue(d.maxSize > Math.min(2_000, ops / 20), "trace never grew the window: max " + d.maxSize);
    TOTALS.merge(algorithm, d.elementOps, Long::sum);
    assertTrue(d.bulkEvicts > ops / 200 && d.bulkInserts > ops / 200, "too few bulk operations");
  }

  static final int[] BULK_SIZES = {1, 2, 3, 4, 5, 7, 9, 16, 17, 33, 64, 100, 257, 1000, 4097, 10_000};
  static final int[] WINDOWS = {0, 1, 5, 60, 1000, 5000};
  /** Windows for the second function ({@code sum}, the double[] API). */
  static final int[] SUM_WINDOWS = {0, 60, 5000};

  /**
   * Systematic bulk inserts: every {@link OooDriver.BulkShape} (entirely newer, entirely older,
   * interleaved with equal existing times, mostly existing times, sparse over and beyond the
   * window, dense over it; all with equal times inside the batch) with sizes 1 .. 10^4 into
   * windows of 0 .. 5000 entries, with {@code collect} (order) and {@code sum} (the double[] API);
   * after each batch the window and range queries are compared with the oracle, and the
   * invariants are checked while the tree holds at most 2000 entries.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bfiba2", "bfiba4", "bfiba8", "fiba"})
  void bulkInsertShapesAgainstOracle(String algorithm) {
    long seed = 0xB01CL ^ algorithm.hashCode();
    int batches = 0;
    for (String function : new String[] {"collect", "sum"}) {
      for (OooDriver.BulkShape shape : OooDriver.BulkShape.values()) {
        for (int n : function.equals("sum") ? SUM_WINDOWS : WINDOWS) {
          OooDriver d = new OooDriver(algorithm, function, seed++, 20_000, false);
          for (int m : BULK_SIZES) {
            d.resize(n);
            d.bulkInsert(shape, m);
            d.checkAll(3);
            if (d.tree.size() <= 2000) {
              try {
                ((BTreeCore) d.tree).checkInvariants();
              } catch (IllegalStateException e) {
                throw new AssertionError(d.where() + shape + " m=" + m + ": invariant: " + e.getMessage(), e);
              }
            }
            batches++;
          }
        }
      }
    }
    assertTrue(batches == OooDriver.BulkShape.values().length * (WINDOWS.length + SUM_WINDOWS.length) * BULK_SIZES.length);
  }
}

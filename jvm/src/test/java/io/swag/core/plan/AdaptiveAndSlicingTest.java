package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import io.swag.core.TimedAggregator;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The adaptive aggregator (DABA Lite, then a bulk-loaded FiBA) gives the same answers as a FiBA
 * tree from the start; slicing on and off give identical rows.
 */
class AdaptiveAndSlicingTest {

  static ProductFunction product() {
    return new ProductFunction(List.of(Functions.byName("sum"), Functions.byName("collect"),
        Functions.byName("argmax")));
  }

  /** Direct: same operations on both, in-order phase with forward range queries, then disorder. */
  @Test
  void adaptiveEqualsTreeOperationByOperation() {
    for (long seed = 0; seed < 6; seed++) {
      Random rnd = new Random(seed);
      AdaptiveAggregator a = new AdaptiveAggregator(seed % 2 == 0 ? "daba_lite" : "two_stacks_lite", "bfiba4",
          product());
      TimedAggregator b = Trees.create("bfiba4", product());
      long t = 0;
      long from = 0;
      long to = 0;
      int switchAt = 300 + rnd.nextInt(400);
      for (int i = 0; i < 1200; i++) {
        t += rnd.nextInt(3);
        long ti = i < switchAt ? t : t - rnd.nextInt(40);
        Object[] in = {(double) rnd.nextInt(5), (double) rnd.nextInt(5), (double) rnd.nextInt(5)};
        a.insert(ti, in);
        b.insert(ti, in);
        if (i < switchAt) {
          from = Math.max(from, t - 50 - rnd.nextInt(5));
          to = Math.max(to, t - rnd.nextInt(10));
          if (to >= from) {
            assertEquals(b.query(from, to), a.query(from, to), "seed " + seed + " op " + i);
          }
          assertFalse(a.switched(), "forward queries over in-order data keep the FIFO (op " + i + ")");
        } else {
          long f = t - rnd.nextInt(100);
          long g = f + rnd.nextInt(80);
          assertEquals(b.query(f, g), a.query(f, g), "seed " + seed + " op " + i);
        }
        long c = t - rnd.nextInt(120) + 2;
        assertEquals(b.ceilingTime(c), a.ceilingTime(c), "ceilingTime(" + c + ") seed " + seed + " op " + i);
        if (rnd.nextInt(20) == 0) {
          long e = t - 100;
          a.bulkEvict(e);
          b.bulkEvict(e);
        }
        if (i >= switchAt) { // (a whole-window query moves every pending entry into the FIFO)
          assertEquals(b.query(), a.query(), "whole window, seed " + seed + " op " + i);
        }
      }
      assertTrue(a.switched());
    }
  }

  /**
   * Sorted batches whose first records fall behind the ring's youngest entry switch the aggregator
   * within a batch; the rest of that batch then goes to the tree in one bulk insert. Checked against
   * a list of (time, arrival) kept sorted by hand, folded in time order with the non-commutative
   * {@code collect}: ties keep their arrival order.
   */
  @Test
  void sortedBatchesSwitchingMidBatchEqualARecompute() {
    int midBatch = 0; // batches of several records that switched the aggregator at their first record
    for (long seed = 0; seed < 8; seed++) {
      Random rnd = new Random(seed);
      AdaptiveAggregator a = new AdaptiveAggregator(seed % 2 == 0 ? "daba_lite" : "two_stacks_lite", "bfiba4",
          new ProductFunction(List.of(Functions.byName("collect"))));
      List<long[]> kept = new ArrayList<>(); // {time, value}, in time order, ties in arrival order
      long t = 0;
      long rangeFrom = 0;
      for (int b = 0; b < 60; b++) {
        int n = 1 + rnd.nextInt(40);
        long[] ts = new long[n + 2];
        Object[] vs = new Object[n + 2];
        int from = rnd.nextInt(3);
        long start = b > 20 && rnd.nextInt(4) == 0 ? t - rnd.nextInt(30) : t; // some batches start behind
        long x = start;
        for (int i = 0; i < n; i++) {
          x += rnd.nextInt(3);
          ts[from + i] = x;
          vs[from + i] = new Object[] {(double) rnd.nextInt(1000)};
        }
        t = Math.max(t, x);
        boolean before = a.switched();
        a.bulkInsert(ts, vs, from, n);
        if (!before && a.switched() && n > 1) {
          midBatch++;
        }
        for (int i = from; i < from + n; i++) {
          int at = kept.size();
          while (at > 0 && kept.get(at - 1)[0] > ts[i]) {
            at--;
          }
          kept.add(at, new long[] {ts[i], Double.doubleToLongBits((Double) ((Object[]) vs[i])[0])});
        }
        if (rnd.nextInt(5) == 0) {
          long e = t - 60;
          a.bulkEvict(e);
          kept.removeIf(r -> r[0] <= e);
        }
        // a whole-window query after a range query would switch the ring by itself: even seeds ask
        // whole windows, odd seeds forward range queries
        rangeFrom = seed % 2 == 0 ? Long.MIN_VALUE : Math.max(rangeFrom, t - rnd.nextInt(50));
        List<Object> expected = new ArrayList<>();
        for (long[] r : kept) {
          if (r[0] >= rangeFrom) {
            expected.add(Double.longBitsToDouble(r[1]));
          }
        }
        assertEquals(List.of(expected), a.query(rangeFrom, Long.MAX_VALUE), "from " + rangeFrom + ", seed " + seed
            + " batch " + b);
      }
      assertTrue(a.switched(), "seed " + seed);
    }
    assertTrue(midBatch >= 4, "batches that switched with records left to insert: " + midBatch);
  }

  /** Through the executor: order unknown (adaptive) vs out_of_order (bfiba from the start). */
  @Test
  void adaptivePlanEqualsTreePlan() {
    String w = ExecutorDifferentialTest.win("w", 200, 50, 10);
    for (int round = 0; round < 4; round++) {
      Plan adaptive = Planner.plan(ExecutorDifferentialTest.spec("window_end", "unknown", 30, w));
      assertEquals(Algorithm.ADAPTIVE, adaptive.groups().get(0).algorithm());
      Plan tree = Planner.plan(ExecutorDifferentialTest.spec("window_end", "out_of_order", 30, w));
      assertTrue(tree.groups().get(0).isTree());
      // in order for a while, then out of order
      List<Map<String, Object>> recs = ExecutorDifferentialTest.stream(40 + round, 800, 2, 0, 0);
      recs.addAll(ExecutorDifferentialTest.stream(50 + round, 800, 2, 40, 0.02));
      for (Map<String, Object> r : recs.subList(800, 1600)) {
        r.put("t", ((Number) r.get("t")).longValue() + 3000);
      }
      List<String> want = rows(tree, recs, 15);
      assertTrue(want.size() > 100, "rows: " + want.size());
      assertEquals(want, rows(adaptive, recs, 15));
    }
  }

  @Test
  void slicingOnAndOffGiveIdenticalRows() {
    for (long lateness : new long[] {0, 100}) {
      QuerySpec spec = ExecutorDifferentialTest.spec("window_end", "out_of_order", lateness,
          ExecutorDifferentialTest.SHARED);
      Plan off = Planner.plan(spec);
      assertFalse(off.groups().get(0).slicing());
      Plan on = off.withGroup(0, off.groups().get(0).withSlicing(true));
      List<Map<String, Object>> recs = ExecutorDifferentialTest.stream(60 + lateness, 3000, 4, 40, 0.02);
      List<String> a = rows(off, recs, 20);
      assertTrue(a.size() > 300, "rows: " + a.size());
      assertEquals(a, rows(on, recs, 20));
    }
  }

  @Test
  void plannerSlicesCoarseWindows() {
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"order\":\"out_of_order\",\"windows\":["
        + "{\"size\":3600000,\"slide\":60000,\"aggregates\":[{\"output\":\"m\",\"function\":\"max\",\"column\":\"v\"}]},"
        + "{\"size\":600000,\"slide\":60000,\"aggregates\":[{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"}]}]}");
    Plan p = Planner.plan(spec);
    assertTrue(p.groups().get(0).slicing());
    assertEquals(60000, p.groups().get(0).sliceMs());
    // minute-aligned windows over records spread within minutes: same rows with and without slices
    List<Map<String, Object>> recs = ExecutorDifferentialTest.stream(70, 3000, 3, 40, 0.0);
    for (Map<String, Object> r : recs) {
      r.put("t", ((Number) r.get("t")).longValue() * 1000);
    }
    Plan off = p.withGroup(0, p.groups().get(0).withSlicing(false));
    List<String> want = rows(off, recs, 20_000);
    assertTrue(want.size() > 20, "rows: " + want.size());
    assertEquals(want, rows(p, recs, 20_000));
  }

  /** All rows in emission order (exact order: same plan shape, same timers). */
  static List<String> rows(Plan plan, List<Map<String, Object>> recs, long delay) {
    LocalExecutor ex = new LocalExecutor(plan);
    List<String> out = new java.util.ArrayList<>();
    long max = Long.MIN_VALUE;
    for (Map<String, Object> r : recs) {
      ex.process(r);
      max = Math.max(max, ((Number) r.get("t")).longValue());
      ex.advanceWatermark(max - delay);
      for (Map<String, Object> row : ex.takeRows()) {
        out.add(row.toString());
      }
    }
    ex.finish();
    for (Map<String, Object> row : ex.takeRows()) {
      out.add(row.toString());
    }
    out.add("late " + ex.lateCount());
    return out;
  }

  /** ceilingTime of the in-order and sliced aggregators against a sorted set of the live times. */
  @Test
  void ceilingTimeMatchesSortedTimes() {
    for (long seed = 0; seed < 4; seed++) {
      Random rnd = new Random(seed);
      TimedAggregator fifo = io.swag.core.Swag.timedFifo("daba_lite", product());
      SlicedAggregator sliced = new SlicedAggregator(Trees.create("bfiba4", product()), 10, product());
      java.util.TreeSet<Long> inOrder = new java.util.TreeSet<>();
      java.util.TreeSet<Long> any = new java.util.TreeSet<>();
      long t = 0;
      for (int i = 0; i < 3000; i++) {
        t += rnd.nextInt(4);
        Object[] in = {1.0, 1.0, 1.0};
        fifo.insert(t, in);
        inOrder.add(t);
        long ts = t - rnd.nextInt(30);
        sliced.insert(ts, in);
        any.add(ts);
        if (rnd.nextInt(25) == 0) {
          long e = t - 40 - rnd.nextInt(40);
          fifo.bulkEvict(e);
          inOrder.headSet(e, true).clear();
          // the sliced aggregator evicts whole slices (starts <= e - 9 are complete below e)
          long se = sliced.sliceStart(e + 1) - 1;
          sliced.bulkEvict(se);
          any.headSet(se, true).clear();
        }
        for (int q = 0; q < 3; q++) {
          long c = t - rnd.nextInt(150) + 3;
          Long w1 = inOrder.ceiling(c);
          Long w2 = any.ceiling(c);
          assertEquals(w1 == null ? Long.MAX_VALUE : w1, fifo.ceilingTime(c), "fifo ceilingTime(" + c + ") seed " + seed);
          assertEquals(w2 == null ? Long.MAX_VALUE : w2, sliced.ceilingTime(c), "sliced ceilingTime(" + c + ") seed " + seed);
        }
      }
    }
  }
}

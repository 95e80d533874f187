package io.swag.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.Functions;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.ProductFunction;
import io.swag.core.plan.QuerySpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The map side of pre-aggregation and the back-fill over its slices, without Spark: the memory
 * bound (open partials, waiting rows), laziness, and chunk boundaries between slices of equal start.
 */
class SlicePreAggregatorTest {
  /** Windows of 300 ms sliding 100 ms (slices of 100 ms): max, count and sum of integer values. */
  private static final String QUERY = "{\"version\":1,\"key\":[\"k\"],\"time\":\"ts\",\"lateness_ms\":0,"
      + "\"order\":\"unknown\",\"emit\":\"window_end\",\"columns\":{},\"windows\":[{\"name\":\"w\",\"kind\":\"time\","
      + "\"size\":300,\"slide\":100,\"offset\":0,\"aggregates\":[{\"output\":\"mx\",\"function\":\"max\",\"column\":\"v\","
      + "\"options\":{}},{\"output\":\"n\",\"function\":\"count\",\"column\":null,\"options\":{}},{\"output\":\"s\","
      + "\"function\":\"sum\",\"column\":\"v\",\"options\":{}}]}]}";
  private static final StructType SCHEMA = DataTypes.createStructType(List.of(
      DataTypes.createStructField("k", DataTypes.StringType, true),
      DataTypes.createStructField("ts", DataTypes.LongType, true),
      DataTypes.createStructField("v", DataTypes.DoubleType, true)));

  private static Layout layout() {
    Plan plan = Planner.plan(QuerySpec.fromJson(QUERY));
    return new Layout(plan, SCHEMA);
  }

  /** An input that counts what was taken from it. */
  private static final class Counting implements Iterator<Row> {
    final Iterator<Row> in;
    int taken;

    Counting(List<Row> rows) {
      in = rows.iterator();
    }

    @Override
    public boolean hasNext() {
      return in.hasNext();
    }

    @Override
    public Row next() {
      taken++;
      return in.next();
    }
  }

  private static int slots(String... names) {
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    for (String n : names) {
      fns.add(Functions.byName(n));
    }
    return SlicePreAggregator.defaultSlots(new ProductFunction(fns).newPartials());
  }

  @Test
  void defaultBoundFitsTheOpenPartialsInABudget() {
    assertEquals(65_536, slots("max", "stddev", "count")); // 40 bytes each
    assertEquals(65_536, slots("bloom")); // 256 B each: 131,072 would fit, the cap is 65,536
    assertEquals(10_922, slots("countmin")); // 3 KB each
    assertEquals(8_192, slots("max", "hll")); // sketches: size varies
    assertEquals(8_192, slots("kll"));
  }

  @Test
  void theMapSideIsLazyAndHoldsAtMostItsBound() {
    Layout layout = layout();
    // one key, 200 slices of 5 records each, in order: with a bound of 4 open partials the first
    // output row comes after the 5th slice opens (21 records), and each slice leaves whole
    List<Row> in = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      in.add(RowFactory.create("a", 20L * i, (double) (i % 7)));
    }
    Counting c = new Counting(in);
    Iterator<Row> out = new SlicePreAggregator(layout, true, 4).call(c);
    assertTrue(out.hasNext());
    assertTrue(c.taken <= 21, "read " + c.taken + " records before the first row");
    List<Row> rows = new ArrayList<>();
    out.forEachRemaining(rows::add);
    assertEquals(200, rows.size());
    for (Row r : rows) {
      assertEquals(5L, r.getLong(2), "every slice whole: " + r);
    }
    // records alternating between two slices with a bound of 1: each switch flushes, none is lost
    List<Row> alt = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      alt.add(RowFactory.create("a", (i % 2) * 100L, 1.0));
    }
    long sum = 0;
    int n = 0;
    for (Iterator<Row> it = new SlicePreAggregator(layout, true, 1).call(alt.iterator()); it.hasNext(); n++) {
      sum += it.next().getLong(2);
    }
    assertEquals(100, sum);
    assertEquals(100, n, "one open partial: every switch of slice hands one on");
  }

  @Test
  void rejectedRecordsWaitNoLongerThanTheBound() {
    List<Row> in = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      in.add(RowFactory.create(null, (long) i, 1.0)); // null key: rejected, one row each
    }
    Counting c = new Counting(in);
    Iterator<Row> out = new SlicePreAggregator(layout(), true, 10).call(c);
    assertTrue(out.hasNext());
    assertEquals(10, c.taken, "stops reading after 10 waiting rows");
    int n = 1;
    out.next();
    while (out.hasNext()) {
      Row r = out.next();
      assertFalse(r.isNullAt(5), "a rejected row has its reason: " + r); // key, slice, count, partial, record, reason
      n++;
    }
    assertEquals(1000, n);
  }

  /**
   * Random records of one key cut into 3 "partitions", pre-aggregated with tiny bounds (so slices
   * leave in several pieces), sorted by slice start with ties in random order, and back-filled in
   * chunks of 1, 2 and 3 slices (chunk ends between pieces of one slice): the same windows as the
   * back-fill over the records sorted by time.
   */
  @Test
  void backfillOverSlicePiecesEqualsTheRecords() {
    Layout layout = layout();
    Random rnd = new Random(17);
    for (int trial = 0; trial < 20; trial++) {
      int n = 50 + rnd.nextInt(400);
      List<Row> records = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        records.add(RowFactory.create("a", (long) rnd.nextInt(5_000), (double) rnd.nextInt(100)));
      }
      List<Row> pieces = new ArrayList<>();
      for (int p = 0; p < 3; p++) {
        List<Row> part = records.subList(p * n / 3, (p + 1) * n / 3);
        new SlicePreAggregator(layout, true, 1 + rnd.nextInt(3)).call(part.iterator()).forEachRemaining(pieces::add);
      }
      Collections.shuffle(pieces, rnd);
      pieces.sort((x, y) -> Long.compare(x.getLong(1), y.getLong(1))); // stable: ties stay shuffled
      List<Row> sorted = new ArrayList<>(records);
      sorted.sort((x, y) -> Long.compare(x.getLong(1), y.getLong(1)));
      List<Row> wantRows = new ArrayList<>();
      new SwagSpark.Backfill(layout, false, new PlanReports()).call(RowFactory.create("a"), sorted.iterator()).forEachRemaining(wantRows::add);
      // the reference itself, against the records: each is in 3 windows of 300 ms sliding 100 ms
      // (row: k, window, window_start, window_end, mx, n, s, ...)
      long count = 0;
      double sum = 0;
      for (Row r : wantRows) {
        count += r.getLong(5);
        sum += r.getDouble(6);
      }
      double valueSum = 0;
      for (Row r : records) {
        valueSum += r.getDouble(2);
      }
      assertEquals(3L * n, count, "trial " + trial + ": records x windows");
      assertEquals(3 * valueSum, sum, "trial " + trial + ": values x windows");
      List<String> want = windows(wantRows.iterator());
      assertTrue(want.size() > 10);
      for (int chunk = 1; chunk <= 3; chunk++) {
        List<String> got = windows(new SwagSpark.Backfill(layout, true, chunk).call(RowFactory.create("a"),
            pieces.iterator()));
        assertEquals(want, got, "trial " + trial + ", chunks of " + chunk);
      }
    }
  }

  private static List<String> windows(Iterator<Row> rows) {
    List<String> out = new ArrayList<>();
    rows.forEachRemaining(r -> out.add(r.toString()));
    Collections.sort(out);
    return out;
  }
}

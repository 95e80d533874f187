package io.swag.examples.udaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.FunctionLaws;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The example functions obey the laws; a broken variant of each is caught by the laws check. */
class ExampleUdafTest {
  private static List<Object> samples(long seed, int n) {
    Random r = new Random(seed);
    List<Object> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add(r.nextInt(3) == 0 ? (Object) (long) r.nextInt(50) : (Object) (r.nextInt(2000) / 8.0 - 100));
    }
    return s;
  }

  @Test
  void topKAndTrendObeyTheLaws() {
    for (long seed = 1; seed <= 5; seed++) {
      List<Object> s = samples(seed, 40);
      assertEquals(List.of(), FunctionLaws.check(new TopK(Map.of("k", 4)), s, 50, seed));
      assertEquals(List.of(), FunctionLaws.check(new TopK(Map.of("k", 1)), s, 50, seed));
      assertEquals(List.of(), FunctionLaws.check(new Trend(), s, 50, seed));
    }
  }

  /** Trend with its operands swapped: claims nothing false, but the grouping shows it is not associative in order. */
  @Test
  void aTrendThatCombinesNewerFirstIsCaught() {
    Trend t = new Trend();
    AggregateFunction<Object, Trend.Ends, Double> swapped = new AggregateFunction<>() {
      public String name() {
        return "swapped";
      }

      public Trend.Ends identity() {
        return t.identity();
      }

      public Trend.Ends lift(Object v, long time) {
        return t.lift(v, time);
      }

      public Trend.Ends combine(Trend.Ends older, Trend.Ends newer) {
        return t.combine(newer, older);
      }

      public Double lower(Trend.Ends p) {
        return t.lower(p);
      }

      @Override
      public boolean isCommutative() {
        return true; // a false claim
      }
    };
    List<String> bad = FunctionLaws.check(swapped, samples(7, 20), 50, 7);
    assertFalse(bad.isEmpty());
    assertTrue(bad.stream().anyMatch(l -> l.contains("commutative")), bad.toString());
  }

  @Test
  void aTopKWithAWrongByteSizeIsCaught() {
    TopK ok = new TopK(Map.of("k", 3));
    AggregateFunction<Object, double[], String> lying = new LyingTopK();
    List<String> bad = FunctionLaws.check(lying, samples(3, 10), 10, 3);
    assertTrue(bad.stream().anyMatch(l -> l.contains("byteSize")), bad.toString());
    assertEquals(List.of(), FunctionLaws.check(ok, samples(3, 10), 10, 3));
  }

  /** TopK with a byte size one value short: the laws check names byteSize. */
  private static final class LyingTopK implements AggregateFunction<Object, double[], String>, io.swag.core.ByteForm<double[]> {
    private final TopK t = new TopK(Map.of("k", 3));

    public String name() {
      return "lying";
    }

    public double[] identity() {
      return t.identity();
    }

    public double[] lift(Object v, long time) {
      return t.lift(v, time);
    }

    public double[] combine(double[] a, double[] b) {
      return t.combine(a, b);
    }

    public String lower(double[] p) {
      return t.lower(p);
    }

    public int byteSize(double[] p) {
      return Math.max(0, t.byteSize(p) - 8);
    }

    public void write(double[] p, java.nio.ByteBuffer out) {
      t.write(p, out);
    }

    public double[] read(java.nio.ByteBuffer in, int length) {
      return t.read(in, length);
    }
  }

  /** The k largest values by a naive sort, per window, on the local executor: the function in a query. */
  @Test
  void inAQueryTheyMatchANaiveRecompute() {
    String json = "{\"key\": [\"k\"], \"time\": \"t\", \"windows\": [{\"size\": 10, \"slide\": 5, \"aggregates\": ["
        + "{\"output\": \"top\", \"function\": \"udaf\", \"column\": \"v\", \"options\": {\"class\": \"io.swag.examples.udaf.TopK\", \"k\": 2}},"
        + "{\"output\": \"trend\", \"function\": \"udaf\", \"column\": \"v\", \"options\": {\"class\": \"io.swag.examples.udaf.Trend\"}}]}]}";
    QuerySpec spec = QuerySpec.fromJson(json);
    Random r = new Random(11);
    int n = 300;
    long[] ts = new long[n];
    double[] vs = new double[n];
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ts[i] = i / 2 + r.nextInt(3); // slightly out of order, within the watermark delay
      vs[i] = r.nextInt(1000) / 4.0;
      rows.add(Map.of("k", "a", "t", ts[i], "v", vs[i]));
    }
    LocalExecutor ex = new LocalExecutor(Planner.plan(spec));
    for (Map<String, Object> row : rows) {
      ex.process(row); // no watermark until the end: nothing is late
    }
    ex.finish();
    assertEquals(0, ex.rejectedCount());
    int checked = 0;
    for (Map<String, Object> out : ex.takeRows()) {
      long start = (Long) out.get("window_start");
      long end = (Long) out.get("window_end");
      List<double[]> in = new ArrayList<>(); // (time, arrival, value) in the window
      for (int i = 0; i < n; i++) {
        if (ts[i] >= start && ts[i] < end) {
          in.add(new double[] {ts[i], i, vs[i]});
        }
      }
      if (in.isEmpty()) {
        continue;
      }
      List<Double> sorted = new ArrayList<>();
      for (double[] x : in) {
        sorted.add(x[2]);
      }
      sorted.sort((a, b) -> Double.compare(b, a));
      assertEquals(sorted.subList(0, Math.min(2, sorted.size())).toString(), out.get("top"), out.toString());
      in.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
      assertEquals(in.get(in.size() - 1)[2] - in.get(0)[2], (Double) out.get("trend"), 1e-9, out.toString());
      checked++;
    }
    java.util.Set<Long> starts = new java.util.TreeSet<>(); // every window [s, s + 10) holding a record
    for (long t : ts) {
      starts.add(Math.floorDiv(t, 5) * 5);
      starts.add(Math.floorDiv(t, 5) * 5 - 5);
    }
    assertEquals(starts.size(), checked);
    assertTrue(checked > 25, "windows checked: " + checked);
  }
}

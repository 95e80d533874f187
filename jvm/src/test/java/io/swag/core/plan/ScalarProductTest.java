package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.DoublePartials;
import io.swag.core.Partials;
import io.swag.core.TimedAggregator;
import io.swag.core.fifo.DoubleFifo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typed form of a product of one scalar double function ({@link ScalarProduct}): the plan's
 * aggregators built on it give, to the bit, what the naive recompute of the records and the generic
 * product ({@link ProductPartials}) give, on seeded traces with the non-commutative {@code first} and
 * {@code last} (so order bugs show), in order and out of order, with range queries and evictions;
 * one function alone gives what it gives inside a two-function product; its stored slices have the
 * product's bytes and restore from them; its errors are the product's.
 */
class ScalarProductTest {
  static final List<String> FUNCTIONS = List.of("first", "last", "sum", "max");

  static ProductFunction product(String function) {
    return new ProductFunction(List.of(new GroupPlan.Part(function, "v", null).create()), new int[] {2});
  }

  /** One record of a trace: its time, arrival number and value (an integer, so sums are exact). */
  record Rec(long t, long seq, Object v) {
    double value() {
      return ((Number) v).doubleValue();
    }
  }

  /** The naive result of {@code function} over the records with {@code from <= t <= to}, null if none. */
  static Object naive(String function, List<Rec> live, long from, long to) {
    List<Rec> in = new ArrayList<>();
    for (Rec r : live) {
      if (r.t >= from && r.t <= to) {
        in.add(r);
      }
    }
    in.sort(Comparator.comparingLong(Rec::t).thenComparingLong(Rec::seq));
    if (in.isEmpty()) {
      return function.equals("sum") ? 0.0 : null;
    }
    switch (function) {
      case "first":
        return in.get(0).value();
      case "last":
        return in.get(in.size() - 1).value();
      case "sum": {
        double s = 0;
        for (Rec r : in) {
          s += r.value();
        }
        return s;
      }
      default: {
        double m = Double.NEGATIVE_INFINITY;
        for (Rec r : in) {
          m = Math.max(m, r.value());
        }
        return m;
      }
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 41;
    for (String f : FUNCTIONS) {
      for (String alg : List.of("daba_lite", "two_stacks_lite", "daba", "flatfit", "soe", "bfiba2", "bfiba4", "nbfiba8")) {
        for (boolean inOrder : new boolean[] {true, false}) {
          if (alg.equals("soe") && !f.equals("sum")) {
            continue; // subtract-on-evict needs an invertible function
          }
          l.add(Arguments.of(f, alg, inOrder, seed++));
        }
      }
    }
    return l.stream();
  }

  /** An aggregator of the plan's kind: a tree, or an in-order algorithm behind the adaptive one. */
  static TimedAggregator aggregator(String alg, ProductFunction fn) {
    Algorithm a = Algorithm.parse(alg);
    return a.isTree() ? a.newTree(fn.aggregated()) : new AdaptiveAggregator(a, Algorithm.BFIBA4, fn);
  }

  /**
   * Random inserts (rows, records lifted with their own time at a slice start, slices of records,
   * partials in byte form), range queries moving forward and random ones, bulk evictions: the typed
   * aggregator, the generic product's tree and the naive recompute agree to the bit.
   */
  @ParameterizedTest(name = "{0} {1} inOrder={2}")
  @MethodSource("cases")
  void typedEqualsNaiveAndGenericProduct(String function, String alg, boolean inOrder, long seed) {
    ProductFunction fn = product(function);
    assertInstanceOf(ScalarProduct.class, fn.aggregated());
    TimedAggregator typed = aggregator(alg, fn);
    TimedAggregator generic = Algorithm.BFIBA4.newTree(fn); // ProductPartials: the product's own store
    Random rnd = new Random(seed);
    List<Rec> live = new ArrayList<>();
    long now = 0;
    long evicted = Long.MIN_VALUE;
    long seq = 0;
    long lastFrom = Long.MIN_VALUE;
    for (int step = 0; step < 1500; step++) {
      int op = rnd.nextInt(20);
      if (op < 12) {
        now += rnd.nextInt(3);
        long t = inOrder ? now : Math.max(evicted + 1, now - rnd.nextInt(30));
        Object v = rnd.nextInt(4) == 0 ? (Object) (long) (rnd.nextInt(200) - 100) : (Object) (double) (rnd.nextInt(200) - 100);
        Object[] row = {"k", t, v};
        int kind = rnd.nextInt(8);
        if (kind == 0) { // a record lifted with its own time at an earlier insert time (a slice start)
          long s = inOrder ? t : Math.max(evicted + 1, t - rnd.nextInt(3));
          typed.insert(s, new ProductFunction.At().set(row, t));
          generic.insert(s, new ProductFunction.At().set(row, t));
          live.add(new Rec(s, seq++, v));
        } else if (kind == 1) { // a slice of three records, combined in order
          List<Object> rows = List.<Object>of(row, new Object[] {"k", t, 7.0}, new Object[] {"k", t, -3L});
          ProductFunction.Batch b = new ProductFunction.Batch(rows, new long[] {t, t, t});
          typed.insert(t, b);
          generic.insert(t, b);
          live.add(new Rec(t, seq++, v));
          live.add(new Rec(t, seq++, 7.0));
          live.add(new Rec(t, seq++, -3L));
        } else if (kind == 2) { // a partial in byte form (a slice pre-aggregated elsewhere)
          ByteBuffer bb = ByteBuffer.allocate(8);
          Partials p = fn.newPartials();
          p.resize(1);
          p.liftObject(0, row, t);
          p.write(0, bb);
          typed.insert(t, new ProductFunction.Lifted(bb.array()));
          generic.insert(t, new ProductFunction.Lifted(bb.array()));
          live.add(new Rec(t, seq++, v));
        } else {
          typed.insert(t, row);
          generic.insert(t, row);
          live.add(new Rec(t, seq++, v));
        }
      } else if (op < 18) {
        long from;
        long to;
        if (op < 17 || !inOrder) { // a sliding window moving forward
          from = Math.max(lastFrom, now - 40 - rnd.nextInt(10));
          to = now + rnd.nextInt(5);
          lastFrom = from;
        } else { // any range
          from = now - rnd.nextInt(80);
          to = from + rnd.nextInt(80) - 5;
        }
        Object got = typed.query(from, to);
        assertEquals(generic.query(from, to), got, "typed vs generic product [" + from + ", " + to + "] step " + step);
        Object want = naive(function, live, from, to);
        assertEquals(want == null ? java.util.Collections.singletonList(null) : List.of(want), got,
            "typed vs naive [" + from + ", " + to + "] step " + step);
      } else {
        long bound = now - 60 - rnd.nextInt(20);
        if (bound > evicted) {
          evicted = bound;
          int gone = typed.bulkEvict(bound);
          int generics = generic.bulkEvict(bound);
          if (Algorithm.parse(alg).isTree()) {
            assertEquals(generics, gone, "evicted entries");
          }
          live.removeIf(r -> r.t <= bound);
        }
      }
      if (Algorithm.parse(alg).isTree()) {
        assertEquals(generic.size(), typed.size(), "entries"); // a FIFO keeps one entry per record
      }
    }
    assertEquals(generic.query(), typed.query(), "whole window");
  }

  /** The plan path: one function alone emits what it emits as the first of a two-function product. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("planCases")
  void aloneEqualsInsideATwoFunctionProduct(String function, String order, long seed) {
    String one = "{\"function\":\"" + function + "\",\"column\":\"v\",\"output\":\"a\"}";
    String two = one + ",{\"function\":\"count\",\"column\":null,\"output\":\"n\"}";
    List<String> alone = emitted(plan(one, order), seed, true);
    List<String> pair = emitted(plan(two, order), seed, false);
    assertTrue(alone.size() > 100, "the query emitted rows");
    assertEquals(pair, alone);
  }

  static Stream<Arguments> planCases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 900;
    for (String f : FUNCTIONS) {
      for (String order : List.of("in_order", "unknown", "out_of_order")) {
        l.add(Arguments.of(f, order, seed++));
      }
    }
    return l.stream();
  }

  static Plan plan(String aggregates, String order) {
    String json = "{\"key\":[\"k\"],\"time\":\"t\",\"order\":\"" + order + "\",\"lateness_ms\":30,\"windows\":["
        + "{\"name\":\"a\",\"size\":100,\"slide\":10,\"aggregates\":[" + aggregates + "]},"
        + "{\"name\":\"b\",\"size\":40,\"slide\":20,\"aggregates\":[" + aggregates.replace("\"output\":\"", "\"output\":\"b_")
        + "]}]}";
    Plan p = Planner.plan(QuerySpec.fromJson(json));
    return p.withGroup(0, p.groups().get(0).withSlicing(false));
  }

  static Plan oneWindow(String aggregates) {
    return Planner.plan(QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"order\":\"in_order\",\"lateness_ms\":30,"
        + "\"windows\":[{\"name\":\"a\",\"size\":100,\"slide\":10,\"aggregates\":[" + aggregates + "]}]}"));
  }

  /** The rows a key emits on a seeded trace, each as window, start, end and the first result. */
  static List<String> emitted(Plan plan, long seed, boolean typed) {
    WindowGroup g = WindowGroup.timeGroups(plan, List.of("k", "t", "v"), false).get(0);
    assertEquals(typed, g.function().aggregated() instanceof ScalarProduct);
    KeyWindows kw = g.newKey(false, true);
    List<String> out = new ArrayList<>();
    KeyWindows.WindowOutput o = (w, s, e, r) -> out.add(w + " " + s + " " + e + " " + r.get(0));
    Random rnd = new Random(seed);
    boolean disorder = !plan.groups().get(0).algorithm().id().equals("daba_lite");
    long wm = Long.MIN_VALUE;
    for (long i = 0; i < 3000; i++) {
      long t = disorder ? i - rnd.nextInt(40) : i;
      if (g.accepts(t, wm)) {
        kw.insert(t, new Object[] {"k", t, (double) (rnd.nextInt(50) - 25)}, wm, o);
      }
      if (i % 7 == 0) {
        wm = i - 20;
        kw.fire(wm, o);
      }
    }
    kw.fire(Long.MAX_VALUE, o);
    return out;
  }

  /**
   * Stored slices (the Flink operator's state): a key of one {@code sum} writes, slice for slice, the
   * bytes the generic product writes for the same records (so state written by either restores with
   * the other), and a key rebuilt from its store gives the results of the key that kept running.
   */
  @Test
  void storedSlicesHaveTheProductsBytesAndRestore() throws Exception {
    String one = "{\"function\":\"sum\",\"column\":\"v\",\"output\":\"a\"}";
    // in order, 10 ms apart: one record per slice, the key stays in its FIFO (of lifted partials);
    // 3 ms apart, a key moves to its tree at its first slice of two records
    for (String order : List.of("in_order:10", "in_order:3", "out_of_order:3")) {
      long step = Long.parseLong(order.substring(order.indexOf(':') + 1));
      order = order.substring(0, order.indexOf(':'));
      Plan plan = step == 10 ? oneWindow(one) : plan(one, order); // two windows' queries move the FIFO to its tree
      if (order.equals("in_order")) { // the in-order algorithm behind the adaptive aggregator
        plan = plan.withGroup(0, plan.groups().get(0).withAlgorithm("daba_lite", 4));
      }
      WindowGroup g = WindowGroup.storedGroups(plan, List.of("k", "t", "v"), false).get(0);
      assertTrue(g.preaggregates());
      StoredWindows w = new StoredWindows(g, 1);
      StoredWindowsTest.MapStore store = new StoredWindowsTest.MapStore();
      TimedAggregator generic = Algorithm.BFIBA4.newTree(g.function()); // ProductPartials
      long width = g.plan().sliceMs();
      List<String> runOn = new ArrayList<>();
      Random rnd = new Random(order.length());
      long wm = Long.MIN_VALUE;
      long i = 0;
      for (; i < 2000; i++) {
        long t = order.equals("in_order") ? step * i : step * i - rnd.nextInt(30);
        if (!g.accepts(t, wm)) {
          continue;
        }
        Object[] row = {"k", t, (double) (rnd.nextInt(100) - 50)};
        w.insert(t, row, wm, (x, s, e, r) -> { });
        generic.insert(Math.floorDiv(t, width) * width, new ProductFunction.At().set(row, t));
        if (i % 11 == 0) {
          wm = step * i - 40;
          w.windows().fire(wm, (x, s, e, r) -> { });
          generic.bulkEvict(g.evictBound(wm));
        }
      }
      w.flush(store);
      assertTrue(store.map.size() > 3, "slices stored");
      if (step == 10) {
        AdaptiveAggregator a = (AdaptiveAggregator) w.windows().aggregator();
        assertTrue(!a.switched() && !a.keepsInputs(), "a FIFO of lifted partials");
      }
      for (Map.Entry<Long, byte[]> e : store.map.entrySet()) {
        byte[] want = generic.entryBytes(e.getKey());
        assertNotNull(want, "slice " + e.getKey());
        assertArrayEquals(want, e.getValue(), order + ": slice " + e.getKey());
      }
      ByteArrayOutputStream meta = new ByteArrayOutputStream();
      w.writeMeta(new DataOutputStream(meta));
      StoredWindows back = StoredWindows.load(g, 1, new DataInputStream(new ByteArrayInputStream(meta.toByteArray())), store);
      List<String> restored = new ArrayList<>();
      w.windows().fire(wm + 500, (x, s, e, r) -> runOn.add(x + " " + s + " " + e + " " + r));
      back.windows().fire(wm + 500, (x, s, e, r) -> restored.add(x + " " + s + " " + e + " " + r));
      assertTrue(runOn.size() > 5, "rows fired");
      assertEquals(runOn, restored, order);
    }
  }

  /** Every input the product refuses is refused by the typed form with the same message. */
  @Test
  void errorsAreTheProducts() {
    ProductFunction fn = product("max");
    Partials generic = fn.newPartials();
    generic.resize(1);
    Partials typed = fn.aggregated().newPartials();
    typed.resize(1);
    assertInstanceOf(DoublePartials.class, typed);
    DoubleFifo fifo = (DoubleFifo) Algorithm.DABA_LITE.newFifo(fn.aggregated());
    List<Object> bad = List.of(
        new Object[] {"k", 1L, Double.NaN},
        new Object[] {"k", 1L, "abc"},
        new Object[] {"k", 1L, null},
        "not a row",
        new ProductFunction.At().set(new Object[] {"k", 1L, Double.NaN}, 5),
        new ProductFunction.Lifted(new byte[4]),
        new ProductFunction.Lifted(new byte[12]));
    for (Object v : bad) {
      String want = assertThrows(IllegalArgumentException.class, () -> generic.liftObject(0, v, 1)).getMessage();
      assertEquals(want, assertThrows(IllegalArgumentException.class, () -> typed.liftObject(0, v, 1)).getMessage());
      assertEquals(want, assertThrows(IllegalArgumentException.class, () -> fifo.insertArg(v, 1)).getMessage());
    }
    assertEquals(0, fifo.size(), "a refused input changes nothing");
    assertThrows(IllegalArgumentException.class, () -> typed.liftDouble(0, 2.0, 1), "a bare number is no row");
    assertThrows(IllegalArgumentException.class, () -> fifo.insertArg(2.0, 1), "a bare number is no row");
  }

  /** Only a product of one scalar double function has the typed form; results are lists of one. */
  @Test
  void whoGetsTheTypedForm() {
    assertInstanceOf(ScalarProduct.class, product("max").aggregated());
    for (String f : List.of("count", "avg", "median")) {
      ProductFunction p = product(f);
      assertSame(p, p.aggregated(), f);
    }
    ProductFunction two = new ProductFunction(List.of(product("max").functions().get(0), product("sum").functions().get(0)),
        new int[] {2, 2});
    assertSame(two, two.aggregated());
    AggregateFunction<?, ?, ?> t = product("first").aggregated();
    Partials p = t.newPartials();
    p.resize(1);
    assertEquals(java.util.Collections.singletonList(null), p.lower(0), "empty: a list of one null");
    p.liftObject(0, new Object[] {"k", 1L, 3.5}, 1);
    assertEquals(List.of(3.5), p.lower(0));
    assertEquals(3.5, p.lowerDouble(0));
  }
}

package io.swag.core.fn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import io.swag.core.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in functions: monoid laws (identity, associativity, inverse), agreement between the
 * primitive stores and the generic form, results against direct computation, and input errors.
 */
class FunctionsTest {

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Object fold(AggregateFunction f, List<Object> xs) {
    Object acc = f.identity();
    long arg = 0;
    for (Object x : xs) {
      acc = f.combine(acc, f.lift(x, arg++));
    }
    return acc;
  }

  static boolean exact(String name) {
    return !List.of("geomean", "stddev", "variance", "hll", "kll").contains(name);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @ParameterizedTest
  @ValueSource(strings = {"sum", "count", "mean", "geomean", "stddev", "variance", "min", "max", "argmin",
      "argmax", "mincount", "maxcount", "first", "last", "collect", "m4", "bloom", "countmin"})
  void monoidLaws(String name) {
    AggregateFunction f = Functions.byName(name);
    SplittableRandom r = new SplittableRandom(name.hashCode());
    for (int trial = 0; trial < 2000; trial++) {
      Object a = f.lift(Values.next(name, r, trial), trial);
      Object b = f.combine(f.lift(Values.next(name, r, trial), trial), f.lift(Values.next(name, r, trial), trial + 1L));
      Object c = f.lift(Values.next(name, r, trial), trial + 2L);
      assertLaw(name, f.combine(f.identity(), a), a, "left identity");
      assertLaw(name, f.combine(a, f.identity()), a, "right identity");
      assertLaw(name, f.combine(f.combine(a, b), c), f.combine(a, f.combine(b, c)), "associativity");
      if (f.isCommutative()) {
        assertLaw(name, f.combine(a, b), f.combine(b, a), "commutativity");
      }
      if (f.isInvertible()) {
        assertLaw(name, f.inverse(f.combine(a, b), a), b, "inverse");
      }
    }
  }

  static void assertLaw(String name, Object got, Object want, String law) {
    if (exact(name)) {
      assertTrue(Objects.deepEquals(got, want), name + " " + law + ": " + show(got) + " vs " + show(want));
    } else {
      double[] g = (double[]) got;
      double[] w = (double[]) want;
      for (int i = 0; i < g.length; i++) {
        assertEquals(w[i], g[i], 1e-9 * Math.max(1, Math.abs(w[i])), name + " " + law + " word " + i);
      }
    }
  }

  static String show(Object o) {
    return o instanceof double[] d ? Arrays.toString(d) : o instanceof long[] l ? Arrays.toString(l) : String.valueOf(o);
  }

  @Test
  void nonCommutativeFunctionsAreMarked() {
    for (String n : List.of("collect", "first", "last", "m4", "argmax", "argmin")) {
      assertFalse(Functions.byName(n).isCommutative(), n);
    }
    AggregateFunction<?, ?, ?> collect = Functions.byName("collect");
    assertEquals(List.of(1L, 2L, 3L), collectOf(1L, 2L, 3L));
    assertFalse(collect.isInvertible());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Object collectOf(Object... xs) {
    AggregateFunction f = Functions.byName("collect");
    return f.lower(fold(f, Arrays.asList(xs)));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Object result(String name, Object... xs) {
    AggregateFunction f = Functions.byName(name);
    return f.lower(fold(f, Arrays.asList(xs)));
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"}) // the generic form of a DoubleFunction/LongFunction
  void bloomDefaultsHoldTheirDocumentedCapacity() {
    Bloom f = (Bloom) Functions.byName("bloom");
    assertEquals(Bloom.DEFAULT_BITS, f.bits());
    assertEquals(Bloom.DEFAULT_BITS / 64, f.width(), "bits / 8 bytes per stored partial");
    List<Object> items = new ArrayList<>();
    for (long i = 0; i < Bloom.DEFAULT_CAPACITY; i++) {
      items.add(i * 7919);
    }
    Bloom.Filter bf = (Bloom.Filter) ((AggregateFunction) f).lower(fold(f, items));
    int falsePositives = 0;
    for (long i = 1_000_000; i < 1_100_000; i++) {
      falsePositives += bf.mightContainLong(i) ? 1 : 0;
    }
    // (1 - e^(-k n / m))^k = 2.4% at the documented capacity
    assertTrue(falsePositives > 1_000 && falsePositives < 4_000, "false positives " + falsePositives + " of 100,000");
  }

  @Test
  void resultsAgainstDirectComputation() {
    double[] xs = {4, 1, 7, 7, -2, 3.5};
    Object[] in = Arrays.stream(xs).boxed().toArray();
    assertEquals(20.5, result("sum", in));
    assertEquals(6L, result("count", in));
    assertEquals(20.5 / 6, (double) result("mean", in), 1e-12);
    double mean = 20.5 / 6;
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    assertEquals(ss / 5, (double) result("variance", in), 1e-9);
    assertEquals(Math.sqrt(ss / 5), (double) result("stddev", in), 1e-9);
    assertEquals(-2.0, result("min", in));
    assertEquals(7.0, result("max", in));
    assertEquals(2L, result("argmax", in), "earliest of the tied maxima (args 2 and 3)");
    assertEquals(4L, result("argmin", in));
    assertEquals(new MinMaxCount.Result(7.0, 2), result("maxcount", in));
    assertEquals(new MinMaxCount.Result(-2.0, 1), result("mincount", in));
    assertEquals(4.0, result("first", in));
    assertEquals(3.5, result("last", in));
    assertEquals(new M4.Result(4, 3.5, -2, 7), result("m4", in));
    assertEquals(Math.pow(2 * 4 * 8, 1.0 / 3), (double) result("geomean", 2.0, 4.0, 8.0), 1e-12);
  }

  @Test
  void emptyWindowResults() {
    for (String n : List.of("min", "max", "argmin", "argmax", "first", "last", "m4", "maxcount", "mincount")) {
      assertNull(result(n), n);
    }
    assertEquals(0.0, result("sum"));
    assertEquals(0L, result("count"));
    assertTrue(Double.isNaN((double) result("mean")));
    assertTrue(Double.isNaN((double) result("stddev", 1.0)), "stddev of one value");
  }

  @Test
  void infinitiesAreValues() {
    assertEquals(Double.NEGATIVE_INFINITY, result("max", Double.NEGATIVE_INFINITY));
    assertEquals(Double.POSITIVE_INFINITY, result("min", Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Test
  void sketches() {
    List<Object> items = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      items.add((long) (i % 1000));
    }
    items.add("station-42");
    double hll = (double) result("hll", items.toArray());
    assertEquals(1001, hll, 1001 * 0.05);
    AggregateFunction big = Functions.byName("bloom", Map.of("bits", 1 << 14, "hashes", 3)); // 1,001 distinct values
    Bloom.Filter bf = (Bloom.Filter) big.lower(fold(big, items));
    for (int i = 0; i < 1000; i++) {
      assertTrue(bf.mightContainLong(i));
    }
    assertTrue(bf.mightContain("station-42"));
    assertTrue(bf.mightContain(7.0), "5 and 5.0 hash alike");
    int falsePositives = 0;
    for (int i = 100_000; i < 110_000; i++) {
      falsePositives += bf.mightContainLong(i) ? 1 : 0;
    }
    assertTrue(falsePositives < 300, "false positives " + falsePositives); // about 0.6% expected
    assertEquals(1000, bf.estimatedDistinct(), 60);
    CountMin.Sketch cm = (CountMin.Sketch) result("countmin", items.toArray());
    assertEquals(5001, cm.total());
    assertTrue(cm.estimate(3L) >= 5, "count-min never underestimates");
    Kll.Quantiles q = (Kll.Quantiles) result("kll", items.subList(0, 5000).toArray());
    assertEquals(500, q.quantile(0.5), 30);
    AggregateFunction p95 = Functions.byName("quantile", Map.of("rank", 0.95));
    assertEquals(950, (double) p95.lower(fold(p95, items.subList(0, 5000))), 30);
    Map<String, Object> m = q.toMap();
    assertEquals(5000L, m.get("n"));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @ParameterizedTest
  @ValueSource(strings = {"sum", "count", "mean", "stddev", "min", "max", "argmax", "maxcount", "first", "last",
      "m4", "bloom", "countmin", "collect"})
  void primitiveStoreAgreesWithGenericForm(String name) {
    AggregateFunction f = Functions.byName(name);
    Partials p = f.newPartials();
    p.resize(3);
    SplittableRandom r = new SplittableRandom(5);
    Object acc = f.identity();
    p.setIdentity(0);
    for (int i = 0; i < 500; i++) {
      Object v = Values.next(name, r, i);
      p.liftObject(1, v, i);
      p.combine(0, 0, 1);
      acc = f.combine(acc, f.lift(v, i));
      assertTrue(Objects.deepEquals(acc, p.partial(0)), name + " step " + i);
    }
    assertEquals(f.lower(acc), p.lower(0));
  }

  @Test
  void errorsNameTheFunctionAndValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Functions.byName("maximum"));
    assertTrue(e.getMessage().contains("'maximum'") && e.getMessage().contains("max"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functions.byName("bloom", Map.of("bits", 1000)));
    assertTrue(e.getMessage().contains("'bits'") && e.getMessage().contains("1000"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functions.byName("max", Map.of("rank", 1)));
    assertTrue(e.getMessage().contains("no option 'rank'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Functions.byName("quantile"));
    assertTrue(e.getMessage().contains("rank"), e.getMessage());
    Partials p = Functions.byName("sum").newPartials();
    p.resize(1);
    e = assertThrows(IllegalArgumentException.class, () -> p.liftObject(0, "abc", 0));
    assertTrue(e.getMessage().contains("'sum'") && e.getMessage().contains("\"abc\""), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.liftDouble(0, Double.NaN, 0));
    assertTrue(e.getMessage().contains("NaN"), e.getMessage());
    Partials g = Functions.byName("geomean").newPartials();
    g.resize(1);
    e = assertThrows(IllegalArgumentException.class, () -> g.liftDouble(0, -1, 0));
    assertTrue(e.getMessage().contains("geomean") && e.getMessage().contains("-1"), e.getMessage());
    Partials h = Functions.byName("hll").newPartials();
    h.resize(1);
    e = assertThrows(IllegalArgumentException.class, () -> h.liftObject(0, new Object[0], 0));
    assertTrue(e.getMessage().contains("hll"), e.getMessage());
  }
}

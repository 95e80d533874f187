package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.Swag;
import io.swag.core.Traces;
import io.swag.core.Values;
import io.swag.core.fn.Functions;
import io.swag.core.fn.Kll;
import io.swag.core.fn.Mean;
import io.swag.core.fn.ScalarDoubleFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every algorithm x every function against the naive {@link Oracle} on seeded random traces, plus
 * long traces (10^6 operations per algorithm) with {@code sum}, {@code collect} (order) and
 * {@code argmax} (ties) at windows up to 10^4.
 *
 * <p>Queries are always executed (some algorithms repair or compress state on query); the oracle
 * is consulted on every query while the window is small and on a random sample of about
 * {@code 128/n} of them when it is large, which bounds the oracle's O(n) cost per operation.
 *
 * <p>The factory builds the typed classes ({@link DoubleFifo}) for the one-double functions (sum,
 * min, max, first, last; first and last are not commutative), for mean and geomean (on their
 * summands) and the algorithms that have them (the test asserts it); {@link #everyScalarFunctionGeneric} runs the same pairs on the generic classes.
 */
class FifoDifferentialTest {

  static final List<String> FUNCTIONS = List.of("sum", "count", "mean", "geomean", "stddev", "variance", "min",
      "max", "argmin", "argmax", "mincount", "maxcount", "first", "last", "collect", "m4", "bloom", "countmin",
      "hll", "kll");

  static boolean applicable(String algorithm, AggregateFunction<?, ?, ?> fn) {
    return !algorithm.equals("soe") || fn.isInvertible();
  }

  static Stream<Arguments> allPairs() {
    List<Arguments> out = new ArrayList<>();
    for (String a : Swag.FIFO_ALGORITHMS) {
      for (String f : FUNCTIONS) {
        if (applicable(a, Functions.byName(f))) {
          out.add(Arguments.of(a, f));
        }
      }
    }
    return out.stream();
  }

  static Stream<Arguments> heavy() {
    List<Arguments> out = new ArrayList<>();
    for (String a : Swag.FIFO_ALGORITHMS) {
      if (a.equals("soe")) {
        out.add(Arguments.of(a, "sum", 600_000));
        out.add(Arguments.of(a, "countmin", 50_000));
        out.add(Arguments.of(a, "variance", 350_000));
      } else {
        out.add(Arguments.of(a, "sum", 400_000));
        out.add(Arguments.of(a, "collect", 300_000));
        out.add(Arguments.of(a, "argmax", 300_000));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("allPairs")
  void everyFunction(String algorithm, String function) {
    boolean sketch = function.equals("hll") || function.equals("kll");
    int ops = sketch ? 6_000 : function.equals("bloom") || function.equals("countmin") ? 10_000 : 25_000;
    run(algorithm, function, ops, 1500, 0xC0FFEEL ^ (algorithm.hashCode() * 31L + function.hashCode()));
  }

  static Stream<Arguments> scalarPairs() {
    List<Arguments> out = new ArrayList<>();
    for (String a : List.of("daba_lite", "two_stacks_lite", "daba", "flatfit")) {
      for (String f : List.of("sum", "min", "max", "first", "last")) {
        out.add(Arguments.of(a, f));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "generic {0} x {1}")
  @MethodSource("scalarPairs")
  void everyScalarFunctionGeneric(String algorithm, String function) {
    run(algorithm, function, 25_000, 1500, 0xBEEFL ^ (algorithm.hashCode() * 31L + function.hashCode()), true);
  }

  @ParameterizedTest(name = "{0} x {1}, {2} ops")
  @MethodSource("heavy")
  void longTrace(String algorithm, String function, int ops) {
    run(algorithm, function, ops, 10_000, 42L + algorithm.hashCode() * 7L + function.hashCode());
  }

  static void run(String algorithm, String function, int ops, int maxWindow, long seed) {
    run(algorithm, function, ops, maxWindow, seed, false);
  }

  static void run(String algorithm, String function, int ops, int maxWindow, long seed, boolean generic) {
    AggregateFunction<?, ?, ?> fn = Functions.byName(function);
    FifoBase w = generic ? Algorithm.parse(algorithm).newGenericFifo(fn) : Swag.fifo(algorithm, fn);
    boolean typed = (fn instanceof ScalarDoubleFunction || fn instanceof Mean)
        && TypedFifoTest.TYPED.containsKey(Algorithm.parse(algorithm));
    assertEquals(typed && !generic, w instanceof DoubleFifo, algorithm + " x " + function + ": " + w.getClass());
    Oracle o = new Oracle(fn);
    Traces t = new Traces(seed, maxWindow);
    long seq = 0;
    int checked = 0;
    int maxSeen = 0;
    for (int i = 0; i < ops; i++) {
      switch (t.next(w.size())) {
        case INSERT -> {
          Object v = Values.next(function, t.random(), seq);
          w.insert(v);
          o.insert(v, seq++);
        }
        case EVICT -> {
          w.evict();
          o.evict();
        }
        case QUERY -> {
          int n = o.size();
          Object got = w.queryPartial();
          if (n <= 128 || t.random().nextInt(n) < 128) {
            checked++;
            compare(function, fn, got, o.partial(), algorithm, i);
            if (checked % 64 == 0) { // and now and then the lowered result, through the public API
              compareLowered(function, w.query(), o.result(), algorithm, i);
            }
          }
        }
      }
      assertEquals(o.size(), w.size(), "size");
      maxSeen = Math.max(maxSeen, w.size());
    }
    assertTrue(checked > ops / 50, "too few checked queries: " + checked);
    assertTrue(maxSeen > Math.min(maxWindow / 4, 300), "trace never grew the window: max " + maxSeen);
  }

  static void compare(String function, AggregateFunction<?, ?, ?> fn, Object got, Object want, String algo, int op) {
    switch (function) {
      case "hll" -> {
        // the result (Hll.lower) is the composite estimate, a function of the registers alone: the
        // same to the last bit whatever the order of unions (tree shape, algorithm, restarts)
        double g = ((HllSketch) got).getCompositeEstimate();
        double e = ((HllSketch) want).getCompositeEstimate();
        if (g != e) {
          fail(algo + " hll op " + op + ": estimate " + g + " vs " + e);
        }
      }
      case "kll" -> {
        KllDoublesSketch g = (KllDoublesSketch) got;
        KllDoublesSketch e = (KllDoublesSketch) want;
        assertEquals(e.getN(), g.getN(), algo + " kll n at op " + op);
        if (!e.isEmpty()) {
          assertEquals(e.getMinItem(), g.getMinItem(), algo + " kll min at op " + op);
          assertEquals(e.getMaxItem(), g.getMaxItem(), algo + " kll max at op " + op);
          double qg = ((Kll.Quantiles) new Kll(200, Double.NaN).lower(g)).quantile(0.5);
          double qe = ((Kll.Quantiles) new Kll(200, Double.NaN).lower(e)).quantile(0.5);
          assertTrue(Math.abs(qg - qe) <= 200, algo + " kll median " + qg + " vs " + qe + " at op " + op);
        }
      }
      case "geomean", "stddev", "variance" -> {
        @SuppressWarnings({"unchecked", "rawtypes"})
        double g = toDouble(((AggregateFunction) fn).lower(got));
        @SuppressWarnings({"unchecked", "rawtypes"})
        double e = toDouble(((AggregateFunction) fn).lower(want));
        if (!(Double.isNaN(g) && Double.isNaN(e)) && Math.abs(g - e) > 1e-6 * Math.max(1, Math.abs(e))) {
          fail(algo + " " + function + " op " + op + ": " + g + " vs " + e);
        }
      }
      default -> {
        if (!Objects.deepEquals(got, want)) {
          fail(algo + " " + function + " op " + op + ": partial " + show(got) + " vs expected " + show(want));
        }
      }
    }
  }

  static void compareLowered(String function, Object got, Object want, String algo, int op) {
    switch (function) {
      case "hll", "kll", "geomean", "stddev", "variance" -> {
        // compared above with tolerance
      }
      default -> {
        if (!Objects.deepEquals(got, want)) {
          fail(algo + " " + function + " op " + op + ": result " + got + " vs expected " + want);
        }
      }
    }
  }

  static double toDouble(Object o) {
    return o == null ? Double.NaN : ((Number) o).doubleValue();
  }

  static String show(Object o) {
    if (o instanceof double[] d) {
      return java.util.Arrays.toString(d);
    }
    if (o instanceof long[] l) {
      return l.length > 8 ? "long[" + l.length + "]" : java.util.Arrays.toString(l);
    }
    String s = String.valueOf(o);
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}

package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import io.swag.core.Traces;
import io.swag.core.fn.Functions;
import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typed in-order aggregators ({@link DoubleFifo}) against a scan of the raw inputs written here
 * with plain Java operators (no function or store code): signed zeros, both infinities, longs
 * beyond 2^53 and boxed inputs, on windows that grow and drain so the ring doubles, halves and
 * wraps; and the same with ring positions started just below {@link Integer#MAX_VALUE}, so every
 * pointer overflows during the trace (the papers' pointers are compared only for equality).
 */
class TypedFifoOracleTest {

  static Stream<Arguments> pairs() {
    List<Arguments> out = new ArrayList<>();
    for (Algorithm a : TypedFifoTest.TYPED.keySet()) {
      for (String f : List.of("sum", "min", "max", "first", "last")) {
        for (boolean wrap : new boolean[] {false, true}) {
          out.add(Arguments.of(a.id(), f, wrap));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} x {1}, positions near 2^31: {2}")
  @MethodSource("pairs")
  void againstAScanOfTheInputs(String algorithm, String function, boolean wrap) throws ReflectiveOperationException {
    Algorithm alg = Algorithm.parse(algorithm);
    FifoBase w = alg.newFifo(Functions.byName(function));
    assertInstanceOf(TypedFifoTest.TYPED.get(alg), w);
    if (wrap) {
      startPositionsAt(w, Integer.MAX_VALUE - 700);
    }
    boolean sum = function.equals("sum");
    ArrayDeque<Double> inputs = new ArrayDeque<>();
    Traces t = new Traces(0x5EEDL ^ algorithm.hashCode() * 131L ^ function.hashCode() ^ (wrap ? 1 : 0), 1500);
    SplittableRandom r = t.random();
    int maxSeen = 0;
    int grows = 0;
    int shrinks = 0;
    for (int op = 0; op < 40_000; op++) {
      int before = w.allocatedPartials();
      switch (t.next(w.size())) {
        case INSERT -> inputs.addLast(insertOne(w, r, sum));
        case EVICT -> {
          w.evict();
          inputs.removeFirst();
        }
        case QUERY -> {
          Double want = expected(function, inputs);
          String where = algorithm + " x " + function + " op " + op + " n=" + inputs.size();
          assertEquals(want, w.query(), where);
          double d = w.queryDouble();
          // to the bit (so -0.0 is not 0.0), any NaN as one
          assertEquals(Double.doubleToLongBits(want == null ? Double.NaN : want), Double.doubleToLongBits(d), where);
        }
      }
      assertEquals(inputs.size(), w.size());
      grows += w.allocatedPartials() > before ? 1 : 0;
      shrinks += w.allocatedPartials() < before ? 1 : 0;
      maxSeen = Math.max(maxSeen, w.size());
    }
    assertTrue(maxSeen > 600 && grows >= 5 && shrinks >= 5, "max " + maxSeen + ", grows " + grows + ", shrinks " + shrinks);
  }

  static Stream<Arguments> counted() {
    List<Arguments> out = new ArrayList<>();
    for (Algorithm a : TypedFifoTest.TYPED.keySet()) {
      for (String f : TypedFifoTest.COUNTED) {
        for (boolean wrap : new boolean[] {false, true}) {
          out.add(Arguments.of(a.id(), f, wrap));
        }
      }
    }
    return out.stream();
  }

  /**
   * Mean and geomean, kept as their summands, against a scan: the mean of quarters of small integers
   * and infinities (exact sums, so to the bit: NaN with both infinities), the geometric mean as
   * {@code exp} of the mean of the logarithms summed in input order (to 1e-12 relative, as the
   * aggregator groups the sum differently), an infinity giving infinity; NaN when empty. Values the
   * geometric mean refuses are offered too and must leave the window unchanged.
   */
  @ParameterizedTest(name = "{0} x {1}, positions near 2^31: {2}")
  @MethodSource("counted")
  void countedAgainstAScan(String algorithm, String function, boolean wrap) throws ReflectiveOperationException {
    Algorithm alg = Algorithm.parse(algorithm);
    FifoBase w = alg.newFifo(Functions.byName(function));
    assertInstanceOf(TypedFifoTest.TYPED.get(alg), w);
    if (wrap) {
      startPositionsAt(w, Integer.MAX_VALUE - 700);
    }
    boolean geo = function.equals("geomean");
    ArrayDeque<Double> inputs = new ArrayDeque<>();
    Traces t = new Traces(0xC0DEL ^ algorithm.hashCode() * 131L ^ function.hashCode() ^ (wrap ? 1 : 0), 1500);
    SplittableRandom r = t.random();
    int maxSeen = 0;
    for (int op = 0; op < 40_000; op++) {
      switch (t.next(w.size())) {
        case INSERT -> {
          int kind = r.nextInt(40);
          double v = kind == 0 ? Double.POSITIVE_INFINITY
              : kind == 1 && !geo ? Double.NEGATIVE_INFINITY
              : kind == 2 && !geo ? -0.0
              : geo ? r.nextInt(1, 4001) / 4.0 : r.nextInt(-400, 401) / 4.0;
          if (geo && kind == 3) {
            double bad = r.nextBoolean() ? 0.0 : -r.nextInt(1, 100) / 4.0;
            int n = w.size();
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> w.insert(bad));
            assertEquals(n, w.size());
          }
          if (r.nextBoolean()) {
            w.insert(v);
          } else {
            w.insert((Object) v);
          }
          inputs.addLast(v);
        }
        case EVICT -> {
          w.evict();
          inputs.removeFirst();
        }
        case QUERY -> {
          String where = algorithm + " x " + function + " op " + op + " n=" + inputs.size();
          double d = w.queryDouble();
          assertEquals(d, (Double) w.query(), where);
          if (inputs.isEmpty()) {
            assertTrue(Double.isNaN(d), where);
          } else if (geo) {
            double s = 0;
            for (double x : inputs) {
              s += Math.log(x);
            }
            double want = Math.exp(s / inputs.size());
            assertEquals(want, d, Math.abs(want) * 1e-12, where);
          } else {
            boolean pos = false;
            boolean neg = false;
            double s = 0;
            for (double x : inputs) {
              pos |= x == Double.POSITIVE_INFINITY;
              neg |= x == Double.NEGATIVE_INFINITY;
              if (!Double.isInfinite(x)) {
                s += x;
              }
            }
            double want = pos && neg ? Double.NaN : pos ? Double.POSITIVE_INFINITY
                : neg ? Double.NEGATIVE_INFINITY : (s + 0.0) / inputs.size();
            assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(d), where);
          }
        }
      }
      assertEquals(inputs.size(), w.size());
      maxSeen = Math.max(maxSeen, w.size());
    }
    assertTrue(maxSeen > 600, "max " + maxSeen);
  }

  /** Inserts one input through one of the public entry points and returns it as the double the window sees. */
  private static double insertOne(FifoBase w, SplittableRandom r, boolean sum) {
    int kind = r.nextInt(12);
    switch (kind) {
      case 0 -> {
        double v = r.nextBoolean() ? -0.0 : 0.0;
        w.insert(v);
        return v;
      }
      case 1 -> {
        double v = r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        w.insert((Object) v);
        return v;
      }
      case 2 -> {
        // longs beyond 2^53 (not for sum: their rounding would depend on the grouping)
        long v = sum ? r.nextInt(-20, 21) : pick(r, (1L << 53) + 1, -(1L << 53) - 1, Long.MAX_VALUE, Long.MIN_VALUE);
        w.insert(v);
        return (double) v;
      }
      case 3 -> {
        int v = r.nextInt(-20, 21);
        w.insert((Object) v);
        return v;
      }
      case 4 -> {
        float v = r.nextInt(-20, 21) / 2f;
        w.insertArg((Object) v, 7);
        return v;
      }
      default -> {
        double v = r.nextInt(-20, 21) / 4.0;
        w.insert(v);
        return v;
      }
    }
  }

  private static long pick(SplittableRandom r, long... choices) {
    return choices[r.nextInt(choices.length)];
  }

  /**
   * The documented result, by a scan: sum (exact here: quarters of small integers), NaN when both
   * infinities are in; min and max compare -0.0 and 0.0 as one value and give +0.0 for a zero; first
   * and last give the input as it came (a -0.0 stays -0.0); empty: 0.0 for sum, null otherwise.
   */
  static Double expected(String function, ArrayDeque<Double> inputs) {
    switch (function) {
      case "sum" -> {
        boolean pos = false;
        boolean neg = false;
        double s = 0;
        for (double x : inputs) {
          pos |= x == Double.POSITIVE_INFINITY;
          neg |= x == Double.NEGATIVE_INFINITY;
          if (!Double.isInfinite(x)) {
            s += x;
          }
        }
        return pos && neg ? Double.NaN : pos ? Double.POSITIVE_INFINITY : neg ? Double.NEGATIVE_INFINITY : s == 0 ? 0.0 : s;
      }
      case "min", "max" -> {
        Double best = null;
        for (double x : inputs) {
          if (best == null || (function.equals("max") ? x > best : x < best)) {
            best = x;
          }
        }
        return best == null ? null : best == 0 ? 0.0 : best;
      }
      case "first" -> {
        return inputs.peekFirst();
      }
      case "last" -> {
        return inputs.peekLast();
      }
      default -> throw new IllegalArgumentException(function);
    }
  }

  /** Moves every pointer of an empty typed aggregator to {@code pos} (the papers' pointers start equal). */
  static void startPositionsAt(FifoBase w, int pos) throws ReflectiveOperationException {
    assertEquals(0, w.size());
    int moved = 0;
    for (Field f : w.getClass().getDeclaredFields()) {
      if (f.getType() == int.class && f.getName().length() == 1) {
        f.setAccessible(true);
        f.setInt(w, pos);
        moved++;
      }
    }
    assertTrue(moved >= 2, w.getClass() + " has no pointers to move");
    assertEquals(0, w.size());
  }
}

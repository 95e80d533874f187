package io.swag.core.fn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import io.swag.core.fn.OracleDrive.Run;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every non-sketch function of the registry against an expected value computed another way: exact
 * arithmetic ({@link BigDecimal}) for sum, mean and geomean; a two-pass computation in
 * {@link BigDecimal} for variance and stddev; direct scans for the order-based functions; counting
 * and the input list itself for count and collect. Inputs are seeded random values of sizes 0 to
 * 10^5 with ties, signed zeros, infinities, magnitudes up to 1e300 and longs near the ends of their
 * range; each input runs through every tree shape of {@link OracleDrive} on both the store and the
 * generic path. The sketches are in {@link FunctionOracleSketchTest}.
 *
 * <p>Rules checked (from the functions' Javadoc, README "Aggregate functions", docs/design.md):
 * numeric functions take numbers as doubles (a long is converted) and reject NaN, null and
 * non-numbers with an error naming the function; infinities are ordinary values; argmin/argmax
 * return the argument of the extreme, the earliest on ties; first/last/m4/collect keep arrival
 * order; variance/stddev are the sample ones (NaN below two inputs); empty windows give null (min,
 * max, arg*, *count, first, last, m4), 0 (sum, count) or NaN (mean, geomean, variance, stddev).
 * Where the documents are silent the rule chosen is stated at the check (signed zeros: the
 * comparisons treat -0.0 and 0.0 as one value, and a result that is zero is +0.0, except first,
 * last and collect, which return the input as given).
 */
class FunctionOracleTest {

  /** Unit roundoff of double. */
  static final double U = 0x1p-53;
  static final MathContext MC = new MathContext(60);

  /** Higham's gamma_n = n u / (1 - n u): the bound factor of n roundings. */
  static double gamma(long n) {
    return n * U / (1 - n * U);
  }

  static List<String> oracleNames() {
    return NAMES;
  }

  /** Names checked here; the sketches' are {@link FunctionOracleSketchTest#NAMES}. */
  static final List<String> NAMES = List.of("sum", "count", "mean", "avg", "geomean", "stddev", "variance", "min",
      "max", "argmin", "argmax", "mincount", "maxcount", "first", "last", "collect", "m4");

  // ---------------------------------------------------------------- inputs

  enum Profile {
    /** Few distinct values (ties): -3..3 as Double, Long and Integer, zeros of both signs. */
    TIES,
    /** Uniform doubles in [-1000, 1000), some Float and Long. */
    UNIFORM,
    /** Random sign, magnitude 10^[-300, 300], with the extremes 1e300, Double.MIN_VALUE and zeros. */
    WIDE,
    /** Random sign, magnitude 10^[-150, 150] (sums of squares stay finite). */
    MEDIUM_WIDE,
    /** Longs near Long.MAX_VALUE and Long.MIN_VALUE and anywhere between. */
    LONGS,
    /** Uniform values with an occasional +/-infinity (sometimes one sign, sometimes both). */
    INFINITE,
    /** 1e9 plus noise in [-1, 1): badly conditioned for variance. */
    OFFSET,
    /** 3e156 plus a few of its ulps: squares overflow, the spread's do not. */
    HUGE,
    /** Positive numbers 10^[-300, 300], small integers, subnormals, now and then +infinity. */
    POSITIVE,
    /** Anything a column can hold: doubles, longs, strings, booleans, nulls. */
    OBJECTS,
    /** OBJECTS plus NaN and other objects (collect keeps whatever it is given). */
    ANYTHING
  }

  static Object value(Profile p, SplittableRandom r, int n) {
    switch (p) {
      case TIES -> {
        int v = r.nextInt(7) - 3;
        return switch (r.nextInt(4)) {
          case 0 -> (long) v;
          case 1 -> v;
          default -> v == 0 && r.nextBoolean() ? -0.0 : (double) v;
        };
      }
      case UNIFORM -> {
        return switch (r.nextInt(6)) {
          case 0 -> (float) r.nextDouble(-1000, 1000);
          case 1 -> r.nextLong(-1_000_000, 1_000_000);
          default -> r.nextDouble(-1000, 1000);
        };
      }
      case WIDE, MEDIUM_WIDE -> {
        int k = r.nextInt(20);
        double e = p == Profile.WIDE ? 300 : 150;
        if (k == 0) {
          return r.nextBoolean() ? -0.0 : 0.0;
        } else if (k == 1) {
          return p == Profile.WIDE ? (r.nextBoolean() ? 1e300 : -1e300) : (r.nextBoolean() ? 1e150 : -1e150);
        } else if (k == 2) {
          return r.nextBoolean() ? Double.MIN_VALUE : -Double.MIN_VALUE;
        }
        double m = Math.pow(10, r.nextDouble(-e, e));
        return r.nextBoolean() ? m : -m;
      }
      case LONGS -> {
        return switch (r.nextInt(3)) {
          case 0 -> Long.MAX_VALUE - r.nextInt(5000);
          case 1 -> Long.MIN_VALUE + r.nextInt(5000);
          default -> r.nextLong();
        };
      }
      case INFINITE -> {
        if (r.nextDouble() < Math.min(0.2, 2.0 / Math.max(n, 1))) {
          return r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return (double) Math.round(r.nextDouble(-100, 100) * 4) / 4; // quarter steps: ties now and then
      }
      case OFFSET -> {
        return 1e9 + r.nextDouble(-1, 1);
      }
      case HUGE -> {
        return 3e156 + (r.nextInt(41) - 20) * Math.ulp(3e156);
      }
      case POSITIVE -> {
        int k = r.nextInt(10);
        if (k == 0 && r.nextDouble() < 1.0 / Math.max(n, 1)) {
          return Double.POSITIVE_INFINITY;
        } else if (k == 1) {
          return r.nextBoolean() ? (Object) (long) (1 + r.nextInt(4)) : (Object) (double) (1 + r.nextInt(4));
        } else if (k == 2) {
          return r.nextBoolean() ? Double.MIN_VALUE : 1e300;
        }
        return Math.pow(10, r.nextDouble(-300, 300));
      }
      case OBJECTS, ANYTHING -> {
        int k = r.nextInt(p == Profile.ANYTHING ? 9 : 7);
        return switch (k) {
          case 0 -> null;
          case 1 -> "s" + r.nextInt(50);
          case 2 -> r.nextBoolean();
          case 3 -> (long) r.nextInt(100);
          case 4 -> r.nextBoolean() ? -0.0 : 0.0;
          case 5, 6 -> r.nextDouble(-10, 10);
          case 7 -> Double.NaN;
          default -> List.of(r.nextInt(5), "x");
        };
      }
      default -> throw new AssertionError(p);
    }
  }

  static List<Object> values(Profile p, int n, SplittableRandom r) {
    List<Object> xs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      xs.add(value(p, r, n));
    }
    return xs;
  }

  static double[] doubles(List<Object> xs) {
    double[] d = new double[xs.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = ((Number) xs.get(i)).doubleValue();
    }
    return d;
  }

  static List<Profile> profiles(String name) {
    return switch (name) {
      case "sum", "mean", "avg" -> List.of(Profile.TIES, Profile.UNIFORM, Profile.WIDE, Profile.LONGS, Profile.INFINITE);
      case "geomean" -> List.of(Profile.POSITIVE);
      case "stddev", "variance" -> List.of(Profile.TIES, Profile.UNIFORM, Profile.MEDIUM_WIDE, Profile.LONGS,
          Profile.INFINITE, Profile.OFFSET, Profile.HUGE);
      case "count" -> List.of(Profile.OBJECTS, Profile.UNIFORM);
      case "collect" -> List.of(Profile.ANYTHING);
      default -> List.of(Profile.TIES, Profile.UNIFORM, Profile.WIDE, Profile.LONGS, Profile.INFINITE);
    };
  }

  /** The profiles also run at 10^5 values. */
  static List<Profile> bigProfiles(String name) {
    return switch (name) {
      case "geomean" -> List.of(Profile.POSITIVE);
      case "stddev", "variance" -> List.of(Profile.UNIFORM, Profile.OFFSET);
      case "count", "collect" -> List.of(profiles(name).get(0));
      default -> List.of(Profile.TIES, Profile.UNIFORM);
    };
  }

  // ---------------------------------------------------------------- the test

  /** Checks one run of a function over the input it was prepared for. */
  interface Check {
    void verify(Run run, String where);
  }

  /**
   * The built-in names the registry accepts, the alias avg included. {@code udaf} is not a function
   * but the loader of a user's class (UserFunctionsTest checks it against its own recompute).
   */
  static List<String> registryNames() {
    List<String> all = new ArrayList<>(Functions.names());
    assertTrue(all.remove(UserFunctions.FUNCTION), "the registry names the udaf loader");
    all.add("avg");
    return all;
  }

  @ParameterizedTest
  @MethodSource("oracleNames")
  void resultsMatchAnIndependentComputation(String name) {
    AggregateFunction<?, ?, ?> f = OracleDrive.create(name, Map.of());
    SplittableRandom seeds = new SplittableRandom(name.hashCode());
    int checked = 0;
    for (Profile p : profiles(name)) {
      for (int n : new int[] {0, 1, 2, 3, 17, 1000}) {
        int repeats = n <= 3 ? 12 : n <= 17 ? 6 : 2;
        for (int rep = 0; rep < repeats; rep++) {
          checked += runCase(f, name, p, n, seeds.nextLong());
        }
      }
    }
    for (Profile p : bigProfiles(name)) {
      checked += runCase(f, name, p, 100_000, seeds.nextLong());
    }
    assertTrue(checked > 100, name + ": only " + checked + " runs checked");
  }

  static int runCase(AggregateFunction<?, ?, ?> f, String name, Profile p, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Object> xs = values(p, n, r);
    long start = switch (r.nextInt(3)) {
      case 0 -> Long.MAX_VALUE - 1000L * n - 1;
      case 1 -> Long.MIN_VALUE;
      default -> r.nextLong(-1L << 40, 1L << 40);
    };
    long[] args = OracleDrive.times(n, start, r);
    Check check = expect(name, xs, args);
    List<Run> runs = OracleDrive.runs(f, xs, args, seed);
    for (Run run : runs) {
      check.verify(run, name + " " + p + " n=" + n + " seed=" + seed + " " + run.how());
    }
    return runs.size();
  }

  static Check expect(String name, List<Object> xs, long[] args) {
    return switch (name) {
      case "sum" -> sum(xs);
      case "count" -> count(xs);
      case "mean", "avg" -> mean(xs);
      case "geomean" -> geomean(xs, xs);
      case "variance" -> variance(xs, false);
      case "stddev" -> variance(xs, true);
      case "min" -> minMax(xs, false);
      case "max" -> minMax(xs, true);
      case "argmin" -> argMinMax(xs, args, false);
      case "argmax" -> argMinMax(xs, args, true);
      case "mincount" -> minMaxCount(xs, false);
      case "maxcount" -> minMaxCount(xs, true);
      case "first" -> firstLast(xs, false);
      case "last" -> firstLast(xs, true);
      case "m4" -> m4(xs);
      case "collect" -> collect(xs);
      default -> throw new AssertionError("no oracle for " + name);
    };
  }

  // ---------------------------------------------------------------- oracles

  static BigDecimal exact(Object x) {
    if (x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte) {
      return BigDecimal.valueOf(((Number) x).longValue());
    }
    return new BigDecimal(((Number) x).doubleValue());
  }

  /** The result is this double, to the bit (so +0.0 and -0.0 differ); the store's lowerDouble agrees. */
  static void assertBits(double want, Run run, String where) {
    Object got = run.result();
    assertInstanceOf(Double.class, got, where);
    assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits((Double) got), // one NaN, two zeros
        where + ": want " + want + ", got " + got);
    assertLowerDouble(run, where);
  }

  /** The store's numeric view of the result is the result itself (NaN for null). */
  static void assertLowerDouble(Run run, String where) {
    if (run.lowerDouble() != null) {
      double want = run.result() == null ? Double.NaN : ((Number) run.result()).doubleValue();
      assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(run.lowerDouble()),
          where + ": lowerDouble " + run.lowerDouble() + " vs lower " + run.result());
    }
  }

  /**
   * |got - want| <= tol, computed exactly. The tolerance is widened by the expected value's own
   * rounding (60 digits) and by Double.MIN_VALUE: a rounding below the normal range is absolute.
   */
  static void assertWithin(BigDecimal want, double tol0, Run run, String where) {
    double tol = tol0 + Math.abs(want.doubleValue()) * 1e-40 + Double.MIN_VALUE;
    Object got = run.result();
    assertInstanceOf(Double.class, got, where);
    double g = (Double) got;
    assertTrue(Double.isFinite(g), where + ": want " + want.doubleValue() + ", got " + g);
    BigDecimal err = new BigDecimal(g).subtract(want).abs();
    assertTrue(err.compareTo(new BigDecimal(tol)) <= 0,
        where + ": want " + want.round(new MathContext(20)) + ", got " + g + ", error " + err.doubleValue()
            + " > tolerance " + tol);
    assertLowerDouble(run, where);
  }

  /** Sums of infinities follow IEEE: both signs give NaN, one sign that infinity. */
  static Double infinite(double[] d) {
    boolean pos = false;
    boolean neg = false;
    for (double x : d) {
      pos |= x == Double.POSITIVE_INFINITY;
      neg |= x == Double.NEGATIVE_INFINITY;
    }
    if (pos && neg) {
      return Double.NaN;
    }
    return pos ? Double.valueOf(Double.POSITIVE_INFINITY) : neg ? Double.valueOf(Double.NEGATIVE_INFINITY) : null;
  }

  /**
   * sum: the exact sum of the inputs (longs exactly, not rounded first). Bound: each input is
   * rounded to a double once and takes part in at most n - 1 additions whatever the tree, so
   * |computed - exact| <= gamma_n * sum |x_i| (Higham, Accuracy and Stability, 4.2). A sum of zeros
   * (of either sign) is +0.0.
   */
  static Check sum(List<Object> xs) {
    double[] d = doubles(xs);
    Double inf = infinite(d);
    BigDecimal s = BigDecimal.ZERO;
    BigDecimal abs = BigDecimal.ZERO;
    if (inf == null) {
      for (Object x : xs) {
        BigDecimal b = exact(x);
        s = s.add(b);
        abs = abs.add(b.abs());
      }
    }
    BigDecimal sum = s;
    double tol = gamma(xs.size()) * abs.doubleValue();
    boolean zeros = abs.signum() == 0;
    return (run, where) -> {
      if (inf != null) {
        assertBits(inf, run, where);
      } else if (zeros) {
        assertBits(0.0, run, where);
      } else {
        assertWithin(sum, tol, run, where);
      }
    };
  }

  /** count: the number of inputs, whatever they are. */
  static Check count(List<Object> xs) {
    long n = xs.size();
    return (run, where) -> {
      assertEquals(Long.valueOf(n), run.result(), where);
      assertEquals((double) n, run.lowerDouble() == null ? (double) n : run.lowerDouble(), where);
    };
  }

  /**
   * mean: the exact sum over n. Bound: the sum's gamma_n * sum |x_i| (see {@link #sum}) plus one
   * rounding of the division, so gamma_{n+1} * sum |x_i| / n. Empty: NaN.
   */
  static Check mean(List<Object> xs) {
    int n = xs.size();
    double[] d = doubles(xs);
    Double inf = infinite(d);
    BigDecimal s = BigDecimal.ZERO;
    BigDecimal abs = BigDecimal.ZERO;
    for (Object x : xs) {
      if (inf == null) {
        BigDecimal b = exact(x);
        s = s.add(b);
        abs = abs.add(b.abs());
      }
    }
    BigDecimal want = n == 0 ? null : s.divide(BigDecimal.valueOf(n), MC);
    double tol = n == 0 ? 0 : gamma(n + 1L) * abs.doubleValue() / n;
    boolean zeros = abs.signum() == 0;
    return (run, where) -> {
      if (n == 0) {
        assertBits(Double.NaN, run, where);
      } else if (inf != null) {
        assertBits(inf, run, where);
      } else if (zeros) {
        assertBits(0.0, run, where);
      } else {
        assertWithin(want, tol, run, where);
      }
    };
  }

  static final BigDecimal LN2 = new BigDecimal("0.693147180559945309417232121458176568075500134360255254120680");

  /**
   * geomean: exp of the mean of the logarithms, with every x written m * 2^e (1 <= m < 2): the
   * exponents summed exactly as integers, the logs of the mantissas summed exactly, so the only
   * roundings are the mantissas' logs (less than 1e-16 each) and the final exp. Bound for the
   * function, which sums doubles log(x): gamma_{n+1} * sum |log x_i| / n absolute error in the mean
   * log, plus log's 1 ulp per input, plus exp's and the expected value's own rounding (|mean log|
   * + 2) u; relative error of the result ~ absolute error of the exponent; doubled for margin.
   */
  static Check geomean(List<Object> xs, List<Object> boundOver) {
    int n = xs.size();
    double[] d = doubles(xs);
    double absLog = 0; // bound on sum |log x| over the values whose logs the function added up
    for (double x : doubles(boundOver)) {
      absLog += Double.isInfinite(x) ? 0 : Math.abs(Math.log(x)); // a bound, not the expected value
    }
    int terms = boundOver.size();
    boolean inf = false;
    long exponents = 0;
    BigDecimal logMantissas = BigDecimal.ZERO;
    for (double x : d) {
      if (x == Double.POSITIVE_INFINITY) {
        inf = true;
        continue;
      }
      double v = x;
      int shift = 0;
      if (v < Double.MIN_NORMAL) {
        v *= 0x1p54;
        shift = -54;
      }
      int e = Math.getExponent(v);
      double m = v / Math.scalb(1.0, e);
      exponents += e + shift;
      logMantissas = logMantissas.add(new BigDecimal(Math.log(m)));
    }
    boolean anyInf = inf;
    double meanLog = n == 0 ? 0
        : LN2.multiply(BigDecimal.valueOf(exponents)).add(logMantissas).divide(BigDecimal.valueOf(n), MC).doubleValue();
    double want = Math.exp(meanLog);
    double tolRel = 2 * (gamma(terms + 1L) * absLog / Math.max(n, 1) + 2 * U * absLog / Math.max(n, 1)
        + (Math.abs(meanLog) + 2) * U);
    return (run, where) -> {
      if (n == 0) {
        assertBits(Double.NaN, run, where);
      } else if (anyInf) {
        assertBits(Double.POSITIVE_INFINITY, run, where);
      } else {
        assertWithin(new BigDecimal(want), tolRel * want, run, where);
      }
    };
  }

  /**
   * variance (sample, n - 1) and stddev: textbook two-pass in {@link BigDecimal} (60 digits) over
   * the inputs as doubles: mean, then the sum of squared deviations S. Bound: Chan, Golub and
   * LeVeque (1983) show the pairwise and updating algorithms' relative error in S is about
   * (depth of the combine tree) * kappa * u to first order, kappa = ||x||_2 / sqrt(S); the left fold
   * is the deepest tree (n), so 4 (n + 2) kappa u covers every shape with room for the constants,
   * the final division and the rounding of the inputs. stddev: half that plus one rounding.
   * Fewer than two inputs: NaN; all inputs equal: exactly 0; an infinite input (n >= 2): NaN, as
   * the two-pass formula gives (inf - inf).
   */
  static Check variance(List<Object> xs, boolean sqrt) {
    int n = xs.size();
    double[] d = doubles(xs);
    boolean inf = false;
    for (double x : d) {
      inf |= Double.isInfinite(x);
    }
    BigDecimal s = BigDecimal.ZERO;
    BigDecimal sq = BigDecimal.ZERO;
    BigDecimal m2 = BigDecimal.ZERO;
    if (n >= 2 && !inf) {
      for (double x : d) {
        BigDecimal b = new BigDecimal(x);
        s = s.add(b);
        sq = sq.add(b.multiply(b, MC), MC);
      }
      BigDecimal mean = s.divide(BigDecimal.valueOf(n), MC);
      for (double x : d) {
        BigDecimal dev = new BigDecimal(x).subtract(mean, MC);
        m2 = m2.add(dev.multiply(dev, MC), MC);
      }
    }
    boolean nan = n < 2 || inf;
    BigDecimal var = nan ? null : m2.divide(BigDecimal.valueOf(n - 1L), MC);
    BigDecimal want = var == null ? null : sqrt ? var.sqrt(MC) : var;
    boolean zero = !nan && m2.signum() == 0;
    double kappa = zero || nan ? 0 : Math.sqrt(sq.divide(m2, MC).doubleValue());
    double tolRel = 4 * (n + 2) * kappa * U;
    if (sqrt) {
      tolRel = tolRel / 2 + 2 * U;
    }
    double tr = tolRel;
    return (run, where) -> {
      if (nan) {
        assertBits(Double.NaN, run, where);
      } else if (zero) {
        assertBits(0.0, run, where);
      } else {
        assertWithin(want, tr * want.doubleValue(), run, where);
      }
    };
  }

  /** -0.0 and 0.0 are one value for the comparisons; a zero result is +0.0. */
  static double zeroAsPositive(double x) {
    return x == 0 ? 0.0 : x;
  }

  /** min/max: a scan with < and >; infinities are values; empty: null. */
  static Check minMax(List<Object> xs, boolean max) {
    double[] d = doubles(xs);
    Double want = null;
    for (double x : d) {
      if (want == null || (max ? x > want : x < want)) {
        want = x;
      }
    }
    Double w = want == null ? null : zeroAsPositive(want);
    return (run, where) -> {
      if (w == null) {
        assertNull(run.result(), where);
        assertLowerDouble(run, where);
      } else {
        assertBits(w, run, where);
      }
    };
  }

  /** argmin/argmax: the argument of the first input (in order) holding the extreme value. */
  static Check argMinMax(List<Object> xs, long[] args, boolean max) {
    double[] d = doubles(xs);
    int best = -1;
    for (int i = 0; i < d.length; i++) {
      if (best < 0 || (max ? d[i] > d[best] : d[i] < d[best])) {
        best = i;
      }
    }
    Long want = best < 0 ? null : args[best];
    return (run, where) -> {
      assertEquals(want, run.result(), where);
      assertLowerDouble(run, where);
    };
  }

  /** mincount/maxcount: the extreme value and how many inputs equal it. */
  static Check minMaxCount(List<Object> xs, boolean max) {
    double[] d = doubles(xs);
    Double ext = null;
    for (double x : d) {
      if (ext == null || (max ? x > ext : x < ext)) {
        ext = x;
      }
    }
    long c = 0;
    for (double x : d) {
      c += ext != null && x == ext ? 1 : 0;
    }
    MinMaxCount.Result want = ext == null ? null : new MinMaxCount.Result(zeroAsPositive(ext), c);
    return (run, where) -> {
      assertEquals(want, run.result(), where);
      if (run.lowerDouble() != null) {
        assertEquals(want == null ? Double.NaN : want.value(), run.lowerDouble(), 0.0, where);
      }
    };
  }

  /** first/last: the oldest or newest input, as given (a -0.0 stays -0.0). */
  static Check firstLast(List<Object> xs, boolean last) {
    double[] d = doubles(xs);
    Double want = d.length == 0 ? null : d[last ? d.length - 1 : 0];
    return (run, where) -> {
      if (want == null) {
        assertNull(run.result(), where);
        assertLowerDouble(run, where);
      } else {
        assertBits(want, run, where);
      }
    };
  }

  /** m4: (first, last, min, max) of the inputs; first and last as given, min and max as {@link #minMax}. */
  static Check m4(List<Object> xs) {
    double[] d = doubles(xs);
    M4.Result want = null;
    if (d.length > 0) {
      double mn = d[0];
      double mx = d[0];
      for (double x : d) {
        mn = x < mn ? x : mn;
        mx = x > mx ? x : mx;
      }
      want = new M4.Result(d[0], d[d.length - 1], zeroAsPositive(mn), zeroAsPositive(mx));
    }
    M4.Result w = want;
    return (run, where) -> assertEquals(w, run.result(), where); // record equality compares doubles bitwise
  }

  /**
   * collect: the inputs, in order. Numbers are compared with equals (so -0.0 is not 0.0 and NaN is
   * NaN): the store's typed lifts box a double or long again; any other value is the object given.
   */
  static Check collect(List<Object> xs) {
    return (run, where) -> {
      assertInstanceOf(List.class, run.result(), where);
      List<?> got = (List<?>) run.result();
      assertEquals(xs.size(), got.size(), where);
      for (int i = 0; i < xs.size(); i++) {
        Object x = xs.get(i);
        if (x instanceof Number ? !x.equals(got.get(i)) : x != got.get(i)) {
          fail(where + " element " + i + ": want " + x + ", got " + got.get(i));
        }
      }
    };
  }

  // ---------------------------------------------------------------- inverse

  /**
   * For the invertible functions: remove an older prefix with inverse and compare with the
   * independent value of the rest (what subtract-on-evict does). Finite inputs only (the
   * documented precondition of subtract-on-evict). Bounds: sum and mean: gamma_{2n} * sum |x_i| of
   * the whole window (the prefix's sum is subtracted back out); variance: every term of the
   * update is at most sum x_i^2 of the whole window, so 16 (n + 2) u * sum x_i^2 on S.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sum", "count", "mean", "avg", "geomean", "stddev", "variance"})
  void inverseRemovesAnOlderPart(String name) {
    AggregateFunction<?, ?, ?> f = OracleDrive.create(name, Map.of());
    assertTrue(f.isInvertible(), name);
    SplittableRandom r = new SplittableRandom(name.hashCode() * 7L);
    Profile profile = switch (name) {
      case "geomean" -> Profile.POSITIVE;
      case "count" -> Profile.OBJECTS;
      default -> Profile.UNIFORM;
    };
    int checked = 0;
    for (int n : new int[] {1, 2, 3, 17, 1000}) {
      for (int rep = 0; rep < 6; rep++) {
        List<Object> xs = values(profile, n, r);
        xs.replaceAll(x -> x instanceof Double d && Double.isInfinite(d) ? 1.0 : x);
        int cut = r.nextInt(n + 1);
        long[] args = OracleDrive.times(n, 0, r);
        Partials p = f.newPartials();
        p.resize(3);
        p.setIdentity(0); // whole
        p.setIdentity(1); // older part
        for (int i = 0; i < n; i++) {
          OracleDrive.lift(p, 2, xs.get(i), args[i], false);
          p.combine(0, 0, 2);
          if (i < cut) {
            p.combine(1, 1, 2);
          }
        }
        p.inverse(0, 0, 1);
        List<Object> rest = xs.subList(cut, n);
        Run run = new Run("inverse", p.lower(0), p.partial(0), p.lowerDouble(0));
        String where = name + " n=" + n + " cut=" + cut;
        if (name.equals("sum") || name.equals("mean") || name.equals("avg")) {
          double abs = 0;
          for (Object x : xs) {
            abs += Math.abs(((Number) x).doubleValue());
          }
          BigDecimal s = BigDecimal.ZERO;
          for (Object x : rest) {
            s = s.add(exact(x));
          }
          if (name.equals("sum")) {
            assertWithin(s, gamma(2L * n + 2) * abs * 1.01, run, where);
          } else if (rest.isEmpty()) {
            assertBits(Double.NaN, run, where);
          } else {
            assertWithin(s.divide(BigDecimal.valueOf(rest.size()), MC), gamma(2L * n + 2) * abs * 1.01 / rest.size(),
                run, where);
          }
        } else if (name.equals("variance") || name.equals("stddev")) {
          if (rest.size() < 2) {
            assertBits(Double.NaN, run, where);
          } else {
            double[] d = doubles(rest);
            BigDecimal sum = BigDecimal.ZERO;
            for (double x : d) {
              sum = sum.add(new BigDecimal(x));
            }
            BigDecimal mean = sum.divide(BigDecimal.valueOf(d.length), MC);
            BigDecimal m2 = BigDecimal.ZERO;
            for (double x : d) {
              BigDecimal dev = new BigDecimal(x).subtract(mean, MC);
              m2 = m2.add(dev.multiply(dev, MC), MC);
            }
            double sq = 0;
            for (double x : doubles(xs)) {
              sq += x * x;
            }
            double tolS = 16 * (n + 2) * U * sq;
            BigDecimal var = m2.divide(BigDecimal.valueOf(d.length - 1L), MC);
            double tolVar = tolS / (d.length - 1);
            if (name.equals("variance")) {
              assertWithin(var, tolVar, run, where);
            } else {
              // |sqrt(v + e) - sqrt(v)| <= |e| / sqrt(v), and <= sqrt(|e|)
              double v = var.doubleValue();
              double tolSd = Math.min(tolVar / Math.sqrt(v), Math.sqrt(tolVar)) + 4 * U * Math.sqrt(v);
              assertWithin(var.sqrt(MC), tolSd, run, where);
            }
          }
        } else if (name.equals("count")) {
          assertEquals((long) rest.size(), run.result(), where);
        } else { // geomean
          geomean(rest, xs).verify(run, where);
        }
        checked++;
      }
    }
    assertTrue(checked >= 30, name);
  }

  // ---------------------------------------------------------------- rejections and coverage

  /** Every name the registry accepts, the alias avg and case variants included, has an oracle. */
  @Test
  void everyRegisteredNameHasAnOracle() {
    Set<String> covered = new TreeSet<>(NAMES);
    covered.addAll(FunctionOracleSketchTest.NAMES);
    List<String> all = registryNames();
    assertTrue(all.size() >= 23, "registry names " + all);
    for (String n : all) {
      assertTrue(covered.contains(n), "no independent oracle for registered function '" + n + "'");
      AggregateFunction<?, ?, ?> f = OracleDrive.create(" " + n.toUpperCase(java.util.Locale.ROOT) + " ",
          n.equals("quantile") ? Map.of("rank", 0.5) : Map.of());
      assertEquals(OracleDrive.create(n, n.equals("quantile") ? Map.of("rank", 0.5) : Map.of()).name(), f.name(), n);
    }
    for (String n : covered) {
      assertTrue(all.contains(n), "oracle for '" + n + "', which the registry does not know");
    }
    assertEquals("mean", OracleDrive.create("avg", Map.of()).name());
  }

  static final Object[] NOT_A_NUMBER = {Double.NaN, Float.NaN};

  /** What each function must reject, and the name its error carries. */
  @ParameterizedTest
  @MethodSource("registryNames")
  void rejectedInputsNameTheFunctionAndChangeNothing(String name) {
    AggregateFunction<?, ?, ?> f = OracleDrive.create(name, name.equals("quantile") ? Map.of("rank", 0.3) : Map.of());
    List<Object> bad = new ArrayList<>();
    List<Object> good = new ArrayList<>(List.of(1.5, 7L, 3, -0.0, Double.POSITIVE_INFINITY));
    boolean numeric = !List.of("count", "collect", "hll", "bloom", "countmin").contains(name);
    if (!name.equals("collect")) {
      bad.addAll(Arrays.asList(NOT_A_NUMBER));
    } else {
      good.addAll(Arrays.asList(NOT_A_NUMBER));
    }
    if (numeric) {
      bad.addAll(Arrays.asList("12", true, null, new Object()));
    } else if (!name.equals("count") && !name.equals("collect")) {
      bad.addAll(Arrays.asList(null, new Object(), List.of(1)));
      good.addAll(List.of("station-42", "", true));
    } else {
      good.addAll(Arrays.asList("12", true, null, new Object()));
    }
    if (name.equals("geomean")) {
      good.removeIf(x -> x instanceof Double d && d <= 0);
      bad.addAll(List.of(0.0, -0.0, -1.0, -2L, 0, Double.NEGATIVE_INFINITY));
    }
    assertTrue(good.size() >= 4 && (bad.size() >= 2 || name.equals("collect")), name);
    for (Object x : bad) {
      for (int path = 0; path < 3; path++) {
        Partials p = f.newPartials();
        p.resize(1);
        OracleDrive.lift(p, 0, 2.0, 1, false);
        Object before = OracleDrive.fingerprint(p.partial(0));
        int via = path;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
          if (via == 0) {
            OracleDrive.lift(p, 0, x, 5, false);
          } else if (via == 1) {
            p.liftObject(0, x, 5);
          } else {
            @SuppressWarnings({"unchecked", "rawtypes"})
            AggregateFunction<Object, ?, ?> g = (AggregateFunction) f;
            g.lift(x, 5);
          }
        }, name + " accepted " + x + " (path " + path + ")");
        assertTrue(e.getMessage().contains("'" + f.name() + "'"), name + ": " + e.getMessage());
        assertEquals(before, OracleDrive.fingerprint(p.partial(0)), name + ": a rejected " + x + " changed the slot");
      }
    }
    for (Object x : good) {
      Partials p = f.newPartials();
      p.resize(1);
      OracleDrive.lift(p, 0, x, 5, false);
      p.liftObject(0, x, 5);
    }
  }

  /** Variance of finite values whose spread overflows double is +infinity, not NaN. */
  @Test
  void varianceThatOverflowsIsInfinite() {
    AggregateFunction<?, ?, ?> f = OracleDrive.create("variance", Map.of());
    List<Object> xs = List.of(1e300, -1e300, 5.0, 1e300);
    for (Run run : OracleDrive.runs(f, xs, new long[4], 3)) {
      assertBits(Double.POSITIVE_INFINITY, run, "variance " + run.how());
    }
  }

  @Test
  void driverCoversTheShapes() {
    // the test's own machinery: every shape of a non-commutative function keeps order
    AggregateFunction<?, ?, ?> f = OracleDrive.create("collect", Map.of());
    List<Object> xs = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      xs.add((long) i);
    }
    List<Run> runs = OracleDrive.runs(f, xs, new long[50], 11);
    assertEquals(8, runs.size());
    for (Run run : runs) {
      assertEquals(xs, run.result(), run.how());
    }
    if (runs.stream().map(Run::how).distinct().count() != 8) {
      fail("runs are not all different: " + runs);
    }
  }
}

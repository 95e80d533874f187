package io.swag.core.fn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.FunctionOracleTest.Profile;
import io.swag.core.fn.OracleDrive.Run;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.datasketches.kll.KllSketch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sketches against expectations built without them: the Bloom filter and the count-min
 * counters rebuilt bit for bit from their definition (XxHash64 written again from the xxHash
 * specification, the documented seed, double hashing for Bloom, the row mixer for count-min);
 * HyperLogLog against an exact distinct count within its error bound; KLL against the sorted
 * input within its documented rank error (exact while it holds every item). Each input runs
 * through every tree shape of {@link OracleDrive} on both paths.
 *
 * <p>Hashing rules (Hashing's Javadoc and the sketches'): an item's 64-bit hash is XxHash64 of the
 * 8 little-endian bytes of a long with seed {@link #SEED} for integers (Long, Integer, Short,
 * Byte), for doubles with an integral value in long range (so 5 and 5.0 hash alike; -0.0 is not
 * integral here) and for booleans (1 or 0); of the double's bits ({@code doubleToLongBits}) with
 * seed {@code SEED + 1} for other doubles; of the UTF-8 bytes with seed {@code SEED + 2} for strings.
 */
class FunctionOracleSketchTest {

  static final List<String> NAMES = List.of("hll", "kll", "quantile", "median", "bloom", "countmin");

  /** The sketches' hash seed (io.swag.core.fn.Hashing). */
  static final long SEED = 0x5A6A_9E37_79B9_7F4AL;

  // ---------------------------------------------------------------- XxHash64, from the specification

  /** XXH64 as specified in xxHash's doc/xxhash_spec.md (little-endian lanes). */
  static final class Xxh64 {
    static final long P1 = 0x9E3779B185EBCA87L;
    static final long P2 = 0xC2B2AE3D27D4EB4FL;
    static final long P3 = 0x165667B19E3779F9L;
    static final long P4 = 0x85EBCA77C2B2AE63L;
    static final long P5 = 0x27D4EB2F165667C5L;

    private static long round(long acc, long lane) {
      return Long.rotateLeft(acc + lane * P2, 31) * P1;
    }

    private static long merge(long acc, long v) {
      return (acc ^ round(0, v)) * P1 + P4;
    }

    private static long lane64(byte[] b, int i) {
      long x = 0;
      for (int k = 7; k >= 0; k--) {
        x = (x << 8) | (b[i + k] & 0xFFL);
      }
      return x;
    }

    private static long lane32(byte[] b, int i) {
      return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24;
    }

    static long hash(byte[] b, long seed) {
      int len = b.length;
      int i = 0;
      long acc;
      if (len >= 32) {
        long v1 = seed + P1 + P2;
        long v2 = seed + P2;
        long v3 = seed;
        long v4 = seed - P1;
        for (; i + 32 <= len; i += 32) {
          v1 = round(v1, lane64(b, i));
          v2 = round(v2, lane64(b, i + 8));
          v3 = round(v3, lane64(b, i + 16));
          v4 = round(v4, lane64(b, i + 24));
        }
        acc = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
        acc = merge(merge(merge(merge(acc, v1), v2), v3), v4);
      } else {
        acc = seed + P5;
      }
      acc += len;
      for (; i + 8 <= len; i += 8) {
        acc ^= round(0, lane64(b, i));
        acc = Long.rotateLeft(acc, 27) * P1 + P4;
      }
      if (i + 4 <= len) {
        acc ^= lane32(b, i) * P1;
        acc = Long.rotateLeft(acc, 23) * P2 + P3;
        i += 4;
      }
      for (; i < len; i++) {
        acc ^= (b[i] & 0xFFL) * P5;
        acc = Long.rotateLeft(acc, 11) * P1;
      }
      acc ^= acc >>> 33;
      acc *= P2;
      acc ^= acc >>> 29;
      acc *= P3;
      acc ^= acc >>> 32;
      return acc;
    }

    static long ofLong(long x, long seed) {
      byte[] b = new byte[8];
      for (int k = 0; k < 8; k++) {
        b[k] = (byte) (x >>> (8 * k));
      }
      return hash(b, seed);
    }
  }

  @Test
  void xxHash64MatchesTheSpecificationsTestVectors() {
    assertEquals(0xEF46DB3751D8E999L, Xxh64.hash(new byte[0], 0));
    assertEquals(0x44BC2CF5AD770999L, Xxh64.hash("abc".getBytes(StandardCharsets.US_ASCII), 0));
    assertEquals(0xFBCEA83C8A378BF1L,
        Xxh64.hash("Nobody inspects the spammish repetition".getBytes(StandardCharsets.US_ASCII), 0));
    assertEquals(0xB559B98D844E0635L, Xxh64.hash("xxhash".getBytes(StandardCharsets.US_ASCII), 20141025));
  }

  /** An item's hash by the rules of the class comment. */
  static long hashOf(Object x) {
    if (x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte) {
      return Xxh64.ofLong(((Number) x).longValue(), SEED);
    }
    if (x instanceof Boolean b) {
      return Xxh64.ofLong(b ? 1 : 0, SEED);
    }
    if (x instanceof Number num) {
      double d = num.doubleValue();
      boolean integral = d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63 && !(d == 0 && 1 / d < 0);
      return integral ? Xxh64.ofLong((long) d, SEED) : Xxh64.ofLong(Double.doubleToLongBits(d), SEED + 1);
    }
    return Xxh64.hash(((String) x).getBytes(StandardCharsets.UTF_8), SEED + 2);
  }

  /** The identity of an item for distinct counting: numbers by value (5 and 5.0 alike), strings by text. */
  static Object key(Object x) {
    if (x instanceof String s) {
      return "S" + s;
    }
    double d = ((Number) x).doubleValue();
    if (x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte) {
      return "L" + ((Number) x).longValue();
    }
    boolean integral = d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63 && !(d == 0 && 1 / d < 0);
    return integral ? "L" + (long) d : "D" + Double.doubleToLongBits(d);
  }

  /** Items for the hashing sketches: repeats, 5 and 5.0, signed zeros, strings short and long, non-ASCII. */
  static Object item(SplittableRandom r, int distinct, boolean booleans) {
    int k = r.nextInt(booleans ? 12 : 11);
    int v = r.nextInt(distinct);
    return switch (k) {
      case 0, 1 -> (long) v;
      case 2 -> v;
      case 3 -> (double) v;
      case 4 -> v + 0.25;
      case 5 -> r.nextBoolean() ? -0.0 : 0.0;
      case 6 -> "station-" + v;
      case 7 -> "é€😀-" + v + "-" + "x".repeat(v % 70);
      case 8 -> r.nextBoolean() ? Long.MAX_VALUE - v : Long.MIN_VALUE + v;
      case 9 -> r.nextBoolean() ? Double.POSITIVE_INFINITY : -1e300 * (v + 1);
      case 10 -> (float) (v / 8.0);
      default -> r.nextBoolean();
    };
  }

  static List<Object> items(int n, int distinct, boolean booleans, SplittableRandom r) {
    List<Object> xs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      xs.add(item(r, distinct, booleans));
    }
    return xs;
  }

  // ---------------------------------------------------------------- bloom

  /** The filter's words by definition: bit (h1 + i h2) mod bits for i < hashes, h1/h2 the low/high halves of the hash. */
  static long[] bloomWords(List<Object> xs, int bits, int hashes) {
    long[] w = new long[bits / 64];
    for (Object x : xs) {
      for (int bit : probes(hashOf(x), bits, hashes)) {
        w[bit / 64] |= 1L << (bit % 64);
      }
    }
    return w;
  }

  static int[] probes(long h, int bits, int hashes) {
    int h1 = (int) h;
    int h2 = (int) (h >>> 32);
    int[] p = new int[hashes];
    for (int i = 0; i < hashes; i++) {
      p[i] = Math.floorMod(h1 + i * h2, bits); // int arithmetic, wrapping
    }
    return p;
  }

  static boolean bloomHas(long[] words, int hashes, Object x) {
    for (int bit : probes(hashOf(x), words.length * 64, hashes)) {
      if ((words[bit / 64] >>> (bit % 64) & 1) == 0) {
        return false;
      }
    }
    return true;
  }

  @Test
  void bloomIsTheFilterOfItsDefinition() {
    int[][] configs = {{Bloom.DEFAULT_BITS, Bloom.DEFAULT_HASHES, 1000}, {1 << 14, 3, 1000}, {64, 1, 100_000}, {1024, 16, 20_000}, {1 << 20, 5, 17}, {4096, 7, 2000}};
    SplittableRandom seeds = new SplittableRandom(42);
    int checked = 0;
    for (int[] c : configs) {
      int bits = c[0];
      int hashes = c[1];
      Map<String, Object> opts = bits == Bloom.DEFAULT_BITS && hashes == Bloom.DEFAULT_HASHES ? Map.of() : Map.of("bits", bits, "hashes", hashes);
      AggregateFunction<?, ?, ?> f = OracleDrive.create("bloom", opts);
      for (int n : sizes(c[2])) {
        long seed = seeds.nextLong();
        SplittableRandom r = new SplittableRandom(seed);
        List<Object> xs = items(n, 1 + r.nextInt(2 * n + 1), true, r);
        long[] want = bloomWords(xs, bits, hashes);
        List<Object> probes = items(200, 1_000_000, true, r);
        for (Run run : OracleDrive.runs(f, xs, OracleDrive.times(n, 0, r), seed)) {
          String where = "bloom " + opts + " n=" + n + " seed=" + seed + " " + run.how();
          assertArrayEquals(want, (long[]) run.partial(), where + ": partial");
          Bloom.Filter got = assertInstanceOf(Bloom.Filter.class, run.result(), where);
          assertArrayEquals(want, got.words(), where + ": words");
          for (Object x : xs) {
            boolean typed = x instanceof Long l ? got.mightContainLong(l)
                : x instanceof Double d ? got.mightContainDouble(d) : true;
            if (!got.mightContain(x) || !typed) {
              fail(where + ": false negative " + x + " (typed test " + typed + ")");
            }
          }
          for (Object x : probes) {
            if (bloomHas(want, hashes, x) != got.mightContain(x)) {
              fail(where + ": probe " + x + " answered " + got.mightContain(x));
            }
          }
          int set = 0;
          for (long w : want) {
            set += Long.bitCount(w);
          }
          double m = bits;
          double est = set == bits ? Double.POSITIVE_INFINITY : -m / hashes * Math.log(1 - set / m);
          assertEquals(set, got.bitsSet(), where);
          assertEquals(est, got.estimatedDistinct(), where);
          assertEquals(Map.of("bits", bits, "hashes", hashes, "bits_set", set, "estimated_distinct", est), got.toMap(),
              where);
          checked++;
        }
      }
    }
    assertTrue(checked > 200, "checked " + checked);
  }

  static int[] sizes(int max) {
    return Arrays.stream(new int[] {0, 1, 2, 3, 17, 1000, 20_000, 100_000}).filter(n -> n <= max).toArray();
  }

  // ---------------------------------------------------------------- count-min

  /** Row r's column for hash h: h + r * 0x9E3779B97F4A7C15, mixed (xor-shift 31, multiply, xor-shift 29), unsigned mod width. */
  static int column(long h, int row, int width) {
    long x = h + row * 0x9E3779B97F4A7C15L;
    x ^= x >>> 31;
    x *= 0xBF58476D1CE4E5B9L;
    x ^= x >>> 29;
    return (int) Long.remainderUnsigned(x, width);
  }

  @Test
  void countMinIsTheSketchOfItsDefinition() {
    int[][] configs = {{128, 3, 20_000}, {1, 1, 1000}, {2, 2, 100_000}, {7, 16, 20_000}, {1000, 4, 1000}, {65536, 1, 17}};
    SplittableRandom seeds = new SplittableRandom(7);
    int checked = 0;
    for (int[] c : configs) {
      int width = c[0];
      int depth = c[1];
      Map<String, Object> opts = width == 128 && depth == 3 ? Map.of() : Map.of("width", width, "depth", depth);
      AggregateFunction<?, ?, ?> f = OracleDrive.create("countmin", opts);
      for (int n : sizes(c[2])) {
        long seed = seeds.nextLong();
        SplittableRandom r = new SplittableRandom(seed);
        List<Object> xs = items(n, 1 + r.nextInt(n / 4 + 1), true, r);
        long[] want = new long[width * depth];
        Map<Object, Long> truth = new HashMap<>();
        Map<Object, Object> sample = new HashMap<>();
        for (Object x : xs) {
          long h = hashOf(x);
          for (int row = 0; row < depth; row++) {
            want[row * width + column(h, row, width)]++;
          }
          Object k = x instanceof Boolean b ? "L" + (b ? 1 : 0) : key(x);
          truth.merge(k, 1L, Long::sum);
          sample.putIfAbsent(k, x);
        }
        List<Object> probe = new ArrayList<>(); // one item of each distinct value
        List<long[]> expect = new ArrayList<>(); // its (estimate by the counters above, true count)
        for (Map.Entry<Object, Long> e : truth.entrySet()) {
          Object x = sample.get(e.getKey());
          long h = hashOf(x);
          long min = Long.MAX_VALUE;
          for (int row = 0; row < depth; row++) {
            min = Math.min(min, want[row * width + column(h, row, width)]);
          }
          probe.add(x);
          expect.add(new long[] {min, e.getValue()});
        }
        for (Run run : OracleDrive.runs(f, xs, OracleDrive.times(n, 0, r), seed)) {
          String where = "countmin " + opts + " n=" + n + " seed=" + seed + " " + run.how();
          assertArrayEquals(want, (long[]) run.partial(), where + ": counters");
          CountMin.Sketch got = assertInstanceOf(CountMin.Sketch.class, run.result(), where);
          assertEquals(n, got.total(), where);
          for (int i = 0; i < probe.size(); i++) {
            Object x = probe.get(i);
            long[] ex = expect.get(i);
            long est = got.estimate(x);
            if (est != ex[0] || est < ex[1] || (x instanceof Long l && got.estimateLong(l) != est)) {
              fail(where + ": " + x + " estimated " + est + " (long form "
                  + (x instanceof Long l ? got.estimateLong(l) : "-") + "), counters give " + ex[0] + ", true count " + ex[1]);
            }
          }
          assertEquals(Map.of("width", width, "depth", depth, "total", (long) n), got.toMap(), where);
          checked++;
        }
      }
    }
    assertTrue(checked > 150, "checked " + checked);
  }

  // ---------------------------------------------------------------- hll

  /**
   * hll: the exact distinct count D (a HashSet of the items' identities) and the estimate. Bound:
   * relative standard error 1.04 / sqrt(2^lgK) of HLL's (non-HIP) estimator, which the composite
   * estimate is; the check allows 4 of them (hashing is seeded, so the result is deterministic and
   * the bound is not a flake risk). DataSketches documents zero error at low cardinalities (exact
   * counts of coupons until the sketch turns dense, at 3/32 of 2^lgK coupons, or 8 for the
   * smallest sketches): for D <= max(7, 2^lgK / 16) the estimate is D within 1 + D / 1000 (a coupon
   * keeps 26 bits of the hash, so two items collide now and then: about D^2 / 2^27 pairs, at most
   * 0.13 below 2^12 distinct items, and a seeded test either meets such a pair or not, for ever).
   * Every tree shape and
   * both paths give the same bits (the documented property of the composite estimate). Empty: 0.
   */
  @Test
  void hllIsWithinItsErrorOfTheExactDistinctCount() {
    int[][] configs = {{12, 20_000}, {4, 20_000}, {8, 20_000}, {16, 2000}};
    SplittableRandom seeds = new SplittableRandom(3);
    int checked = 0;
    for (int[] c : configs) {
      int lgK = c[0];
      Map<String, Object> opts = lgK == 12 ? Map.of() : Map.of("lgK", lgK);
      AggregateFunction<?, ?, ?> f = OracleDrive.create("hll", opts);
      double rse = 1.04 / Math.sqrt(1 << lgK);
      for (int n : sizes(c[1])) {
        for (int spread : new int[] {2, 10}) {
          long seed = seeds.nextLong();
          SplittableRandom r = new SplittableRandom(seed);
          List<Object> xs = items(n, Math.max(1, n * spread / 10), false, r);
          Set<Object> distinct = new HashSet<>();
          for (Object x : xs) {
            distinct.add(key(x));
          }
          int d = distinct.size();
          Double first = null;
          for (Run run : OracleDrive.runs(f, xs, OracleDrive.times(n, 0, r), seed)) {
            String where = "hll " + opts + " n=" + n + " D=" + d + " seed=" + seed + " " + run.how();
            double est = assertInstanceOf(Double.class, run.result(), where);
            if (first == null) {
              first = est;
            }
            assertEquals(Double.doubleToLongBits(first), Double.doubleToLongBits(est), where + ": differs from the first run");
            assertEquals(est, run.lowerDouble() == null ? est : run.lowerDouble(), where);
            if (d <= Math.max(7, (1 << lgK) / 16)) {
              assertTrue(Math.abs(est - d) <= 1 + d / 1000.0, where + ": estimate " + est + " of a small count");
            } else {
              double tol = 4 * rse * d;
              assertTrue(Math.abs(est - d) <= tol, where + ": estimate " + est + " vs exact " + d + " (tolerance " + tol + ")");
            }
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 200, "checked " + checked);
  }

  /**
   * Items that are different values but share the 64 bits that get hashed (a double's bits and the
   * long with those bits, a string's 8 bytes and the long with those bytes, 2^63 and
   * Long.MAX_VALUE) are different items for every hashing sketch.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  @Test
  void differentValuesWithTheSameBitsAreDifferentItems() {
    long abcdefgh = 0;
    for (int k = 7; k >= 0; k--) {
      abcdefgh = abcdefgh << 8 | "abcdefgh".charAt(k);
    }
    Object[][] pairs = {{-0.0, Long.MIN_VALUE}, {0.5, Double.doubleToLongBits(0.5)},
        {-0.0, -0x1p63}, {0.5, (double) Double.doubleToLongBits(0.5)}, {"abcdefgh", abcdefgh}, {0x1p63, Long.MAX_VALUE},
        {Double.NEGATIVE_INFINITY, Double.doubleToLongBits(Double.NEGATIVE_INFINITY)}};
    for (Object[] pair : pairs) {
      List<Object> xs = Arrays.asList(pair);
      String where = Arrays.toString(pair);
      assertTrue(!key(pair[0]).equals(key(pair[1])), where + " are different values");
      AggregateFunction hll = OracleDrive.create("hll", Map.of());
      for (Run run : OracleDrive.runs(hll, xs, new long[2], 1)) {
        assertEquals(2.0, (Double) run.result(), 1e-3, where + " hll " + run.how());
      }
      AggregateFunction bloom = OracleDrive.create("bloom", Map.of());
      Bloom.Filter bf = (Bloom.Filter) bloom.lower(bloom.lift(pair[0], 0));
      assertTrue(bf.mightContain(pair[0]) && !bf.mightContain(pair[1]), where + " bloom");
      AggregateFunction cm = OracleDrive.create("countmin", Map.of("width", 65536, "depth", 2));
      CountMin.Sketch sk = (CountMin.Sketch) cm.lower(cm.lift(pair[0], 0));
      assertEquals(1, sk.estimate(pair[0]), where + " countmin");
      assertEquals(0, sk.estimate(pair[1]), where + " countmin");
    }
  }

  // ---------------------------------------------------------------- kll, quantile, median

  /** Number of values < q and <= q in a sorted array. */
  static int[] ranks(double[] sorted, double q) {
    int lt = 0;
    int le = 0;
    for (double x : sorted) {
      lt += x < q ? 1 : 0;
      le += x <= q ? 1 : 0;
    }
    return new int[] {lt, le};
  }

  /** The inclusive quantile of exact data: the smallest x with (number of values <= x) >= rank * n. */
  static double exactQuantile(double[] sorted, double rank) {
    int n = sorted.length;
    double t = rank * n;
    long target = Math.abs(t - Math.rint(t)) <= 1e-9 * n ? (long) Math.rint(t) : (long) Math.ceil(t);
    return sorted[(int) Math.max(target, 1) - 1];
  }

  /**
   * One quantile answer q for rank r: q is one of the inputs; while the sketch holds every input
   * (n <= k) it is the exact inclusive quantile; beyond, the range of normalized ranks q occupies
   * in the sorted input ([#less / n, #less-or-equal / n], ties make it wide) is within 2 epsilon of
   * r, epsilon = KllSketch.getNormalizedRankError(k, false), the documented 99th percentile of the
   * largest rank error over all ranks of a sketch. Merges are randomized with an unseeded
   * generator, so the bound is doubled to keep a failure far in the tail.
   */
  static void checkQuantile(double[] sorted, int k, double rank, double q, String where) {
    int n = sorted.length;
    if (n == 0) {
      assertTrue(Double.isNaN(q), where + ": empty gives " + q);
      return;
    }
    assertTrue(Arrays.binarySearch(sorted, q) >= 0 || (q == 0 && Arrays.binarySearch(sorted, -q) >= 0),
        where + ": " + q + " is not an input");
    if (n <= k) {
      assertEquals(exactQuantile(sorted, rank), q, 0.0, where + " rank " + rank);
      return;
    }
    double eps = 2 * KllSketch.getNormalizedRankError(k, false);
    int[] lr = ranks(sorted, q);
    assertTrue((double) lr[1] / n >= rank - eps && (double) lr[0] / n <= rank + eps,
        where + " rank " + rank + ": " + q + " has ranks [" + (double) lr[0] / n + ", " + (double) lr[1] / n
            + "], epsilon " + eps);
  }

  static final double[] RANKS = {0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.95, 0.99, 1};

  @ParameterizedTest
  @ValueSource(strings = {"quantile", "median", "kll"})
  void kllIsWithinItsRankErrorOfTheSortedInput(String name) {
    SplittableRandom seeds = new SplittableRandom(name.hashCode());
    int checked = 0;
    for (int k : new int[] {200, 8, 50}) {
      for (Profile p : List.of(Profile.TIES, Profile.UNIFORM, Profile.WIDE, Profile.LONGS, Profile.INFINITE)) {
        for (int n : new int[] {0, 1, 2, 3, 17, 50, 51, 200, 201, 1000, 20_000}) {
          if (n == 20_000 && (k != 200 || p != Profile.UNIFORM && p != Profile.TIES)) {
            continue;
          }
          long seed = seeds.nextLong();
          SplittableRandom r = new SplittableRandom(seed);
          double rank = name.equals("median") ? 0.5 : name.equals("quantile") ? RANKS[r.nextInt(RANKS.length)] : Double.NaN;
          if (name.equals("quantile") && r.nextInt(3) == 0) {
            rank = r.nextDouble();
          }
          Map<String, Object> opts = new HashMap<>();
          if (k != 200) {
            opts.put("k", k);
          }
          if (name.equals("quantile")) {
            opts.put("rank", rank);
          }
          AggregateFunction<?, ?, ?> f = OracleDrive.create(name, opts);
          List<Object> xs = FunctionOracleTest.values(p, n, r);
          double[] sorted = FunctionOracleTest.doubles(xs);
          Arrays.sort(sorted);
          for (Run run : OracleDrive.runs(f, xs, OracleDrive.times(n, 0, r), seed)) {
            String where = name + " " + opts + " " + p + " n=" + n + " seed=" + seed + " " + run.how();
            if (!name.equals("kll")) {
              double q = assertInstanceOf(Double.class, run.result(), where);
              checkQuantile(sorted, k, rank, q, where);
              assertEquals(Double.doubleToLongBits(q), Double.doubleToLongBits(run.lowerDouble() == null ? q : run.lowerDouble()), where);
            } else {
              Kll.Quantiles got = assertInstanceOf(Kll.Quantiles.class, run.result(), where);
              assertEquals(n, got.n(), where);
              for (double rk : RANKS) {
                checkQuantile(sorted, k, rk, got.quantile(rk), where);
              }
              Map<String, Object> m = got.toMap();
              assertEquals((long) n, m.get("n"), where);
              if (n > 0) {
                assertEquals(sorted[0], (Double) m.get("min"), 0.0, where + ": min is exact");
                assertEquals(sorted[n - 1], (Double) m.get("max"), 0.0, where + ": max is exact");
                assertEquals(List.of("n", "min", "p50", "p90", "p95", "p99", "max"), new ArrayList<>(m.keySet()), where);
                checkQuantile(sorted, k, 0.5, (Double) m.get("p50"), where + " p50");
                checkQuantile(sorted, k, 0.99, (Double) m.get("p99"), where + " p99");
              } else {
                assertEquals(List.of("n"), new ArrayList<>(m.keySet()), where);
              }
            }
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 500, "checked " + checked);
  }

  @Test
  void quantileOptionsAreChecked() {
    for (double bad : new double[] {-0.01, 1.01}) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> OracleDrive.create("quantile", Map.of("rank", bad)));
      assertTrue(e.getMessage().contains("rank"), e.getMessage());
    }
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> OracleDrive.create("quantile", Map.of()));
    assertTrue(e.getMessage().contains("rank"), e.getMessage());
  }
}

package io.swag.core.fn;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.LongFunction;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bloom filter of the window's values: {@code bits} bits and {@code hashes} probes by double
 * hashing of one XxHash64. The partial is the filter's words, stored flat in the aggregator's
 * {@code long[]}: combine is a word-wise OR over {@code bits/64} words with no allocation.
 * Commutative, idempotent, not invertible. Result: {@link Bloom.Filter}.
 *
 * <p>Defaults: {@value #DEFAULT_BITS} bits and {@value #DEFAULT_HASHES} hashes. Every stored partial
 * is a whole filter, so a window costs {@code bits / 8} bytes per entry (256 B by default): a
 * 2^22-entry FIFO window holds 1 GiB of filters (1.5 GiB while its ring doubles, which copies one
 * array) and fits a 4 GiB heap. The documented capacity is {@value #DEFAULT_CAPACITY} distinct
 * values per window, where the false-positive rate {@code (1 - e^(-k n / m))^k} is 2.4% (0.24% at
 * 128, 6.3% at 355 where k = 4 is optimal). More distinct values need more {@code bits}, at
 * {@code bits / 8} bytes per window entry.
 */
public final class Bloom extends LongFunction {
  /** Default filter size in bits. */
  public static final int DEFAULT_BITS = 1 << 11;
  /** Default number of probes per value. */
  public static final int DEFAULT_HASHES = 4;
  /** Distinct values per window for which the default filter is documented (about 2.4% false positives). */
  public static final int DEFAULT_CAPACITY = 256;

  private final int bits;
  private final int hashes;

  /** A Bloom filter result: membership test and a distinct-count estimate. */
  public static final class Filter implements Structured {
    private final long[] words;
    private final int hashes;

    Filter(long[] words, int hashes) {
      this.words = words;
      this.hashes = hashes;
    }

    /**
     * False means the item was certainly not in the window.
     *
     * @param item the item
     * @return false if the item was certainly not in the window
     */
    public boolean mightContain(Object item) {
      return test(Hashing.hashObject("bloom", item));
    }

    /**
     * Like {@link #mightContain}, for a long item.
     *
     * @param item the item
     * @return false if the item was certainly not in the window
     */
    public boolean mightContainLong(long item) {
      return test(Hashing.hashLong(item));
    }

    /**
     * Like {@link #mightContain}, for a double item.
     *
     * @param item the item
     * @return false if the item was certainly not in the window
     */
    public boolean mightContainDouble(double item) {
      return test(Hashing.hashDouble(item));
    }

    private boolean test(long h) {
      int m = words.length * 64;
      int h1 = (int) h;
      int h2 = (int) (h >>> 32);
      for (int i = 0; i < hashes; i++) {
        int bit = Math.floorMod(h1 + i * h2, m);
        if ((words[bit >>> 6] & (1L << bit)) == 0) {
          return false;
        }
      }
      return true;
    }

    /**
     * The number of bits set.
     *
     * @return the number of bits set
     */
    public int bitsSet() {
      int c = 0;
      for (long w : words) {
        c += Long.bitCount(w);
      }
      return c;
    }

    /**
     * Swamidass-Baldi estimate of the number of distinct items: -m/k ln(1 - X/m).
     *
     * @return the estimate
     */
    public double estimatedDistinct() {
      double m = words.length * 64.0;
      double x = bitsSet();
      return x >= m ? Double.POSITIVE_INFINITY : -m / hashes * Math.log(1 - x / m);
    }

    /**
     * The filter's bits, 64 per word.
     *
     * @return a copy of the words
     */
    public long[] words() {
      return words.clone();
    }

    @Override
    public Map<String, Object> toMap() {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("bits", words.length * 64);
      r.put("hashes", hashes);
      r.put("bits_set", bitsSet());
      r.put("estimated_distinct", estimatedDistinct());
      return r;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Filter f && f.hashes == hashes && Arrays.equals(f.words, words);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(words);
    }

    @Override
    public String toString() {
      return "Bloom" + toMap();
    }
  }

  /**
   * A filter of {@code bits} bits with {@code hashes} hash functions.
   *
   * @param bits the number of bits, a power of two in 64..2^24
   * @param hashes the number of hash functions, in 1..16
   */
  public Bloom(int bits, int hashes) {
    super("bloom", checkBits(bits) / 64);
    if (hashes < 1 || hashes > 16) {
      throw new SwagException(Kind.INVALID_OPTION, "bloom option 'hashes' must be in 1..16, got " + hashes);
    }
    this.bits = bits;
    this.hashes = hashes;
  }

  private static int checkBits(int bits) {
    if (bits < 64 || bits > (1 << 24) || Integer.bitCount(bits) != 1) {
      throw new SwagException(Kind.INVALID_OPTION, "bloom option 'bits' must be a power of two in 64..2^24, got " + bits);
    }
    return bits;
  }

  /**
   * The number of bits of the filter.
   *
   * @return the number of bits
   */
  public int bits() {
    return bits;
  }

  @Override
  public void identity(long[] a, int o) {
    Arrays.fill(a, o, o + width(), 0L);
  }

  private void set(long h, long[] a, int o) {
    Arrays.fill(a, o, o + width(), 0L);
    int h1 = (int) h;
    int h2 = (int) (h >>> 32);
    for (int i = 0; i < hashes; i++) {
      int bit = (h1 + i * h2) & (bits - 1);
      a[o + (bit >>> 6)] |= 1L << bit;
    }
  }

  @Override
  public void liftDouble(double x, long arg, long[] a, int o) {
    set(Hashing.hashDouble(x), a, o);
  }

  @Override
  public void liftLong(long x, long arg, long[] a, int o) {
    set(Hashing.hashLong(x), a, o);
  }

  @Override
  public void liftObject(Object x, long arg, long[] a, int o) {
    set(Hashing.hashObject("bloom", x), a, o);
  }

  @Override
  public void combine(long[] a, int dst, int older, int newer) {
    int w = width();
    for (int i = 0; i < w; i++) {
      a[dst + i] = a[older + i] | a[newer + i];
    }
  }

  @Override
  public Object lower(long[] a, int o) {
    return new Filter(Arrays.copyOfRange(a, o, o + width()), hashes);
  }

  /** The distinct-count estimate, computed in place (no allocation). */
  @Override
  public double lowerDouble(long[] a, int o) {
    int w = width();
    int x = 0;
    for (int i = 0; i < w; i++) {
      x += Long.bitCount(a[o + i]);
    }
    double m = bits;
    return x >= bits ? Double.POSITIVE_INFINITY : -m / hashes * Math.log(1 - x / m);
  }

  @Override
  public boolean isCommutative() {
    return true;
  }
}

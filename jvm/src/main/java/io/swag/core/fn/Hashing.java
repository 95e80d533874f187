package io.swag.core.fn;

import java.nio.charset.StandardCharsets;
import org.apache.datasketches.hash.XxHash;
import org.apache.datasketches.memory.Memory;

/**
 * 64-bit hashes of inputs for the sketches (XxHash64 from DataSketches). 5 and 5.0 hash alike: an
 * integer (Long, Integer, Short, Byte), a boolean (1 or 0) and a double with an integral value in
 * long range (not -0.0) hash as that long. Other doubles hash their bits, and strings their UTF-8
 * bytes, each with a seed of its own, so the three domains are disjoint: no double is taken for the
 * long with the same bits (0.5 for 4602678819172646912, -0.0 for Long.MIN_VALUE) and no 8-byte
 * string for the long with the same bytes.
 */
final class Hashing {
  private Hashing() {}

  static final long SEED = 0x5A6A_9E37_79B9_7F4AL;
  /** Seed of the bits of non-integral doubles. */
  static final long DOUBLE_SEED = SEED + 1;
  /** Seed of the UTF-8 bytes of strings. */
  static final long STRING_SEED = SEED + 2;

  static long hashLong(long x) {
    return XxHash.hash(x, SEED);
  }

  static long hashDouble(double x) {
    long l = (long) x;
    // (long) saturates: 2^63 and beyond become Long.MAX_VALUE, which compares equal to 2^63 as a double
    if (l == x && x < 0x1p63 && !(x == 0.0 && 1 / x < 0)) {
      return hashLong(l);
    }
    return XxHash.hash(Double.doubleToLongBits(x), DOUBLE_SEED);
  }

  static long hashObject(String function, Object x) {
    if (x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte) {
      return hashLong(((Number) x).longValue());
    }
    if (x instanceof Number) {
      return hashDouble(((Number) x).doubleValue());
    }
    if (x instanceof CharSequence) {
      byte[] b = x.toString().getBytes(StandardCharsets.UTF_8);
      return XxHash.hash(Memory.wrap(b), 0, b.length, STRING_SEED);
    }
    if (x instanceof Boolean) {
      return hashLong(((Boolean) x) ? 1 : 0);
    }
    if (x == null) {
      throw new IllegalArgumentException("function '" + function + "' got a null value");
    }
    throw new IllegalArgumentException("function '" + function + "' takes numbers or strings, got "
        + x.getClass().getSimpleName() + " value " + io.swag.core.Inputs.describe(x));
  }
}

package io.swag.core.fn;

import java.nio.charset.StandardCharsets;
import org.apache.datasketches.hash.XxHash;
import org.apache.datasketches.memory.Memory;

/** 64-bit hashes of inputs for the sketches (XxHash64 from DataSketches). 5 and 5.0 hash alike. */
final class Hashing {
  private Hashing() {}

  static final long SEED = 0x5A6A_9E37_79B9_7F4AL;

  static long hashLong(long x) {
    return XxHash.hash(x, SEED);
  }

  static long hashDouble(double x) {
    long l = (long) x;
    if (l == x && !(x == 0.0 && 1 / x < 0)) {
      return hashLong(l);
    }
    return hashLong(Double.doubleToLongBits(x));
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
      return XxHash.hash(Memory.wrap(b), 0, b.length, SEED);
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

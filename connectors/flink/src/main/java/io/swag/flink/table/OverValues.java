package io.swag.flink.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The byte form of the raw input values of the OVER functions (what a retraction names): a tag byte,
 * then 8 bytes for a {@code Double} or {@code Long}, or a length and UTF-8 bytes for a
 * {@code String}. Used for the values kept beside the partials in the slot chunks and for the
 * pending retractions of an {@link OverAccumulator}.
 */
final class OverValues {
  static final byte DOUBLE = 1, LONG = 2, STRING = 3;

  private OverValues() {}

  /** Bytes {@link #write} puts for {@code v}. */
  static int size(Object v) {
    if (v instanceof Double || v instanceof Long) {
      return 9;
    }
    if (v instanceof String s) {
      return 5 + s.getBytes(StandardCharsets.UTF_8).length; // strings: distinct counts only
    }
    throw unsupported(v);
  }

  static void write(Object v, ByteBuffer out) {
    if (v instanceof Double d) {
      out.put(DOUBLE).putDouble(d);
    } else if (v instanceof Long x) {
      out.put(LONG).putLong(x);
    } else if (v instanceof String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.put(STRING).putInt(b.length).put(b);
    } else {
      throw unsupported(v);
    }
  }

  static Object read(ByteBuffer in) {
    byte tag = in.get();
    switch (tag) {
      case DOUBLE:
        return in.getDouble();
      case LONG:
        return in.getLong();
      case STRING: {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
          throw new OverStateException("a string of " + n + " bytes with " + in.remaining() + " left");
        }
        String s = new String(in.array(), in.arrayOffset() + in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
      }
      default:
        throw new OverStateException("bad value tag " + tag);
    }
  }

  private static IllegalArgumentException unsupported(Object v) {
    return new IllegalArgumentException("an OVER value of type "
        + (v == null ? "null" : v.getClass().getName()) + " (DOUBLE, BIGINT or STRING expected)");
  }
}

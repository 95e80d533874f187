package io.swag.core.plan;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes input rows ({@code Object[]} of null, {@link Double}, {@link Float}, {@link Long},
 * {@link Integer}, {@link Short}, {@link Byte}, {@link Boolean}, {@link String}, {@code byte[]}) to bytes, for engines
 * that keep a key's retained rows in their state store (see {@link KeyWindows}). Rows concatenate:
 * the bytes of several rows appended one after another decode to those rows in order, so appending a
 * record to the rows stored at one time is a byte-array concatenation. Integers decode as
 * {@link Long}, floats as {@link Double}. O(row size) per row.
 */
public final class RowCodec {
  private static final byte NULL = 0;
  private static final byte DOUBLE = 1;
  private static final byte LONG = 2;
  private static final byte BOOLEAN = 3;
  private static final byte STRING = 4;
  private static final byte BYTES = 5;

  private RowCodec() {}

  /**
   * The bytes of one row.
   *
   * @param row the row
   * @return the row's bytes
   */
  public static byte[] encode(Object[] row) {
    Writer w = new Writer(16 + 9 * row.length);
    w.add(row);
    return w.toByteArray();
  }

  /**
   * Appends rows to one growing buffer, in the format of {@link #encode} (big-endian, as
   * {@link java.io.DataOutputStream} writes it), so that a chunk of many rows costs one array
   * instead of a stream and an array per row. Amortized O(row size) per row; allocates only when
   * the buffer grows (doubling) and for the UTF-8 bytes of strings.
   */
  public static final class Writer {
    private static final java.lang.invoke.VarHandle LONGS =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);
    private byte[] buf;
    private int len;

    /**
     * An empty writer.
     *
     * @param capacity the initial buffer size in bytes
     */
    public Writer(int capacity) {
      buf = new byte[Math.max(16, capacity)];
    }

    /**
     * Bytes written so far.
     *
     * @return the number of bytes written
     */
    public int size() {
      return len;
    }

    /** Forgets the rows written, keeping the buffer. */
    public void reset() {
      len = 0;
    }

    /**
     * Forgets what was written after the first {@code size} bytes (a row added since).
     *
     * @param size the number of bytes to keep
     */
    public void truncate(int size) {
      if (size < 0 || size > len) {
        throw new IllegalArgumentException("truncate to " + size + " of " + len + " bytes");
      }
      len = size;
    }

    /**
     * Copies the bytes written into {@code dst} at {@code at}; returns the offset after them.
     *
     * @param dst the destination array
     * @param at the offset in {@code dst}
     * @return the offset after the copied bytes
     */
    public int copyTo(byte[] dst, int at) {
      System.arraycopy(buf, 0, dst, at, len);
      return at + len;
    }

    /**
     * A copy of the bytes written.
     *
     * @return the bytes
     */
    public byte[] toByteArray() {
      return java.util.Arrays.copyOf(buf, len);
    }

    private void ensure(int extra) {
      if (len + extra > buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, len + extra));
      }
    }

    /**
     * Appends {@code row}; throws naming the index and type of a value it cannot store.
     *
     * @param row the row
     */
    public void add(Object[] row) {
      ensure(2 + 9 * row.length);
      buf[len++] = (byte) (row.length >>> 8);
      buf[len++] = (byte) row.length;
      for (int i = 0; i < row.length; i++) {
        Object v = row[i];
        if (v == null) {
          ensure(1);
          buf[len++] = NULL;
        } else if (v instanceof Double || v instanceof Float) {
          putLong(DOUBLE, Double.doubleToRawLongBits(((Number) v).doubleValue()));
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
          putLong(LONG, ((Number) v).longValue());
        } else if (v instanceof Boolean b) {
          ensure(2);
          buf[len++] = BOOLEAN;
          buf[len++] = (byte) (b ? 1 : 0);
        } else if (v instanceof String s) {
          putBytes(STRING, s.getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof byte[] b) {
          putBytes(BYTES, b);
        } else {
          throw new IllegalArgumentException("row[" + i + "]: cannot store a value of type "
              + v.getClass().getName() + " (" + v + ")");
        }
      }
    }

    /** The tag, the length (4 bytes, big-endian) and the bytes. */
    private void putBytes(byte tag, byte[] b) {
      ensure(5 + b.length);
      buf[len++] = tag;
      buf[len++] = (byte) (b.length >>> 24);
      buf[len++] = (byte) (b.length >>> 16);
      buf[len++] = (byte) (b.length >>> 8);
      buf[len++] = (byte) b.length;
      System.arraycopy(b, 0, buf, len, b.length);
      len += b.length;
    }

    private void putLong(byte tag, long bits) {
      ensure(9);
      buf[len++] = tag;
      LONGS.set(buf, len, bits);
      len += 8;
    }
  }

  /**
   * {@code a} followed by {@code b} ({@code a} may be null).
   *
   * @param a the first bytes, or null
   * @param b the bytes to append
   * @return the concatenation
   */
  public static byte[] append(byte[] a, byte[] b) {
    if (a == null || a.length == 0) {
      return b;
    }
    byte[] r = new byte[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /**
   * The rows in {@code bytes}, in order.
   *
   * @param bytes the encoded rows
   * @return the rows
   */
  public static List<Object[]> decode(byte[] bytes) {
    List<Object[]> rows = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
      while (in.available() > 0) {
        Object[] row = new Object[in.readUnsignedShort()];
        for (int i = 0; i < row.length; i++) {
          byte tag = in.readByte();
          row[i] = switch (tag) {
            case NULL -> null;
            case DOUBLE -> in.readDouble();
            case LONG -> in.readLong();
            case BOOLEAN -> in.readBoolean();
            case STRING -> {
              byte[] b = new byte[in.readInt()];
              in.readFully(b);
              yield new String(b, StandardCharsets.UTF_8);
            }
            case BYTES -> {
              byte[] b = new byte[in.readInt()];
              in.readFully(b);
              yield b;
            }
            default -> throw new IllegalArgumentException("corrupt row bytes: tag " + tag);
          };
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}

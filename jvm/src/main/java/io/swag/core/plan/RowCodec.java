package io.swag.core.plan;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes input rows ({@code Object[]} of null, {@link Double}, {@link Float}, {@link Long},
 * {@link Integer}, {@link Short}, {@link Byte}, {@link Boolean}, {@link String}) to bytes, for engines
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

  private RowCodec() {}

  /** The bytes of one row. */
  public static byte[] encode(Object[] row) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 9 * row.length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeShort(row.length);
      for (int i = 0; i < row.length; i++) {
        Object v = row[i];
        if (v == null) {
          out.writeByte(NULL);
        } else if (v instanceof Double || v instanceof Float) {
          out.writeByte(DOUBLE);
          out.writeDouble(((Number) v).doubleValue());
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
          out.writeByte(LONG);
          out.writeLong(((Number) v).longValue());
        } else if (v instanceof Boolean b) {
          out.writeByte(BOOLEAN);
          out.writeBoolean(b);
        } else if (v instanceof String s) {
          out.writeByte(STRING);
          byte[] b = s.getBytes(StandardCharsets.UTF_8);
          out.writeInt(b.length);
          out.write(b);
        } else {
          throw new IllegalArgumentException("row[" + i + "]: cannot store a value of type "
              + v.getClass().getName() + " (" + v + ")");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** {@code a} followed by {@code b} ({@code a} may be null). */
  public static byte[] append(byte[] a, byte[] b) {
    if (a == null || a.length == 0) {
      return b;
    }
    byte[] r = new byte[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** The rows in {@code bytes}, in order. */
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

package io.swag.spark.connect;

import java.nio.charset.StandardCharsets;

/**
 * The messages a swag client puts in a Spark Connect {@code Relation.extension} (a
 * {@code google.protobuf.Any}), read from protobuf wire format by hand: no generated code, and no
 * dependency on the protobuf runtime Spark shades.
 *
 * <pre>
 * google.protobuf.Any   { string type_url = 1; bytes value = 2; }
 * swag.Aggregate        { bytes input = 1;  string query_json = 2;  string options_json = 3; }   // input: a serialized spark.connect.Relation
 * swag.ExecutedPlan     { string metrics_name = 1; }
 * </pre>
 *
 * Invariants: a field this version does not know is skipped (wire types 0, 1, 2 and 5), so a newer
 * client may add fields; a missing string field reads as {@code null}; any malformed input
 * (truncated, a varint over 10 bytes, a length past the end, groups) is an
 * {@link IllegalArgumentException} naming the message and the offset.
 */
public final class SwagPayload {
  /** The type URL of a {@code swag.Aggregate}. */
  public static final String AGGREGATE_TYPE = "type.googleapis.com/swag.Aggregate";
  /** The type URL of a {@code swag.ExecutedPlan}. */
  public static final String EXECUTED_PLAN_TYPE = "type.googleapis.com/swag.ExecutedPlan";

  private SwagPayload() {}

  /** A {@code google.protobuf.Any}. */
  public record AnyMessage(String typeUrl, byte[] value) {}

  /** A {@code swag.Aggregate}: the child relation's bytes, the query and the options JSON. */
  public record Aggregate(byte[] input, String queryJson, String optionsJson) {}

  /**
   * Reads a {@code google.protobuf.Any}.
   *
   * @param bytes the message in wire format
   * @return the message
   */
  public static AnyMessage parseAny(byte[] bytes) {
    Fields f = Fields.parse("google.protobuf.Any", bytes, 2);
    return new AnyMessage(f.string(1), f.bytes[2] == null ? new byte[0] : f.bytes[2]);
  }

  /**
   * Reads a {@code swag.Aggregate}; absent options read as {@code "{}"}.
   *
   * @param bytes the message in wire format
   * @return the message
   * @throws IllegalArgumentException if the input or the query is missing, or the message is malformed
   */
  public static Aggregate parseAggregate(byte[] bytes) {
    Fields f = Fields.parse("swag.Aggregate", bytes, 3);
    if (f.bytes[1] == null) {
      throw new IllegalArgumentException("swag.Aggregate without its input relation (field 1)");
    }
    if (f.bytes[2] == null) {
      throw new IllegalArgumentException("swag.Aggregate without its query (field 2)");
    }
    String options = f.string(3);
    return new Aggregate(f.bytes[1], f.string(2), options == null ? "{}" : options);
  }

  /**
   * The metrics name of a {@code swag.ExecutedPlan} ({@code "swag"} if absent).
   *
   * @param bytes the message in wire format
   * @return the metrics name
   */
  public static String parseExecutedPlan(byte[] bytes) {
    String name = Fields.parse("swag.ExecutedPlan", bytes, 1).string(1);
    return name == null ? "swag" : name;
  }

  /** The last value of each length-delimited field numbered 1..max of one message. */
  private static final class Fields {
    final byte[][] bytes;
    private final byte[] in;
    private final String message;
    private int pos;

    private Fields(String message, byte[] in, int max) {
      this.message = message;
      this.in = in;
      this.bytes = new byte[max + 1][];
    }

    static Fields parse(String message, byte[] in, int max) {
      Fields f = new Fields(message, in, max);
      while (f.pos < in.length) {
        long tag = f.varint();
        int field = (int) (tag >>> 3);
        int wire = (int) (tag & 7);
        if (field == 0) {
          throw f.malformed("field number 0");
        }
        switch (wire) {
          case 0 -> f.varint();
          case 1 -> f.skip(8);
          case 5 -> f.skip(4);
          case 2 -> {
            long n = f.varint();
            if (n < 0 || n > in.length - f.pos) {
              throw f.malformed("length " + n + " past the end");
            }
            int len = (int) n;
            if (field <= max) {
              f.bytes[field] = java.util.Arrays.copyOfRange(in, f.pos, f.pos + len);
            }
            f.pos += len;
          }
          default -> throw f.malformed("wire type " + wire + " of field " + field);
        }
      }
      return f;
    }

    String string(int field) {
      return bytes[field] == null ? null : new String(bytes[field], StandardCharsets.UTF_8);
    }

    private long varint() {
      long v = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        if (pos >= in.length) {
          throw malformed("truncated varint");
        }
        byte b = in[pos++];
        v |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw malformed("varint longer than 10 bytes");
    }

    private void skip(int n) {
      if (n > in.length - pos) {
        throw malformed("truncated fixed-width field");
      }
      pos += n;
    }

    private IllegalArgumentException malformed(String what) {
      return new IllegalArgumentException("malformed " + message + " payload at byte " + pos + ": " + what);
    }
  }
}

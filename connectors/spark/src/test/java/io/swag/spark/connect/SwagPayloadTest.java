package io.swag.spark.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The wire format, on bytes written out by hand (tag = field number << 3 | wire type). */
class SwagPayloadTest {
  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      o.writeBytes(p);
    }
    return o.toByteArray();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void readsAnAggregateInsideAnAny() {
    // swag.Aggregate { input = 0x08 0x01; query_json = "{}"; options_json = "{\"late\":\"keep\"}" }
    byte[] options = ascii("{\"late\":\"keep\"}"); // 15 bytes
    byte[] agg = concat(bytes(0x0a, 2, 0x08, 0x01), bytes(0x12, 2), ascii("{}"), bytes(0x1a, 15), options);
    byte[] url = ascii(SwagPayload.AGGREGATE_TYPE); // 34 bytes
    byte[] any = concat(bytes(0x0a, url.length), url, bytes(0x12, agg.length), agg);
    SwagPayload.AnyMessage a = SwagPayload.parseAny(any);
    assertEquals("type.googleapis.com/swag.Aggregate", a.typeUrl());
    SwagPayload.Aggregate g = SwagPayload.parseAggregate(a.value());
    assertArrayEquals(bytes(0x08, 0x01), g.input());
    assertEquals("{}", g.queryJson());
    assertEquals("{\"late\":\"keep\"}", g.optionsJson());
  }

  @Test
  void skipsUnknownFieldsOfEveryWireTypeAndReadsMultiByteLengths() {
    byte[] query = new byte[200];
    java.util.Arrays.fill(query, (byte) 'q');
    byte[] agg = concat(
        bytes(0x20, 0x96, 0x01),                 // field 4, varint 150
        bytes(0x29, 1, 2, 3, 4, 5, 6, 7, 8),     // field 5, fixed64
        bytes(0x35, 1, 2, 3, 4),                 // field 6, fixed32
        bytes(0x3a, 1, 'x'),                     // field 7, bytes
        bytes(0x0a, 0),                          // input: empty
        bytes(0x12, 0xc8, 0x01), query);         // query_json: 200 bytes (length as a 2-byte varint)
    SwagPayload.Aggregate g = SwagPayload.parseAggregate(agg);
    assertEquals(0, g.input().length);
    assertEquals(new String(query, StandardCharsets.US_ASCII), g.queryJson());
    assertEquals("{}", g.optionsJson(), "no options: the empty object");
  }

  @Test
  void executedPlanNameDefaultsToSwag() {
    assertEquals("m1", SwagPayload.parseExecutedPlan(concat(bytes(0x0a, 2), ascii("m1"))));
    assertEquals("swag", SwagPayload.parseExecutedPlan(new byte[0]));
  }

  @Test
  void malformedPayloadsAreIllegalArguments() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SwagPayload.parseAggregate(bytes(0x0a, 5, 1, 2)));
    assertTrue(e.getMessage().contains("swag.Aggregate") && e.getMessage().contains("past the end"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SwagPayload.parseAny(bytes(0x0a, 0x80)));      // truncated varint
    assertThrows(IllegalArgumentException.class, () -> SwagPayload.parseAny(bytes(0x0b)));            // group start
    assertThrows(IllegalArgumentException.class, () -> SwagPayload.parseAggregate(bytes(0x12, 0)));   // no input
    assertThrows(IllegalArgumentException.class, () -> SwagPayload.parseAggregate(bytes(0x0a, 0)));   // no query
  }

  @Test
  void anotherExtensionTypeIsNotOurs() {
    byte[] url = ascii("type.googleapis.com/other.Thing");
    byte[] any = concat(bytes(0x0a, url.length), url, bytes(0x12, 0));
    assertTrue(new SwagRelationPlugin().transform(any, null).isEmpty());
  }
}

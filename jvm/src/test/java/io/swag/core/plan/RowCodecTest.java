package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowCodecTest {
  @Test
  void rowsRoundTripAndConcatenate() {
    Random rnd = new Random(7);
    byte[] all = null;
    Object[][] rows = new Object[200][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new Object[] {"k" + rnd.nextInt(5), rnd.nextLong(), rnd.nextDouble(), null, rnd.nextBoolean(),
          "ünïcode " + i, Double.NaN, -0.0};
      all = RowCodec.append(all, RowCodec.encode(rows[i]));
    }
    List<Object[]> back = RowCodec.decode(all);
    assertEquals(rows.length, back.size());
    for (int i = 0; i < rows.length; i++) {
      assertArrayEquals(rows[i], back.get(i), "row " + i);
    }
  }

  @Test
  void narrowNumbersWidenAndUnknownTypesAreNamed() {
    Object[] back = RowCodec.decode(RowCodec.encode(new Object[] {3, 2.5f, (short) 4})).get(0);
    assertArrayEquals(new Object[] {3L, 2.5, 4L}, back);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RowCodec.encode(new Object[] {1L, new java.util.Date(0)}));
    assertTrue(e.getMessage().contains("row[1]") && e.getMessage().contains("java.util.Date"), e.getMessage());
  }

  /** The format as {@link java.io.DataOutputStream} writes it (the codec's first implementation). */
  private static byte[] reference(Object[] row) throws java.io.IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
    out.writeShort(row.length);
    for (Object v : row) {
      if (v == null) {
        out.writeByte(0);
      } else if (v instanceof Double || v instanceof Float) {
        out.writeByte(1);
        out.writeDouble(((Number) v).doubleValue());
      } else if (v instanceof Boolean b) {
        out.writeByte(3);
        out.writeBoolean(b);
      } else if (v instanceof String str) {
        byte[] b = str.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeByte(4);
        out.writeInt(b.length);
        out.write(b);
      } else {
        out.writeByte(2);
        out.writeLong(((Number) v).longValue());
      }
    }
    out.flush();
    return bytes.toByteArray();
  }

  @Test
  void writerMatchesTheStreamFormatAcrossGrowth() throws java.io.IOException {
    Random rnd = new Random(11);
    RowCodec.Writer w = new RowCodec.Writer(1); // grows many times
    java.io.ByteArrayOutputStream want = new java.io.ByteArrayOutputStream();
    Object[][] rows = new Object[5_000][];
    for (int i = 0; i < rows.length; i++) {
      Object[] r = new Object[rnd.nextInt(7)];
      for (int j = 0; j < r.length; j++) {
        r[j] = switch (rnd.nextInt(8)) {
          case 0 -> null;
          case 1 -> rnd.nextLong();
          case 2 -> rnd.nextGaussian() * 1e300;
          case 3 -> rnd.nextBoolean();
          case 4 -> "s\u00e9\u4e2d\ud83d\ude00".repeat(rnd.nextInt(300)); // up to 3 kB, 1-4 byte chars
          case 5 -> rnd.nextInt();
          case 6 -> new double[] {Double.NaN, -0.0, Double.NEGATIVE_INFINITY, Double.MIN_VALUE}[rnd.nextInt(4)];
          default -> Long.MIN_VALUE;
        };
      }
      rows[i] = r;
      w.add(r);
      want.write(reference(r));
      assertArrayEquals(reference(r), RowCodec.encode(r), "row " + i);
    }
    assertEquals(want.size(), w.size());
    assertArrayEquals(want.toByteArray(), w.toByteArray());
    List<Object[]> back = RowCodec.decode(w.toByteArray());
    assertEquals(rows.length, back.size());
    for (int i = 0; i < rows.length; i++) {
      for (int j = 0; j < rows[i].length; j++) {
        Object v = rows[i][j] instanceof Integer x ? (Object) x.longValue() : rows[i][j];
        assertEquals(v, back.get(i)[j], "row " + i + " column " + j);
      }
    }
    w.reset();
    assertEquals(0, w.size());
    w.add(new Object[] {1L});
    assertArrayEquals(RowCodec.encode(new Object[] {1L}), w.toByteArray());
  }
}

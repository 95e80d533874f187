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
}

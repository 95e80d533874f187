package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import io.swag.core.fn.Functions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte form of partials ({@link Partials#write} / {@link Partials#read}) and
 * {@link ProductFunction#isMergeable}, which the Spark connector's pre-aggregation relies on.
 */
class PartialBytesTest {
  private static final List<String> MERGEABLE = List.of("count", "sum", "mean", "geomean", "variance", "stddev",
      "min", "max", "mincount", "maxcount", "bloom", "countmin");
  private static final List<String> NOT_MERGEABLE = List.of("collect", "first", "last", "argmin", "argmax", "m4",
      "hll", "kll");

  private static ProductFunction product(List<String> names) {
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    for (String n : names) {
      fns.add(Functions.byName(n));
    }
    return new ProductFunction(fns);
  }

  @Test
  void mergeableIsExactlyTheCommutativeFunctionsWithPrimitivePartials() {
    for (String n : MERGEABLE) {
      assertTrue(product(List.of(n)).isMergeable(), n);
    }
    for (String n : NOT_MERGEABLE) {
      assertFalse(product(List.of(n)).isMergeable(), n);
      List<String> mixed = new ArrayList<>(MERGEABLE);
      mixed.add(n);
      assertFalse(product(mixed).isMergeable(), "all mergeable but " + n);
    }
    assertTrue(product(MERGEABLE).isMergeable());
  }

  /**
   * Random values cut into random pieces; each piece aggregated, written to bytes and read back into
   * a fresh store; the pieces combined in shuffled order lower to the in-order aggregate of all
   * values (relative 1e-12: sums of doubles in another order), and a read partial writes the same bytes.
   */
  @Test
  void piecesThroughBytesCombineToTheWhole() {
    ProductFunction f = product(MERGEABLE);
    int k = MERGEABLE.size();
    Random rnd = new Random(11);
    for (int trial = 0; trial < 50; trial++) {
      int n = 1 + rnd.nextInt(300);
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(4) : 0.5 + rnd.nextDouble() * 100; // ties for mincount/maxcount; > 0 for geomean
      }
      ProductPartials whole = (ProductPartials) f.newPartials();
      whole.resize(2);
      List<byte[]> pieces = new ArrayList<>();
      ProductPartials piece = (ProductPartials) f.newPartials();
      piece.resize(2);
      int from = 0;
      while (from < n) {
        int to = Math.min(n, from + 1 + rnd.nextInt(40));
        for (int i = from; i < to; i++) {
          Object[] in = new Object[k];
          java.util.Arrays.fill(in, v[i]);
          lift(whole, i == 0 ? 0 : 1, in, i);
          if (i > 0) {
            whole.combine(0, 0, 1);
          }
          lift(piece, i == from ? 0 : 1, in, i);
          if (i > from) {
            piece.combine(0, 0, 1);
          }
        }
        byte[] b = piece.lifted(0).bytes();
        assertEquals(piece.serializedSize(), b.length);
        pieces.add(b);
        from = to;
      }
      Collections.shuffle(pieces, rnd);
      ProductPartials merged = (ProductPartials) f.newPartials();
      merged.resize(2);
      merged.liftObject(0, new ProductFunction.Lifted(pieces.get(0)), 0);
      assertArrayEquals(pieces.get(0), merged.lifted(0).bytes(), "read then written: the same bytes");
      for (int i = 1; i < pieces.size(); i++) {
        merged.liftObject(1, new ProductFunction.Lifted(pieces.get(i)), 0);
        merged.combine(0, 0, 1);
      }
      List<?> want = (List<?>) whole.lower(0);
      List<?> got = (List<?>) merged.lower(0);
      for (int j = 0; j < k; j++) {
        Object w = want.get(j);
        Object g = got.get(j);
        if (w instanceof Double wd && g instanceof Double gd && wd.isNaN()) {
          assertTrue(gd.isNaN(), MERGEABLE.get(j) + " trial " + trial + ": " + gd); // stddev of one value
        } else if (w instanceof Double wd && g instanceof Double gd) {
          assertEquals(wd, gd, 1e-12 * Math.max(1, Math.abs(wd)), MERGEABLE.get(j) + " trial " + trial);
        } else {
          assertEquals(String.valueOf(w), String.valueOf(g), MERGEABLE.get(j) + " trial " + trial);
        }
      }
    }
  }

  private static void lift(ProductPartials p, int slot, Object[] in, long t) {
    p.liftObject(slot, in, t);
  }

  @Test
  void objectPartialsHaveNoByteFormAndSaySo() {
    ProductPartials p = (ProductPartials) product(List.of("max", "collect")).newPartials();
    p.resize(1);
    assertEquals(-1, p.serializedSize());
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> p.lifted(0));
    assertTrue(e.getMessage().contains("no byte form"), e.getMessage());
  }

  @Test
  void rowCodecCarriesBytes() {
    byte[] partial = {1, -2, 3, 0, 127};
    Object[] back = RowCodec.decode(RowCodec.encode(new Object[] {42L, partial, new byte[0]})).get(0);
    assertEquals(42L, back[0]);
    assertArrayEquals(partial, (byte[]) back[1]);
    assertArrayEquals(new byte[0], (byte[]) back[2]);
  }
}

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
 * The byte form of partials ({@link Partials#write} / {@link Partials#read}), fixed (primitive
 * partials) and varying (sketches), and
 * {@link ProductFunction#isMergeable}, which the Spark connector's pre-aggregation relies on.
 */
class PartialBytesTest {
  private static final List<String> MERGEABLE = List.of("count", "sum", "mean", "geomean", "variance", "stddev",
      "min", "max", "mincount", "maxcount", "bloom", "countmin");
  /** Sketches: object partials with a byte form of varying size ({@link io.swag.core.ByteForm}). */
  private static final List<String> SKETCHES = List.of("hll", "kll");
  private static final List<String> NOT_MERGEABLE = List.of("collect", "first", "last", "argmin", "argmax", "m4");

  private static ProductFunction product(List<String> names) {
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    for (String n : names) {
      fns.add(Functions.byName(n));
    }
    return new ProductFunction(fns);
  }

  @Test
  void mergeableIsExactlyTheCommutativeFunctionsWithAByteForm() {
    for (String n : MERGEABLE) {
      assertTrue(product(List.of(n)).isMergeable(), n);
    }
    for (String n : SKETCHES) {
      assertTrue(product(List.of(n)).isMergeable(), n);
      List<String> mixed = new ArrayList<>(MERGEABLE);
      mixed.add(n);
      assertTrue(product(mixed).isMergeable(), "all mergeable and " + n);
      assertEquals(-1, product(mixed).newPartials().serializedSize(), "no fixed size with " + n);
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
      List<byte[]> pieces = cut(f, whole, v, k, 40, rnd);
      for (byte[] b : pieces) {
        assertEquals(whole.serializedSize(), b.length, "a fixed size");
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

  /**
   * Aggregates {@code v} (each value fed to all {@code k} functions, at time = index) in order into
   * slot 0 of {@code whole}, and in pieces of 1..maxPiece values; returns the pieces' byte forms,
   * each checked to be {@code serializedSize(slot)} long.
   */
  private static List<byte[]> cut(ProductFunction f, ProductPartials whole, double[] v, int k, int maxPiece, Random rnd) {
    whole.resize(2);
    ProductPartials piece = (ProductPartials) f.newPartials();
    piece.resize(2);
    List<byte[]> pieces = new ArrayList<>();
    int n = v.length;
    int from = 0;
    while (from < n) {
      int to = Math.min(n, from + 1 + rnd.nextInt(maxPiece));
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
      assertEquals(piece.serializedSize(0), b.length);
      pieces.add(b);
      from = to;
    }
    return pieces;
  }

  private static void lift(ProductPartials p, int slot, Object[] in, long t) {
    p.liftObject(slot, in, t);
  }

  /**
   * Sketches through bytes: random values with many repeats cut into random pieces, each aggregated
   * (with max and count beside the sketches, so fixed and varying forms interleave), written, read
   * back and combined in shuffled order. hll: the same registers as the whole, so the same estimate
   * to the last bit; kll: the same n, min and max, and every quantile of ranks 0.05..0.95 within
   * twice the sketch's normalized rank error of its exact rank. A partial read, written and read
   * again gives the same results.
   */
  @Test
  void sketchPiecesThroughBytesCombineToTheWhole() {
    List<String> names = List.of("max", "hll", "count", "kll");
    ProductFunction f = product(names);
    Random rnd = new Random(23);
    double eps = org.apache.datasketches.kll.KllSketch.getNormalizedRankError(200, false);
    for (int trial = 0; trial < 30; trial++) {
      int n = 1 + rnd.nextInt(trial < 10 ? 50 : 20_000); // small: hll's list/set modes; large: hll mode, kll compactions
      int distinct = 1 + rnd.nextInt(Math.max(1, n));
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = rnd.nextInt(distinct);
      }
      ProductPartials whole = (ProductPartials) f.newPartials();
      List<byte[]> pieces = cut(f, whole, v, names.size(), Math.max(1, n / 5), rnd);
      Collections.shuffle(pieces, rnd);
      ProductPartials merged = (ProductPartials) f.newPartials();
      merged.resize(2);
      merged.liftObject(0, new ProductFunction.Lifted(pieces.get(0)), 0);
      // read then written: the same length and the same results (the layout may differ: a hash set's order)
      byte[] again = merged.lifted(0).bytes();
      assertEquals(pieces.get(0).length, again.length, "read then written: the same length");
      ProductPartials twice = (ProductPartials) f.newPartials();
      twice.resize(1);
      twice.liftObject(0, new ProductFunction.Lifted(again), 0);
      assertEquals(String.valueOf(merged.lower(0)), String.valueOf(twice.lower(0)), "read, written, read: the same results");
      for (int i = 1; i < pieces.size(); i++) {
        merged.liftObject(1, new ProductFunction.Lifted(pieces.get(i)), 0);
        merged.combine(0, 0, 1);
      }
      String at = "trial " + trial + " (n " + n + ", " + pieces.size() + " pieces)";
      List<?> want = (List<?>) whole.lower(0);
      List<?> got = (List<?>) merged.lower(0);
      assertEquals(want.get(0), got.get(0), "max " + at);
      assertEquals(want.get(2), got.get(2), "count " + at);
      assertEquals((Double) want.get(1), (Double) got.get(1), 0.0, "hll " + at);
      long exactDistinct = java.util.Arrays.stream(v).distinct().count();
      assertEquals(exactDistinct, (Double) got.get(1), Math.max(1, 0.06 * exactDistinct), "hll vs exact " + at);
      io.swag.core.fn.Kll.Quantiles q = (io.swag.core.fn.Kll.Quantiles) got.get(3);
      assertEquals(n, q.n(), "kll n " + at);
      double[] sorted = v.clone();
      java.util.Arrays.sort(sorted);
      assertEquals(sorted[0], q.quantile(0), "kll min " + at);
      assertEquals(sorted[n - 1], q.quantile(1), "kll max " + at);
      for (double r = 0.05; r < 0.96; r += 0.05) {
        double x = q.quantile(r);
        double lo = lowerBound(sorted, x) / (double) n; // exact rank range of x: [lo, hi]
        double hi = upperBound(sorted, x) / (double) n;
        assertTrue(r >= lo - 2 * eps && r <= hi + 2 * eps,
            "kll quantile " + r + " = " + x + " has exact rank [" + lo + ", " + hi + "] " + at);
      }
    }
  }

  private static int lowerBound(double[] sorted, double x) {
    int i = java.util.Arrays.binarySearch(sorted, x);
    if (i < 0) {
      return -i - 1;
    }
    while (i > 0 && sorted[i - 1] == x) {
      i--;
    }
    return i;
  }

  private static int upperBound(double[] sorted, double x) {
    int i = java.util.Arrays.binarySearch(sorted, x);
    if (i < 0) {
      return -i - 1;
    }
    while (i < sorted.length && sorted[i] == x) {
      i++;
    }
    return i;
  }

  @Test
  void aSketchPartialOfAnotherSizeOrCutShortIsRefused() {
    ProductPartials small = (ProductPartials) product(List.of("hll")).newPartials();
    small.resize(1);
    small.liftObject(0, new Object[] {1.0}, 0);
    byte[] b = small.lifted(0).bytes();
    ProductPartials big = (ProductPartials) new ProductFunction(List.of(Functions.byName("hll",
        java.util.Map.of("lgK", 14)))).newPartials();
    big.resize(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> big.liftObject(0, new ProductFunction.Lifted(b), 0));
    assertTrue(e.getMessage().contains("lgK 12") && e.getMessage().contains("lgK 14"), e.getMessage());
    byte[] cut = java.util.Arrays.copyOf(b, b.length - 1);
    e = assertThrows(IllegalArgumentException.class, () -> small.liftObject(0, new ProductFunction.Lifted(cut), 0));
    assertTrue(e.getMessage().contains("'hll'") && e.getMessage().contains("bytes"), e.getMessage());
    byte[] longer = java.util.Arrays.copyOf(b, b.length + 3);
    e = assertThrows(IllegalArgumentException.class, () -> small.liftObject(0, new ProductFunction.Lifted(longer), 0));
    assertTrue(e.getMessage().contains("3 bytes left over"), e.getMessage());
    byte[] corrupt = b.clone();
    corrupt[4 + 1] = 99; // the sketch's serial version, behind the 4-byte length
    e = assertThrows(IllegalArgumentException.class, () -> small.liftObject(0, new ProductFunction.Lifted(corrupt), 0));
    assertTrue(e.getMessage().contains("does not read back"), e.getMessage());
    ProductPartials max = (ProductPartials) product(List.of("max", "count")).newPartials();
    max.resize(1);
    e = assertThrows(IllegalArgumentException.class, () -> max.liftObject(0, new ProductFunction.Lifted(new byte[9]), 0));
    assertTrue(e.getMessage().contains("cut short"), e.getMessage());
  }

  @Test
  void objectPartialsHaveNoByteFormAndSaySo() {
    ProductPartials p = (ProductPartials) product(List.of("max", "collect")).newPartials();
    p.resize(1);
    assertFalse(p.hasByteForm());
    assertEquals(-1, p.serializedSize());
    assertEquals(-1, p.serializedSize(0));
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

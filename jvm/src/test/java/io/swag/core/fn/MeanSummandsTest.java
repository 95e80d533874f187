package io.swag.core.fn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Mean#summands()} against the mean's own kernels on width-2 partials: the lifted summand is
 * the second double of the mean's lift, combine adds as the mean's combine adds its second doubles,
 * and lowering {@code s} with a count {@code c} gives what the mean lowers {@code (c, s)} to, to the
 * bit, on seeded inputs; the errors are the mean's.
 */
class MeanSummandsTest {

  @ParameterizedTest
  @ValueSource(strings = {"mean", "geomean"})
  void sameBitsAsTheMeansKernels(String name) {
    Mean mean = (Mean) Functions.byName(name);
    ScalarDoubleFunction s = mean.summands();
    assertSame(mean, s.windowFunction());
    assertEquals(name, s.name());
    assertEquals(1, s.width());
    boolean geo = name.equals("geomean");
    SplittableRandom r = new SplittableRandom(0x5A11L ^ name.hashCode());
    double[] a = new double[6];
    for (int i = 0; i < 100_000; i++) {
      double x = geo ? Math.exp(r.nextDouble(-700, 700)) : r.nextDouble(-1e6, 1e6);
      double y = r.nextInt(8) == 0 ? (geo ? r.nextInt(1, 100) : -0.0) : geo ? r.nextDouble(1e-300, 1e300) : r.nextDouble(-1e3, 1e3);
      long arg = r.nextLong();
      mean.lift(x, arg, a, 0);
      mean.lift(y, arg, a, 2);
      double sx = s.liftValue(x, arg);
      double sy = s.liftValue(y, arg);
      // the lift written out here: the value (-0.0 as 0.0) or its logarithm, and a count of one
      double ex = geo ? Math.log(x) : x + 0.0;
      double ey = geo ? Math.log(y) : y + 0.0;
      assertEquals(Double.doubleToRawLongBits(ex), Double.doubleToRawLongBits(sx), "lift " + x);
      assertEquals(Double.doubleToRawLongBits(ey), Double.doubleToRawLongBits(sy), "lift " + y);
      assertEquals(Double.doubleToRawLongBits(ex), Double.doubleToRawLongBits(a[1]), "mean lift " + x);
      assertEquals(Double.doubleToRawLongBits(ey), Double.doubleToRawLongBits(a[3]), "mean lift " + y);
      assertEquals(1.0, a[0]);
      mean.combine(a, 4, 0, 2);
      double sxy = s.combineValues(sx, sy);
      assertEquals(Double.doubleToRawLongBits(a[5]), Double.doubleToRawLongBits(sxy), "combine");
      // a partial of c values (c exact as a double, as a window's size is)
      long c = 1 + r.nextInt(1 << 22);
      a[4] = c;
      assertEquals(Double.doubleToRawLongBits(mean.lowerDouble(a, 4)), Double.doubleToRawLongBits(s.lowerDoubleValue(sxy, c)));
      assertEquals(mean.lower(a, 4), s.lowerValue(sxy, c));
      assertArrayEquals(new double[] {a[4], a[5]}, s.windowPartial(sxy, c));
    }
    mean.identity(a, 0);
    assertEquals(a[1], s.identityValue());
    assertTrue(Double.isNaN(s.lowerDoubleValue(s.identityValue(), 0)));
    assertEquals(mean.lower(a, 0), s.lowerValue(s.identityValue(), 0));
    assertArrayEquals(new double[] {a[0], a[1]}, s.windowPartial(s.identityValue(), 0));
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, -0.0, -1.0, Double.NEGATIVE_INFINITY, -Double.MIN_VALUE})
  void geomeanRefusesWhatTheMeanRefuses(double x) {
    Mean mean = (Mean) Functions.byName("geomean");
    String want = "function 'geomean' takes positive numbers, got " + x;
    assertEquals(want, assertThrows(IllegalArgumentException.class, () -> mean.lift(x, 0, new double[2], 0)).getMessage());
    assertEquals(want, assertThrows(IllegalArgumentException.class, () -> mean.summands().liftValue(x, 0)).getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mean", "geomean"})
  void summandsRefuseToLowerWithoutACount(String name) {
    ScalarDoubleFunction s = ((Mean) Functions.byName(name)).summands();
    assertThrows(UnsupportedOperationException.class, () -> s.lowerDoubleValue(1.0));
    assertThrows(UnsupportedOperationException.class, () -> s.lowerValue(1.0));
  }
}

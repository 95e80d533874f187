package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Arithmetic mean ({@code geometric = false}) or geometric mean ({@code geometric = true}, the
 * papers' "geomean": lift takes a logarithm, lower an exponential). Partial: (count, sum) or
 * (count, sum of logs). Commutative, invertible. Empty window: NaN. A zero mean is 0.0 (lift maps
 * -0.0 to 0.0, as {@link Sum} does).
 */
public final class Mean extends DoubleFunction {
  private final boolean geometric;

  /**
   * The arithmetic or the geometric mean.
   *
   * @param geometric true for the geometric mean
   */
  public Mean(boolean geometric) {
    super(geometric ? "geomean" : "mean", 2);
    this.geometric = geometric;
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = 0;
    a[o + 1] = 0;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    if (geometric && !(x > 0)) {
      throw new IllegalArgumentException("function 'geomean' takes positive numbers, got " + x);
    }
    a[o] = 1;
    a[o + 1] = geometric ? Math.log(x) : x + 0.0; // as in Sum: -0.0 counts as 0.0
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    double n = a[older] + a[newer];
    double s = a[older + 1] + a[newer + 1];
    a[dst] = n;
    a[dst + 1] = s;
  }

  @Override
  public void inverse(double[] a, int dst, int whole, int older) {
    double n = a[whole] - a[older];
    double s = a[whole + 1] - a[older + 1];
    a[dst] = n;
    a[dst + 1] = n == 0 ? 0 : s;
  }

  @Override
  public Object lower(double[] a, int o) {
    return lowerDouble(a, o);
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    if (a[o] == 0) {
      return Double.NaN;
    }
    double m = a[o + 1] / a[o];
    return geometric ? Math.exp(m) : m;
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }

  @Override
  public int combineCost() {
    return 2;
  }
}

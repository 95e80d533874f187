package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Minimum ({@code max = false}) or maximum of doubles. Commutative, not invertible. The identity is
 * NaN (inputs are never NaN), so infinities are ordinary values. Empty window: null / NaN. -0.0 and
 * 0.0 are one value, as in mincount/maxcount: lift maps -0.0 to 0.0, so a zero result is 0.0
 * whatever the order (with both zeros kept, the older of the two equal operands would decide).
 */
public final class MinMax extends DoubleFunction {
  private final boolean max;

  /**
   * The minimum or the maximum.
   *
   * @param max true for {@code max}, false for {@code min}
   */
  public MinMax(boolean max) {
    super(max ? "max" : "min", 1);
    this.max = max;
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = Double.NaN;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o] = x + 0.0; // -0.0 + 0.0 == 0.0; every other x unchanged
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    double x = a[older], y = a[newer];
    a[dst] = (x != x || (max ? y > x : y < x)) ? y : x;
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o] != a[o] ? null : a[o];
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    return a[o];
  }

  @Override
  public boolean isCommutative() {
    return true;
  }
}

package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Minimum ({@code max = false}) or maximum of doubles. Commutative, not invertible. The identity is
 * NaN (inputs are never NaN), so infinities are ordinary values. Empty window: null / NaN.
 */
public final class MinMax extends DoubleFunction {
  private final boolean max;

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
    a[o] = x;
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

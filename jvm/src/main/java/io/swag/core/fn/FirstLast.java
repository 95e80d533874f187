package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * The oldest ({@code last = false}) or newest value of the window. Not commutative. One double per
 * partial, NaN meaning "empty" (inputs are never NaN). Empty window: null / NaN.
 */
public final class FirstLast extends DoubleFunction {
  private final boolean last;

  /**
   * The oldest or the newest value.
   *
   * @param last true for the newest value, false for the oldest
   */
  public FirstLast(boolean last) {
    super(last ? "last" : "first", 1);
    this.last = last;
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
    a[dst] = last ? (y != y ? x : y) : (x != x ? y : x);
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o] != a[o] ? null : a[o];
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    return a[o];
  }
}

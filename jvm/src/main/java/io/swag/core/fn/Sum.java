package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Sum of doubles. Commutative, invertible; one double per partial. Lift maps -0.0 to 0.0, so that
 * the identity 0.0 is one for every input and a zero sum is 0.0 whatever the order and grouping.
 */
public final class Sum extends DoubleFunction {
  /** The sum function. */
  public Sum() {
    super("sum", 1);
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = 0.0;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o] = x + 0.0; // -0.0 + 0.0 == 0.0; every other x unchanged
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    a[dst] = a[older] + a[newer];
  }

  @Override
  public void inverse(double[] a, int dst, int whole, int older) {
    a[dst] = a[whole] - a[older];
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o];
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    return a[o];
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }
}

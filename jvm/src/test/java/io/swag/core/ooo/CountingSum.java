package io.swag.core.ooo;

import io.swag.core.DoubleFunction;

/**
 * An instrumented sum that counts its combine calls (the pattern of the fifo tests' CountingSum):
 * every {@code Partials.combine} of the trees goes through {@link #combine}, copies do not.
 */
final class CountingSum extends DoubleFunction {
  long combines;

  CountingSum() {
    super("counting_sum", 1);
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = 0;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o] = x;
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    combines++;
    a[dst] = a[older] + a[newer];
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o];
  }

  /** Combines since the last call. */
  long take() {
    long c = combines;
    combines = 0;
    return c;
  }
}

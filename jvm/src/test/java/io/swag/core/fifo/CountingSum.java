package io.swag.core.fifo;

import io.swag.core.DoubleFunction;

/** A non-commutative-safe instrumented sum that counts its combine and inverse calls. */
final class CountingSum extends DoubleFunction {
  long combines;
  long inverses;

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
  public void inverse(double[] a, int dst, int whole, int older) {
    inverses++;
    a[dst] = a[whole] - a[older];
  }

  @Override
  public boolean isInvertible() {
    return true;
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o];
  }

  long take() {
    long c = combines + inverses;
    combines = 0;
    inverses = 0;
    return c;
  }
}

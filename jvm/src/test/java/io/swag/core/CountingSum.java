package io.swag.core;

/**
 * An instrumented sum that counts its combine and inverse calls (shared by the fifo and ooo cost
 * tests): every {@code Partials.combine} goes through {@link #combine}; copies do not.
 */
public final class CountingSum extends DoubleFunction {
  public long combines;
  public long inverses;

  public CountingSum() {
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

  /** Combines and inverses since the last call. */
  public long take() {
    long c = combines + inverses;
    combines = 0;
    inverses = 0;
    return c;
  }
}

package io.swag.core.fn;

import io.swag.core.LongFunction;

/** Number of inputs (of any type, nulls included). Commutative, invertible; one long per partial. */
public final class Count extends LongFunction {
  /** The count function. */
  public Count() {
    super("count", 1);
  }

  @Override
  public void identity(long[] a, int o) {
    a[o] = 0;
  }

  @Override
  public void liftDouble(double x, long arg, long[] a, int o) {
    a[o] = 1;
  }

  @Override
  public void liftLong(long x, long arg, long[] a, int o) {
    a[o] = 1;
  }

  @Override
  public void liftObject(Object x, long arg, long[] a, int o) {
    a[o] = 1;
  }

  @Override
  public void combine(long[] a, int dst, int older, int newer) {
    a[dst] = a[older] + a[newer];
  }

  @Override
  public void inverse(long[] a, int dst, int whole, int older) {
    a[dst] = a[whole] - a[older];
  }

  @Override
  public Object lower(long[] a, int o) {
    return a[o];
  }

  @Override
  public double lowerDouble(long[] a, int o) {
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

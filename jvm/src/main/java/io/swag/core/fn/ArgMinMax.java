package io.swag.core.fn;

import io.swag.core.LongFunction;

/**
 * Argument of the minimum ({@code max = false}) or maximum: the time (timestamped aggregators) or
 * sequence number (plain FIFO aggregators) of the extreme value; the earliest wins ties. Partial:
 * (value as double bits, arg, present flag) in three longs, so that times keep all 64 bits. Not
 * commutative (ties). Empty window: null.
 */
public final class ArgMinMax extends LongFunction {
  private final boolean max;

  /**
   * The argument of the minimum or the maximum.
   *
   * @param max true for the maximum, false for the minimum
   */
  public ArgMinMax(boolean max) {
    super(max ? "argmax" : "argmin", 3);
    this.max = max;
  }

  @Override
  public void identity(long[] a, int o) {
    a[o] = 0;
    a[o + 1] = 0;
    a[o + 2] = 0;
  }

  @Override
  public void liftDouble(double x, long arg, long[] a, int o) {
    a[o] = Double.doubleToRawLongBits(x);
    a[o + 1] = arg;
    a[o + 2] = 1;
  }

  @Override
  public void liftLong(long x, long arg, long[] a, int o) {
    liftDouble((double) x, arg, a, o);
  }

  @Override
  public void combine(long[] a, int dst, int older, int newer) {
    int src;
    if (a[newer + 2] == 0) {
      src = older;
    } else if (a[older + 2] == 0) {
      src = newer;
    } else {
      double x = Double.longBitsToDouble(a[older]);
      double y = Double.longBitsToDouble(a[newer]);
      src = (max ? y > x : y < x) ? newer : older;
    }
    if (src != dst) {
      a[dst] = a[src];
      a[dst + 1] = a[src + 1];
      a[dst + 2] = a[src + 2];
    }
  }

  @Override
  public Object lower(long[] a, int o) {
    return a[o + 2] == 0 ? null : a[o + 1];
  }

  @Override
  public double lowerDouble(long[] a, int o) {
    return a[o + 2] == 0 ? Double.NaN : a[o + 1];
  }

  @Override
  public int combineCost() {
    return 1;
  }
}

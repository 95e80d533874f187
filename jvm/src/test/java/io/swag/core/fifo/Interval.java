package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * A test-only associative, non-commutative function with one double per partial: the partial of
 * the consecutive integers {@code i, i+1, ..., j} (each in {@code [0, 2^21)}) is the pair
 * {@code (i, j)} packed as {@code i * 2^21 + j}; combining two partials that are not adjacent in
 * that order gives {@link #BROKEN}, which absorbs everything. So a stored partial names exactly the
 * run of values it aggregates, and any combine out of window order shows.
 */
final class Interval extends ScalarDoubleFunction {
  static final double EMPTY = -1;
  static final double BROKEN = -2;
  static final double SHIFT = 1 << 21;

  Interval() {
    super("interval");
  }

  /** The partial of the values {@code from .. to} (inclusive). */
  static double of(long from, long to) {
    return from * SHIFT + to;
  }

  @Override
  public double identityValue() {
    return EMPTY;
  }

  @Override
  public double liftValue(double x, long arg) {
    if (x < 0 || x >= SHIFT || x != Math.rint(x)) {
      throw new IllegalArgumentException("interval takes integers in [0, 2^21): " + x);
    }
    return of((long) x, (long) x);
  }

  @Override
  public double combineValues(double x, double y) {
    if (x == EMPTY) {
      return y;
    }
    if (y == EMPTY) {
      return x;
    }
    if (x == BROKEN || y == BROKEN) {
      return BROKEN;
    }
    long xFrom = (long) (x / SHIFT);
    long xTo = (long) x - xFrom * (long) SHIFT;
    long yFrom = (long) (y / SHIFT);
    long yTo = (long) y - yFrom * (long) SHIFT;
    return xTo + 1 == yFrom ? of(xFrom, yTo) : BROKEN;
  }

  @Override
  public Object lowerValue(double partial) {
    return partial == EMPTY ? null : partial;
  }

  @Override
  public double lowerDoubleValue(double partial) {
    return partial == EMPTY ? Double.NaN : partial;
  }
}

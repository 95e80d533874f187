package io.swag.core;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * An instrumented sum that counts its combine and inverse calls (shared by the fifo and ooo cost
 * tests): every combine of a {@code Partials} store (through the derived kernel) and of a typed
 * in-order aggregator goes through {@link #combineValues}; copies do not.
 */
public final class CountingSum extends ScalarDoubleFunction {
  public long combines;
  public long inverses;

  public CountingSum() {
    super("counting_sum");
  }

  @Override
  public double identityValue() {
    return 0;
  }

  @Override
  public double liftValue(double x, long arg) {
    return x;
  }

  @Override
  public double combineValues(double older, double newer) {
    combines++;
    return older + newer;
  }

  @Override
  public double inverseValues(double whole, double older) {
    inverses++;
    return whole - older;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }

  @Override
  public Object lowerValue(double partial) {
    return partial;
  }

  @Override
  public double lowerDoubleValue(double partial) {
    return partial;
  }

  /** Combines and inverses since the last call. */
  public long take() {
    long c = combines + inverses;
    combines = 0;
    inverses = 0;
    return c;
  }
}

package io.swag.core.fn;

/**
 * Sum of doubles. Commutative, invertible; one double per partial. Lift maps -0.0 to 0.0, so that
 * the identity 0.0 is one for every input and a zero sum is 0.0 whatever the order and grouping.
 */
public final class Sum extends ScalarDoubleFunction {
  /** The sum function. */
  public Sum() {
    super("sum");
  }

  @Override
  public double identityValue() {
    return 0.0;
  }

  @Override
  public double liftValue(double x, long arg) {
    return x + 0.0; // -0.0 + 0.0 == 0.0; every other x unchanged
  }

  @Override
  public double combineValues(double older, double newer) {
    return older + newer;
  }

  @Override
  public double inverseValues(double whole, double older) {
    return whole - older;
  }

  /** Every partial lowers to itself. */
  @Override
  public boolean lowersToPartial() {
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

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }
}

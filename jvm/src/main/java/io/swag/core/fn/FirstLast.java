package io.swag.core.fn;

/**
 * The oldest ({@code last = false}) or newest value of the window. Not commutative. One double per
 * partial, NaN meaning "empty" (inputs are never NaN). Empty window: null / NaN.
 */
public final class FirstLast extends ScalarDoubleFunction {
  private final boolean last;

  /**
   * The oldest or the newest value.
   *
   * @param last true for the newest value, false for the oldest
   */
  public FirstLast(boolean last) {
    super(last ? "last" : "first");
    this.last = last;
  }

  @Override
  public double identityValue() {
    return Double.NaN;
  }

  @Override
  public double liftValue(double x, long arg) {
    return x;
  }

  @Override
  public double combineValues(double x, double y) {
    return last ? (y != y ? x : y) : (x != x ? y : x);
  }

  /** One side, unless it is the identity (NaN). */
  @Override
  public boolean selectsOperand() {
    return true;
  }

  /** A partial that is not NaN lowers to itself. */
  @Override
  public boolean lowersToPartial() {
    return true;
  }

  @Override
  public Object lowerValue(double partial) {
    return partial != partial ? null : partial;
  }

  @Override
  public double lowerDoubleValue(double partial) {
    return partial;
  }
}

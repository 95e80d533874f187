package io.swag.core.fn;

/**
 * Minimum ({@code max = false}) or maximum of doubles. Commutative, not invertible. The identity is
 * NaN (inputs are never NaN), so infinities are ordinary values. Empty window: null / NaN. -0.0 and
 * 0.0 are one value, as in mincount/maxcount: lift maps -0.0 to 0.0, so a zero result is 0.0
 * whatever the order (with both zeros kept, the older of the two equal operands would decide).
 */
public final class MinMax extends ScalarDoubleFunction {
  private final boolean max;

  /**
   * The minimum or the maximum.
   *
   * @param max true for {@code max}, false for {@code min}
   */
  public MinMax(boolean max) {
    super(max ? "max" : "min");
    this.max = max;
  }

  @Override
  public double identityValue() {
    return Double.NaN;
  }

  @Override
  public double liftValue(double x, long arg) {
    return x + 0.0; // -0.0 + 0.0 == 0.0; every other x unchanged
  }

  /**
   * The identity (NaN) on either side gives the other operand; else {@link Math#max} ({@link Math#min}),
   * which C2 compiles without a branch on the operands' order (an intrinsic; measured on x86-64 with
   * AVX): a branch on it is mispredicted about every other time on values in no order, and a small
   * window's FIFO combines such values at every round. Lifted values hold no NaN and no -0.0, so the
   * result is always one of the operands.
   */
  @Override
  public double combineValues(double x, double y) {
    if (x != x) {
      return y;
    }
    if (y != y) {
      return x;
    }
    return max ? Math.max(x, y) : Math.min(x, y);
  }

  /** The larger (smaller) operand; lifted values hold one zero and no NaN, so ties have equal bits. */
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

  @Override
  public boolean isCommutative() {
    return true;
  }
}

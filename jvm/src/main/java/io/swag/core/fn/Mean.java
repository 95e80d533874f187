package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Arithmetic mean ({@code geometric = false}) or geometric mean ({@code geometric = true}, the
 * papers' "geomean": lift takes a logarithm, lower an exponential). Partial: (count, sum) or
 * (count, sum of logs). Commutative, invertible. Empty window: NaN. A zero mean is 0.0 (lift maps
 * -0.0 to 0.0, as {@link Sum} does).
 */
public final class Mean extends DoubleFunction {
  private final boolean geometric;
  private final Summands summands;

  /**
   * The arithmetic or the geometric mean.
   *
   * @param geometric true for the geometric mean
   */
  public Mean(boolean geometric) {
    super(geometric ? "geomean" : "mean", 2);
    this.geometric = geometric;
    this.summands = new Summands(this);
  }

  /**
   * The second half of this function's partial as a function of its own: lift is this function's
   * lift without the count (the value, or its logarithm), combine adds, and a window of {@code c}
   * elements whose summands total {@code s} lowers to what this function lowers {@code (c, s)} to.
   * In an in-order window the count of the window's partial is the window's size, so the in-order
   * aggregators keep only the summands ({@code io.swag.core.Algorithm#newFifo}): the same sums,
   * combined in the same order, as the second doubles of this function's partials, hence the same
   * results to the bit.
   *
   * @return the summand function of this mean
   */
  public ScalarDoubleFunction summands() {
    return summands;
  }

  /**
   * The summands of a {@link Mean}: one double per partial, the sum of the values or of their
   * logarithms. Not invertible on its own (the inverse of the mean's partial zeroes the sum with the
   * count, which this partial does not hold); the in-order aggregators that use it do not invert.
   */
  public static final class Summands extends ScalarDoubleFunction {
    private final Mean mean;

    Summands(Mean mean) {
      super(mean.name());
      this.mean = mean;
    }

    @Override
    public DoubleFunction windowFunction() {
      return mean;
    }

    @Override
    public double identityValue() {
      return 0;
    }

    @Override
    public double liftValue(double x, long arg) {
      if (mean.geometric) {
        if (!(x > 0)) {
          throw new IllegalArgumentException("function 'geomean' takes positive numbers, got " + x);
        }
        return Math.log(x);
      }
      return x + 0.0; // as in Sum: -0.0 counts as 0.0
    }

    @Override
    public double combineValues(double older, double newer) {
      return older + newer;
    }

    /**
     * Without the count there is no result: an aggregator that does not pass the window's size
     * ({@link #lowerValue(double, long)}) must not run this function.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Object lowerValue(double partial) {
      throw needsCount();
    }

    /**
     * Without the count there is no result (see {@link #lowerValue(double)}).
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public double lowerDoubleValue(double partial) {
      throw needsCount();
    }

    private UnsupportedOperationException needsCount() {
      return new UnsupportedOperationException("the summands of '" + name()
          + "' lower only with the window's size (an in-order aggregator's count)");
    }

    @Override
    public double lowerDoubleValue(double partial, long count) {
      return mean.lowerCounted(count, partial);
    }

    @Override
    public Object lowerValue(double partial, long count) {
      return mean.lowerCounted(count, partial);
    }

    @Override
    public double[] windowPartial(double partial, long count) {
      return count == 0 ? new double[] {0, 0} : new double[] {count, partial};
    }

    @Override
    public boolean isCommutative() {
      return true;
    }
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = 0;
    a[o + 1] = 0;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o + 1] = summands.liftValue(x, arg); // the summand's rule (and its check) in one place
    a[o] = 1;
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    double n = a[older] + a[newer];
    double s = a[older + 1] + a[newer + 1];
    a[dst] = n;
    a[dst + 1] = s;
  }

  @Override
  public void inverse(double[] a, int dst, int whole, int older) {
    double n = a[whole] - a[older];
    double s = a[whole + 1] - a[older + 1];
    a[dst] = n;
    a[dst + 1] = n == 0 ? 0 : s;
  }

  @Override
  public Object lower(double[] a, int o) {
    return lowerDouble(a, o);
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    return lowerCounted(a[o], a[o + 1]);
  }

  /** The mean of {@code n} values whose summands total {@code s}: NaN for none. */
  private double lowerCounted(double n, double s) {
    if (n == 0) {
      return Double.NaN;
    }
    double m = s / n;
    return geometric ? Math.exp(m) : m;
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }

  @Override
  public int combineCost() {
    return 2;
  }
}

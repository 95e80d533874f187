package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * Sample variance, or sample standard deviation ({@code sqrt = true}). Partial: (count, mean, M2)
 * combined with Chan et al.'s pairwise update, which stays accurate where (count, sum, sum of
 * squares) cancels. Commutative, invertible (Chan's update solved for one part). Fewer than two
 * inputs: NaN. An infinite input makes the result NaN (its lift has M2 = NaN, which every combine
 * keeps), whatever the order; otherwise an infinity met first would give +infinity and met later
 * NaN. The term d^2 na nb / n is computed as d (d (na nb / n)), so combining with the identity
 * (na nb = 0) gives 0 for any finite d and d^2 overflows only when the term itself does.
 */
public final class Variance extends DoubleFunction {
  private final boolean sqrt;

  /**
   * The variance or the standard deviation.
   *
   * @param sqrt true for the standard deviation
   */
  public Variance(boolean sqrt) {
    super(sqrt ? "stddev" : "variance", 3);
    this.sqrt = sqrt;
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = 0;
    a[o + 1] = 0;
    a[o + 2] = 0;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o] = 1;
    a[o + 1] = x;
    a[o + 2] = Double.isInfinite(x) ? Double.NaN : 0;
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    double na = a[older], ma = a[older + 1], qa = a[older + 2];
    double nb = a[newer], mb = a[newer + 1], qb = a[newer + 2];
    double n = na + nb;
    if (n == 0) {
      identity(a, dst);
      return;
    }
    double d = mb - ma;
    a[dst] = n;
    a[dst + 1] = ma + d * (nb / n);
    a[dst + 2] = qa + qb + d * (d * (na * nb / n));
  }

  @Override
  public void inverse(double[] a, int dst, int whole, int older) {
    double n = a[whole], m = a[whole + 1], q = a[whole + 2];
    double na = a[older], ma = a[older + 1], qa = a[older + 2];
    double nb = n - na;
    if (nb <= 0) {
      identity(a, dst);
      return;
    }
    double mb = (n * m - na * ma) / nb;
    double d = mb - ma;
    a[dst] = nb;
    a[dst + 1] = mb;
    a[dst + 2] = Math.max(0.0, q - qa - d * (d * (na * nb / n)));
  }

  @Override
  public Object lower(double[] a, int o) {
    return lowerDouble(a, o);
  }

  @Override
  public double lowerDouble(double[] a, int o) {
    double n = a[o];
    if (n < 2) {
      return Double.NaN;
    }
    double v = a[o + 2] / (n - 1);
    return sqrt ? Math.sqrt(v) : v;
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
    return 3;
  }
}

package io.swag.examples.udaf;

import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import io.swag.core.ResultType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * The {@code k} largest values of a window (parameter {@code k}, default 3), largest first, as text:
 * {@code "[9.0, 7.5, 3.0]"}. A query names it as {@code swag.udaf("io.swag.examples.udaf.TopK", "v", k=5)}.
 *
 * <p>Partial: a {@code double[]} of at most k values, sorted descending (the identity is empty).
 * Commutative (the k largest of a set do not depend on order) and with a byte form (8 bytes per
 * value), so swag may pre-aggregate it per slice and ship partials (Spark's pre-aggregation).
 * Not invertible. Infinities and non-numbers are refused in {@code lift}: the engines turn that into a
 * rejected record with the reason.
 */
public final class TopK implements AggregateFunction<Object, double[], String>, ByteForm<double[]> {
  private static final double[] EMPTY = new double[0];
  private final int k;

  /**
   * {@code params}: {@code k}, an integer &gt;= 1 (default 3).
   *
   * @param params the function's options
   */
  public TopK(Map<String, Object> params) {
    Object v = params.getOrDefault("k", 3);
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.intValue() < 1) {
      throw new IllegalArgumentException("TopK: parameter k must be an integer >= 1, got " + v);
    }
    this.k = n.intValue();
  }

  @Override
  public String name() {
    return "topk";
  }

  @Override
  public double[] identity() {
    return EMPTY;
  }

  @Override
  public double[] lift(Object value, long time) {
    double d = ((Number) value).doubleValue(); // a non-number: ClassCastException, a rejected record
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("TopK ranks finite values, not " + d);
    }
    return new double[] {d};
  }

  @Override
  public double[] combine(double[] older, double[] newer) {
    if (older.length == 0) {
      return newer;
    }
    if (newer.length == 0) {
      return older;
    }
    int n = Math.min(k, older.length + newer.length);
    double[] r = new double[n];
    int i = 0;
    int j = 0;
    for (int o = 0; o < n; o++) { // merge of two descending runs
      if (j >= newer.length || (i < older.length && older[i] >= newer[j])) {
        r[o] = older[i++];
      } else {
        r[o] = newer[j++];
      }
    }
    return r;
  }

  @Override
  public String lower(double[] partial) {
    return Arrays.toString(partial);
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public ResultType resultType() {
    return ResultType.STRING;
  }

  @Override
  public int byteSize(double[] partial) {
    return 8 * partial.length;
  }

  @Override
  public void write(double[] partial, ByteBuffer out) {
    for (double d : partial) {
      out.putDouble(d);
    }
  }

  @Override
  public double[] read(ByteBuffer in, int length) {
    double[] r = new double[length / 8];
    for (int i = 0; i < r.length; i++) {
      r[i] = in.getDouble();
    }
    return r;
  }
}

package io.swag.examples.udaf;

import io.swag.core.AggregateFunction;
import io.swag.core.ResultType;

/**
 * The change over a window: its last value minus its first, in event-time order (ties in arrival
 * order). A query names it as {@code swag.udaf("io.swag.examples.udaf.Trend", "v")}.
 *
 * <p>Not commutative: {@code combine(older, newer)} keeps the older partial's first value and the
 * newer one's last, so swag's algorithms, which always pass the older partial on the left, give the
 * window's true first and last. Swapping the operands would negate the result: the example of what
 * "older operand on the left" means. No byte form, so engines keep its records (no pre-aggregation).
 */
public final class Trend implements AggregateFunction<Object, Trend.Ends, Double> {
  /** A partial: the first and last value of a run of records; {@link #NONE} for no records. */
  public record Ends(double first, double last) {}

  private static final Ends NONE = new Ends(Double.NaN, Double.NaN);

  @Override
  public String name() {
    return "trend";
  }

  @Override
  public Ends identity() {
    return NONE;
  }

  @Override
  public Ends lift(Object value, long time) {
    double d = ((Number) value).doubleValue();
    if (Double.isNaN(d)) {
      throw new IllegalArgumentException("NaN");
    }
    return new Ends(d, d);
  }

  @Override
  public Ends combine(Ends older, Ends newer) {
    if (older == NONE) {
      return newer;
    }
    if (newer == NONE) {
      return older;
    }
    return new Ends(older.first(), newer.last());
  }

  @Override
  public Double lower(Ends partial) {
    return partial == NONE ? null : partial.last() - partial.first();
  }

  @Override
  public ResultType resultType() {
    return ResultType.DOUBLE;
  }
}

package io.swag.flink.table;

import org.apache.flink.table.functions.AggregateFunction;

/**
 * An aggregate function with retraction for bounded OVER windows
 * ({@code ROWS/RANGE BETWEEN ... PRECEDING AND CURRENT ROW}), backed by an in-order aggregator
 * ({@link OverAccumulator}): Flink retracts the rows that leave the frame, and retracting the
 * oldest row is O(1) for every function, where Flink's built-in MAX/MIN/FIRST_VALUE... with
 * retraction scan a map view. Null inputs are ignored (like the built-ins). Registered by
 * {@link SwagFunctions#register}.
 */
public abstract class SwagOverFunction<T> extends AggregateFunction<T, OverAccumulator> {
  private static final long serialVersionUID = 1L;
  private final String function;

  protected SwagOverFunction(String function) {
    this.function = function;
  }

  @Override
  public OverAccumulator createAccumulator() {
    return new OverAccumulator(function);
  }

  void add(OverAccumulator acc, Object v) {
    if (v == null) {
      return;
    }
    try {
      acc.add(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("swag_" + function + ": " + e.getMessage(), e);
    }
  }

  static void remove(OverAccumulator acc, Object v) {
    if (v != null) {
      acc.retract(v);
    }
  }

  /** Resets the accumulator (used by some operators instead of creating a new one). */
  public void resetAccumulator(OverAccumulator acc) {
    OverAccumulator fresh = new OverAccumulator(function);
    acc.values.clear();
    acc.fifo = fresh.fifo;
    acc.rank = Double.NaN;
    acc.copyPendingFrom(fresh);
  }

  /** A function of one DOUBLE argument returning DOUBLE: max, min, first, last, stddev, median... */
  public static class OfDouble extends SwagOverFunction<Double> {
    private static final long serialVersionUID = 1L;

    public OfDouble(String function) {
      super(function);
    }

    public void accumulate(OverAccumulator acc, Double v) {
      add(acc, v);
    }

    public void retract(OverAccumulator acc, Double v) {
      remove(acc, v);
    }

    @Override
    public Double getValue(OverAccumulator acc) {
      Object r = acc.query();
      return r == null ? null : ((Number) r).doubleValue();
    }
  }

  /** {@code swag_max(x)}. */
  public static final class Max extends OfDouble {
    private static final long serialVersionUID = 1L;

    public Max() {
      super("max");
    }
  }

  /** {@code swag_min(x)}. */
  public static final class Min extends OfDouble {
    private static final long serialVersionUID = 1L;

    public Min() {
      super("min");
    }
  }

  /** {@code swag_first(x)}: the oldest value of the frame. */
  public static final class First extends OfDouble {
    private static final long serialVersionUID = 1L;

    public First() {
      super("first");
    }
  }

  /** {@code swag_last(x)}: the newest value of the frame. */
  public static final class Last extends OfDouble {
    private static final long serialVersionUID = 1L;

    public Last() {
      super("last");
    }
  }

  /** {@code swag_stddev(x)}: sample standard deviation (swag's {@code stddev}). */
  public static final class Stddev extends OfDouble {
    private static final long serialVersionUID = 1L;

    public Stddev() {
      super("stddev");
    }
  }

  /** {@code swag_median(x)}: KLL sketch median (approximate for large frames). */
  public static final class Median extends OfDouble {
    private static final long serialVersionUID = 1L;

    public Median() {
      super("median");
    }
  }

  /** {@code swag_quantile(x, rank)}: KLL sketch quantile; {@code rank} a constant in [0, 1]. */
  public static final class Quantile extends SwagOverFunction<Double> {
    private static final long serialVersionUID = 1L;

    public Quantile() {
      super("quantile");
    }

    public void accumulate(OverAccumulator acc, Double v, Double rank) {
      if (rank == null || !(rank >= 0 && rank <= 1)) {
        throw new IllegalArgumentException("swag_quantile: rank must be in [0, 1], got " + rank);
      }
      if (acc.fifo == null) {
        acc.ensure(rank);
      }
      add(acc, v);
    }

    public void retract(OverAccumulator acc, Double v, Double rank) {
      remove(acc, v);
    }

    @Override
    public Double getValue(OverAccumulator acc) {
      Object r = acc.query();
      return r == null ? null : ((Number) r).doubleValue();
    }
  }

  /** {@code swag_distinct_count(x)}: HyperLogLog estimate of the distinct values (any type). */
  public static final class DistinctCount extends SwagOverFunction<Long> {
    private static final long serialVersionUID = 1L;

    public DistinctCount() {
      super("hll");
    }

    public void accumulate(OverAccumulator acc, String v) {
      add(acc, v);
    }

    public void accumulate(OverAccumulator acc, Long v) {
      add(acc, v);
    }

    public void retract(OverAccumulator acc, String v) {
      remove(acc, v);
    }

    public void retract(OverAccumulator acc, Long v) {
      remove(acc, v);
    }

    @Override
    public Long getValue(OverAccumulator acc) {
      Object r = acc.query();
      return r == null ? 0L : Math.round(((Number) r).doubleValue());
    }
  }
}

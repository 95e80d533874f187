package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import io.swag.core.FifoAggregator;
import java.util.NoSuchElementException;

/**
 * The in-order aggregators' public face: what every FIFO algorithm answers, whatever its store.
 * Two families implement it, one class per algorithm in each:
 * <ul>
 *   <li>{@link PartialsFifo}: any function, partials in the function's {@link io.swag.core.Partials}
 *       store ({@link DabaLite}, {@link Daba}, {@link TwoStacksLite}, {@link FlatFit}, ...);
 *   <li>{@link DoubleFifo}: functions whose partial is one double
 *       ({@link io.swag.core.fn.ScalarDoubleFunction}: sum, min, max, first, last; mean and geomean
 *       on their summands, {@link io.swag.core.fn.Mean#summands()}), on a
 *       {@code double[]} the aggregator owns ({@link DoubleDabaLite}, {@link DoubleDaba},
 *       {@link DoubleTwoStacksLite}, {@link DoubleFlatFit}).
 * </ul>
 * {@link io.swag.core.Algorithm#newFifo} picks the typed class when there is one for the algorithm
 * and the function; both give the same results, combine for combine.
 *
 * <p>Contract of both: {@link #evict()} on an empty window throws {@link NoSuchElementException}
 * naming the algorithm; a value the function rejects (NaN, a wrong type) throws before anything
 * changes; untimed inserts pass a sequence number, counted from 0 over accepted values, as the
 * lift's {@code arg}.
 */
public abstract class FifoBase implements FifoAggregator {
  static final int MIN_CAPACITY = 16;

  /** The aggregate function. */
  protected final AggregateFunction<?, ?, ?> fn;
  private final String name;
  private long seq;

  /**
   * For subclasses.
   *
   * @param name the algorithm's name
   * @param fn the aggregate function
   */
  protected FifoBase(String name, AggregateFunction<?, ?, ?> fn) {
    this.name = name;
    this.fn = fn;
  }

  /**
   * Inserts a value with an explicit {@code arg} (the time, for timestamped windows).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public abstract void insertArg(double value, long arg);

  /**
   * Inserts a value with an explicit {@code arg} (the time, for timestamped windows).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public abstract void insertArg(long value, long arg);

  /**
   * Inserts a value that is neither a boxed double nor a boxed integer (strings, rows, ...).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  protected abstract void insertObject(Object value, long arg);

  /** Removes the oldest element; the window is not empty. */
  protected abstract void evictOldest();

  /**
   * The raw partial aggregate of the window (for tests and engine adapters).
   *
   * @return the window's partial aggregate
   */
  public abstract Object queryPartial();

  /**
   * The number of partials the aggregator's arrays have room for (registers and ring), which
   * follows the window up and down (for tests of memory after a burst).
   *
   * @return the allocated room, in partials
   */
  public abstract int allocatedPartials();

  // ---- public API ----

  @Override
  public final void insert(double value) {
    insertArg(value, seq);
    seq++; // only once the value was accepted
  }

  @Override
  public final void insert(long value) {
    insertArg(value, seq);
    seq++; // only once the value was accepted
  }

  @Override
  public final void insert(Object value) {
    insertArg(value, seq);
    seq++; // only once the value was accepted
  }

  /**
   * Inserts any value the function accepts with an explicit {@code arg} (the time, for timestamped
   * windows): boxed doubles and floats as {@link #insertArg(double, long)}, boxed integers as
   * {@link #insertArg(long, long)}, anything else as the function's object input.
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public final void insertArg(Object value, long arg) {
    if (value instanceof Double || value instanceof Float) {
      insertArg(((Number) value).doubleValue(), arg);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      insertArg(((Number) value).longValue(), arg);
    } else {
      insertObject(value, arg);
    }
  }

  @Override
  public final void evict() {
    if (size() == 0) {
      throw new NoSuchElementException("evict() on an empty window (algorithm '" + name + "')");
    }
    evictOldest();
  }

  @Override
  public final String algorithm() {
    return name;
  }

  @Override
  public final AggregateFunction<?, ?, ?> function() {
    return fn;
  }

  @Override
  public String toString() {
    return name + "(" + fn.name() + ", n=" + size() + ")";
  }
}

package io.swag.core;

/**
 * A sliding-window aggregator for FIFO windows: values are inserted at the young end and evicted
 * from the old end, and {@link #query()} returns {@code lower(v0 ⊕ v1 ⊕ ... ⊕ v(n-1))} with
 * {@code v0} the oldest value.
 *
 * <p>The primitive overloads ({@link #insert(double)}, {@link #insert(long)}, {@link #queryDouble()})
 * do not box; use them on hot paths with numeric functions.
 *
 * <p>Instances are not thread-safe.
 */
public interface FifoAggregator {

  /** Inserts a value at the young end. */
  void insert(double value);

  /** Inserts a value at the young end. */
  void insert(long value);

  /** Inserts any value the function accepts (numbers, strings, ...). */
  void insert(Object value);

  /**
   * Removes the oldest value.
   *
   * @throws java.util.NoSuchElementException if the window is empty
   */
  void evict();

  /** The aggregate of the whole window ({@code lower(identity)} when empty, often null). */
  Object query();

  /** The aggregate as a double, for numeric results (NaN when there is no value). */
  double queryDouble();

  /** Number of values in the window. */
  int size();

  default boolean isEmpty() {
    return size() == 0;
  }

  /** Number of partial aggregates currently stored (the space measure of the papers). */
  long storedPartials();

  /** The algorithm's name, e.g. {@code "daba_lite"}. */
  String algorithm();

  /** The aggregate function. */
  AggregateFunction<?, ?, ?> function();
}

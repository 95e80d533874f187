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

  /**
   * Inserts a value at the young end.
   *
   * @param value the value
   */
  void insert(double value);

  /**
   * Inserts a value at the young end.
   *
   * @param value the value
   */
  void insert(long value);

  /**
   * Inserts any value the function accepts (numbers, strings, ...).
   *
   * @param value the value
   */
  void insert(Object value);

  /**
   * Removes the oldest value.
   *
   * @throws java.util.NoSuchElementException if the window is empty
   */
  void evict();

  /**
   * The aggregate of the whole window ({@code lower(identity)} when empty, often null).
   *
   * @return the window's aggregate
   */
  Object query();

  /**
   * The aggregate as a double, for numeric results (NaN when there is no value).
   *
   * @return the window's aggregate as a double
   */
  double queryDouble();

  /**
   * Number of values in the window.
   *
   * @return the number of values
   */
  int size();

  /**
   * Whether the window holds no value.
   *
   * @return true if {@link #size} is 0
   */
  default boolean isEmpty() {
    return size() == 0;
  }

  /**
   * Number of partial aggregates currently stored (the space measure of the papers).
   *
   * @return the number of stored partials
   */
  long storedPartials();

  /**
   * The algorithm's name, e.g. {@code "daba_lite"}.
   *
   * @return the algorithm's name
   */
  String algorithm();

  /**
   * The aggregate function.
   *
   * @return the aggregate function
   */
  AggregateFunction<?, ?, ?> function();
}

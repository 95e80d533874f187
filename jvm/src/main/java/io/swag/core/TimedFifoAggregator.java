package io.swag.core;

/**
 * A FIFO aggregator whose entries carry event times, inserted in non-decreasing time order, so
 * that time-based windows can evict by time. Each entry's time is also the {@code arg} passed to the
 * function's lift (the result of {@code argmax} is a time).
 */
public interface TimedFifoAggregator extends FifoAggregator {

  /**
   * Inserts a value with its time.
   *
   * @param time the value's time
   * @param value the value
   * @throws IllegalArgumentException if {@code time} is older than {@link #youngestTime()}
   */
  void insert(long time, double value);

  /**
   * Inserts a value with its time.
   *
   * @param time the value's time
   * @param value the value
   * @throws IllegalArgumentException if {@code time} is older than {@link #youngestTime()}
   */
  void insert(long time, long value);

  /**
   * Inserts any value the function accepts with its time.
   *
   * @param time the value's time
   * @param value the value
   * @throws IllegalArgumentException if {@code time} is older than {@link #youngestTime()}
   */
  void insert(long time, Object value);

  /**
   * Evicts every entry with time {@code <= time}; returns how many were evicted.
   *
   * @param time the largest time to evict
   * @return the number of entries evicted
   */
  int evictUpTo(long time);

  /**
   * The time of the oldest entry.
   *
   * @return the oldest time
   * @throws java.util.NoSuchElementException if empty
   */
  long oldestTime();

  /**
   * The time of the youngest entry.
   *
   * @return the youngest time
   * @throws java.util.NoSuchElementException if empty
   */
  long youngestTime();
}

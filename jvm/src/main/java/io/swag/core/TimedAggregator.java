package io.swag.core;

/**
 * An out-of-order timestamped aggregator: entries ordered by time, inserted at any time, evicted by
 * time, with whole-window and range queries (the interface of FiBA, VLDB 2019 / VLDB 2023).
 *
 * <p>An insert at a time already present combines the new value into that entry, in arrival order
 * ({@code old ⊕ new}). Each entry's time is the {@code arg} passed to the function's lift.
 *
 * <p>Implementations: the B-trees of {@code io.swag.core.ooo} (any order), and
 * {@link io.swag.core.fifo.TimedFifo} over any in-order algorithm, which accepts only
 * non-decreasing insert times, exact evictions of its oldest time, and range queries that cover the
 * whole window or none of it; anything else is an {@link IllegalArgumentException} or
 * {@link UnsupportedOperationException} that says so. {@link Swag#timed} creates either by name.
 */
public interface TimedAggregator {

  /**
   * Inserts a value at its time.
   *
   * @param time the value's time
   * @param value the value
   */
  void insert(long time, double value);

  /**
   * Inserts a value at its time.
   *
   * @param time the value's time
   * @param value the value
   */
  void insert(long time, long value);

  /**
   * Inserts any value the function accepts (numbers, strings, ...) at its time.
   *
   * @param time the value's time
   * @param value the value
   */
  void insert(long time, Object value);

  /**
   * Removes the entry with exactly this time; returns false (and changes nothing) if absent.
   *
   * @param time the entry's time
   * @return true if an entry was removed
   */
  boolean evict(long time);

  /**
   * Removes every entry with time {@code <= time}; returns how many entries were removed.
   *
   * @param time the largest time to remove
   * @return the number of entries removed
   */
  int bulkEvict(long time);

  /**
   * Inserts {@code len} values whose times {@code times[from .. from+len)} are sorted ascending
   * (they may interleave with, and equal, times already present).
   *
   * @param times the times, sorted ascending
   * @param values the values, at the same indices as their times
   * @param from the index of the first value
   * @param len the number of values
   */
  void bulkInsert(long[] times, double[] values, int from, int len);

  /**
   * Like {@link #bulkInsert(long[], double[], int, int)}, for any values the function accepts.
   *
   * @param times the times, sorted ascending
   * @param values the values, at the same indices as their times
   * @param from the index of the first value
   * @param len the number of values
   */
  void bulkInsert(long[] times, Object[] values, int from, int len);

  /**
   * Aggregate of the whole window.
   *
   * @return the window's aggregate
   */
  Object query();

  /**
   * The aggregate of the whole window as a double, for numeric results (NaN when there is no value).
   *
   * @return the aggregate
   */
  double queryDouble();

  /**
   * Aggregate of the entries with {@code from <= time <= to} (identity's result if none).
   *
   * @param from the first time of the range
   * @param to the last time of the range
   * @return the range's aggregate
   */
  Object query(long from, long to);

  /**
   * The aggregate of the entries with {@code from <= time <= to} as a double (NaN when there is no
   * value).
   *
   * @param from the first time of the range
   * @param to the last time of the range
   * @return the range's aggregate
   */
  double queryDouble(long from, long to);

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

  /**
   * The smallest entry time {@code >= t}, or {@code Long.MAX_VALUE} if there is none (also when
   * empty). O(log n); the executor uses it to find a window's next non-empty window without keeping
   * a second index of the times.
   *
   * @param t a time
   * @return the smallest entry time {@code >= t}, or {@code Long.MAX_VALUE}
   */
  long ceilingTime(long t);

  /**
   * Number of entries. The trees hold one entry per distinct time; the in-order aggregators keep
   * equal times as adjacent entries (their combined aggregate is the same).
   *
   * @return the number of entries
   */
  int size();

  /**
   * Whether the aggregator holds no entry.
   *
   * @return true if {@link #size} is 0
   */
  default boolean isEmpty() {
    return size() == 0;
  }

  /**
   * The algorithm's name, e.g. {@code "bfiba4"}.
   *
   * @return the name
   */
  String algorithm();

  /**
   * The aggregate function.
   *
   * @return the function
   */
  AggregateFunction<?, ?, ?> function();

  /**
   * The partial of the entry at exactly {@code time} (not an aggregate over a range) in the byte
   * form of {@link Partials#write}, or null if there is no entry at that time: what an engine stores
   * for a slice ({@link io.swag.core.plan.StoredWindows}). O(log d) from the nearer finger. Trees
   * implement it; an aggregator that does not throws {@link UnsupportedOperationException}.
   *
   * @param time the entry's time
   * @return the partial's bytes, or null
   */
  default byte[] entryBytes(long time) {
    throw new UnsupportedOperationException(algorithm() + " cannot read one entry's partial");
  }
}

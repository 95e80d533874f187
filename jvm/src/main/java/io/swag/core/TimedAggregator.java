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

  void insert(long time, double value);

  void insert(long time, long value);

  void insert(long time, Object value);

  /** Removes the entry with exactly this time; returns false (and changes nothing) if absent. */
  boolean evict(long time);

  /** Removes every entry with time {@code <= time}; returns how many entries were removed. */
  int bulkEvict(long time);

  /**
   * Inserts {@code len} values whose times {@code times[from .. from+len)} are sorted ascending
   * (they may interleave with, and equal, times already present).
   */
  void bulkInsert(long[] times, double[] values, int from, int len);

  void bulkInsert(long[] times, Object[] values, int from, int len);

  /** Aggregate of the whole window. */
  Object query();

  double queryDouble();

  /** Aggregate of the entries with {@code from <= time <= to} (identity's result if none). */
  Object query(long from, long to);

  double queryDouble(long from, long to);

  /** @throws java.util.NoSuchElementException if empty */
  long oldestTime();

  /** @throws java.util.NoSuchElementException if empty */
  long youngestTime();

  /**
   * The smallest entry time {@code >= t}, or {@code Long.MAX_VALUE} if there is none (also when
   * empty). O(log n); the executor uses it to find a window's next non-empty window without keeping
   * a second index of the times.
   */
  long ceilingTime(long t);

  /**
   * Number of entries. The trees hold one entry per distinct time; the in-order aggregators keep
   * equal times as adjacent entries (their combined aggregate is the same).
   */
  int size();

  default boolean isEmpty() {
    return size() == 0;
  }

  String algorithm();

  AggregateFunction<?, ?, ?> function();

  /**
   * The partial of the entry at exactly {@code time} (not an aggregate over a range) in the byte
   * form of {@link Partials#write}, or null if there is no entry at that time: what an engine stores
   * for a slice ({@link io.swag.core.plan.StoredWindows}). O(log d) from the nearer finger. Trees
   * implement it; an aggregator that does not throws {@link UnsupportedOperationException}.
   */
  default byte[] entryBytes(long time) {
    throw new UnsupportedOperationException(algorithm() + " cannot read one entry's partial");
  }
}

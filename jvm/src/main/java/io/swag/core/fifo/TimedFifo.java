package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import io.swag.core.TimedAggregator;
import io.swag.core.TimedFifoAggregator;
import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * Adds event times to any {@link FifoBase}: a ring of {@code long} times beside the aggregator's
 * entries, checked to be non-decreasing on insert. {@link #evictUpTo(long)} evicts by time. Each
 * entry's time is passed to the function's lift as its {@code arg}.
 *
 * <p>It also implements the out-of-order interface {@link TimedAggregator} where an in-order
 * algorithm can: inserts in time order, {@link #evict(long)} of the oldest time,
 * {@link #bulkEvict}, {@link #bulkInsert} of batches not older than the youngest entry, and range
 * queries that cover the whole window or none of it. The rest fails with a message that names the
 * limitation, so a planner can swap an in-order and an out-of-order aggregator behind one interface.
 */
public final class TimedFifo implements TimedFifoAggregator, TimedAggregator {
  private final FifoBase inner;
  private long[] times = new long[16];
  private int front;
  private int end;

  /**
   * A timed aggregator over {@code inner}, which must be empty.
   *
   * @param inner the in-order aggregator that holds the values
   */
  public TimedFifo(FifoBase inner) {
    if (inner.size() != 0) {
      throw new IllegalArgumentException("TimedFifo needs an empty aggregator");
    }
    this.inner = inner;
  }

  private void checkTime(long time) {
    if (end != front && time < times[(end - 1) & (times.length - 1)]) {
      throw new IllegalArgumentException("time " + time + " is older than the youngest time "
          + youngestTime() + "; in-order aggregator '" + inner.algorithm()
          + "' needs non-decreasing times (out-of-order data needs an out-of-order aggregator)");
    }
    if (end - front == times.length) {
      long[] t = new long[times.length * 2];
      for (int i = front; i != end; i++) {
        t[i & (t.length - 1)] = times[i & (times.length - 1)];
      }
      times = t;
    }
  }

  private void pushTime(long time) {
    times[end & (times.length - 1)] = time;
    end++;
  }

  @Override
  public void insert(long time, double value) {
    checkTime(time);
    inner.insertArg(value, time);
    pushTime(time);
  }

  @Override
  public void insert(long time, long value) {
    checkTime(time);
    inner.insertArg(value, time);
    pushTime(time);
  }

  @Override
  public void insert(long time, Object value) {
    checkTime(time);
    inner.insertArg(value, time);
    pushTime(time);
  }

  /** Untimed insert: stamps the value with the youngest time (or 0 when empty). */
  @Override
  public void insert(double value) {
    insert(end == front ? 0 : youngestTime(), value);
  }

  @Override
  public void insert(long value) {
    insert(end == front ? 0 : youngestTime(), value);
  }

  @Override
  public void insert(Object value) {
    insert(end == front ? 0L : youngestTime(), value);
  }

  @Override
  public void evict() {
    inner.evict();
    front++;
    maybeShrink();
  }

  @Override
  public int evictUpTo(long time) {
    int n = 0;
    while (end != front && times[front & (times.length - 1)] <= time) {
      inner.evict();
      front++;
      n++;
    }
    maybeShrink();
    return n;
  }

  private void maybeShrink() {
    int n = end - front;
    if (times.length > 16 && n <= times.length / 4) {
      long[] t = new long[times.length / 2];
      for (int i = front; i != end; i++) {
        t[i & (t.length - 1)] = times[i & (times.length - 1)];
      }
      times = t;
    }
  }

  // ---- the out-of-order interface, where an in-order algorithm can ----

  /**
   * Evicts the entries at exactly {@code time} if it is the oldest time; false if no entry has it.
   *
   * @throws UnsupportedOperationException if {@code time} is present but not the oldest
   */
  @Override
  public boolean evict(long time) {
    if (end == front || time < oldestTime() || time > youngestTime()) {
      return false;
    }
    if (time == oldestTime()) {
      evictUpTo(time);
      return true;
    }
    int lo = front;
    int hi = end - 1; // binary search for the time among the entries
    while (lo <= hi) {
      int mid = lo + (hi - lo) / 2;
      long t = times[mid & (times.length - 1)];
      if (t < time) {
        lo = mid + 1;
      } else if (t > time) {
        hi = mid - 1;
      } else {
        throw new UnsupportedOperationException("in-order aggregator '" + inner.algorithm()
            + "' can evict only its oldest time (" + oldestTime() + "), not " + time
            + "; out-of-order evictions need an out-of-order aggregator such as fiba");
      }
    }
    return false;
  }

  @Override
  public int bulkEvict(long time) {
    return evictUpTo(time);
  }

  @Override
  public void bulkInsert(long[] ts, double[] values, int from, int len) {
    checkBatch(ts, from, len);
    for (int i = from; i < from + len; i++) {
      insert(ts[i], values[i]);
    }
  }

  @Override
  public void bulkInsert(long[] ts, Object[] values, int from, int len) {
    checkBatch(ts, from, len);
    for (int i = from; i < from + len; i++) {
      insert(ts[i], values[i]);
    }
  }

  private void checkBatch(long[] ts, int from, int len) {
    long prev = end == front ? Long.MIN_VALUE : youngestTime();
    for (int i = from; i < from + len; i++) {
      if (ts[i] < prev) {
        throw new IllegalArgumentException("bulkInsert: time " + ts[i] + " at index " + i + " is older than "
            + prev + "; in-order aggregator '" + inner.algorithm() + "' needs non-decreasing times");
      }
      prev = ts[i];
    }
  }

  @Override
  public Object query(long from, long to) {
    if (coversAllOrNone(from, to)) {
      return from <= to && end != front && from <= oldestTime() && to >= youngestTime() ? query() : emptyResult();
    }
    throw partialRange(from, to);
  }

  @Override
  public double queryDouble(long from, long to) {
    if (coversAllOrNone(from, to)) {
      if (from <= to && end != front && from <= oldestTime() && to >= youngestTime()) {
        return queryDouble();
      }
      Object r = emptyResult();
      return r instanceof Number n ? n.doubleValue() : Double.NaN;
    }
    throw partialRange(from, to);
  }

  private boolean coversAllOrNone(long from, long to) {
    return end == front || from > to || to < oldestTime() || from > youngestTime()
        || (from <= oldestTime() && to >= youngestTime());
  }

  private UnsupportedOperationException partialRange(long from, long to) {
    return new UnsupportedOperationException("in-order aggregator '" + inner.algorithm() + "' answers range queries"
        + " only over the whole window [" + oldestTime() + ", " + youngestTime() + "] or none of it, not ["
        + from + ", " + to + "]; use an out-of-order aggregator such as fiba for window sharing");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object emptyResult() {
    AggregateFunction f = inner.function();
    return f.lower(f.identity());
  }

  @Override
  public boolean isEmpty() {
    return end == front;
  }

  @Override
  public long oldestTime() {
    if (end == front) {
      throw new NoSuchElementException("oldestTime() of an empty window");
    }
    return times[front & (times.length - 1)];
  }

  @Override
  public long youngestTime() {
    if (end == front) {
      throw new NoSuchElementException("youngestTime() of an empty window");
    }
    return times[(end - 1) & (times.length - 1)];
  }

  /** Binary search of the (non-decreasing) ring of times. */
  @Override
  public long ceilingTime(long t) {
    return ceiling(times, front, end, t);
  }

  /**
   * The smallest time {@code >= t} among positions {@code [front, end)} of a power-of-two ring of
   * non-decreasing times, or {@code Long.MAX_VALUE}. O(log n).
   *
   * @param ring the ring of times
   * @param front the position of the oldest time
   * @param end the position after the newest time
   * @param t the time to look for
   * @return the smallest time {@code >= t}, or {@code Long.MAX_VALUE}
   */
  public static long ceiling(long[] ring, int front, int end, long t) {
    int mask = ring.length - 1;
    int lo = 0;
    int hi = end - front;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ring[(front + mid) & mask] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == end - front ? Long.MAX_VALUE : ring[(front + lo) & mask];
  }

  @Override
  public Object query() {
    return inner.query();
  }

  @Override
  public double queryDouble() {
    return inner.queryDouble();
  }

  @Override
  public int size() {
    return inner.size();
  }

  @Override
  public long storedPartials() {
    return inner.storedPartials();
  }

  @Override
  public String algorithm() {
    return inner.algorithm();
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return inner.function();
  }

  /**
   * The wrapped aggregator.
   *
   * @return the in-order aggregator
   */
  public FifoBase inner() {
    return inner;
  }

  /**
   * The times in the window, oldest first (for tests).
   *
   * @return the window's times, oldest first
   */
  public long[] times() {
    long[] r = new long[end - front];
    for (int i = 0; i < r.length; i++) {
      r[i] = times[(front + i) & (times.length - 1)];
    }
    return r;
  }

  @Override
  public String toString() {
    return "timed " + inner + " " + Arrays.toString(times());
  }
}

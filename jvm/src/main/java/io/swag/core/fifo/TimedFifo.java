package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import io.swag.core.TimedFifoAggregator;
import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * Adds event times to any {@link FifoBase}: a ring of {@code long} times beside the aggregator's
 * entries, checked to be non-decreasing on insert. {@link #evictUpTo(long)} evicts by time. Each
 * entry's time is passed to the function's lift as its {@code arg}.
 */
public final class TimedFifo implements TimedFifoAggregator {
  private final FifoBase inner;
  private long[] times = new long[16];
  private int front;
  private int end;

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

  /** The wrapped aggregator. */
  public FifoBase inner() {
    return inner;
  }

  /** The times in the window, oldest first (for tests). */
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

package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.TimedAggregator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * Slicing in front of a shared timed aggregator: the records of one key are grouped into slices
 * {@code [k*g, (k+1)*g)} and the aggregator holds one entry per slice, at time {@code k*g}, whose
 * value is a {@link ProductFunction.Batch} of the slice's records (lifted as their combination in
 * time order, ties in arrival order, each with its own time as lift argument). Because every window
 * start and end is a multiple of g, a range query {@code [start, end - 1]} over slices gives the same
 * result as over the records.
 *
 * <p>A slice that received records since the last query is <em>dirty</em>; before a query, each
 * dirty slice's entry is replaced (exact evict + insert, O(log n + records of the slice)). So with
 * window-end emission the aggregator does about one insert per slice instead of one per record.
 * The slice keeps its records (sorted, O(log s) search + shift per insert) until evicted, so that a
 * late record can be placed among them. {@link #bulkEvict} drops whole slices.
 *
 * <p>Only {@code insert(time, Object)}, {@code bulkEvict}, the queries and the size/time accessors
 * are supported (what the executor uses); exact evict and bulk insert throw.
 */
public final class SlicedAggregator implements TimedAggregator {
  private final TimedAggregator inner;
  private final long width;
  private final InputCheck check;
  private final TreeMap<Long, Slice> slices = new TreeMap<>();
  private final List<Slice> dirty = new ArrayList<>();

  private static final class Slice {
    final long start;
    long[] times = new long[4];
    Object[] values = new Object[4];
    int n;
    boolean inTree;
    boolean dirty;

    Slice(long start) {
      this.start = start;
    }

    void add(long t, Object v) {
      if (n == times.length) {
        times = Arrays.copyOf(times, 2 * n);
        values = Arrays.copyOf(values, 2 * n);
      }
      int i = n;
      if (n > 0 && times[n - 1] > t) { // out of order: after the last record with time <= t
        int lo = 0;
        int hi = n;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (times[mid] <= t) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        i = lo;
        System.arraycopy(times, i, times, i + 1, n - i);
        System.arraycopy(values, i, values, i + 1, n - i);
      }
      times[i] = t;
      values[i] = v;
      n++;
    }
  }

  /**
   * {@code inner}: an empty aggregator of {@code fn}; {@code width}: the slice width g &gt; 0.
   *
   * @param inner an empty aggregator of {@code fn}
   * @param width the slice width g &gt; 0 (ms)
   * @param fn the product function
   */
  public SlicedAggregator(TimedAggregator inner, long width, ProductFunction fn) {
    if (width <= 0) {
      throw new IllegalArgumentException("slice width must be > 0, got " + width);
    }
    this.inner = inner;
    this.width = width;
    this.check = new InputCheck(fn);
  }

  /**
   * The aggregator that holds one entry per slice.
   *
   * @return the inner aggregator
   */
  public TimedAggregator inner() {
    return inner;
  }

  /**
   * The slice width g (ms).
   *
   * @return the slice width
   */
  public long width() {
    return width;
  }

  /**
   * The start of the slice holding time {@code t}.
   *
   * @param t a time
   * @return the slice's start
   */
  public long sliceStart(long t) {
    return Math.floorDiv(t, width) * width;
  }

  @Override
  public void insert(long time, Object value) {
    check.check(value, time);
    long s = sliceStart(time);
    Slice sl = slices.computeIfAbsent(s, Slice::new);
    sl.add(time, value);
    if (!sl.dirty) {
      sl.dirty = true;
      dirty.add(sl);
    }
  }

  @Override
  public void insert(long time, double value) {
    insert(time, (Object) value);
  }

  @Override
  public void insert(long time, long value) {
    insert(time, (Object) value);
  }

  /** Writes the dirty slices into the aggregator. */
  private void flush() {
    for (Slice sl : dirty) {
      if (sl.inTree) {
        inner.evict(sl.start);
      }
      inner.insert(sl.start, new ProductFunction.Batch(Arrays.asList(sl.values).subList(0, sl.n), sl.times));
      sl.inTree = true;
      sl.dirty = false;
    }
    dirty.clear();
  }

  @Override
  public int bulkEvict(long time) {
    flush();
    int n = 0;
    var head = slices.headMap(time, true);
    for (Slice sl : head.values()) {
      if (sl.times[sl.n - 1] > time) {
        throw new IllegalStateException("bulkEvict(" + time + ") would cut slice " + sl.start + " (width " + width
            + "); eviction bounds must be slice-aligned");
      }
      n += sl.n;
    }
    head.clear();
    inner.bulkEvict(time);
    return n;
  }

  @Override
  public boolean evict(long time) {
    throw new UnsupportedOperationException("sliced aggregator: exact evict is not supported; use bulkEvict");
  }

  @Override
  public void bulkInsert(long[] times, double[] values, int from, int len) {
    throw new UnsupportedOperationException("sliced aggregator: bulkInsert is not supported; use insert");
  }

  @Override
  public void bulkInsert(long[] times, Object[] values, int from, int len) {
    throw new UnsupportedOperationException("sliced aggregator: bulkInsert is not supported; use insert");
  }

  @Override
  public Object query() {
    flush();
    return inner.query();
  }

  @Override
  public double queryDouble() {
    flush();
    return inner.queryDouble();
  }

  @Override
  public Object query(long from, long to) {
    flush();
    return inner.query(from, to);
  }

  @Override
  public double queryDouble(long from, long to) {
    flush();
    return inner.queryDouble(from, to);
  }

  @Override
  public long oldestTime() {
    if (slices.isEmpty()) {
      throw new NoSuchElementException("oldestTime() of an empty window");
    }
    return slices.firstEntry().getValue().times[0];
  }

  @Override
  public long youngestTime() {
    if (slices.isEmpty()) {
      throw new NoSuchElementException("youngestTime() of an empty window");
    }
    Slice s = slices.lastEntry().getValue();
    return s.times[s.n - 1];
  }

  /** The slice holding {@code t} (binary search among its records), else the next slice's first record. */
  @Override
  public long ceilingTime(long t) {
    java.util.Map.Entry<Long, Slice> e = slices.ceilingEntry(sliceStart(t));
    while (e != null) {
      Slice sl = e.getValue();
      int lo = 0;
      int hi = sl.n;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (sl.times[mid] < t) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo < sl.n) {
        return sl.times[lo];
      }
      e = slices.higherEntry(e.getKey());
    }
    return Long.MAX_VALUE;
  }

  /** Number of slices. */
  @Override
  public int size() {
    return slices.size();
  }

  @Override
  public String algorithm() {
    return "sliced(" + width + " ms, " + inner.algorithm() + ")";
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return inner.function();
  }
}

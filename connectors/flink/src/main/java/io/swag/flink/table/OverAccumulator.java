package io.swag.flink.table;

import io.swag.core.AggregateFunction;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.api.dataview.MapView;

/**
 * Accumulator of the {@link SwagOverFunction}s: the rows of the OVER frame in arrival order, held
 * by an in-order (FIFO) aggregator, DABA Lite ({@link StateDabaLite}), so accumulating and
 * retracting the oldest row cost O(1) combines worst case whatever the function, and O(1) state
 * work: a structured type whose deque lives in a {@link MapView} field, {@link #getSlots slots}.
 * In Flink's OVER operators that view is backed by keyed map state (RocksDB and ForSt read and
 * write only the entries touched), and the other fields (pointers, the two extra partials, pending
 * retractions: a few dozen bytes for numeric functions) are the accumulator row the operator reads
 * and writes once per key and timestamp.
 *
 * <p>Flink's bounded OVER operators retract exactly the rows that fell out of the frame, which are
 * the oldest ones, but a RANGE frame retracts them in map order; a retracted value that is not the
 * oldest is parked in a multiset until it is, so the result is exact either way (equal values are
 * interchangeable). Invariant: the parked values are values of the frame other than the oldest, so
 * there are fewer of them than the frame holds (a retraction beyond that is an
 * {@link OverStateException}), and the oldest value is never parked.
 *
 * <p>Flink converts the accumulator to and from its internal row with the getters and setters
 * below: {@code setAccumulators} builds a fresh object through the setters (the aggregator is
 * resumed from the fields on first use), {@code getAccumulators} reads it through the getters. The
 * first getter called after a change writes the cached slot chunks back to the view and the
 * aggregator's state to the fields ({@link #sync}), so the view and the accumulator row are written
 * together, once per batch of rows of a key; the setters are for that conversion only.
 */
public final class OverAccumulator {
  private String function;
  /** Quantile rank, NaN when the function has none. */
  private double rank = Double.NaN;
  /** Slots per chunk entry of {@link #slots}; 0 until the first value. */
  private int chunk;
  private long f;
  private long l;
  private long r;
  private long a;
  private long b;
  private long e;
  private byte[] aggRA;
  private byte[] aggB;
  /** The parked retractions ({@link OverValues} and a count each), null when none. */
  private byte[] pending;
  private MapView<Long, byte[]> slots = new MapView<>();

  private transient StateDabaLite daba;
  private transient Map<Object, int[]> parked;
  private transient int parkedCount;
  /** Changed since the fields were last written ({@link #sync}). */
  private transient boolean changed;

  public OverAccumulator() {}

  OverAccumulator(String function) {
    this.function = function;
  }

  // ---- the aggregator ----

  private StateDabaLite daba(AggregateFunction<?, ?, ?> fn) {
    if (daba == null) {
      if (chunk == 0) {
        chunk = StateDabaLite.slotsPerChunk(fn);
      }
      daba = new StateDabaLite(fn, slots, chunk, new long[] {f, l, r, a, b, e}, aggRA, aggB);
      parked = decodePending(pending);
      parkedCount = 0;
      for (int[] n : parked.values()) {
        parkedCount += n[0];
      }
    }
    return daba;
  }

  void setRankOnce(double rank) {
    if (Double.isNaN(this.rank)) {
      this.rank = rank;
      changed = true;
    } else if (this.rank != rank) {
      throw new IllegalArgumentException("the rank must be the same constant for every row; got " + rank
          + " after " + this.rank);
    }
  }

  double rank() {
    return rank;
  }

  String function() {
    return function;
  }

  /** Number of values in the frame. */
  long size(AggregateFunction<?, ?, ?> fn) {
    return daba(fn).size();
  }

  void add(AggregateFunction<?, ?, ?> fn, Object v) {
    StateDabaLite d = daba(fn);
    changed = true;
    d.insert(v); // throws (IllegalArgumentException) before changing anything
  }

  void retract(AggregateFunction<?, ?, ?> fn, Object v) {
    StateDabaLite d = daba(fn);
    long n = d.size();
    if (n == 0) {
      throw new OverStateException("swag " + function + ": retract of " + v + " from an empty OVER frame");
    }
    changed = true;
    if (v.equals(d.oldest())) {
      d.evict();
      // the new oldest value may have been retracted already
      while (parkedCount > 0 && d.size() > 0) {
        Object oldest = d.oldest();
        int[] c = parked.get(oldest);
        if (c == null) {
          break;
        }
        if (--c[0] == 0) {
          parked.remove(oldest);
        }
        parkedCount--;
        d.evict();
      }
      return;
    }
    // parked values are values of the frame other than the oldest: fewer than the frame holds
    if (parkedCount + 1 >= n) {
      throw new OverStateException("swag " + function + ": retract of " + v + ", a value that is not in the OVER"
          + " frame (" + n + " values, " + parkedCount + " retractions waiting for older ones)");
    }
    parked.computeIfAbsent(v, k -> new int[1])[0]++;
    parkedCount++;
  }

  Object query(AggregateFunction<?, ?, ?> fn) {
    StateDabaLite d = daba(fn);
    return d.size() == 0 ? null : d.query();
  }

  /** Empties the frame (and the view). */
  void reset() {
    slots.clear();
    daba = null;
    parked = null;
    parkedCount = 0;
    chunk = 0;
    f = l = r = a = b = e = 0;
    aggRA = aggB = pending = null;
    rank = Double.NaN;
    changed = false;
  }

  /** Writes the cached chunks to the view and the aggregator's state to the fields, if changed. */
  private void sync() {
    if (!changed || daba == null) {
      return;
    }
    changed = false;
    daba.flush();
    long[] p = daba.pointers();
    f = p[0];
    l = p[1];
    r = p[2];
    a = p[3];
    b = p[4];
    e = p[5];
    aggRA = daba.aggRABytes();
    aggB = daba.aggBBytes();
    pending = encodePending(parked, parkedCount);
  }

  private static byte[] encodePending(Map<Object, int[]> m, int count) {
    if (count == 0) {
      return null;
    }
    int n = 4;
    for (Object v : m.keySet()) {
      n += OverValues.size(v) + 4;
    }
    byte[] out = new byte[n];
    ByteBuffer buf = ByteBuffer.wrap(out);
    buf.putInt(m.size());
    for (Map.Entry<Object, int[]> en : m.entrySet()) {
      OverValues.write(en.getKey(), buf);
      buf.putInt(en.getValue()[0]);
    }
    return out;
  }

  private static Map<Object, int[]> decodePending(byte[] bytes) {
    Map<Object, int[]> m = new HashMap<>();
    if (bytes != null) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      int n = in.getInt();
      for (int i = 0; i < n; i++) {
        Object v = OverValues.read(in);
        int c = in.getInt();
        if (c <= 0) {
          throw new OverStateException("a parked retraction counted " + c + " times");
        }
        m.put(v, new int[] {c});
      }
    }
    return m;
  }

  /** The view, without writing anything back (for tests). */
  MapView<Long, byte[]> slotsView() {
    return slots;
  }

  // ---- the structured type's fields (Flink's conversion; see the class comment) ----

  public String getFunction() {
    sync();
    return function;
  }

  public void setFunction(String function) {
    this.function = function;
  }

  public double getRank() {
    sync();
    return rank;
  }

  public void setRank(double rank) {
    this.rank = rank;
  }

  public int getChunk() {
    sync();
    return chunk;
  }

  public void setChunk(int chunk) {
    this.chunk = chunk;
  }

  public long getF() {
    sync();
    return f;
  }

  public void setF(long f) {
    this.f = f;
  }

  public long getL() {
    sync();
    return l;
  }

  public void setL(long l) {
    this.l = l;
  }

  public long getR() {
    sync();
    return r;
  }

  public void setR(long r) {
    this.r = r;
  }

  public long getA() {
    sync();
    return a;
  }

  public void setA(long a) {
    this.a = a;
  }

  public long getB() {
    sync();
    return b;
  }

  public void setB(long b) {
    this.b = b;
  }

  public long getE() {
    sync();
    return e;
  }

  public void setE(long e) {
    this.e = e;
  }

  public byte[] getAggRA() {
    sync();
    return aggRA;
  }

  public void setAggRA(byte[] aggRA) {
    this.aggRA = aggRA;
  }

  public byte[] getAggB() {
    sync();
    return aggB;
  }

  public void setAggB(byte[] aggB) {
    this.aggB = aggB;
  }

  public byte[] getPending() {
    sync();
    return pending;
  }

  public void setPending(byte[] pending) {
    this.pending = pending;
  }

  public MapView<Long, byte[]> getSlots() {
    sync();
    return slots;
  }

  public void setSlots(MapView<Long, byte[]> slots) {
    this.slots = slots;
  }
}

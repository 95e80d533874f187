package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import io.swag.core.FifoAggregator;
import io.swag.core.Partials;
import java.util.NoSuchElementException;

/**
 * Shared skeleton of the FIFO aggregators: the public insert/evict/query methods, the partial store,
 * and a power-of-two ring of positions for deque-based algorithms.
 *
 * <p>Positions are {@code int}s that only move by one and are compared for equality, as in the
 * papers' pointer model (Definition 1 of the DABA Lite paper), so they may wrap around; the
 * physical slot of position {@code p} is {@code base + (p & mask) * stride}. The ring doubles when
 * full and halves when a quarter full, so memory stays within a constant factor of the window
 * (resizing moves partials but never combines them).
 *
 * <p>An insert is: {@link #pushSlot()} returns the slot for the new youngest element without
 * changing the logical state, the store lifts the value into it, then {@link #pushed()} commits.
 * A value the function rejects therefore leaves the aggregator unchanged.
 */
public abstract class FifoBase implements FifoAggregator {
  static final int MIN_CAPACITY = 16;

  /** The aggregate function. */
  protected final AggregateFunction<?, ?, ?> fn;
  /** The store of partials: registers first, then the ring. */
  protected final Partials p;
  private final String name;
  private long seq;

  /** First ring slot (slots below are registers). */
  protected final int base;
  /** Slots per ring element. */
  protected final int stride;
  /** Ring capacity in elements (power of two) and its mask. */
  protected int cap;
  /** {@code cap - 1}, for ring positions modulo the capacity. */
  protected int mask;

  /**
   * For subclasses with {@code registers} slots followed by a ring of elements of {@code stride} slots
   * each.
   *
   * @param name the algorithm's name
   * @param fn the aggregate function
   * @param registers slots before the ring
   * @param stride slots per ring element
   */
  protected FifoBase(String name, AggregateFunction<?, ?, ?> fn, int registers, int stride) {
    this.name = name;
    this.fn = fn;
    this.p = fn.newPartials();
    this.base = registers;
    this.stride = stride;
    this.cap = MIN_CAPACITY;
    this.mask = cap - 1;
    p.resize(registers + cap * stride);
  }

  /**
   * For subclasses that manage their own layout (no ring).
   *
   * @param name the algorithm's name
   * @param fn the aggregate function
   * @param partials the store of partials
   */
  protected FifoBase(String name, AggregateFunction<?, ?, ?> fn, Partials partials) {
    this.name = name;
    this.fn = fn;
    this.p = partials;
    this.base = 0;
    this.stride = 1;
    this.cap = 0;
    this.mask = 0;
  }

  /**
   * Returns the slot that will hold the new youngest element; must not change logical state.
   *
   * @return the slot of the new youngest element
   */
  protected abstract int pushSlot();

  /** Commits the element lifted into the slot returned by {@link #pushSlot()}. */
  protected abstract void pushed();

  /** Removes the oldest element; the window is not empty. */
  protected abstract void evictOldest();

  /**
   * Computes the window aggregate and returns the slot that holds it.
   *
   * @return the slot of the window aggregate
   */
  protected abstract int querySlot();

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
   * Inserts with an explicit {@code arg} (the time, for timestamped windows).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public final void insertArg(double value, long arg) {
    int s = pushSlot();
    p.liftDouble(s, value, arg);
    pushed();
  }

  /**
   * Inserts with an explicit {@code arg} (the time, for timestamped windows).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public final void insertArg(long value, long arg) {
    int s = pushSlot();
    p.liftLong(s, value, arg);
    pushed();
  }

  /**
   * Inserts any value the function accepts with an explicit {@code arg} (the time, for timestamped
   * windows).
   *
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public final void insertArg(Object value, long arg) {
    int s = pushSlot();
    if (value instanceof Double || value instanceof Float) {
      p.liftDouble(s, ((Number) value).doubleValue(), arg);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      p.liftLong(s, ((Number) value).longValue(), arg);
    } else {
      p.liftObject(s, value, arg);
    }
    pushed();
  }

  @Override
  public final void evict() {
    if (size() == 0) {
      throw new NoSuchElementException("evict() on an empty window (algorithm '" + name + "')");
    }
    evictOldest();
  }

  @Override
  public final Object query() {
    return p.lower(querySlot());
  }

  @Override
  public final double queryDouble() {
    return p.lowerDouble(querySlot());
  }

  /**
   * The raw partial aggregate of the window (for tests and engine adapters).
   *
   * @return the window's partial aggregate
   */
  public final Object queryPartial() {
    return p.partial(querySlot());
  }

  @Override
  public final String algorithm() {
    return name;
  }

  @Override
  public final AggregateFunction<?, ?, ?> function() {
    return fn;
  }

  /**
   * The partial store (tests wrap it to count combines).
   *
   * @return the store of partials
   */
  public final Partials partials() {
    return p;
  }

  @Override
  public String toString() {
    return name + "(" + fn.name() + ", n=" + size() + ")";
  }

  // ---- ring helpers ----

  /**
   * Physical slot of ring position {@code pos} (its first slot when stride > 1).
   *
   * @param pos a ring position
   * @return the slot
   */
  protected final int slot(int pos) {
    return base + (pos & mask) * stride;
  }

  /**
   * Grows the ring if {@code count} elements fill it; live positions are {@code [front, front+count)}.
   *
   * @param front the position of the oldest element
   * @param count the number of elements
   */
  protected final void growIfFull(int front, int count) {
    if (count < cap) {
      return;
    }
    if (cap >= (1 << 29) / stride) {
      throw new IllegalStateException("window too large for algorithm '" + name + "': " + count + " elements");
    }
    relocate(front, count, cap * 2);
  }

  /**
   * Halves the ring when a quarter full.
   *
   * @param front the position of the oldest element
   * @param count the number of elements
   */
  protected final void shrinkIfSparse(int front, int count) {
    if (cap > MIN_CAPACITY && count <= cap / 4) {
      relocate(front, count, cap / 2);
    }
  }

  private void relocate(int front, int count, int newCap) {
    int oldMask = mask;
    int newMask = newCap - 1;
    if (newCap > cap) {
      p.resize(base + newCap * stride);
    }
    // Growing: targets are beyond the old capacity or equal to the source. Shrinking: the live
    // range is shorter than newCap, so targets are distinct and never a live source not yet moved.
    for (int i = 0; i < count; i++) {
      int pos = front + i;
      int from = base + (pos & oldMask) * stride;
      int to = base + (pos & newMask) * stride;
      if (from != to) {
        for (int k = 0; k < stride; k++) {
          p.copy(to + k, from + k);
        }
      }
    }
    if (newCap < cap) {
      p.resize(base + newCap * stride);
    }
    cap = newCap;
    mask = newMask;
  }
}

package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;

/**
 * The in-order aggregators on a {@link Partials} store, for any function: the skeleton of the
 * generic classes ({@link DabaLite}, {@link Daba}, {@link TwoStacksLite}, {@link FlatFit}, ...),
 * with a power-of-two ring of positions for deque-based algorithms.
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
public abstract class PartialsFifo extends FifoBase {
  /** The store of partials: registers first, then the ring. */
  protected final Partials p;

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
  protected PartialsFifo(String name, AggregateFunction<?, ?, ?> fn, int registers, int stride) {
    super(name, fn);
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
  protected PartialsFifo(String name, AggregateFunction<?, ?, ?> fn, Partials partials) {
    super(name, fn);
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

  /**
   * Computes the window aggregate and returns the slot that holds it.
   *
   * @return the slot of the window aggregate
   */
  protected abstract int querySlot();

  @Override
  public final void insertArg(double value, long arg) {
    int s = pushSlot();
    p.liftDouble(s, value, arg);
    pushed();
  }

  @Override
  public final void insertArg(long value, long arg) {
    int s = pushSlot();
    p.liftLong(s, value, arg);
    pushed();
  }

  @Override
  protected final void insertObject(Object value, long arg) {
    int s = pushSlot();
    p.liftObject(s, value, arg);
    pushed();
  }

  @Override
  public final Object query() {
    return p.lower(querySlot());
  }

  @Override
  public final double queryDouble() {
    return p.lowerDouble(querySlot());
  }

  @Override
  public final Object queryPartial() {
    return p.partial(querySlot());
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
  public final int allocatedPartials() {
    return p.capacity();
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
      throw new IllegalStateException("window too large for algorithm '" + algorithm() + "': " + count + " elements");
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

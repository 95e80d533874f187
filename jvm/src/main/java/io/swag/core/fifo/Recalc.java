package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * Naive recompute: stores the window's lifted values and folds all of them on every query. O(1)
 * insert and evict, O(n) combines per query, n stored partials. The test oracle and the baseline.
 */
public final class Recalc extends PartialsFifo {
  private static final int RES = 0;
  private int front;
  private int end;

  /**
   * An empty aggregator of {@code fn} that recomputes the window on each query.
   *
   * @param fn the aggregate function
   */
  public Recalc(AggregateFunction<?, ?, ?> fn) {
    super("recalc", fn, 1, 1);
  }

  @Override
  protected int pushSlot() {
    growIfFull(front, end - front);
    return slot(end);
  }

  @Override
  protected void pushed() {
    end++;
  }

  @Override
  protected void evictOldest() {
    p.release(slot(front));
    front++;
    shrinkIfSparse(front, end - front);
  }

  @Override
  protected int querySlot() {
    if (front == end) {
      p.setIdentity(RES);
      return RES;
    }
    p.copy(RES, slot(front));
    for (int i = front + 1; i != end; i++) {
      p.combine(RES, RES, slot(i));
    }
    return RES;
  }

  @Override
  public int size() {
    return end - front;
  }

  @Override
  public long storedPartials() {
    return size();
  }
}

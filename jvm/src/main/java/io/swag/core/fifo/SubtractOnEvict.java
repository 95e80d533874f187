package io.swag.core.fifo;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.AggregateFunction;

/**
 * Subtract-on-evict for invertible functions: a running aggregate {@code agg}; insert combines the
 * new value in, evict removes the oldest with {@code inverse}. Worst-case O(1): one combine per
 * insert, one inverse per evict, none per query; n + 1 stored partials. The running aggregate is
 * reset to the identity whenever the window empties, so floating-point drift cannot outlive a
 * window. Inputs must be finite (an infinity cannot be subtracted back out).
 */
public final class SubtractOnEvict extends PartialsFifo {
  private static final int AGG = 0;
  private int front;
  private int end;

  /**
   * An empty subtract-on-evict aggregator of {@code fn}, which must be invertible.
   *
   * @param fn the aggregate function
   */
  public SubtractOnEvict(AggregateFunction<?, ?, ?> fn) {
    super("soe", requireInvertible(fn), 1, 1);
    p.setIdentity(AGG);
  }

  private static AggregateFunction<?, ?, ?> requireInvertible(AggregateFunction<?, ?, ?> fn) {
    if (!fn.isInvertible()) {
      throw new SwagException(Kind.INCOMPATIBLE_FUNCTION, "algorithm 'soe' (subtract-on-evict) needs an invertible function; '"
          + fn.name() + "' is not invertible (use 'daba_lite' or 'two_stacks_lite')");
    }
    return fn;
  }

  @Override
  protected int pushSlot() {
    growIfFull(front, end - front);
    return slot(end);
  }

  @Override
  protected void pushed() {
    p.combine(AGG, AGG, slot(end));
    end++;
  }

  @Override
  protected void evictOldest() {
    int s = slot(front);
    front++;
    if (front == end) {
      p.setIdentity(AGG);
    } else {
      p.inverse(AGG, AGG, s);
    }
    p.release(s);
    shrinkIfSparse(front, end - front);
  }

  @Override
  protected int querySlot() {
    return AGG;
  }

  @Override
  public int size() {
    return end - front;
  }

  @Override
  public long storedPartials() {
    return size() + 1L;
  }
}

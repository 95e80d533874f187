package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * Two-Stacks (DABA Lite paper, Section 3), on one deque of (val, agg) pairs: the front stack is
 * positions {@code [F, B)}, each agg holding the aggregate from that element to {@code B-1}; the
 * back stack is {@code [B, E)}, each agg holding the aggregate from {@code B} to that element.
 * Query: {@code Π_F ⊗ Π_B}, one combine. Insert: one combine. Evict: amortized one, worst case n
 * (the flip). 2n stored partials.
 */
public final class TwoStacks extends PartialsFifo {
  private static final int RES = 0;
  private int f;
  private int b;
  private int e;

  /**
   * An empty Two-Stacks aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public TwoStacks(AggregateFunction<?, ?, ?> fn) {
    super("two_stacks", fn, 1, 2);
  }

  private int val(int pos) {
    return slot(pos);
  }

  private int agg(int pos) {
    return slot(pos) + 1;
  }

  @Override
  protected int pushSlot() {
    growIfFull(f, e - f);
    return val(e);
  }

  @Override
  protected void pushed() {
    // B.push(v, Π_B ⊗ v)
    if (b == e) {
      p.copy(agg(e), val(e));
    } else {
      p.combine(agg(e), agg(e - 1), val(e));
    }
    e++;
  }

  @Override
  protected void evictOldest() {
    if (f == b) { // flip: reverse the direction of aggregation of the whole back stack
      int i = e - 1;
      p.copy(agg(i), val(i));
      while (i != f) {
        i--;
        p.combine(agg(i), val(i), agg(i + 1));
      }
      b = e;
    }
    p.release(val(f));
    p.release(agg(f));
    f++;
    shrinkIfSparse(f, e - f);
  }

  @Override
  protected int querySlot() {
    if (f == b) {
      if (b == e) {
        p.setIdentity(RES);
      } else {
        p.copy(RES, agg(e - 1));
      }
    } else if (b == e) {
      p.copy(RES, agg(f));
    } else {
      p.combine(RES, agg(f), agg(e - 1));
    }
    return RES;
  }

  @Override
  public int size() {
    return e - f;
  }

  @Override
  public long storedPartials() {
    return 2L * size();
  }
}

package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * Two-Stacks Lite (DABA Lite paper, Section 4): one deque of partials with pointers
 * {@code F <= B <= E} and one extra partial {@code aggB}. Front sublist {@code [F, B)}: each element
 * holds the aggregate from itself to {@code B-1}. Back sublist {@code [B, E)}: plain values, their
 * aggregate in {@code aggB}. Query and insert: one combine; evict: amortized one, worst case n
 * (the flip rewrites the deque in place). n + 1 stored partials.
 */
public final class TwoStacksLite extends PartialsFifo {
  private static final int RES = 0;
  private static final int AGG_B = 1;
  private int f;
  private int b;
  private int e;

  /**
   * An empty Two-Stacks Lite aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public TwoStacksLite(AggregateFunction<?, ?, ?> fn) {
    super("two_stacks_lite", fn, 2, 1);
    p.setIdentity(AGG_B);
  }

  @Override
  protected int pushSlot() {
    growIfFull(f, e - f);
    return slot(e);
  }

  @Override
  protected void pushed() {
    // deque.pushBack(v); E <- E + 1; aggB <- aggB ⊗ v
    int s = slot(e);
    e++;
    if (b == e - 1) {
      p.copy(AGG_B, s);
    } else {
      p.combine(AGG_B, AGG_B, s);
    }
  }

  @Override
  protected void evictOldest() {
    if (f == b && b != e) { // flip
      int i = e - 1;
      while (i != f) {
        i--;
        p.combine(slot(i), slot(i), slot(i + 1));
      }
      b = e;
      p.setIdentity(AGG_B);
    }
    p.release(slot(f));
    f++;
    shrinkIfSparse(f, e - f);
  }

  @Override
  protected int querySlot() {
    // Π_F ⊗ aggB
    if (f == b) {
      p.copy(RES, AGG_B); // aggB is the identity when the back is empty
    } else if (b == e) {
      p.copy(RES, slot(f));
    } else {
      p.combine(RES, slot(f), AGG_B);
    }
    return RES;
  }

  @Override
  public int size() {
    return e - f;
  }

  @Override
  public long storedPartials() {
    return size() + 1L;
  }
}

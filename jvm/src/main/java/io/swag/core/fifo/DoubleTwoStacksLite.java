package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * Two-Stacks Lite (DABA Lite paper, Section 4) on a {@code double[]}: the typed twin of
 * {@link TwoStacksLite}. One deque of partials with pointers {@code F <= B <= E} and one extra
 * partial {@code aggB} (a {@code double} field). Front sublist {@code [F, B)}: each element holds the
 * aggregate from itself to {@code B-1}. Back sublist {@code [B, E)}: plain values, their aggregate in
 * {@code aggB}. Query and insert: one combine; evict: amortized one, worst case n (the flip rewrites
 * the deque in place). n + 1 stored partials.
 */
public final class DoubleTwoStacksLite extends DoubleFifo {
  private double aggB;
  private int f;
  private int b;
  private int e;

  /**
   * An empty Two-Stacks Lite aggregator of {@code op}.
   *
   * @param op the function
   */
  public DoubleTwoStacksLite(ScalarDoubleFunction op) {
    super("two_stacks_lite", op, 1);
    aggB = op.identityValue();
  }

  @Override
  protected void push(double v) {
    // deque.pushBack(v); E <- E + 1; aggB <- aggB ⊗ v
    growIfFull(f, e - f);
    double[] q = deque;
    q[e & (q.length - 1)] = v;
    aggB = b == e ? v : op.combineValues(aggB, v);
    e++;
  }

  @Override
  protected void evictOldest() {
    if (f == b && b != e) { // flip
      double[] q = deque;
      int m = q.length - 1;
      int i = e - 1;
      while (i != f) {
        i--;
        q[i & m] = op.combineValues(q[i & m], q[(i + 1) & m]);
      }
      b = e;
      aggB = op.identityValue();
    }
    f++;
    shrinkIfSparse(f, e - f);
  }

  @Override
  protected double aggregate() {
    // Π_F ⊗ aggB
    if (f == b) {
      return aggB; // the identity when the back is empty
    }
    double[] q = deque;
    double front = q[f & (q.length - 1)];
    return b == e ? front : op.combineValues(front, aggB);
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

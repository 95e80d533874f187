package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * FlatFIT (Shein, Chrysanthis, Labrinidis: FlatFIT, SSDBM 2017, Section 3.2, Algorithm 1), dynamic
 * as in the DABA Lite paper (Section 7), on a {@code double[]}: the typed twin of {@link FlatFit},
 * same pointers, same path compression, same combines.
 *
 * <h2>Structure</h2>
 * A ring of window positions {@code F <= i < E}; each position holds a partial {@code Partials[i]}
 * (in {@link #deque}) and a pointer {@code Pointers[i]} (an {@code int[]} indexed like the ring).
 * Pointers hold logical positions, so resizing the ring moves entries but never rewrites a pointer.
 * The {@code Positions} stack is one {@code int[]} reused by every query.
 *
 * <h2>Invariants</h2>
 * For every live position {@code i}: {@code i < Pointers[i] <= E} and
 * {@code Partials[i] = v_i ⊕ ... ⊕ v_(Pointers[i] - 1)}; the intervals {@code [i, Pointers[i])} are
 * laminar. Insert and evict: no combine. A query pushes the positions on the path
 * {@code F -> ... -> E}, then pops them newest first, writing {@code Partials[t] = Partials[t] ⊕
 * answer} and {@code Pointers[t] = E} at each; the answer is returned (and is {@code Partials[F]}).
 * Complexity as {@link FlatFit}: {@code L - 1} combines for a path of {@code L} positions, about 3
 * per slide of a fixed-size window. n + 1 stored partials (counting the identity, as FlatFit does).
 */
public final class DoubleFlatFit extends DoubleFifo {
  private int f;
  private int e;
  /** Pointers, indexed by {@code position & mask}. */
  private int[] pointers;
  /**
   * The Positions stack, always {@link #cap} long: a path holds distinct live positions, so the
   * walk needs no test for room (that test, with the field write of its growth, cost 14 % of a
   * round at n = 2^22).
   */
  private int[] positions;

  /**
   * An empty FlatFIT aggregator of {@code op}.
   *
   * @param op the function
   */
  public DoubleFlatFit(ScalarDoubleFunction op) {
    super("flatfit", op, 1);
    pointers = new int[cap];
    positions = new int[cap];
  }

  @Override
  protected void push(double v) {
    // Partials[prevInd] = newPartial; Pointers[prevInd] = currInd
    growIfFull(f, e - f);
    int i = e & mask;
    deque[i] = v;
    pointers[i] = e + 1;
    e++;
  }

  @Override
  protected void evictOldest() {
    f++;
    shrinkIfSparse(f, e - f);
  }

  @Override
  protected double aggregate() {
    if (f == e) {
      return op.identityValue();
    }
    int m = mask;
    int[] ptr = pointers;
    // do Positions.push(startInd); startInd = Pointers[startInd] while startInd != currInd
    int[] stack = positions;
    int top = 0;
    int i = f;
    do {
      stack[top++] = i;
      i = ptr[i & m];
    } while (i != e);
    // Pop newest first: answer = Partials[t] ⊕ answer, written back with Pointers[t] = E.
    double[] q = deque;
    double answer = q[stack[--top] & m];
    while (top > 0) {
      int t = stack[--top] & m;
      answer = op.combineValues(q[t], answer);
      q[t] = answer;
      ptr[t] = e;
    }
    return answer;
  }

  @Override
  public int size() {
    return e - f;
  }

  /** n + 1: the window's partials and the identity (as {@link FlatFit} counts). */
  @Override
  public long storedPartials() {
    return size() + 1L;
  }

  @Override
  protected void relocated(int front, int count, int oldCap) {
    pointers = FlatFit.movePointers(pointers, front, front + count, oldCap, cap);
    positions = new int[cap];
  }

  /**
   * Verifies the pointer invariants: every live position points forward to at most {@code E}, and
   * the intervals {@code [i, Pointers[i])} are laminar. O(n). For tests.
   *
   * @throws IllegalStateException describing the first violation
   */
  public void checkInvariants() {
    FlatFit.checkPointers(f, e, cap, mask, pointers);
  }
}

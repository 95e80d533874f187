package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * FlatFIT (Shein, Chrysanthis, Labrinidis: FlatFIT, SSDBM 2017, Section 3.2, Algorithm 1) for one
 * whole-window query, made dynamic as in the DABA Lite paper (Section 7): the circular buffer grows
 * and shrinks by array doubling / halving without disturbing the pointer structure.
 *
 * <h2>Structure</h2>
 * A ring of window positions {@code F <= i < E} ({@code int}s compared only for equality, so they
 * may wrap around); each position holds a partial {@code Partials[i]} (in the store) and a pointer
 * {@code Pointers[i]} (an {@code int[]} beside it, indexed like the ring). Pointers hold logical
 * positions, not array indices, so resizing the ring moves entries but never rewrites a pointer.
 * The {@code Positions} stack is one {@code int[]} reused by every query, grown by doubling when a
 * traversal needs more room and trimmed only when the ring shrinks.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>For every live position {@code i}: {@code i < Pointers[i] <= E} and
 *       {@code Partials[i] = v_i ⊕ ... ⊕ v_(Pointers[i] - 1)}. Hence following pointers from
 *       {@code F} reaches {@code E}, and the partials on the way, combined oldest first, are the
 *       window aggregate.
 *   <li>The intervals {@code [i, Pointers[i])} are laminar (any two are nested or disjoint).
 * </ul>
 * Insert writes {@code Partials[E] = lift(v)}, {@code Pointers[E] = E + 1}; evict drops {@code F};
 * neither combines. A query pushes the positions on the path {@code F -> ... -> E}, then pops them
 * newest first, writing {@code Partials[t] = Partials[t] ⊕ answer} and {@code Pointers[t] = E} at
 * each (path compression, lines 35-44 of Algorithm 1 with the operands in window order, and also
 * at {@code F}, which the fixed-size original skips because it is overwritten next): the answer
 * ends up in {@code Partials[F]}.
 *
 * <h2>Complexity</h2>
 * Insert and evict: no combine, O(1) amortized time (O(n) when the ring resizes; moves only). Query:
 * {@code L - 1} combines for a path of {@code L} positions: O(1) amortized for FIFO use (about 3
 * per slide for a sliding window of fixed size, Section 4.1), worst case {@code n - 1} (the paper's
 * {@code wReset}, once every {@code n + 1} slides of a fixed window). Space: {@code n + 1}
 * partials (the window and a register holding the identity), the ring of pointers
 * ({@code n <= cap}, {@code cap <= max(16, 4n)} after any eviction) and the stack, at most
 * {@code cap} {@code int}s.
 */
public final class FlatFit extends PartialsFifo {
  private static final int IDENTITY = 0;
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
   * An empty FlatFIT aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public FlatFit(AggregateFunction<?, ?, ?> fn) {
    super("flatfit", fn, 1, 1);
    p.setIdentity(IDENTITY);
    pointers = new int[cap];
    positions = new int[cap];
  }

  @Override
  protected int pushSlot() {
    int oldCap = cap;
    growIfFull(f, e - f);
    if (cap != oldCap) {
      relocatePointers(oldCap);
    }
    return slot(e);
  }

  @Override
  protected void pushed() {
    // Partials[prevInd] = newPartial; Pointers[prevInd] = currInd
    pointers[e & mask] = e + 1;
    e++;
  }

  @Override
  protected void evictOldest() {
    p.release(slot(f));
    f++;
    int oldCap = cap;
    shrinkIfSparse(f, e - f);
    if (cap != oldCap) {
      relocatePointers(oldCap);
    }
  }

  @Override
  protected int querySlot() {
    if (f == e) {
      return IDENTITY;
    }
    // do Positions.push(startInd); startInd = Pointers[startInd] while startInd != currInd
    int[] stack = positions;
    int top = 0;
    int i = f;
    do {
      stack[top++] = i;
      i = pointers[i & mask];
    } while (i != e);
    // Pop newest first: answer = Partials[t] ⊕ answer, written back with Pointers[t] = E.
    int answer = slot(stack[--top]);
    while (top > 0) {
      int t = stack[--top];
      int s = slot(t);
      p.combine(s, s, answer);
      pointers[t & mask] = e;
      answer = s;
    }
    return answer;
  }

  @Override
  public int size() {
    return e - f;
  }

  /** n + 1: the window's partials and the identity register. */
  @Override
  public long storedPartials() {
    return size() + 1L;
  }

  private void relocatePointers(int oldCap) {
    pointers = movePointers(pointers, f, e, oldCap, cap);
    positions = new int[cap];
  }

  /**
   * The Pointers array of a ring moved from {@code oldCap} to {@code newCap} elements (shared with
   * {@link DoubleFlatFit}): the entries of the live positions {@code F <= i < E} move to their slots
   * in the new ring; their values, logical positions, stay as they are.
   */
  static int[] movePointers(int[] pointers, int f, int e, int oldCap, int newCap) {
    int oldMask = oldCap - 1;
    int newMask = newCap - 1;
    int[] moved = new int[newCap];
    for (int i = f; i != e; i++) {
      moved[i & newMask] = pointers[i & oldMask];
    }
    return moved;
  }

  /**
   * Verifies the pointer invariants: every live position points forward to at most {@code E}, and
   * the intervals {@code [i, Pointers[i])} are laminar. O(n). For tests.
   *
   * @throws IllegalStateException describing the first violation
   */
  public void checkInvariants() {
    checkPointers(f, e, cap, mask, pointers);
  }

  /** The pointer invariants of a FlatFIT ring (shared with {@link DoubleFlatFit}). */
  static void checkPointers(int f, int e, int cap, int mask, int[] pointers) {
    int n = e - f;
    if (n < 0 || n > cap || pointers.length != cap || Integer.bitCount(cap) != 1) {
      throw new IllegalStateException("bad ring: n=" + n + ", cap=" + cap + ", pointers=" + pointers.length);
    }
    // Offsets from F; a stack of the ends of the intervals that contain the current offset.
    int[] ends = new int[n + 1];
    int depth = 0;
    for (int k = 0; k < n; k++) {
      int to = pointers[(f + k) & mask] - f;
      if (to <= k || to > n) {
        throw new IllegalStateException("position F+" + k + " points to F+" + to + ", outside (F+" + k + ", E=F+" + n + "]");
      }
      while (depth > 0 && ends[depth - 1] <= k) {
        depth--;
      }
      if (depth > 0 && to > ends[depth - 1]) {
        throw new IllegalStateException("interval [F+" + k + ", F+" + to + ") crosses [.., F+" + ends[depth - 1] + ")");
      }
      ends[depth++] = to;
    }
  }
}

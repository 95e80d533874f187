package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * DABA, the De-Amortized Banker's Aggregator (DABA Lite paper, Section 5): a deque of
 * (val, agg) pairs with pointers {@code F <= L <= R <= A <= B <= E}. Sublists {@code l_F, l_L, l_A}
 * are aggregated to the left, {@code l_R, l_B} to the right; {@link #fixup()} performs one step of
 * incremental reversal per insert or evict (cases singleton, flip, shift, shrink), so every
 * operation is worst-case O(1): at most 1 combine per query, 4 per insert, 3 per evict. 2n stored
 * partials.
 *
 * <p>Invariants (checked by {@code checkInvariants}): the size invariant
 * {@code (|l_F| = 0 ∧ |l_B| = 0) ∨ (|l_L| + |l_R| + |l_A| + 1 = |l_F| - |l_B| ∧ |l_L| = |l_R|)}
 * and the partial-aggregate invariants of the paper.
 */
public final class Daba extends PartialsFifo {
  private static final int RES = 0;
  private int f;
  private int l;
  private int r;
  private int a;
  private int b;
  private int e;

  /**
   * An empty DABA aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public Daba(AggregateFunction<?, ?, ?> fn) {
    super("daba", fn, 1, 2);
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
    // deque.pushBack(v, Π_B ⊗ v)
    if (b == e) {
      p.copy(agg(e), val(e));
    } else {
      p.combine(agg(e), agg(e - 1), val(e));
    }
    e++;
    fixup();
  }

  @Override
  protected void evictOldest() {
    p.release(val(f));
    p.release(agg(f));
    f++;
    fixup();
    shrinkIfSparse(f, e - f);
  }

  private void fixup() {
    if (f == b) { // singleton
      b = e;
      a = e;
      r = e;
      l = e;
    } else {
      if (l == b) { // flip
        l = f;
        a = e;
        b = e;
      }
      if (l == r) { // shift
        a++;
        r++;
        l++;
      } else { // shrink
        // *L.agg <- Π_L ⊗ Π_R ⊗ Π_A   (Π_L = *L.agg and Π_R = *(A-1).agg, as l_L and l_R are non-empty)
        p.combine(agg(l), agg(l), agg(a - 1));
        if (a != b) {
          p.combine(agg(l), agg(l), agg(a));
        }
        l++;
        // *(A-1).agg <- *(A-1).val ⊗ Π_A
        if (a != b) {
          p.combine(agg(a - 1), val(a - 1), agg(a));
        } else {
          p.copy(agg(a - 1), val(a - 1));
        }
        a--;
      }
    }
  }

  @Override
  protected int querySlot() {
    // Π_F ⊗ Π_B
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

  /**
   * Pointer offsets from F: {L, R, A, B, E} (for tests).
   *
   * @return the offsets of L, R, A, B and E from F
   */
  public int[] pointers() {
    return new int[] {l - f, r - f, a - f, b - f, e - f};
  }

  /**
   * The val field at offset {@code i} from F (for invariant checks).
   *
   * @param i the offset from F
   * @return the element's value partial
   */
  public Object valAt(int i) {
    return p.partial(val(f + i));
  }

  /**
   * The agg field at offset {@code i} from F (for invariant checks).
   *
   * @param i the offset from F
   * @return the element's aggregate partial
   */
  public Object aggAt(int i) {
    return p.partial(agg(f + i));
  }
}

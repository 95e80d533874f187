package io.swag.core.fifo;

import io.swag.core.AggregateFunction;

/**
 * DABA Lite (DABA Lite paper, Section 6): a deque of partials with pointers
 * {@code F <= L <= R <= A <= B <= E} and two extra partials {@code aggRA} and {@code aggB}.
 * Sublists {@code l_F}, {@code l_L}, {@code l_A} hold aggregates to the right end of their sublist
 * ({@code l_F} and {@code l_A}: to {@code B-1}); {@code l_R} and {@code l_B} hold plain values,
 * with {@code aggRA = agg(l_R ++ l_A)} (when {@code L != R}) and {@code aggB = agg(l_B)}.
 *
 * <p>Worst-case O(1): at most 1 combine per query, 3 per insert, 2 per evict (on average 2 and 1).
 * n + 2 stored partials. The deque is a power-of-two ring that doubles or halves; a resize moves
 * partials but never combines them.
 */
public final class DabaLite extends PartialsFifo {
  private static final int RES = 0;
  private static final int AGG_RA = 1;
  private static final int AGG_B = 2;
  private int f;
  private int l;
  private int r;
  private int a;
  private int b;
  private int e;

  /**
   * An empty DABA Lite aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public DabaLite(AggregateFunction<?, ?, ?> fn) {
    super("daba_lite", fn, 3, 1);
    p.setIdentity(AGG_RA);
    p.setIdentity(AGG_B);
  }

  @Override
  protected int pushSlot() {
    growIfFull(f, e - f);
    return slot(e);
  }

  @Override
  protected void pushed() {
    // deque.pushBack(v); E <- E + 1; aggB <- aggB ⊗ v; fixup()
    int s = slot(e);
    if (b == e) {
      p.copy(AGG_B, s);
    } else {
      p.combine(AGG_B, AGG_B, s);
    }
    e++;
    fixup();
  }

  @Override
  protected void evictOldest() {
    // F <- F + 1; deque.popFront(); fixup()
    p.release(slot(f));
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
      p.setIdentity(AGG_RA);
      p.setIdentity(AGG_B);
    } else {
      if (l == b) { // flip
        l = f;
        a = e;
        b = e;
        p.copy(AGG_RA, AGG_B);
        p.setIdentity(AGG_B);
      }
      if (l == r) { // shift
        a++;
        r++;
        l++;
      } else { // shrink
        // *L <- Π_L ⊗ aggRA   (Π_L = *L because L != R)
        p.combine(slot(l), slot(l), AGG_RA);
        l++;
        // *(A-1) <- *(A-1) ⊗ Π_A
        if (a != b) {
          p.combine(slot(a - 1), slot(a - 1), slot(a));
        }
        a--;
      }
    }
  }

  @Override
  protected int querySlot() {
    // Π_F ⊗ aggB
    if (f == b) {
      p.copy(RES, AGG_B);
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

  /** n + 2: the deque plus aggRA and aggB. */
  @Override
  public long storedPartials() {
    return size() + 2L;
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
   * Deque element at offset {@code i} from F (for invariant checks).
   *
   * @param i the offset from F
   * @return the partial at that offset
   */
  public Object at(int i) {
    return p.partial(slot(f + i));
  }

  /**
   * The partial of the elements from R to A (for invariant checks).
   *
   * @return the partial
   */
  public Object aggRA() {
    return p.partial(AGG_RA);
  }

  /**
   * The partial of the elements from B to the end (for invariant checks).
   *
   * @return the partial
   */
  public Object aggB() {
    return p.partial(AGG_B);
  }
}

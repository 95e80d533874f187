package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * DABA Lite (DABA Lite paper, Section 6) on a {@code double[]}: the typed twin of {@link DabaLite},
 * same pointers, cases and combines. A deque of partials with pointers
 * {@code F <= L <= R <= A <= B <= E} and two extra partials {@code aggRA} and {@code aggB} (here
 * {@code double} fields). Sublists {@code l_F}, {@code l_L}, {@code l_A} hold aggregates to the right
 * end of their sublist ({@code l_F} and {@code l_A}: to {@code B-1}); {@code l_R} and {@code l_B}
 * hold plain values, with {@code aggRA = agg(l_R ++ l_A)} (when {@code L != R}) and
 * {@code aggB = agg(l_B)}.
 *
 * <p>Worst-case O(1): at most 1 combine per query, 3 per insert, 2 per evict (on average 2 and 1).
 * n + 2 stored partials.
 */
public final class DoubleDabaLite extends DoubleFifo {
  private double aggRA;
  private double aggB;
  private int f;
  private int l;
  private int r;
  private int a;
  private int b;
  private int e;

  /**
   * An empty DABA Lite aggregator of {@code op}.
   *
   * @param op the function
   */
  public DoubleDabaLite(ScalarDoubleFunction op) {
    super("daba_lite", op, 1);
    aggRA = op.identityValue();
    aggB = op.identityValue();
  }

  @Override
  protected void push(double v) {
    // deque.pushBack(v); E <- E + 1; aggB <- aggB ⊗ v; fixup()
    growIfFull(f, e - f);
    double[] q = deque;
    q[e & (q.length - 1)] = v;
    aggB = b == e ? v : op.combineValues(aggB, v);
    e++;
    fixup();
  }

  @Override
  protected void evictOldest() {
    // F <- F + 1; deque.popFront(); fixup()
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
      aggRA = op.identityValue();
      aggB = op.identityValue();
    } else {
      if (l == b) { // flip
        l = f;
        a = e;
        b = e;
        aggRA = aggB;
        aggB = op.identityValue();
      }
      if (l == r) { // shift
        a++;
        r++;
        l++;
      } else { // shrink
        double[] q = deque;
        int m = q.length - 1;
        // *L <- Π_L ⊗ aggRA   (Π_L = *L because L != R)
        q[l & m] = op.combineValues(q[l & m], aggRA);
        l++;
        // *(A-1) <- *(A-1) ⊗ Π_A
        if (a != b) {
          q[(a - 1) & m] = op.combineValues(q[(a - 1) & m], q[a & m]);
        }
        a--;
      }
    }
  }

  @Override
  protected double aggregate() {
    // Π_F ⊗ aggB
    if (f == b) {
      return aggB;
    }
    double[] q = deque;
    double front = q[f & (q.length - 1)];
    return b == e ? front : op.combineValues(front, aggB);
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
  public double at(int i) {
    return deque[(f + i) & mask];
  }

  /**
   * The partial of the elements from R to A (for invariant checks).
   *
   * @return the partial
   */
  public double aggRA() {
    return aggRA;
  }

  /**
   * The partial of the elements from B to the end (for invariant checks).
   *
   * @return the partial
   */
  public double aggB() {
    return aggB;
  }
}

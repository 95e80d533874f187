package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * DABA, the De-Amortized Banker's Aggregator (DABA Lite paper, Section 5), on a {@code double[]}:
 * the typed twin of {@link Daba}, same pointers, cases and combines. A deque of (val, agg) pairs,
 * interleaved in one array (element {@code i} at {@code 2i} and {@code 2i + 1}), with pointers
 * {@code F <= L <= R <= A <= B <= E}. Sublists {@code l_F, l_L, l_A} are aggregated to the left,
 * {@code l_R, l_B} to the right; {@link #fixup()} performs one step of incremental reversal per
 * insert or evict (cases singleton, flip, shift, shrink), so every operation is worst-case O(1): at
 * most 1 combine per query, 4 per insert, 3 per evict. 2n stored partials.
 *
 * <p>Invariants: the size invariant
 * {@code (|l_F| = 0 ∧ |l_B| = 0) ∨ (|l_L| + |l_R| + |l_A| + 1 = |l_F| - |l_B| ∧ |l_L| = |l_R|)}
 * and the partial-aggregate invariants of the paper.
 */
public final class DoubleDaba extends DoubleFifo {
  private int f;
  private int l;
  private int r;
  private int a;
  private int b;
  private int e;

  /**
   * An empty DABA aggregator of {@code op}.
   *
   * @param op the function
   */
  public DoubleDaba(ScalarDoubleFunction op) {
    super("daba", op, 2);
  }

  // Indexes masked by the array's own length (2 cap), which lets the JIT drop the bounds checks:
  // (2 pos) & (2 cap - 1) == 2 (pos & (cap - 1)).

  private static int val(double[] q, int pos) {
    return (pos << 1) & (q.length - 1);
  }

  private static int agg(double[] q, int pos) {
    return ((pos << 1) | 1) & (q.length - 1);
  }

  @Override
  protected void push(double v) {
    // deque.pushBack(v, Π_B ⊗ v)
    growIfFull(f, e - f);
    double[] q = deque;
    q[val(q, e)] = v;
    q[agg(q, e)] = b == e ? v : op.combineValues(q[agg(q, e - 1)], v);
    e++;
    fixup();
  }

  @Override
  protected void evictOldest() {
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
        double[] q = deque;
        // *L.agg <- Π_L ⊗ Π_R ⊗ Π_A   (Π_L = *L.agg and Π_R = *(A-1).agg, as l_L and l_R are non-empty)
        double x = op.combineValues(q[agg(q, l)], q[agg(q, a - 1)]);
        if (a != b) {
          x = op.combineValues(x, q[agg(q, a)]);
        }
        q[agg(q, l)] = x;
        l++;
        // *(A-1).agg <- *(A-1).val ⊗ Π_A
        q[agg(q, a - 1)] = a != b ? op.combineValues(q[val(q, a - 1)], q[agg(q, a)]) : q[val(q, a - 1)];
        a--;
      }
    }
  }

  @Override
  protected double aggregate() {
    // Π_F ⊗ Π_B
    double[] q = deque;
    if (f == b) {
      return b == e ? op.identityValue() : q[agg(q, e - 1)];
    }
    return b == e ? q[agg(q, f)] : op.combineValues(q[agg(q, f)], q[agg(q, e - 1)]);
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
  public double valAt(int i) {
    return deque[val(deque, f + i)];
  }

  /**
   * The agg field at offset {@code i} from F (for invariant checks).
   *
   * @param i the offset from F
   * @return the element's aggregate partial
   */
  public double aggAt(int i) {
    return deque[agg(deque, f + i)];
  }
}

package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Reactive Aggregator over a FlatFAT (Tangwongsan, Hirzel, Schneider, Wu: General Incremental
 * Sliding-Window Aggregation, VLDB 2015, Sections 4-5): a complete binary tree of partials kept flat
 * in one array in heap layout, whose leaves are a circular buffer of window positions.
 *
 * <h2>Layout</h2>
 * With {@code cap} leaves (a power of two, at least 16), tree node {@code h} ({@code 1 <= h < 2 cap};
 * root 1, children {@code 2h} and {@code 2h+1}) lives in store slot {@code h}, so leaf {@code i} is
 * slot {@code cap + i}. Slot 0 (unused by the heap numbering) is the result register and slot
 * {@code 2 cap} a scratch register: {@code 2 cap + 1} slots in all. Window positions are
 * {@code int}s {@code front <= pos < end}; position {@code pos} is leaf {@code pos & (cap - 1)}.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Every leaf that holds no live element (outside {@code [front, end)}, or a hole inside it)
 *       holds the identity, so the root of a window that does not wrap around the leaf array is
 *       the window aggregate as it is (the paper's {@code aggregate()}).
 *   <li>{@code front} is live whenever the window is not empty (holes at the front are dropped as
 *       soon as they appear), so {@code size() == 0} implies {@code front == end}.
 *   <li>Equation (4.1), {@code T(v) = T(left(v)) ⊕ T(right(v))}, holds for every internal node
 *       except ancestors of the leaves in the dirty list. Inserts, evictions and in-place updates
 *       only write a leaf and append it to the dirty list (deduplicated by a mark bit per node);
 *       the next query {@link #repair repairs} the tree (Algorithm 2, lines 3-9, batched).
 *   <li>{@code span() = end - front <= cap}; {@code size()} counts the live elements in it.
 * </ul>
 *
 * <h2>Complexity</h2>
 * Counted in calls of the function's combine; n = window size, m = number of inserts, evictions and
 * updates since the previous query.
 * <ul>
 *   <li>insert, {@link #evict()}, {@link #evictAt}, {@link #update}: no combine, O(1) amortized
 *       time (a leaf write and a dirty-list append; amortized resizing, below).
 *   <li>query: at most {@code m (1 + ceil(log2(cap / m)))} combines to repair the tree, i.e.
 *       O(m + m log(n / m)) (Theorem 4.2), then none if the live positions do not wrap around the
 *       leaf array (the root is the answer) and at most {@code 2 log2(cap) + 1} if they do
 *       ({@code suffix(front) ⊕ prefix(back)}, Section 5.1.2). With a query after every insert
 *       and evict this is O(log n) per operation.
 *   <li>resize (paper: {@code resize} and {@code compact}, Section 5.1.1): when an insert finds the
 *       leaf array full, the tree is rebuilt (Algorithm 1, {@code cap - 1} combines) with double
 *       the capacity if more than three quarters of the span is live, else at the same capacity
 *       with the holes squeezed out; after any eviction that leaves at most {@code cap / 4} live
 *       elements the tree is rebuilt at half the capacity. A rebuild leaves at most
 *       {@code 3 cap / 4} live elements and no holes, so at least {@code cap / 4} operations
 *       separate two rebuilds: O(1) amortized time and combines per operation.
 *   <li>space: {@link #storedPartials()} {@code = 2 cap + 1} partials, where {@code cap == 16} or
 *       {@code cap < 4 n} at all times (so at most {@code 8 n + 1}, and about {@code 2 n} to
 *       {@code 4 n} for a steady window); plus three bits and one {@code int} per leaf for
 *       bookkeeping.
 * </ul>
 *
 * <p>Operand order: every combine puts the older partial on the left, so the function need not be
 * commutative. Only the resizes allocate.
 */
public final class FlatFat extends PartialsFifo {
  private static final int RES = 0;

  /** Logical position of the oldest slot (live unless the window is empty) and one past the newest. */
  private int front;
  private int end;
  /** Number of live elements in {@code [front, end)}. */
  private int live;
  /** One bit per leaf: holds a live element. */
  private long[] present;
  /** One bit per tree node: in the dirty list / the current work list. */
  private long[] marks;
  /** Dirty leaves, and the work lists W_l of {@link #repair} (reused in place). */
  private int[] dirty;
  private int dirtyCount;
  /** Number of {@link #pushSlot()} calls: the arg of {@link #update(int, double)}. */
  private long pushes;

  /**
   * An empty FlatFAT aggregator of {@code fn}.
   *
   * @param fn the aggregate function
   */
  public FlatFat(AggregateFunction<?, ?, ?> fn) {
    // Own layout (no FifoBase ring); FifoBase's cap and mask are the number of leaves and its mask.
    super("flatfat", fn, fn.newPartials());
    cap = MIN_CAPACITY;
    mask = cap - 1;
    p.resize(2 * cap + 1);
    allocateBookkeeping();
  }

  private int tmp() {
    return 2 * cap;
  }

  // ---- FifoBase hooks ----

  @Override
  protected int pushSlot() {
    if (end - front == cap) {
      makeRoom(1);
    }
    pushes++;
    // Lift into the scratch register: a value the function rejects must not leave a half-written
    // leaf, since every non-live leaf has to stay the identity.
    return tmp();
  }

  @Override
  protected void pushed() {
    int i = end & mask;
    int leaf = cap + i;
    p.copy(leaf, tmp());
    present[i >>> 6] |= 1L << i;
    markDirty(leaf);
    end++;
    live++;
  }

  @Override
  protected void evictOldest() {
    removeLeaf(front & mask);
    front++;
    skipFrontHoles();
    shrinkIfSparse();
  }

  @Override
  protected int querySlot() {
    repair();
    if (live == 0) {
      p.setIdentity(RES);
      return RES;
    }
    int f = front & mask;
    int b = (end - 1) & mask;
    if (f <= b) {
      return aggregate(); // the leaves outside [f, b] are the identity
    }
    // Inverted buffer: suffix(F) ⊕ prefix(B).
    suffix(f, RES);
    prefix(b, tmp());
    p.combine(RES, RES, tmp());
    return RES;
  }

  @Override
  public int size() {
    return live;
  }

  /** {@code 2 cap + 1}: the {@code 2 cap - 1} tree nodes, the result and the scratch register. */
  @Override
  public long storedPartials() {
    return 2L * cap + 1;
  }

  // ---- non-FIFO operations ----

  /**
   * Number of window slots from the oldest live element to the newest slot, holes included: the
   * range of valid offsets for {@link #evictAt} and {@link #update}. Offsets are stable only until
   * the tree is rebuilt: an insert into a full leaf array or an eviction down to a quarter of the
   * capacity squeezes the holes out (the paper's {@code compact} / {@code resize}), after which
   * {@code span() == size()}.
   *
   * @return the number of slots from the oldest live element to the newest
   */
  public int span() {
    return end - front;
  }

  /**
   * Number of leaves (window slots) the tree has room for; a power of two.
   *
   * @return the number of leaves
   */
  public int capacity() {
    return cap;
  }

  /**
   * Whether the slot at {@code offset} from the oldest holds an element (false for a hole).
   *
   * @param offset the slot's offset from the oldest element
   * @return true if the slot holds an element
   */
  public boolean isLive(int offset) {
    checkOffset(offset);
    return isPresent((front + offset) & mask);
  }

  /**
   * Evicts the element {@code offset} slots after the oldest one (0 = the oldest; holes count as
   * slots), leaving a hole: later elements keep their offsets, except that holes reaching the front
   * are dropped at once (so {@code evictAt(0)} is {@link #evict()} and shifts every offset) and
   * that a rebuild squeezes all holes out (see {@link #span()}). O(1) amortized, no combine (the
   * tree is repaired at the next query).
   *
   * @param offset the element's offset from the oldest element
   * @throws IndexOutOfBoundsException unless {@code 0 <= offset < span()}
   * @throws NoSuchElementException if the slot is already a hole
   */
  public void evictAt(int offset) {
    int i = liveLeafIndex(offset);
    removeLeaf(i);
    if (offset == 0) {
      front++;
      skipFrontHoles();
    }
    shrinkIfSparse();
  }

  /**
   * Replaces the element at {@code offset} (see {@link #evictAt}) by {@code lift(value, arg)} in
   * place. Its {@code arg} is the number of inserts so far, which is the sequence number the next
   * {@code insert(value)} gets when values are only inserted that way: the new value counts as the
   * newest arrival, stored at the old element's position (the replaced element's own arg is not
   * kept). Use {@link #updateArg} to choose the arg, e.g. the element's time or sequence number.
   * O(1), no combine.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   * @throws IndexOutOfBoundsException unless {@code 0 <= offset < span()}
   * @throws NoSuchElementException if the slot is a hole
   */
  public void update(int offset, double value) {
    updateArg(offset, value, pushes);
  }

  /**
   * See {@link #update(int, double)}.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   */
  public void update(int offset, long value) {
    updateArg(offset, value, pushes);
  }

  /**
   * See {@link #update(int, double)}; numbers are lifted as by {@link #insert(Object)}.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   */
  public void update(int offset, Object value) {
    updateArg(offset, value, pushes);
  }

  /**
   * Replaces the element at {@code offset} by {@code lift(value, arg)}; see
   * {@link #update(int, double)}.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   * @param arg the new value's time or sequence number
   */
  public void updateArg(int offset, double value, long arg) {
    int i = liveLeafIndex(offset);
    p.liftDouble(tmp(), value, arg);
    replaceLeaf(i);
  }

  /**
   * Replaces the element at {@code offset} by {@code lift(value, arg)}; see
   * {@link #update(int, double)}.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   * @param arg the new value's time or sequence number
   */
  public void updateArg(int offset, long value, long arg) {
    int i = liveLeafIndex(offset);
    p.liftLong(tmp(), value, arg);
    replaceLeaf(i);
  }

  /**
   * Replaces the element at {@code offset} by {@code lift(value, arg)}; see
   * {@link #update(int, Object)}.
   *
   * @param offset the element's offset from the oldest element
   * @param value the new value
   * @param arg the new value's time or sequence number
   */
  public void updateArg(int offset, Object value, long arg) {
    int i = liveLeafIndex(offset);
    int t = tmp();
    if (value instanceof Double || value instanceof Float) {
      p.liftDouble(t, ((Number) value).doubleValue(), arg);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      p.liftLong(t, ((Number) value).longValue(), arg);
    } else {
      p.liftObject(t, value, arg);
    }
    replaceLeaf(i);
  }

  /**
   * Inserts {@code values[from .. from+len)} in order, as {@code len} calls of {@link #insert(double)}
   * but growing the tree at most once. The tree is repaired at the next query in one batched pass,
   * O(len + len log(n / len)) combines. If the function rejects a value, the values before it stay
   * inserted.
   *
   * @param values the values to insert
   * @param from the index of the first value
   * @param len the number of values
   */
  public void bulkInsert(double[] values, int from, int len) {
    Objects.checkFromIndexSize(from, len, values.length);
    if (end - front + len > cap) {
      makeRoom(len);
    }
    for (int k = 0; k < len; k++) {
      insert(values[from + k]);
    }
  }

  // ---- FlatFAT operations ----

  /**
   * Algorithm 2 ({@code update}), lines 3-9, over the dirty leaves: bottom-up, level by level,
   * {@code T(v) = T(left(v)) ⊕ T(right(v))} for each distinct parent of the previous level. All
   * leaves are on one level, so each work list W_l is one level; it is built in place in
   * {@link #dirty} (a list never outgrows the one it is derived from) and deduplicated by
   * {@link #marks}. {@code m} dirty leaves cost at most {@code m (1 + ceil(log2(cap / m)))} combines.
   */
  private void repair() {
    int m = dirtyCount;
    if (m == 0) {
      return;
    }
    int[] w = dirty;
    int k = 0;
    for (int j = 0; j < m; j++) {
      int leaf = w[j];
      clearMark(leaf);
      int parent = leaf >>> 1;
      if (setMark(parent)) {
        w[k++] = parent;
      }
    }
    while (k > 0) {
      int next = 0;
      for (int j = 0; j < k; j++) {
        int v = w[j];
        clearMark(v);
        p.combine(v, 2 * v, 2 * v + 1);
        if (v > 1 && setMark(v >>> 1)) {
          w[next++] = v >>> 1;
        }
      }
      k = next;
    }
    dirtyCount = 0;
  }

  /** {@code aggregate()}: the root, {@code a[0] ⊕ ... ⊕ a[cap-1]}, no combine (valid after {@link #repair}). */
  private static int aggregate() {
    return 1;
  }

  /** Algorithm 3 ({@code prefix(i)}): {@code dst = a[0] ⊕ ... ⊕ a[i]} over the leaves, at most log2(cap) combines. */
  private void prefix(int i, int dst) {
    int v = cap + i;
    p.copy(dst, v);
    while (v > 1) {
      if ((v & 1) == 1) { // right child: prepend the left sibling
        p.combine(dst, v - 1, dst);
      }
      v >>>= 1;
    }
  }

  /** {@code suffix(j)}, the mirror of Algorithm 3: {@code dst = a[j] ⊕ ... ⊕ a[cap-1]}, at most log2(cap) combines. */
  private void suffix(int j, int dst) {
    int v = cap + j;
    p.copy(dst, v);
    while (v > 1) {
      if ((v & 1) == 0) { // left child: append the right sibling
        p.combine(dst, dst, v + 1);
      }
      v >>>= 1;
    }
  }

  /**
   * Paper's {@code resize} / {@code compact}: rebuilds the tree with {@code newCap} leaves holding
   * the live elements in order from leaf 0, squeezing out holes, then recomputes every internal
   * node (Algorithm 1, {@code newCap - 1} combines). O(old cap + new cap).
   */
  private void resize(int newCap) {
    int oldCap = cap;
    int oldMask = mask;
    int n = live;
    if (newCap < n || newCap < MIN_CAPACITY || Integer.bitCount(newCap) != 1) {
      throw new IllegalStateException("bad capacity " + newCap + " for " + n + " elements");
    }
    if (newCap > oldCap) {
      p.resize(2 * newCap + 1);
    }
    // Gather the live leaves in window order into the new leaf row [newCap, newCap + n). Growing:
    // the targets lie beyond the old tree. Shrinking: newCap + n <= 3 oldCap / 4, inside the old
    // internal nodes. Same capacity: stage through the old internal nodes [1, n + 1) (n < cap).
    int stage = newCap == oldCap ? 1 : newCap;
    int j = 0;
    for (int pos = front; pos != end; pos++) {
      int i = pos & oldMask;
      if (isPresent(i)) {
        p.copy(stage + j, oldCap + i);
        j++;
      }
    }
    if (stage != newCap) {
      for (int k = 0; k < n; k++) {
        p.copy(newCap + k, stage + k);
      }
    }
    for (int leaf = newCap + n; leaf < 2 * newCap; leaf++) {
      p.setIdentity(leaf);
    }
    for (int h = newCap - 1; h >= 1; h--) {
      p.combine(h, 2 * h, 2 * h + 1);
    }
    if (newCap < oldCap) {
      p.resize(2 * newCap + 1);
    }
    cap = newCap;
    mask = newCap - 1;
    p.setIdentity(tmp());
    if (newCap == oldCap) {
      Arrays.fill(present, 0L);
      Arrays.fill(marks, 0L);
    } else {
      allocateBookkeeping();
    }
    for (int k = 0; k < n; k++) {
      present[k >>> 6] |= 1L << k;
    }
    dirtyCount = 0;
    front = 0;
    end = n;
  }

  // ---- helpers ----

  /** Makes room for {@code extra} more slots at the back: compact, or grow to a power of two. */
  private void makeRoom(int extra) {
    long need = (long) live + extra;
    int newCap = cap;
    if (need > cap || 4L * live > 3L * cap) {
      newCap = cap * 2;
      while (newCap < need && newCap <= (1 << 29)) {
        newCap *= 2;
      }
    }
    if (newCap > (1 << 29) || need > newCap) {
      throw new IllegalStateException("window too large for algorithm 'flatfat': " + need + " elements");
    }
    if (newCap == cap) {
      compact();
    } else {
      resize(newCap);
    }
  }

  /** The paper's {@code compact}: squeezes the holes out at the same capacity. */
  private void compact() {
    resize(cap);
  }

  private void shrinkIfSparse() {
    if (cap > MIN_CAPACITY && live <= cap / 4) {
      resize(cap / 2);
    }
  }

  private void allocateBookkeeping() {
    present = new long[(cap + 63) >>> 6];
    marks = new long[(2 * cap + 63) >>> 6];
    dirty = new int[cap];
    dirtyCount = 0;
  }

  private void checkOffset(int offset) {
    if (offset < 0 || offset >= end - front) {
      throw new IndexOutOfBoundsException("offset " + offset + " outside the window [0, " + (end - front) + ")");
    }
  }

  private int liveLeafIndex(int offset) {
    checkOffset(offset);
    int i = (front + offset) & mask;
    if (!isPresent(i)) {
      throw new NoSuchElementException("offset " + offset + " is a hole (already evicted)");
    }
    return i;
  }

  private void removeLeaf(int i) {
    p.setIdentity(cap + i);
    present[i >>> 6] &= ~(1L << i);
    markDirty(cap + i);
    live--;
  }

  private void replaceLeaf(int i) {
    p.copy(cap + i, tmp());
    markDirty(cap + i);
  }

  private void skipFrontHoles() {
    while (front != end && !isPresent(front & mask)) {
      front++;
    }
  }

  private boolean isPresent(int i) {
    return (present[i >>> 6] & (1L << i)) != 0;
  }

  private void markDirty(int leaf) {
    if (setMark(leaf)) {
      dirty[dirtyCount++] = leaf;
    }
  }

  /** Sets the mark of node {@code v}; true if it was clear. */
  private boolean setMark(int v) {
    long bit = 1L << v;
    long word = marks[v >>> 6];
    if ((word & bit) != 0) {
      return false;
    }
    marks[v >>> 6] = word | bit;
    return true;
  }

  private void clearMark(int v) {
    marks[v >>> 6] &= ~(1L << v);
  }

  // ---- checks ----

  /**
   * Repairs the tree, then verifies the invariants: the bookkeeping (positions, live count, marks),
   * that every non-live leaf is the identity, and that every internal node equals the combine of
   * its children, recomputed through the store and compared with {@link Objects#deepEquals} on
   * {@link io.swag.core.Partials#partial}. Meant for tests: O(cap) combines, and it needs partials
   * with value equality (arrays, Collect ropes; not sketches compared by identity).
   *
   * @throws IllegalStateException describing the first violation
   */
  public void checkInvariants() {
    repair();
    if (Integer.bitCount(cap) != 1 || cap < MIN_CAPACITY || mask != cap - 1) {
      throw new IllegalStateException("capacity " + cap + " is not a power of two >= " + MIN_CAPACITY);
    }
    if (p.capacity() != 2 * cap + 1) {
      throw new IllegalStateException("store has " + p.capacity() + " slots, expected " + (2 * cap + 1));
    }
    int span = end - front;
    if (span < 0 || span > cap) {
      throw new IllegalStateException("span " + span + " outside [0, " + cap + "]");
    }
    if (live == 0 ? span != 0 : !isPresent(front & mask)) {
      throw new IllegalStateException("front slot is a hole (live=" + live + ", span=" + span + ")");
    }
    int counted = 0;
    for (int k = 0; k < cap; k++) {
      boolean inWindow = ((k - front) & mask) < span;
      if (isPresent(k)) {
        if (!inWindow) {
          throw new IllegalStateException("leaf " + k + " is marked live outside the window");
        }
        counted++;
      }
    }
    if (counted != live) {
      throw new IllegalStateException("live count " + live + " but " + counted + " live leaves");
    }
    for (long word : marks) {
      if (word != 0) {
        throw new IllegalStateException("marks left set after repair");
      }
    }
    if (dirtyCount != 0) {
      throw new IllegalStateException("dirty list not empty after repair");
    }
    int t = tmp();
    p.setIdentity(t);
    Object identity = p.partial(t);
    for (int k = 0; k < cap; k++) {
      if (!isPresent(k) && !Objects.deepEquals(identity, p.partial(cap + k))) {
        throw new IllegalStateException("non-live leaf " + k + " is not the identity: " + show(p.partial(cap + k)));
      }
    }
    for (int h = cap - 1; h >= 1; h--) {
      p.combine(t, 2 * h, 2 * h + 1);
      Object expected = p.partial(t);
      Object actual = p.partial(h);
      if (!Objects.deepEquals(expected, actual)) {
        throw new IllegalStateException("node " + h + " holds " + show(actual) + " but its children combine to "
            + show(expected) + " (cap=" + cap + ", front=" + front + ", end=" + end + ")");
      }
    }
    p.setIdentity(t);
  }

  private static String show(Object o) {
    if (o instanceof double[] d) {
      return Arrays.toString(d);
    }
    if (o instanceof long[] l) {
      return Arrays.toString(l);
    }
    return String.valueOf(o);
  }
}

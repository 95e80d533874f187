package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import java.util.Arrays;
import java.util.Objects;

/**
 * FiBA with the bulk eviction of Tangwongsan, Hirzel and Schneider, "Out-of-Order Sliding-Window
 * Aggregation with Efficient Bulk Evictions and Insertions" (VLDB 2023, Section 4). Same tree,
 * invariants and single operations as {@link FingerBTree}.
 *
 * <p>{@code bulkEvict(t)} in amortized O(log m) (m = entries removed), worst case O(log n):
 * <ol>
 *   <li>boundary search: up the left spine from the left finger to the lowest node whose subtree
 *       straddles {@code t}, then down to {@code t}, recording per level the boundary node, its
 *       neighbour (the node right of it at that level) and their least common ancestor (the
 *       "ancestor", whose separating entry lies between them), and counting the removed entries
 *       from the position-aware counts ({@link BTreeCore#aggCnt});
 *   <li>pass up: per level, bottom-up, cut the removed prefix of the boundary node (removed
 *       subtrees go to the deferred free list in O(1)), then repair an underflow by a batch move
 *       of {@code MIN_ARITY - arity} entries from the neighbour through the ancestor, or by
 *       merging the node into the neighbour (which removes the single-child chain up to the
 *       ancestor); if no ancestor exists (the cut runs down the right spine) the node, or its only
 *       child, becomes the root; then the ordinary single-underflow repair loop above the
 *       boundary (Figure 7 {@code rebalanceForEvict});
 *   <li>pass down: left-spine flags and the left finger, then the left-spine (and, if touched,
 *       right-spine) aggregates.
 * </ol>
 *
 * <p>{@code bulkInsert} of a time-sorted bulk of m records (Section 5) in amortized
 * O(log d + m(1 + log(d/m))) (d = out-of-order distance of the oldest record), worst case
 * O(log d + m log((m+n)/m)):
 * <ol>
 *   <li>lift: every value is lifted into a slot of nodes borrowed from the pool before the tree is
 *       touched, so a rejected value leaves the tree unchanged;
 *   <li>insertion sites search: finger search for the first time (up a spine to the lowest node
 *       covering it, O(log d)), then each next distinct time from the previous site: up the kept
 *       search path while the time is not below a node's upper bound (at most to the least common
 *       ancestor), then down. A time already present is a <em>recomputation event</em>: the
 *       records are combined into the existing entry right away, in arrival order
 *       ({@code old ⊕ v1 ⊕ v2 ...}), and the node is marked for repair at its level. A new time is
 *       an <em>insertion event</em>: its records are combined in arrival order into one partial
 *       and a leaf-level <em>treelet</em> (target leaf, time, partial slot, right child) is queued.
 *       A bulk that starts after the youngest entry skips the search: every time is new and its
 *       site is the end of the right-finger leaf;
 *   <li>pass up, level by level from the leaves ("interleave and split"): the treelets of a level are
 *       time-ordered, so those of one target are consecutive; each target merges them with its
 *       entries (from the back, in place) and, if its arity {@code p} exceeds {@code 2μ}, is
 *       split by {@code bulkSplit} into itself and {@code t = floor((p - μ)/(μ + 1))} new right
 *       siblings of arity {@code μ + 1}, the last one of arity in {@code [μ, 2μ]} (Claim 1), the
 *       {@code t} entries between them becoming the next level's treelets (already time-ordered;
 *       the root splits under a new root). Then every node touched at the level (targets, new
 *       siblings, recomputation events) has its aggregate recomputed <em>once</em>, and the parents
 *       of those that store an up-aggregate are touched at the next level; spine nodes and the root
 *       end the climb;
 *   <li>pass down: the root's inner aggregate if touched, then the left and right spines from the
 *       highest touched spine node to the finger.
 * </ol>
 * Each touched node's aggregate is recomputed once per bulk, not once per record, so a bulk of m
 * in-order records costs about m combines where m single inserts cost several times that, and an
 * out-of-order bulk shares the climbs of its records. Scratch (treelet buffers, touched lists,
 * search path, borrowed nodes) is reused across calls and only grows; the {@code ceil(m/(2μ+1))}
 * borrowed nodes go back to the free list at the end. Two liberties with the paper's description:
 * a recomputation event waits in a per-height list for its own level instead of riding along with
 * the leaf-level treelets, and an entry promoted by {@code bulkSplit} is parked in the spare last
 * value slot of its new right sibling (a node of arity at most {@code 2μ} never uses it) until the
 * next level takes it, so no treelet owns storage.
 *
 * <p>Invariants after every operation: those of {@link FingerBTree} (arity, leaf depth, time
 * order, position-aware aggregates, fingers, one entry per distinct time). During a bulk insert a
 * node's arity is transiently unbounded only conceptually: overflowing targets are written
 * directly into their final pieces. {@link #loopBulkInsert} switches back to the loop of single
 * inserts.
 */
public final class BulkFingerBTree extends FingerBTree {

  // per boundary level (0 = top): node, neighbour, ancestor, level of the ancestor (-1: above
  // the top), separator index in the ancestor, number of removed entries at the node
  private int[] bNode = new int[8];
  private int[] bNbr = new int[8];
  private int[] bAnc = new int[8];
  private int[] bAncLevel = new int[8];
  private int[] bSep = new int[8];
  private int[] bCut = new int[8];
  private boolean[] bGone = new boolean[8];
  private int bLen;

  /**
   * An empty finger B-tree with bulk operations.
   *
   * @param fn the aggregate function
   * @param minArity the min arity, 2, 4 or 8
   */
  public BulkFingerBTree(AggregateFunction<?, ?, ?> fn, int minArity) {
    super("bfiba" + minArity, fn, minArity);
  }

  private void push(int node, int nbr, int anc, int ancLevel, int sep, int cut) {
    if (bLen == bNode.length) {
      int n = bLen * 2;
      bNode = Arrays.copyOf(bNode, n);
      bNbr = Arrays.copyOf(bNbr, n);
      bAnc = Arrays.copyOf(bAnc, n);
      bAncLevel = Arrays.copyOf(bAncLevel, n);
      bSep = Arrays.copyOf(bSep, n);
      bCut = Arrays.copyOf(bCut, n);
      bGone = Arrays.copyOf(bGone, n);
    }
    bNode[bLen] = node;
    bNbr[bLen] = nbr;
    bAnc[bLen] = anc;
    bAncLevel[bLen] = ancLevel;
    bSep[bLen] = sep;
    bCut[bLen] = cut;
    bGone[bLen] = false;
    bLen++;
  }

  /** Number of entries of {@code y} with time {@code <= t}. */
  private int upperBound(int y, long t) {
    int b = y * cap;
    int a = cnt[y];
    int i = 0;
    while (i < a && times[b + i] <= t) {
      i++;
    }
    return i;
  }

  /** Entries in the subtree of child {@code i} of boundary node {@code y}, from the stored counts. */
  private int childCount(int y, int i) {
    if (i > 0) {
      return aggCnt[kid(y, i)]; // an up node: never a spine node left of the boundary
    }
    if (y == root || isLeft(y)) {
      // the first subtree of a root or left-spine node: the own parts of the left-spine nodes below it
      int c = 0;
      for (int x = leftFinger; x != y; x = parent[x]) {
        c += aggCnt[x];
      }
      return c;
    }
    return aggCnt[kid(y, 0)];
  }

  /** Bulks of at most this many entries, all in the left finger, run as single evicts. */
  static final int SMALL_BULK_EVICT = 4;

  @Override
  public int bulkEvict(long t) {
    hintLeaf = -1; // the bulk passes move entries across leaves
    final int lf = leftFinger;
    final int fb = lf * cap + lfOff; // the left finger's first entry
    if (size == 0 || t < times[fb]) {
      return 0;
    }
    if (t >= youngestTime()) {
      int removed = size;
      clearAll();
      return removed;
    }
    // A small bulk that ends inside the left finger: single evicts at the finger (amortized O(1)
    // each) beat the boundary search and passes (BulkEvictBench: m = 1 ran at 0.4x of a loop).
    int fc = cnt[lf];
    int k = 0;
    while (k < fc && k <= SMALL_BULK_EVICT && times[fb + k] <= t) {
      k++;
    }
    if (k < fc && k <= SMALL_BULK_EVICT) {
      for (int i = 0; i < k; i++) {
        evict(oldestTime()); // a slow evict moves the finger's entries
      }
      return k;
    }
    compactLeftIfOffset();
    dropOwn();
    // ---- step 1: boundary search
    int y = leftFinger;
    while (y != root && t >= time(parent[y], 0)) {
      y = parent[y];
    }
    int top = y;
    int pt = top == root ? -1 : parent[top];
    int anc = pt;
    int ancLevel = -1;
    int sep = 0;
    int nbr = pt < 0 ? -1 : kid(pt, 1);
    int removed = 0;
    bLen = 0;
    while (true) {
      int a = cnt[y];
      int c = upperBound(y, t);
      removed += c;
      boolean leaf = isLeaf(y);
      if (!leaf) {
        for (int i = 0; i < c; i++) {
          removed += childCount(y, i);
        }
      }
      push(y, nbr, anc, ancLevel, sep, c);
      if (leaf || (c > 0 && time(y, c - 1) == t)) {
        break; // at a leaf, or an exact match: the subtree right of it is all kept
      }
      int next = kid(y, c);
      if (c < a) {
        anc = y;
        ancLevel = bLen - 1;
        sep = c;
        nbr = kid(y, c + 1);
      } else if (nbr >= 0) {
        nbr = kid(nbr, 0);
      }
      y = next;
    }
    size -= removed;
    // ---- step 2: pass up along the boundary
    boolean hitRight = false;
    boolean rootChanged = false;
    int dirtyTop = -1; // highest level whose neighbour needs its up-aggregate repaired
    for (int j = bLen - 1; j >= 0; j--) {
      if (bGone[j]) {
        continue;
      }
      y = bNode[j];
      cutPrefix(y, bCut[j]);
      anc = bAnc[j];
      if (anc < 0) {
        // no node right of the boundary above y: y (or its only child) becomes the root
        int nr = y;
        if (!isLeaf(y) && cnt[y] == 0) {
          nr = kid(y, 0);
          freeNode(y);
        }
        for (int i = 0; i < j; i++) {
          cutPrefix(bNode[i], bCut[i]);
          freeNode(bNode[i]);
        }
        root = nr;
        parent[nr] = -1;
        flags[nr] &= ~(LEFT | RIGHT | OWN);
        rootChanged = true;
        break;
      }
      nbr = bNbr[j];
      hitRight |= isRight(nbr);
      dirtyTop = j;
      int deficit = minArity - arity(y);
      if (deficit > 0) {
        int surplus = arity(nbr) - minArity;
        if (deficit <= surplus) {
          moveBatch(anc, bSep[j], y, nbr, deficit);
        } else {
          mergeInto(anc, bSep[j], y, nbr);
          // the single-child chain between the ancestor and y goes too
          for (int i = bAncLevel[j] + 1; i < j; i++) {
            cutPrefix(bNode[i], bCut[i]);
            freeNode(bNode[i]);
            bGone[i] = true;
          }
        }
      }
    }
    // ---- step 3: pass down: left-spine flags and finger, up-aggregates of neighbours, spines
    int start = rootChanged || pt < 0 ? root : pt;
    int z = start;
    while (!isLeaf(z)) {
      z = kid(z, 0);
      flags[z] = (byte) ((flags[z] & ~OWN) | LEFT);
    }
    leftFinger = z;
    if (isLeaf(root)) {
      rightFinger = root;
    }
    for (int j = bLen - 1; j >= 0 && dirtyTop >= 0; j--) {
      int nb = bNbr[j];
      if (!bGone[j] && bAnc[j] >= 0 && j >= dirtyTop && parent[nb] >= 0 && hasAggUp(nb)) {
        repair(nb);
      }
    }
    while (!isLeaf(root) && cnt[root] == 0) {
      heightDecrease();
      rootChanged = true;
    }
    int rtop;
    boolean hr = hitRight || rootChanged;
    if (!rootChanged && pt >= 0 && pt != root) {
      rebalanceForEvict(pt, -1);
      rtop = rTop;
      hr |= rHitRight;
    } else {
      rtop = root;
    }
    dropOwn(); // boundary nodes were cut in place: the spine repairs recompute in full
    repairAggs(rtop, true, hr);
    return removed;
  }

  /** Removes entries {@code [0, c)} and, if internal, children {@code [0, c)} (freed lazily) of {@code y}. */
  private void cutPrefix(int y, int c) {
    if (c == 0) {
      return;
    }
    int a = cnt[y];
    boolean leaf = isLeaf(y);
    if (!leaf) {
      for (int i = 0; i < c; i++) {
        freeSubtree(kid(y, i));
      }
      int kb = y * stride;
      System.arraycopy(kids, kb + c, kids, kb, a + 1 - c);
    }
    int tb = y * cap;
    System.arraycopy(times, tb + c, times, tb, a - c);
    for (int i = 0; i < a - c; i++) {
      cp(vslot(y, i), vslot(y, i + c));
    }
    if (objectStore) {
      for (int i = a - c; i < a; i++) {
        p.release(vslot(y, i));
      }
    }
    cnt[y] = (byte) (a - c);
    flags[y] &= ~OWN;
  }

  /**
   * Move batch (VLDB 2023 Figure 2): the separator {@code e_a} of the ancestor and the first
   * {@code k - 1} entries and {@code k} children of the neighbour go to the end of {@code y};
   * the neighbour's entry {@code k - 1} becomes the separator.
   */
  private void moveBatch(int anc, int sep, int y, int nbr, int k) {
    int ay = cnt[y];
    boolean leaf = isLeaf(y);
    flags[y] &= ~OWN;
    flags[anc] &= ~OWN;
    moveEntry(y, ay, anc, sep);
    for (int i = 0; i < k - 1; i++) {
      moveEntry(y, ay + 1 + i, nbr, i);
    }
    if (!leaf) {
      for (int i = 0; i < k; i++) {
        setKid(y, ay + 1 + i, kid(nbr, i));
      }
    }
    cnt[y] = (byte) (ay + k);
    moveEntry(anc, sep, nbr, k - 1);
    cutPrefixNoFree(nbr, k);
  }

  /** Like {@link #cutPrefix} but the removed children live on elsewhere. */
  private void cutPrefixNoFree(int y, int c) {
    int a = cnt[y];
    if (!isLeaf(y)) {
      int kb = y * stride;
      System.arraycopy(kids, kb + c, kids, kb, a + 1 - c);
    }
    int tb = y * cap;
    System.arraycopy(times, tb + c, times, tb, a - c);
    for (int i = 0; i < a - c; i++) {
      cp(vslot(y, i), vslot(y, i + c));
    }
    if (objectStore) {
      for (int i = a - c; i < a; i++) {
        p.release(vslot(y, i));
      }
    }
    cnt[y] = (byte) (a - c);
    flags[y] &= ~OWN;
  }

  /**
   * Merge with a (possibly non-sibling) neighbour (VLDB 2023 Figure 3): {@code y}'s entries, the
   * separator and the neighbour's entries form the neighbour; the ancestor loses the separator
   * and the child holding {@code y}; {@code y} is freed.
   */
  private void mergeInto(int anc, int sep, int y, int nbr) {
    int ay = cnt[y];
    int an = cnt[nbr];
    int shift = ay + 1;
    boolean leaf = isLeaf(y);
    flags[nbr] &= ~OWN;
    int tb = nbr * cap;
    System.arraycopy(times, tb, times, tb + shift, an);
    for (int i = an - 1; i >= 0; i--) {
      cp(vslot(nbr, i + shift), vslot(nbr, i));
    }
    for (int i = 0; i < ay; i++) {
      moveEntry(nbr, i, y, i);
    }
    moveEntry(nbr, ay, anc, sep);
    if (!leaf) {
      int kb = nbr * stride;
      System.arraycopy(kids, kb, kids, kb + shift, an + 1);
      for (int i = 0; i <= ay; i++) {
        setKid(nbr, i, kid(y, i));
      }
    }
    cnt[nbr] = (byte) (ay + 1 + an);
    localEvict(anc, sep, sep);
    if (y == leftFinger) {
      leftFinger = nbr;
    }
    freeNode(y); // as a single node: its children now belong to nbr
  }

  /** Empties the tree; the old nodes go to the deferred free list. */
  private void clearAll() {
    int old = root;
    freeSubtree(old);
    size = 0;
    lfOff = 0;
    root = alloc();
    flags[root] = LEAF;
    leftFinger = root;
    rightFinger = root;
    repair(root);
  }

  // ================================================================ bulk insert (VLDB 2023, Section 5)

  /**
   * Switch back to the loop of single inserts of {@link BTreeCore} (for comparisons and as a
   * fallback); off by default.
   */
  boolean loopBulkInsert;

  // lifted values of the bulk: record r lives in slot SCRATCH + liftNodes[r / stride] * stride + r % stride,
  // kept in liftSlots[r] (no division per access)
  // detached nodes owned by the bulk insert for the lifted values, kept across bulks (the largest
  // bulk's ceil(len / stride)): a bulk takes no node from the free list, whose nodes are cold
  private int[] liftNodes = new int[4];
  private int liftNodeCount;
  private int[] liftSlots = new int[0];

  // treelets of the current level and of the next one (alternating buffers): target node, time,
  // source slot of the partial, child that goes right of the entry (-1 at the leaf level)
  private int[] tlTarget = new int[16];
  private long[] tlTime = new long[16];
  private int[] tlSlot = new int[16];
  private int[] tlKid = new int[16];
  private int tlLen;
  private int[] ntTarget = new int[16];
  private long[] ntTime = new long[16];
  private int[] ntSlot = new int[16];
  private int[] ntKid = new int[16];
  private int ntLen;

  // nodes of the current and next level whose aggregate must be recomputed (each once: mark[] == epoch)
  private int[] touched = new int[16];
  private int touchedLen;
  private int[] nextTouched = new int[16];
  private int nextTouchedLen;
  private int[] mark = new int[0];
  private int epoch;

  // internal nodes where step 1 combined into an equal time ("recomputation events"), by height
  private int[] dirtyNode = new int[8];
  private int[] dirtyH = new int[8];
  private int[] dirtyTmp = new int[8];
  private int[] dirtyTmpH = new int[8];
  private int[] hCount = new int[8];
  private int dirtyLen;

  // finger-search path of step 1: node, exclusive upper bound of its subtree (or none), height
  private int[] pNode = new int[8];
  private long[] pHi = new long[8];
  private boolean[] pInf = new boolean[8];
  private int[] pH = new int[8];
  private int pLen;
  // result of siteSearch
  private int sNode;
  private int sIdx;
  private boolean sFound;
  private int sHeight;

  // pieces of the node being split
  private int[] pieces = new int[8];

  // pass down: highest touched left- / right-spine node, whether the root was touched
  private int leftTop;
  private int rightTop;
  private boolean rootTouched;

  @Override
  public void bulkInsert(long[] ts, double[] values, int from, int len) {
    hintLeaf = -1; // the bulk passes move entries across leaves
    if (loopBulkInsert) {
      super.bulkInsert(ts, values, from, len);
      return;
    }
    checkSorted(ts, from, len);
    Objects.checkFromIndexSize(from, len, values.length);
    if (len <= 1) {
      if (len == 1) { // a bulk of one record is a single insert
        insert(ts[from], values[from]);
      }
      return;
    }
    allocLifted(len);
    try {
      for (int r = 0; r < len; r++) {
        p.liftDouble(liftedSlot(r), values[from + r], ts[from + r]);
      }
    } catch (RuntimeException e) {
      freeLifted(len);
      throw e;
    }
    bulkInsertLifted(ts, from, len);
  }

  @Override
  public void bulkInsert(long[] ts, Object[] values, int from, int len) {
    hintLeaf = -1; // the bulk passes move entries across leaves
    if (loopBulkInsert) {
      super.bulkInsert(ts, values, from, len);
      return;
    }
    checkSorted(ts, from, len);
    Objects.checkFromIndexSize(from, len, values.length);
    if (len <= 1) {
      if (len == 1) { // a bulk of one record is a single insert
        insert(ts[from], values[from]);
      }
      return;
    }
    allocLifted(len);
    try {
      for (int r = 0; r < len; r++) {
        lift(liftedSlot(r), ts[from + r], values[from + r]);
      }
    } catch (RuntimeException e) {
      freeLifted(len);
      throw e;
    }
    bulkInsertLifted(ts, from, len);
  }

  /** Holds {@code ceil(len / stride)} detached nodes for the lifted values, taking more from the pool if short. */
  private void allocLifted(int len) {
    int k = (len + stride - 1) / stride;
    if (liftNodes.length < k) {
      liftNodes = Arrays.copyOf(liftNodes, Math.max(k, 2 * liftNodes.length));
    }
    if (liftSlots.length < len) {
      liftSlots = new int[Math.max(len, 2 * liftSlots.length)];
    }
    while (liftNodeCount < k) {
      liftNodes[liftNodeCount++] = alloc();
    }
    for (int i = 0, r = 0; i < k; i++) {
      for (int slot = SCRATCH + liftNodes[i] * stride, end = Math.min(len, r + stride); r < end; r++) {
        liftSlots[r] = slot++;
      }
    }
  }

  private int liftedSlot(int r) {
    return liftSlots[r];
  }

  /** Ends a bulk's use of the lifted slots (the nodes stay for the next bulk). */
  private void freeLifted(int len) {
    hintLeaf = -1; // the bulk moved entries between leaves: the insert hint's leaf and bounds no longer hold
    if (objectStore) {
      for (int r = 0; r < len; r++) {
        p.release(liftedSlot(r));
      }
    }
  }

  /** The three steps of Section 5 on the lifted records {@code 0 .. len-1}. */
  private void bulkInsertLifted(long[] ts, int from, int len) {
    if (len < maxArity && (size == 0 || ts[from] > youngestTime())) {
      // a short in-order bulk: single appends at the right finger extend the aggregates by one
      // combine each, which is cheaper than recomputing the touched nodes once
      for (int r = 0; r < len; r++) {
        insertLifted(ts[from + r], liftedSlot(r));
      }
      freeLifted(len);
      return;
    }
    if (++epoch == 0) {
      Arrays.fill(mark, 0);
      epoch = 1;
    }
    tlLen = 0;
    touchedLen = 0;
    dirtyLen = 0;
    compactLeftIfOffset();
    dropOwn(); // the passes edit spine nodes in place; step 3 recomputes them in full
    // ---- step 1: insertion sites search, in time order, each from the previous site
    if (size > 0 && ts[from] > youngestTime()) {
      inOrderSites(ts, from, len);
    } else {
      searchSites(ts, from, len);
    }
    sortDirtyByHeight();
    // ---- step 2: pass up, interleave and split level by level
    passUp();
    // ---- step 3: pass down the spines
    if (rootTouched) {
      repair(root);
    }
    if (leftTop >= 0) {
      int y = leftTop;
      repair(y);
      while (!isLeaf(y)) {
        y = kid(y, 0);
        repair(y);
      }
    }
    if (rightTop >= 0) {
      int y = rightTop;
      repair(y);
      while (!isLeaf(y)) {
        y = kid(y, cnt[y]);
        repair(y);
      }
    }
    freeLifted(len);
  }

  // ---------------------------------------------------------------- step 1

  /**
   * Step 1 for a bulk that starts after the youngest entry: every time is new and its site is
   * the right finger, at the end, so no search runs; equal times combine in arrival order.
   */
  private void inOrderSites(long[] ts, int from, int len) {
    ensureTreelets(tlLen + len);
    final int y = rightFinger;
    final int[] tg = tlTarget;
    final long[] tt = tlTime;
    final int[] tsl = tlSlot;
    final int[] tk = tlKid;
    final int[] ls = liftSlots;
    final int n0 = tlLen;
    int n = n0;
    for (int r = 0; r < len; r++) {
      long t = ts[from + r];
      if (n > n0 && tt[n - 1] == t) {
        comb(tsl[n - 1], tsl[n - 1], ls[r]);
      } else {
        tg[n] = y;
        tt[n] = t;
        tsl[n] = ls[r];
        tk[n] = -1;
        n++;
      }
    }
    size += n - n0;
    tlLen = n;
  }

  /** Step 1 in general: each distinct time's site from the previous one ({@link #siteSearch}). */
  private void searchSites(long[] ts, int from, int len) {
    siteSearchStart(ts[from]);
    int r = 0;
    while (r < len) {
      long t = ts[from + r];
      int e = r + 1;
      while (e < len && ts[from + e] == t) {
        e++;
      }
      siteSearch(t);
      if (sFound) { // recomputation event: combine in arrival order into the existing entry
        int s = vslot(sNode, sIdx);
        for (int q = r; q < e; q++) {
          comb(s, s, liftedSlot(q));
        }
        if (sHeight == 0) {
          touch(sNode);
        } else {
          addDirty(sNode, sHeight);
        }
      } else { // insertion event: equal times inside the bulk combine first, in arrival order
        int s = liftedSlot(r);
        for (int q = r + 1; q < e; q++) {
          comb(s, s, liftedSlot(q));
        }
        addTreelet(sNode, t, s, -1);
        size++;
      }
      r = e;
    }
  }

  private void pathPush(int node, long hi, boolean inf, int h) {
    if (pLen == pNode.length) {
      int n = 2 * pLen;
      pNode = Arrays.copyOf(pNode, n);
      pHi = Arrays.copyOf(pHi, n);
      pInf = Arrays.copyOf(pInf, n);
      pH = Arrays.copyOf(pH, n);
    }
    pNode[pLen] = node;
    pHi[pLen] = hi;
    pInf[pLen] = inf;
    pH[pLen] = h;
    pLen++;
  }

  /**
   * Finger search for the first time of the bulk (O(log d)): up the left or right spine to the
   * lowest node whose subtree covers {@code t}, which becomes the base of the search path.
   */
  private void siteSearchStart(long t) {
    pLen = 0;
    if (isLeaf(root)) {
      pathPush(root, 0, true, 0);
    } else if (t < time(root, 0)) {
      int y = leftFinger;
      int h = 0;
      while (parent[y] != root && t > time(y, cnt[y] - 1)) {
        y = parent[y];
        h++;
      }
      pathPush(y, time(parent[y], 0), false, h);
    } else if (t > time(root, cnt[root] - 1)) {
      int y = rightFinger;
      int h = 0;
      while (parent[y] != root && t < time(y, 0)) {
        y = parent[y];
        h++;
      }
      pathPush(y, 0, true, h);
    } else {
      pathPush(root, 0, true, height(root));
    }
  }

  /**
   * The insertion site of {@code t} (greater than every time searched before in this bulk): up
   * the path from the previous site while its upper bound is not above {@code t} (never higher
   * than their least common ancestor, or the left spine for the path's base), then down. Sets
   * {@link #sNode}/{@link #sIdx}/{@link #sHeight} and {@link #sFound} (the time is present there).
   */
  private void siteSearch(long t) {
    while (!pInf[pLen - 1] && t >= pHi[pLen - 1]) {
      if (pLen > 1) {
        pLen--;
      } else { // the base is a left-spine node: move it up the spine
        int b = parent[pNode[0]];
        pNode[0] = b;
        pH[0]++;
        if (b == root) {
          pInf[0] = true;
        } else {
          pHi[0] = time(parent[b], 0);
        }
      }
    }
    int y = pNode[pLen - 1];
    while (true) {
      int i = lowerBound(y, t);
      int a = cnt[y];
      if (i < a && time(y, i) == t) {
        sFound = true;
        sIdx = i;
        break;
      }
      if (isLeaf(y)) {
        sFound = false;
        sIdx = i;
        break;
      }
      int c = kid(y, i);
      int top = pLen - 1;
      if (i < a) {
        pathPush(c, time(y, i), false, pH[top] - 1);
      } else {
        pathPush(c, pHi[top], pInf[top], pH[top] - 1);
      }
      y = c;
    }
    sNode = y;
    sHeight = pH[pLen - 1];
  }

  private void addTreelet(int target, long t, int slot, int kid) {
    if (tlLen == tlTarget.length) {
      ensureTreelets(tlLen + 1);
    }
    tlTarget[tlLen] = target;
    tlTime[tlLen] = t;
    tlSlot[tlLen] = slot;
    tlKid[tlLen] = kid;
    tlLen++;
  }

  /** Grows the treelet buffers of the current level to hold at least {@code n}. */
  private void ensureTreelets(int n) {
    if (n > tlTarget.length) {
      int c = Math.max(n, 2 * tlTarget.length);
      tlTarget = Arrays.copyOf(tlTarget, c);
      tlTime = Arrays.copyOf(tlTime, c);
      tlSlot = Arrays.copyOf(tlSlot, c);
      tlKid = Arrays.copyOf(tlKid, c);
    }
  }

  private void ensureNext(int n) {
    if (n > ntTarget.length) {
      int c = Math.max(n, 2 * ntTarget.length);
      ntTarget = Arrays.copyOf(ntTarget, c);
      ntTime = Arrays.copyOf(ntTime, c);
      ntSlot = Arrays.copyOf(ntSlot, c);
      ntKid = Arrays.copyOf(ntKid, c);
    }
  }

  private void addDirty(int node, int h) {
    if (dirtyLen == dirtyNode.length) {
      int n = 2 * dirtyLen;
      dirtyNode = Arrays.copyOf(dirtyNode, n);
      dirtyH = Arrays.copyOf(dirtyH, n);
    }
    dirtyNode[dirtyLen] = node;
    dirtyH[dirtyLen] = h;
    dirtyLen++;
  }

  /** Counting sort of the recomputation events on internal nodes by height (stable). */
  private void sortDirtyByHeight() {
    if (dirtyLen <= 1) {
      return;
    }
    int maxH = 0;
    for (int i = 0; i < dirtyLen; i++) {
      maxH = Math.max(maxH, dirtyH[i]);
    }
    if (hCount.length < maxH + 2) {
      hCount = new int[maxH + 2];
    }
    Arrays.fill(hCount, 0, maxH + 2, 0);
    for (int i = 0; i < dirtyLen; i++) {
      hCount[dirtyH[i] + 1]++;
    }
    for (int h = 1; h <= maxH + 1; h++) {
      hCount[h] += hCount[h - 1];
    }
    if (dirtyTmp.length < dirtyLen) {
      dirtyTmp = new int[dirtyNode.length];
      dirtyTmpH = new int[dirtyNode.length];
    }
    for (int i = 0; i < dirtyLen; i++) {
      int j = hCount[dirtyH[i]]++;
      dirtyTmp[j] = dirtyNode[i];
      dirtyTmpH[j] = dirtyH[i];
    }
    int[] x = dirtyNode;
    dirtyNode = dirtyTmp;
    dirtyTmp = x;
    x = dirtyH;
    dirtyH = dirtyTmpH;
    dirtyTmpH = x;
  }

  // ---------------------------------------------------------------- step 2

  private boolean marked(int x) {
    if (x >= mark.length) {
      mark = Arrays.copyOf(mark, Math.max(nodeCap, x + 1));
    }
    if (mark[x] == epoch) {
      return true;
    }
    mark[x] = epoch;
    return false;
  }

  /** Adds a node of the current level to the touched list (once). */
  private void touch(int x) {
    if (marked(x)) {
      return;
    }
    if (touchedLen == touched.length) {
      touched = Arrays.copyOf(touched, 2 * touchedLen);
    }
    touched[touchedLen++] = x;
  }

  /** Adds a node of the next level to its touched list (once). */
  private void touchNext(int x) {
    if (marked(x)) {
      return;
    }
    if (nextTouchedLen == nextTouched.length) {
      nextTouched = Arrays.copyOf(nextTouched, 2 * nextTouchedLen);
    }
    nextTouched[nextTouchedLen++] = x;
  }

  /**
   * The interleave-and-split loop: per level (leaves first), gathers the consecutive treelets of each
   * target, interleaves them into it and splits it if it overflows (promoting treelets to the next
   * level), then recomputes the aggregate of every touched node of the level once (children are
   * final by then) and touches the parents of those that store an up-aggregate. Touched spine nodes
   * and the root are left to the pass down.
   */
  private void passUp() {
    leftTop = -1;
    rightTop = -1;
    rootTouched = false;
    int level = 0;
    int di = 0;
    while (tlLen > 0 || touchedLen > 0 || di < dirtyLen) {
      ntLen = 0;
      nextTouchedLen = 0;
      int g = 0;
      while (g < tlLen) {
        int y = tlTarget[g];
        int e = g + 1;
        while (e < tlLen && tlTarget[e] == y) {
          e++;
        }
        interleave(y, g, e);
        g = e;
      }
      while (di < dirtyLen && dirtyH[di] == level) {
        touch(dirtyNode[di++]);
      }
      for (int i = 0; i < touchedLen; i++) {
        int x = touched[i];
        if (hasAggUp(x)) {
          repair(x);
          touchNext(parent[x]);
        } else if (x == root) {
          rootTouched = true;
        } else {
          if (isLeft(x)) {
            leftTop = x;
          }
          if (isRight(x)) {
            rightTop = x;
          }
        }
      }
      // alternate the buffers
      int[] ia = tlTarget;
      tlTarget = ntTarget;
      ntTarget = ia;
      long[] la = tlTime;
      tlTime = ntTime;
      ntTime = la;
      ia = tlSlot;
      tlSlot = ntSlot;
      ntSlot = ia;
      ia = tlKid;
      tlKid = ntKid;
      ntKid = ia;
      tlLen = ntLen;
      ntLen = 0;
      ia = touched;
      touched = nextTouched;
      nextTouched = ia;
      touchedLen = nextTouchedLen;
      nextTouchedLen = 0;
      level++;
    }
  }

  /**
   * Interleaves the treelets {@code [g, e)} (time-ordered, all targeting {@code y}) with the
   * entries of {@code y} (a merge from the back, in place). If the arity {@code p} then exceeds
   * {@code 2μ}, {@link #bulkSplit}s instead.
   */
  private void interleave(int y, int g, int e) {
    touch(y);
    int a = cnt[y];
    int len = a + (e - g);
    if (len + 1 > maxArity) {
      bulkSplit(y, g, e);
      return;
    }
    boolean leaf = isLeaf(y);
    flags[y] &= ~OWN;
    int w = len - 1;
    int ry = a - 1;
    int rt = e - 1;
    while (rt >= g) {
      if (ry >= 0 && time(y, ry) > tlTime[rt]) {
        moveEntry(y, w, y, ry);
        if (!leaf) {
          setKid(y, w + 1, kid(y, ry + 1));
        }
        ry--;
      } else {
        times[y * cap + w] = tlTime[rt];
        takeSlot(vslot(y, w), tlSlot[rt]);
        if (!leaf) {
          setKid(y, w + 1, tlKid[rt]);
        }
        rt--;
      }
      w--;
    }
    cnt[y] = (byte) len;
  }

  /** Copies a treelet's partial to its place; an object store drops the (now dead) source. */
  private void takeSlot(int dst, int src) {
    cp(dst, src);
    if (objectStore) {
      p.release(src);
    }
  }

  /**
   * bulkSplit (Claim 1): the interleaved sequence of arity {@code p > 2μ} becomes {@code y} and
   * {@code t} new right siblings of arity {@code μ + 1} each, except the last one, of arity
   * {@code μ <= p - t(μ + 1) <= 2μ}, with {@code t = floor((p - μ) / (μ + 1))}; the {@code t}
   * entries between them go up as treelets to the parent (a new root if {@code y} was the root),
   * each parked in the spare last value slot of the sibling on its right (a node of arity at most
   * {@code 2μ} leaves it unused). Written from the back, so {@code y}'s own entries are read before
   * their places are overwritten.
   */
  private void bulkSplit(int y, int g, int e) {
    flags[y] &= ~OWN;
    int mu = minArity;
    int a = cnt[y];
    int len = a + (e - g);
    int t = (len + 1 - mu) / (mu + 1);
    boolean leaf = isLeaf(y);
    if (y == root) {
      heightIncrease();
    }
    int pa = parent[y];
    byte f = flags[y];
    if (pieces.length < t + 1) {
      pieces = new int[Math.max(t + 1, 2 * pieces.length)];
    }
    pieces[0] = y;
    for (int q = 1; q <= t; q++) {
      int z = alloc();
      flags[z] = (byte) (f & LEAF);
      parent[z] = pa;
      cnt[z] = (byte) mu;
      pieces[q] = z;
      touch(z);
    }
    int last = pieces[t];
    int lastCount = len - t * (mu + 1);
    cnt[last] = (byte) lastCount;
    if ((f & RIGHT) != 0) {
      flags[last] = (byte) ((flags[last] & ~OWN) | RIGHT);
      flags[y] &= ~(RIGHT | OWN);
    }
    if (y == rightFinger) {
      rightFinger = last;
    }
    int base = ntLen;
    ensureNext(ntLen + t);
    ntLen += t;
    int q = t;
    int z = last;
    int loc = lastCount - 1;
    int ry = a - 1;
    int rt = e - 1;
    for (int w = len - 1; w >= 0; w--) {
      long tm;
      int src;
      int rk;
      if (rt < g || (ry >= 0 && time(y, ry) > tlTime[rt])) {
        tm = time(y, ry);
        src = vslot(y, ry);
        rk = leaf ? -1 : kid(y, ry + 1);
        ry--;
      } else {
        tm = tlTime[rt];
        src = tlSlot[rt];
        rk = tlKid[rt];
        rt--;
      }
      if (loc >= 0) {
        times[z * cap + loc] = tm;
        if (src != vslot(z, loc)) {
          takeSlot(vslot(z, loc), src);
        }
        if (!leaf) {
          setKid(z, loc + 1, rk);
        }
        loc--;
      } else { // the entry left of piece q goes up, with piece q as its right child
        int spare = vslot(z, cap - 1);
        takeSlot(spare, src);
        int j = base + q - 1;
        ntTarget[j] = pa;
        ntTime[j] = tm;
        ntSlot[j] = spare;
        ntKid[j] = z;
        if (!leaf) {
          setKid(z, 0, rk);
        }
        q--;
        z = pieces[q];
        loc = mu - 1;
      }
    }
    cnt[y] = (byte) mu;
  }
}

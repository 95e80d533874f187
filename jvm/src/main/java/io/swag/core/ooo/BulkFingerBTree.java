package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import java.util.Arrays;

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
 * <p>{@code bulkInsert} is a loop of single inserts (the interleave-and-split algorithm of
 * Section 5 is not implemented yet).
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

  public BulkFingerBTree(AggregateFunction<?, ?, ?> fn, int minArity) {
    this(fn, minArity, "bfiba" + minArity);
  }

  BulkFingerBTree(AggregateFunction<?, ?, ?> fn, int minArity, String name) {
    super(name, fn, minArity);
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
    if (y == root) {
      return aggCnt[leftFinger]; // Π←(left finger) covers the root's first subtree
    }
    if (isLeft(y)) {
      return aggCnt[leftFinger] - aggCnt[y]; // Π←(y) covers the same minus y's first subtree
    }
    return aggCnt[kid(y, 0)];
  }

  @Override
  public int bulkEvict(long t) {
    if (size == 0 || t < time(leftFinger, 0)) {
      return 0;
    }
    if (t >= youngestTime()) {
      int removed = size;
      clearAll();
      return removed;
    }
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
        flags[nr] &= ~(LEFT | RIGHT);
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
      flags[z] |= LEFT;
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
      p.copy(vslot(y, i), vslot(y, i + c));
    }
    if (objectStore) {
      for (int i = a - c; i < a; i++) {
        p.release(vslot(y, i));
      }
    }
    cnt[y] = (byte) (a - c);
  }

  /**
   * Move batch (VLDB 2023 Figure 2): the separator {@code e_a} of the ancestor and the first
   * {@code k - 1} entries and {@code k} children of the neighbour go to the end of {@code y};
   * the neighbour's entry {@code k - 1} becomes the separator.
   */
  private void moveBatch(int anc, int sep, int y, int nbr, int k) {
    int ay = cnt[y];
    boolean leaf = isLeaf(y);
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
      p.copy(vslot(y, i), vslot(y, i + c));
    }
    if (objectStore) {
      for (int i = a - c; i < a; i++) {
        p.release(vslot(y, i));
      }
    }
    cnt[y] = (byte) (a - c);
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
    int tb = nbr * cap;
    System.arraycopy(times, tb, times, tb + shift, an);
    for (int i = an - 1; i >= 0; i--) {
      p.copy(vslot(nbr, i + shift), vslot(nbr, i));
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
    root = alloc();
    flags[root] = LEAF;
    leftFinger = root;
    rightFinger = root;
    repair(root);
  }
}

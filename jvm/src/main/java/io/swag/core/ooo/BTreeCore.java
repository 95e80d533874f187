package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import io.swag.core.DoubleFunction;
import io.swag.core.DoublePartials;
import io.swag.core.fn.ScalarDoubleFunction;
import io.swag.core.ObjectPartials;
import io.swag.core.Partials;
import io.swag.core.TimedAggregator;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Shared machinery of the B-tree aggregators of Tangwongsan, Hirzel and Schneider, "Optimal and
 * General Out-of-Order Sliding-Window Aggregation" (VLDB 2019): the node pool, search, the
 * after-the-fact rebalancing of Figure 7 (split, merge, move, height increase and decrease),
 * {@code evictInner} (Figure 8), the range query of Figure 10 and an invariant checker.
 *
 * <p><b>Size invariants</b> (Section 3.1), with {@code μ = MIN_ARITY} and {@code MAX_ARITY = 2μ}:
 * a non-root node has arity {@code μ <= a <= 2μ}, an internal root {@code 2 <= a <= 2μ}; a node of
 * arity {@code a} holds {@code a - 1} entries (time, partial) in increasing time order and, if
 * internal, {@code a} children; all leaves are at the same depth; entries are time-ordered across
 * nodes as in any search tree.
 *
 * <p><b>Layout</b> (no object per entry): nodes are {@code int} ids into parallel primitive arrays.
 * Node {@code k} owns entries {@code [k*C, k*C + C)} of {@link #times}, where {@code C = 2μ} is the
 * capacity (the transient arity {@code 2μ + 1} of an overflowing node holds exactly {@code 2μ}
 * entries), children {@code [k*(C+1), k*(C+1) + C+1)} of {@link #kids}, and partial-aggregate slots
 * {@code [S + k*(C+1), S + k*(C+1) + C]} of the one {@link Partials} store: {@code C} value slots
 * and, last, the node's aggregate slot ({@code S} scratch slots come first); a node's entries start at
 * its first slot, but the left-finger leaf's may start later ({@link #lfOff}). Per node there is
 * also a parent id, an entry count, a flag byte (leaf, left spine, right spine) and, in finger
 * trees, the number of entries its aggregate covers. Free nodes form a list linked through
 * {@link #parent}. With long times and a one-double partial, that is {@code 20C + 22} bytes per
 * node ({@code 20C + 18} in the classic tree) plus the pool's growth
 * slack (at most an eighth). Rebalancing (below) keeps nodes filled by in-order or reverse-order
 * inserts at arity {@code 2μ}: at n = 2^22, in order, about 26 bytes per entry in use for
 * {@code μ = 4} (see the test MemoryReport and {@code MemoryPerEntry} in the JMH module).
 *
 * <p><b>Rebalancing</b> (after the fact, Figure 7, with two terminal steps added): an overflowing
 * node (arity {@code 2μ + 1}) whose left sibling, else right sibling, has arity below {@code 2μ}
 * moves {@code k} entries to it through the parent ({@link #shiftLeft}, {@link #shiftRight}) so
 * that the sibling reaches arity {@code 2μ} ({@code 1 <= k <= μ}, the node keeps arity
 * {@code >= μ + 1}); only when both are full does it split, and the split may overflow the parent
 * (Figure 7). An underflowing node (arity {@code μ - 1}) whose chosen sibling has arity above
 * {@code μ} takes {@code k = arity(sibling) - μ} entries from it (the paper's {@code move} with
 * {@code k = 1} and more), else merges. Both moves leave the parent's arity unchanged, so they end
 * the rebalancing: each runs at most once per insert or evict and costs O(μ). The amortized O(1)
 * bound of Lemma 9 (coins per node: 4 at arity {@code 2μ + 1}, 2 at {@code 2μ} or {@code μ - 1},
 * 1 at {@code μ}, else 0) still holds: splits and merges pay for themselves from their nodes' coins
 * exactly as in the lemma, and a move changes the coins of two nodes by at most 2 each, which the
 * operation that ends with it is billed (a constant number of coins per operation, as for
 * {@code heightIncrease} and {@code heightDecrease}). In-order and reverse-order appends leave
 * each leaf behind at arity {@code 2μ}.
 *
 * <p>Subclasses choose where aggregates live ({@link #finger}): in the classic tree every node
 * stores its up-aggregate and searches start at the root (but for the window's two ends: an
 * insert beyond either end and an eviction of the oldest entry go straight to the finger leaf,
 * which both trees keep); in the finger tree (Section 3.2) only
 * non-spine nodes do, the root stores its inner aggregate, left- and right-spine nodes their left
 * and right aggregates, and searches start at a finger.
 *
 * <p>Both keep an insert hint ({@link #hintLeaf}): the leaf the last searching insert landed in and
 * the times of the nearest entries on either side of it; an insert strictly between them goes to
 * that leaf without a search. Invariant: while set, the hint is a leaf of the tree and every entry
 * strictly between its bounds lies in it; every step that moves an entry across a leaf's border
 * (split, shift, merge, {@code evictInner}, height change, freeing a node, bulk operation) clears it,
 * but for two that set or keep it knowing which entries moved: the rebalancing of the hint leaf
 * after an insert (the leaf holding the new entry, or starting right after it when it went into a
 * parent, bounded by it and the next entry) and the left finger's underflow (a hint right of the
 * finger's sibling). A set hint's bounds lie within its leaf's (a time between them belongs in it).
 *
 * <p>{@code combine} is always called with the older (smaller-time) operand on the left.
 */
abstract class BTreeCore implements TimedAggregator {
  static final byte LEAF = 1;
  static final byte LEFT = 2;
  static final byte RIGHT = 4;
  /**
   * Set on an internal node whose own aggregate (see {@link #repair}) sits valid in its value slot
   * {@code C - 1}: in FiBA a non-root spine node, in the classic tree a left-spine node or the root
   * (its own part leaves out the first child's up-aggregate); cleared by every edit of the node's
   * entries, children or children's up-aggregates (in the classic tree: of a child other than the
   * first) and by every change of its spine flags.
   */
  static final byte OWN = 8;

  /** Scratch slots before the node slots. */
  static final int LIFT = 0;
  static final int RES = 1;
  static final int TMP = 2;
  static final int SCRATCH = 4;

  final String name;
  final AggregateFunction<?, ?, ?> fn;
  final Partials p;
  final boolean objectStore;
  /**
   * Typed path: the function when the store is a {@link DoublePartials} of width 1 (slot = array
   * index), else null; {@link #da} is then the store's array, refreshed after every resize.
   */
  final DoubleFunction df;
  /**
   * Scalar typed path: the function when {@link #df} is a {@link ScalarDoubleFunction}, else null;
   * {@link #repair} then folds a node's chain in a local {@code double} and stores it once.
   */
  final ScalarDoubleFunction sf;
  double[] da;
  /** MIN_ARITY and MAX_ARITY = 2 MIN_ARITY. */
  final int minArity;
  final int maxArity;
  /** Entry capacity per node (= MAX_ARITY) and slots / child ids per node (= cap + 1). */
  final int cap;
  final int stride;
  /** Whether this is a finger tree with position-aware aggregates (else classic up-aggregates). */
  final boolean finger;

  long[] times = new long[0];
  int[] kids = new int[0];
  int[] parent = new int[0];
  byte[] cnt = new byte[0];
  byte[] flags = new byte[0];
  /**
   * Number of entries under a node's aggregate without the parent term: of its subtree for an
   * up-aggregate, of the inner aggregate at the root, and on a spine of the node's own part (its
   * subtree minus its spine child's subtree), so a parent's change never changes a spine node's
   * count. Lets bulk eviction count what it removes in O(1) per removed subtree (O(height) for a
   * left-spine subtree). Kept by finger trees only ({@link BulkFingerBTree} reads them); the
   * classic tree leaves this array empty and its repairs read no counts.
   */
  int[] aggCnt = new int[0];
  int nodeCap;
  /** Ids below this have been handed out at least once. */
  int nodeHigh;
  /** Head of the free list (linked through parent[]), -1 if empty. */
  int freeHead = -1;

  int root;
  int leftFinger;
  int rightFinger;
  int size;

  /**
   * Suffix folds of the left-finger leaf (trees with a primitive store, whose partials have
   * a fixed size, so a right-to-left fold costs what a left-to-right one does; an object store may
   * hold growing partials and keeps the plain fold): a detached node {@code sfx} (allocated at
   * the first eviction of the oldest entry from a tree of height >= 1, never part of the tree)
   * whose value slot {@code sfxBase + i} holds {@code v_i ⊕ ... ⊕ v_{a-1} ⊕ Π←(parent)} (no parent term below the
   * root) for the entries {@code v_0 .. v_{a-1}} of the left-spine leaf {@code sfxLeaf}, so slot
   * {@code sfxBase} equals its {@code Π←}. {@link #repair} of a left-spine leaf computes them with
   * the fold's own combines (right to left); evicting the oldest entry without underflow then
   * costs no combine ({@code sfxBase + 1} is the new {@code Π←}), and a prepend below the oldest
   * entry extends them by its one combine. Valid while {@code sfxLeaf == leftFinger}; every other
   * change of that leaf's entries or of its parent's {@code Π←} repairs it, which recomputes them.
   * In the classic tree they are the suffixes of the leaf's up-aggregate (no parent term), and the
   * two fast paths then extend the ancestors' up-aggregates (one combine per level, see
   * {@link #OWN}); an append at the leaf's end, which the folds cannot take, repairs the leaf or
   * forgets them ({@link #shiftFromRightFinger}). The folds end in the node's last slot ({@code sfxBase + a = C + 1}, kept by evictions and
   * prepends alike), so a prepend always finds a free slot before the first.
   */
  int sfx = -1;
  int sfxLeaf = -1;
  int sfxBase;

  /**
   * Suffix folds of the own part of the left finger's parent (finger trees with a primitive store,
   * like {@link #sfx}): a detached node {@code psfx} whose value slot {@code psfxBase + i} holds
   * {@code v_i ⊕ Π↑(z_{i+1}) ⊕ ... ⊕ v_{a-1} ⊕ Π↑(z_a)} for the entries {@code v_0 .. v_{a-1}} and
   * children {@code z_0 .. z_a} of the internal non-root left-spine node {@code psfxNode}, so slot
   * {@code psfxBase} equals its own part. Valid while {@code psfxNode} keeps {@link #OWN} (every
   * edit of its own part clears the flag; only {@link #repair} sets it, and it recomputes them when
   * the node is the left finger's parent, else forgets them). The left finger's underflow then
   * repairs that parent in O(1) ({@link #evictUnderflowAtLeft}): a move through it changes only
   * {@code v_0} and {@code Π↑(z_1)} (two combines for the new own part), a merge drops them (the
   * next suffix is the new own part: no combine). The folds end in the node's last slot
   * ({@code psfxBase + a = C + 1}).
   */
  int psfx = -1;
  int psfxNode = -1;
  int psfxBase;

  /**
   * The same suffix folds, in the detached node {@code gsfx}, of the own part of the left finger's
   * grandparent {@code gsfxNode} (a non-root left-spine node), under the same validity rule (a
   * node id that holds one of the two fold sets forgets the other when it gets it). When the left
   * finger's merge underflows its parent, {@link #evictUnderflowAtLeftParent} rebalances the parent
   * with its sibling and repairs the grandparent in O(1): a move changes only its {@code v_0} and
   * {@code Π↑(z_1)}, a merge drops them.
   */
  int gsfx = -1;
  int gsfxNode = -1;
  int gsfxBase;

  /**
   * Entry offset of the left-finger leaf: its entries sit in slots {@code [lfOff, lfOff + a)} of its
   * node (times and values alike), every other node's from slot 0. Only the fast eviction of the
   * oldest entry ({@link #evict}, one more) and a prepend below it that does not overflow the leaf
   * ({@link #insertLifted}, one less) change it, so neither moves the leaf's other entries;
   * {@code lfOff + a} stays at most {@code C}. Nonzero only in trees with a primitive store (the
   * suffix folds' condition), while the left finger is a non-root leaf. Every other path that reads or writes the leaf's
   * entries (any other insert or evict, range queries, searches, bulk operations) first moves them
   * back to slot 0 ({@link #compactLeft}), the one shift that the evictions since deferred; an
   * append at the right finger whose rebalancing ends below the root and does not fill the left
   * finger keeps it ({@link #rebalancesOnTheRight}).
   */
  int lfOff;

  // results of the rebalancing routines (the paper's triple), kept in fields to avoid allocation
  int rTop;
  /**
   * The leaf that took entries from the leaf rebalanced by the last {@link #rebalanceForInsert}
   * (the new right sibling of a split, or the sibling a shift filled), else -1.
   */
  int rSibLeaf = -1;
  boolean rHitLeft;
  boolean rHitRight;

  BTreeCore(String name, AggregateFunction<?, ?, ?> fn, int minArity, boolean finger) {
    if (minArity < 2 || minArity > 60) {
      throw new IllegalArgumentException("MIN_ARITY must be in [2, 60]: " + minArity);
    }
    this.name = name;
    this.fn = Objects.requireNonNull(fn, "fn");
    this.p = fn.newPartials();
    this.objectStore = p instanceof ObjectPartials;
    this.df = p instanceof DoublePartials && fn instanceof DoubleFunction d && d.width() == 1 ? d : null;
    this.sf = df instanceof ScalarDoubleFunction s ? s : null;
    this.minArity = minArity;
    this.maxArity = 2 * minArity;
    this.cap = maxArity;
    this.stride = cap + 1;
    this.finger = finger;
    p.resize(SCRATCH);
    refreshArray();
    root = alloc();
    flags[root] = LEAF;
    leftFinger = root;
    rightFinger = root;
    repair(root);
  }

  // ---------------------------------------------------------------- node pool

  final int vslot(int k, int i) {
    return SCRATCH + k * stride + i;
  }

  final int aggSlot(int k) {
    return SCRATCH + k * stride + cap;
  }

  final long time(int k, int i) {
    return times[k * cap + i];
  }

  final int kid(int k, int i) {
    return kids[k * stride + i];
  }

  final int n(int k) {
    return cnt[k];
  }

  final int arity(int k) {
    return cnt[k] + 1;
  }

  final boolean isLeaf(int k) {
    return (flags[k] & LEAF) != 0;
  }

  final boolean isLeft(int k) {
    return (flags[k] & LEFT) != 0;
  }

  final boolean isRight(int k) {
    return (flags[k] & RIGHT) != 0;
  }

  /** Whether node {@code k} stores its up-aggregate: always in the classic tree; off the spines in FiBA. */
  final boolean hasAggUp(int k) {
    return !finger || (k != root && (flags[k] & (LEFT | RIGHT)) == 0);
  }

  private void grow() {
    // 2, 4, 8, 16, 32 nodes, then +16 up to 128, then 1.125x: a small tree (an engine's key with a
    // few slices) stays small, a large one has at most an eighth of its capacity free
    int nc = nodeCap < 2 ? 2 : nodeCap + Math.max(nodeCap >> 3, Math.min(nodeCap, 16));
    if ((long) SCRATCH + (long) nc * stride > Integer.MAX_VALUE - 16) {
      nc = (Integer.MAX_VALUE - 16 - SCRATCH) / stride;
      if (nc <= nodeCap) {
        throw new IllegalStateException("window too large for algorithm '" + name + "'");
      }
    }
    times = Arrays.copyOf(times, Math.multiplyExact(nc, cap));
    kids = Arrays.copyOf(kids, Math.multiplyExact(nc, stride));
    parent = Arrays.copyOf(parent, nc);
    cnt = Arrays.copyOf(cnt, nc);
    flags = Arrays.copyOf(flags, nc);
    if (finger) {
      aggCnt = Arrays.copyOf(aggCnt, nc);
    }
    p.resize(SCRATCH + nc * stride);
    refreshArray();
    nodeCap = nc;
  }

  /**
   * A fresh node (count 0, no flags, no parent). Free nodes may be roots of whole dead subtrees
   * (bulk eviction frees lazily): popping one pushes its children, so each allocation does O(μ)
   * work (Section 6 of the VLDB 2023 paper, "deferred free list").
   */
  final int alloc() {
    int k;
    if (freeHead >= 0) {
      k = freeHead;
      freeHead = parent[k];
      if ((flags[k] & LEAF) == 0) {
        for (int i = 0, a = cnt[k]; i <= a; i++) {
          int c = kids[k * stride + i];
          parent[c] = freeHead;
          freeHead = c;
        }
      }
      if (objectStore) {
        for (int i = 0, a = cnt[k]; i < a; i++) {
          p.release(vslot(k, i));
        }
        p.release(aggSlot(k));
      }
    } else {
      if (nodeHigh == nodeCap) {
        grow();
      }
      k = nodeHigh++;
    }
    cnt[k] = 0;
    flags[k] = 0;
    parent[k] = -1;
    return k;
  }

  /** Frees one node whose children (if any) live on elsewhere. */
  final void freeNode(int k) {
    hintLeaf = -1;
    if (objectStore) {
      for (int i = 0, a = cnt[k]; i < a; i++) {
        p.release(vslot(k, i));
      }
      p.release(aggSlot(k));
    }
    cnt[k] = 0;
    flags[k] = LEAF;
    parent[k] = freeHead;
    freeHead = k;
  }

  /** Frees a whole dead subtree lazily: O(1) now, its nodes are recycled one by one by {@link #alloc}. */
  final void freeSubtree(int k) {
    hintLeaf = -1;
    parent[k] = freeHead;
    freeHead = k;
  }

  private void refreshArray() {
    if (df != null) {
      da = ((DoublePartials) p).array();
    }
  }

  /** {@code slot[dst] = slot[older] ⊕ slot[newer]} through the typed path when there is one. */
  final void comb(int dst, int older, int newer) {
    if (df != null) {
      df.combine(da, dst, older, newer);
    } else {
      p.combine(dst, older, newer);
    }
  }

  /** {@code slot[dst] = slot[vb] ⊕ ... ⊕ slot[vb + a - 1]} ({@code a >= 1}), left to right. */
  final void foldValues(int dst, int vb, int a) {
    final ScalarDoubleFunction sf = this.sf;
    if (sf != null) {
      final double[] da = this.da;
      double acc = da[vb];
      for (int i = 1; i < a; i++) {
        acc = sf.combineValues(acc, da[vb + i]);
      }
      da[dst] = acc;
    } else {
      cp(dst, vb);
      for (int i = 1; i < a; i++) {
        comb(dst, dst, vb + i);
      }
    }
  }

  /** {@code slot[dst] = slot[src]} through the typed path when there is one. */
  final void cp(int dst, int src) {
    if (df != null) {
      da[dst] = da[src];
    } else {
      p.copy(dst, src);
    }
  }

  /** {@link #compactLeft} if the left finger's entries sit at an offset. */
  final void compactLeftIfOffset() {
    if (lfOff != 0) {
      compactLeft();
    }
  }

  /** Moves the left finger's entries back to slot 0 of its node ({@link #lfOff} = 0); callers check {@code lfOff != 0} ({@link #compactLeftIfOffset}). */
  final void compactLeft() {
    final int o = lfOff;
    final int k = leftFinger;
    final int a = cnt[k];
    lfOff = 0;
    final int tb = k * cap;
    System.arraycopy(times, tb + o, times, tb, a);
    final int vb = SCRATCH + k * stride;
    if (df != null) {
      System.arraycopy(da, vb + o, da, vb, a);
    } else {
      for (int j = 0; j < a; j++) {
        p.copy(vb + j, vb + o + j);
      }
    }
  }

  // ---------------------------------------------------------------- local node edits

  /** Moves entry {@code (src, si)} to {@code (dst, di)}: time and partial (the caller clears {@code dst}'s {@link #OWN}). */
  final void moveEntry(int dst, int di, int src, int si) {
    times[dst * cap + di] = times[src * cap + si];
    cp(vslot(dst, di), vslot(src, si));
  }

  final void setKid(int k, int i, int c) {
    kids[k * stride + i] = c;
    parent[c] = k;
  }

  /**
   * Inserts entry {@code (t, slot src)} at index {@code i} of {@code k} and, if {@code rightKid >=
   * 0}, child {@code rightKid} at index {@code i + 1}. The node may reach arity {@code 2μ + 1}.
   */
  final void localInsert(int k, int i, long t, int src, int rightKid) {
    final long[] times = this.times;
    final Partials p = this.p;
    flags[k] &= ~OWN;
    int a = cnt[k];
    int tb = k * cap;
    int vb = SCRATCH + k * stride;
    for (int j = a; j > i; j--) { // at most 2μ entries: one short loop moves times and partials
      times[tb + j] = times[tb + j - 1];
      cp(vb + j, vb + j - 1);
    }
    times[tb + i] = t;
    cp(vb + i, src);
    if (rightKid >= 0) {
      int kb = k * stride;
      for (int j = a + 1; j > i + 1; j--) {
        kids[kb + j] = kids[kb + j - 1];
      }
      setKid(k, i + 1, rightKid);
    }
    cnt[k] = (byte) (a + 1);
  }

  /** Removes entry {@code i} of {@code k} and, if {@code removeKid >= 0}, child index {@code removeKid}. */
  final void localEvict(int k, int i, int removeKid) {
    final long[] times = this.times;
    final Partials p = this.p;
    flags[k] &= ~OWN;
    int a = cnt[k];
    int tb = k * cap;
    int vb = SCRATCH + k * stride;
    for (int j = i; j < a - 1; j++) {
      times[tb + j] = times[tb + j + 1];
      cp(vb + j, vb + j + 1);
    }
    if (objectStore) {
      p.release(vb + a - 1);
    }
    if (removeKid >= 0) {
      int kb = k * stride;
      for (int j = removeKid; j < a; j++) {
        kids[kb + j] = kids[kb + j + 1];
      }
    }
    cnt[k] = (byte) (a - 1);
  }

  /** Index of the first entry of {@code k} with time {@code >= t} (linear: nodes hold at most 2μ entries). */
  final int lowerBound(int k, long t) {
    int b = k * cap;
    int a = cnt[k];
    int i = 0;
    while (i < a && times[b + i] < t) {
      i++;
    }
    return i;
  }

  /** Index of child {@code c} in its parent. */
  final int childIndex(int c) {
    int pa = parent[c];
    int b = pa * stride;
    int last = cnt[pa];
    if (kids[b + last] == c) { // the right spine and in-order inserts
      return last;
    }
    int i = 0;
    while (kids[b + i] != c) {
      i++;
    }
    return i;
  }

  // ---------------------------------------------------------------- aggregates

  /**
   * The paper's {@code localRepairAgg}: recomputes the aggregate of {@code k} for its position:
   * up-aggregate {@code Π↑ = Π↑(z0) v0 Π↑(z1) ... v_{a-2} Π↑(z_{a-1})}; at the FiBA root the inner
   * aggregate {@code v0 Π↑(z1) ... Π↑(z_{a-2}) v_{a-2}} (all values if the root is a leaf); on the
   * left spine {@code Π← = v0 Π↑(z1) ... v_{a-2} Π↑(z_{a-1}) Π←(parent)} (no parent term below the
   * root); on the right spine {@code Π→ = Π→(parent) Π↑(z0) v0 ... Π↑(z_{a-2}) v_{a-2}}. Reads the
   * children's and parent's stored aggregates, so repairs run children-first for up-aggregates and
   * parent-first along the spines. Folds left to right straight into the aggregate slot (the first
   * operand is copied, so no identity is combined unless the aggregate is empty). An internal
   * non-root spine node with fewer than {@code C} entries first folds its own part (everything but
   * the parent term) into its free value slot {@code C - 1} and sets {@link #OWN}, then adds the
   * parent term: the same number of combines, and {@link #repairOnSpine} can later redo the parent
   * term alone. Clears {@link #OWN} of the parent of a node whose up-aggregate it recomputes.
   *
   * <p>In the classic tree an internal left-spine node or the root with fewer than {@code C}
   * entries likewise keeps {@code own = v0 Π↑(z1) ... v_{a-1} Π↑(z_a)} in slot {@code C - 1} and
   * {@code Π↑ = Π↑(z0) own} (the same combines); while {@link #OWN} stays set its repair is the one
   * combine {@code Π↑(z0) own}, which {@link #repairAbove} does in place when it climbs from a first
   * child. So the walk up the left spine after an eviction or a prepend at the left finger costs
   * one combine per level. A recomputed or extended up-aggregate clears its parent's flag unless it
   * is the parent's first child.
   */
  final void repair(int k) {
    if ((flags[k] & LEAF) != 0) {
      repairLeaf(k);
    } else {
      repairInternal(k);
    }
  }

  /** {@link #repair} of a leaf: small, so that callers inline it. */
  private void repairLeaf(int k) {
    final int a = cnt[k];
    final int f = flags[k];
    final int vb = SCRATCH + k * stride; // value slot 0; the aggregate slot is vb + cap
    final int dst = vb + cap;
    if (!finger || (f & (LEFT | RIGHT)) == 0) { // up-aggregate or (leaf) root: the values
      if (k != root) {
        dropParentOwn(k);
      }
      if (a == 0) {
        p.setIdentity(dst);
      } else if (!finger && (f & LEFT) != 0 && sfx >= 0) { // the classic left finger: Π↑ = suffix(0)
        foldSuffixes(k, vb, a, -1);
      } else {
        foldValues(dst, vb, a);
      }
      if (finger) {
        aggCnt[k] = a;
      }
      return;
    }
    final int pa = parent[k];
    final boolean withParent = pa != root;
    if ((f & LEFT) != 0) { // Π← = v0 ... v_{a-1} Π←(parent)
      if (a > 0 && sfx >= 0) {
        foldSuffixes(k, vb, a, withParent ? aggSlot(pa) : -1);
        aggCnt[k] = a;
        return;
      }
    } else { // Π→ = Π→(parent) v0 ... v_{a-1}
      final ScalarDoubleFunction sf = this.sf;
      if (sf != null && (withParent || a > 0)) {
        final double[] da = this.da;
        double acc;
        int i = 0;
        if (withParent) {
          acc = da[aggSlot(pa)];
        } else {
          acc = da[vb];
          i = 1;
        }
        for (; i < a; i++) {
          acc = sf.combineValues(acc, da[vb + i]);
        }
        da[dst] = acc;
        aggCnt[k] = a;
        return;
      }
    }
    repairSpineLeafSlots(k, a, f, vb, dst, pa, withParent);
  }

  /** {@link #repairLeaf} of a spine leaf through the slots (no suffix folds, no scalar fold). */
  private void repairSpineLeafSlots(int k, int a, int f, int vb, int dst, int pa, boolean withParent) {
    final Partials p = this.p;
    if ((f & LEFT) != 0) { // Π← = v0 ... v_{a-1} Π←(parent)
      if (a == 0) {
        if (withParent) {
          cp(dst, aggSlot(pa));
        } else {
          p.setIdentity(dst);
        }
      } else {
        foldValues(dst, vb, a);
        if (withParent) {
          comb(dst, dst, aggSlot(pa));
        }
      }
    } else { // Π→ = Π→(parent) v0 ... v_{a-1}
      int i = 0;
      if (withParent) {
        cp(dst, aggSlot(pa));
      } else if (a == 0) {
        p.setIdentity(dst);
      } else {
        cp(dst, vb);
        i = 1;
      }
      for (; i < a; i++) {
        comb(dst, dst, vb + i);
      }
    }
    aggCnt[k] = a;
  }

  /** {@link #repair} of an internal node. */
  private void repairInternal(int k) {
    final Partials p = this.p;
    final int a = cnt[k];
    final int f = flags[k];
    final int vb = SCRATCH + k * stride; // value slot 0; the aggregate slot is vb + cap
    final int dst = vb + cap;
    final int[] kids = this.kids;
    final int[] aggCnt = this.aggCnt;
    final int kb = k * stride;
    if (!finger) { // classic Π↑ = Π↑(z0) v0 Π↑(z1) ... v_{a-1} Π↑(z_a), no counts
      if (k != root) {
        dropParentOwn(k);
      }
      int z = kids[kb];
      if ((f & OWN) != 0) { // only Π↑(z0) changed since the own part was folded
        comb(dst, SCRATCH + z * stride + cap, dst - 1);
        return;
      }
      final ScalarDoubleFunction sf = this.sf;
      if (a > 0 && a < cap && ((f & LEFT) != 0 || k == root)) { // own = v0 Π↑(z1) ... v_{a-1} Π↑(z_a) in slot C - 1
        final int own = dst - 1;
        int z1 = kids[kb + 1];
        if (sf != null) {
          final double[] da = this.da;
          double acc = sf.combineValues(da[vb], da[SCRATCH + z1 * stride + cap]);
          for (int i = 1; i < a; i++) {
            z1 = kids[kb + i + 1];
            acc = sf.combineValues(acc, da[vb + i]);
            acc = sf.combineValues(acc, da[SCRATCH + z1 * stride + cap]);
          }
          da[own] = acc;
          da[dst] = sf.combineValues(da[SCRATCH + z * stride + cap], acc);
        } else {
          comb(own, vb, SCRATCH + z1 * stride + cap);
          for (int i = 1; i < a; i++) {
            z1 = kids[kb + i + 1];
            comb(own, own, vb + i);
            comb(own, own, SCRATCH + z1 * stride + cap);
          }
          comb(dst, SCRATCH + z * stride + cap, own);
        }
        flags[k] = (byte) (f | OWN);
        return;
      }
      if (sf != null) {
        final double[] da = this.da;
        double acc = da[SCRATCH + z * stride + cap];
        for (int i = 0; i < a; i++) {
          z = kids[kb + i + 1];
          acc = sf.combineValues(acc, da[vb + i]);
          acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]);
        }
        da[dst] = acc;
      } else {
        cp(dst, SCRATCH + z * stride + cap);
        for (int i = 0; i < a; i++) {
          z = kids[kb + i + 1];
          comb(dst, dst, vb + i);
          comb(dst, dst, SCRATCH + z * stride + cap);
        }
      }
      return;
    }
    if (k != root && (f & (LEFT | RIGHT)) == 0) { // Π↑ = Π↑(z0) v0 Π↑(z1) ... v_{a-1} Π↑(z_a)
      flags[parent[k]] &= ~OWN;
      int z = kids[kb];
      int c = a + aggCnt[z];
      final ScalarDoubleFunction sf = this.sf;
      if (sf != null) {
        final double[] da = this.da;
        double acc = da[SCRATCH + z * stride + cap];
        for (int i = 0; i < a; i++) {
          z = kids[kb + i + 1];
          acc = sf.combineValues(acc, da[vb + i]);
          acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]);
          c += aggCnt[z];
        }
        da[dst] = acc;
      } else {
        cp(dst, SCRATCH + z * stride + cap);
        for (int i = 0; i < a; i++) {
          z = kids[kb + i + 1];
          comb(dst, dst, vb + i);
          comb(dst, dst, SCRATCH + z * stride + cap);
          c += aggCnt[z];
        }
      }
      aggCnt[k] = c;
      return;
    }
    if (k == root) { // inner: v0 Π↑(z1) v1 ... Π↑(z_{a-1}) v_{a-1}
      int c = a;
      if (a == 0) {
        p.setIdentity(dst);
      } else {
        final ScalarDoubleFunction sf = this.sf;
        if (sf != null) {
          final double[] da = this.da;
          double acc = da[vb];
          for (int i = 1; i < a; i++) {
            int z = kids[kb + i];
            acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]);
            acc = sf.combineValues(acc, da[vb + i]);
            c += aggCnt[z];
          }
          da[dst] = acc;
        } else {
          cp(dst, vb);
          for (int i = 1; i < a; i++) {
            int z = kids[kb + i];
            comb(dst, dst, SCRATCH + z * stride + cap);
            comb(dst, dst, vb + i);
            c += aggCnt[z];
          }
        }
      }
      aggCnt[k] = c;
      return;
    }
    int pa = parent[k];
    boolean withParent = pa != root;
    int c = a;
    if (a == 0 || a == cap) { // no own aggregate: a transient node, or its slot C - 1 holds an entry
      flags[k] = (byte) (f & ~OWN);
      repairSpineDirect(k, pa, withParent);
      return;
    }
    final int own = dst - 1; // value slot C - 1
    if ((f & LEFT) != 0) { // own = v0 Π↑(z1) ... v_{a-1} Π↑(z_a); Π← = own Π←(parent)
      if (psfx >= 0) {
        final int lp = parent[leftFinger];
        if (k == lp || k == parent[lp]) {
          foldOwnSuffixes(k, a, f, pa, withParent, k != lp);
          return;
        }
      }
      forgetOwnSuffixes(k);
      final ScalarDoubleFunction sf = this.sf;
      if (sf != null) {
        final double[] da = this.da;
        int z = kids[kb + 1];
        double acc = sf.combineValues(da[vb], da[SCRATCH + z * stride + cap]);
        c += aggCnt[z];
        for (int i = 1; i < a; i++) {
          z = kids[kb + i + 1];
          acc = sf.combineValues(acc, da[vb + i]);
          acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]);
          c += aggCnt[z];
        }
        da[own] = acc;
        da[dst] = withParent ? sf.combineValues(acc, da[aggSlot(pa)]) : acc;
      } else {
        int z = kids[kb + 1];
        comb(own, vb, SCRATCH + z * stride + cap);
        c += aggCnt[z];
        for (int i = 1; i < a; i++) {
          z = kids[kb + i + 1];
          comb(own, own, vb + i);
          comb(own, own, SCRATCH + z * stride + cap);
          c += aggCnt[z];
        }
        if (withParent) {
          comb(dst, own, aggSlot(pa));
        } else {
          cp(dst, own);
        }
      }
    } else { // own = Π↑(z0) v0 ... Π↑(z_{a-1}) v_{a-1}; Π→ = Π→(parent) own
      forgetOwnSuffixes(k);
      final ScalarDoubleFunction sf = this.sf;
      if (sf != null) {
        final double[] da = this.da;
        int z = kids[kb];
        double acc = sf.combineValues(da[SCRATCH + z * stride + cap], da[vb]);
        c += aggCnt[z];
        for (int i = 1; i < a; i++) {
          z = kids[kb + i];
          acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]);
          acc = sf.combineValues(acc, da[vb + i]);
          c += aggCnt[z];
        }
        da[own] = acc;
        da[dst] = withParent ? sf.combineValues(da[aggSlot(pa)], acc) : acc;
      } else {
        int z = kids[kb];
        comb(own, SCRATCH + z * stride + cap, vb);
        c += aggCnt[z];
        for (int i = 1; i < a; i++) {
          z = kids[kb + i];
          comb(own, own, SCRATCH + z * stride + cap);
          comb(own, own, vb + i);
          c += aggCnt[z];
        }
        if (withParent) {
          comb(dst, aggSlot(pa), own);
        } else {
          cp(dst, own);
        }
      }
    }
    flags[k] = (byte) (f | OWN);
    aggCnt[k] = c;
  }

  /**
   * The up-aggregate of {@code k} (not the root) is being recomputed or extended: its parent's own
   * part ({@link #OWN}) covers it unless {@code k} is the parent's first child (the classic tree's
   * own part leaves out {@code Π↑(z0)}; in FiBA only a spine node, never an up node's parent
   * otherwise, keeps one, so the parent's flag is always cleared there).
   */
  private void dropParentOwn(int k) {
    int pa = parent[k];
    if (finger || kids[pa * stride] != k) {
      flags[pa] &= ~OWN;
    }
  }

  /**
   * {@code Π←} of left-spine leaf {@code k} ({@code a >= 1} values from slot {@code vb}; parent
   * term in slot {@code above}, or none if {@code above < 0}) folded right to left, each suffix
   * stored in the value slots of {@link #sfx}: the same {@code a} (or {@code a - 1}) combines as the
   * left-to-right fold.
   */
  private void foldSuffixes(int k, int vb, int a, int above) {
    final int base = stride - a; // the last suffix in the last slot: room for prepends before the first
    final int sb = SCRATCH + sfx * stride + base;
    final ScalarDoubleFunction sf = this.sf;
    if (sf != null) {
      final double[] da = this.da;
      double acc;
      int i = a - 1;
      if (above >= 0) {
        acc = sf.combineValues(da[vb + i], da[above]);
      } else {
        acc = da[vb + i];
      }
      da[sb + i] = acc;
      while (--i >= 0) {
        acc = sf.combineValues(da[vb + i], acc);
        da[sb + i] = acc;
      }
      da[vb + cap] = acc;
    } else {
      int i = a - 1;
      if (above >= 0) {
        comb(sb + i, vb + i, above);
      } else {
        cp(sb + i, vb + i);
      }
      while (--i >= 0) {
        comb(sb + i, vb + i, sb + i + 1);
      }
      cp(vb + cap, sb);
    }
    sfxLeaf = k;
    sfxBase = base;
  }

  /** Marks the own-part suffix folds ({@link #psfx}, {@link #gsfx}) of node {@code k}, if it has any, as stale. */
  private void forgetOwnSuffixes(int k) {
    if (k == psfxNode) {
      psfxNode = -1;
    }
    if (k == gsfxNode) {
      gsfxNode = -1;
    }
  }

  /**
   * {@link #repair} of the left finger's parent or ({@code grand}) grandparent {@code k}
   * ({@code 1 <= a < C} entries): its own part folded right to left, each suffix stored in the value
   * slots of {@link #psfx} or {@link #gsfx} (the same {@code 2a - 1} combines as the left-to-right
   * fold), then {@code Π← = own ⊕ Π←(parent)}.
   */
  private void foldOwnSuffixes(int k, int a, int f, int pa, boolean withParent, boolean grand) {
    final int vb = SCRATCH + k * stride;
    final int dst = vb + cap;
    final int own = dst - 1;
    final int kb = k * stride;
    final int[] kids = this.kids;
    final int[] aggCnt = this.aggCnt;
    final int base = stride - a; // the last suffix in the last slot, as in foldSuffixes
    final int sb = SCRATCH + (grand ? gsfx : psfx) * stride + base;
    int z = kids[kb + a];
    int c = a + aggCnt[z];
    final ScalarDoubleFunction sf = this.sf;
    if (sf != null) {
      final double[] da = this.da;
      double acc = sf.combineValues(da[vb + a - 1], da[SCRATCH + z * stride + cap]);
      da[sb + a - 1] = acc;
      for (int i = a - 2; i >= 0; i--) {
        z = kids[kb + i + 1];
        c += aggCnt[z];
        acc = sf.combineValues(da[SCRATCH + z * stride + cap], acc);
        acc = sf.combineValues(da[vb + i], acc);
        da[sb + i] = acc;
      }
      da[own] = acc;
      da[dst] = withParent ? sf.combineValues(acc, da[aggSlot(pa)]) : acc;
    } else {
      comb(sb + a - 1, vb + a - 1, SCRATCH + z * stride + cap);
      for (int i = a - 2; i >= 0; i--) {
        z = kids[kb + i + 1];
        c += aggCnt[z];
        comb(TMP, SCRATCH + z * stride + cap, sb + i + 1);
        comb(sb + i, vb + i, TMP);
      }
      cp(own, sb);
      if (withParent) {
        comb(dst, own, aggSlot(pa));
      } else {
        cp(dst, own);
      }
    }
    flags[k] = (byte) (f | OWN);
    aggCnt[k] = c;
    if (grand) {
      gsfxNode = k;
      gsfxBase = base;
      if (psfxNode == k) {
        psfxNode = -1;
      }
    } else {
      psfxNode = k;
      psfxBase = base;
      if (gsfxNode == k) {
        gsfxNode = -1;
      }
    }
  }

  /** {@link #repair} of an internal non-root spine node without keeping its own aggregate. */
  private void repairSpineDirect(int k, int pa, boolean withParent) {
    final Partials p = this.p;
    final int a = cnt[k];
    final int vb = SCRATCH + k * stride;
    final int dst = vb + cap;
    final int kb = k * stride;
    int c = a;
    if ((flags[k] & LEFT) != 0) { // Π← = v0 Π↑(z1) ... v_{a-1} Π↑(z_a) Π←(parent)
      if (a == 0) {
        if (withParent) {
          cp(dst, aggSlot(pa));
        } else {
          p.setIdentity(dst);
        }
      } else {
        cp(dst, vb);
        for (int i = 1; i <= a; i++) {
          int z = kids[kb + i];
          comb(dst, dst, SCRATCH + z * stride + cap);
          c += aggCnt[z];
          if (i < a) {
            comb(dst, dst, vb + i);
          }
        }
        if (withParent) {
          comb(dst, dst, aggSlot(pa));
        }
      }
    } else { // Π→ = Π→(parent) Π↑(z0) v0 ... Π↑(z_{a-1}) v_{a-1}
      int i = 0;
      if (withParent) {
        cp(dst, aggSlot(pa));
      } else if (a == 0) {
        p.setIdentity(dst);
      } else {
        int z = kids[kb];
        cp(dst, SCRATCH + z * stride + cap);
        c += aggCnt[z];
        comb(dst, dst, vb);
        i = 1;
      }
      for (; i < a; i++) {
        int z = kids[kb + i];
        comb(dst, dst, SCRATCH + z * stride + cap);
        comb(dst, dst, vb + i);
        c += aggCnt[z];
      }
    }
    aggCnt[k] = c;
  }

  /**
   * {@link #repair} of spine node {@code y} below a repaired parent: if {@code y} keeps a valid own
   * aggregate ({@link #OWN}), only {@code Π←(y) = own ⊗ Π←(parent)} or {@code Π→(y) = Π→(parent) ⊗
   * own} is recomputed (one combine; a copy below the root), else everything. Its count
   * ({@link #aggCnt}, the own part's) stays.
   */
  final void repairOnSpine(int y) {
    final int f = flags[y];
    if ((f & OWN) == 0) {
      repair(y);
      return;
    }
    final int dst = aggSlot(y);
    final int pa = parent[y];
    if (pa == root) {
      cp(dst, dst - 1);
    } else if ((f & LEFT) != 0) {
      comb(dst, dst - 1, aggSlot(pa));
    } else {
      comb(dst, aggSlot(pa), dst - 1);
    }
  }

  /** Clears {@link #OWN} down both spines: their next repairs recompute everything. */
  final void dropOwn() {
    for (int y = root; (flags[y] & LEAF) == 0; ) {
      y = kids[y * stride];
      flags[y] &= ~OWN;
    }
    for (int y = root; (flags[y] & LEAF) == 0; ) {
      y = kids[y * stride + cnt[y]];
      flags[y] &= ~OWN;
    }
  }

  final void repairIfUp(int k) {
    if (hasAggUp(k)) {
      repair(k);
    }
  }

  /**
   * The paper's {@code repairAggs}: repairs {@code top} and the up-aggregates above it up to the
   * first node without one (a spine node or the root), then, if that node is on a spine (or is the
   * root and rebalancing hit that spine), the aggregates down that spine to the finger. In the
   * classic tree: {@code top} and all its ancestors.
   */
  final void repairAggs(int top, boolean hitLeft, boolean hitRight) {
    repair(top);
    repairAbove(top, hitLeft, hitRight);
  }

  /** {@link #repairAggs} after {@code top} itself has been repaired. */
  final void repairAbove(int top, boolean hitLeft, boolean hitRight) {
    final int[] parent = this.parent;
    final int root = this.root;
    if (!finger) { // from a first child into a parent with a valid own part: one combine in place
      final int[] kids = this.kids;
      final byte[] flags = this.flags;
      final int stride = this.stride;
      final int cap = this.cap;
      if (sf != null) {
        repairAboveScalar(top);
        return;
      }
      while (top != root) { // any other function: the same walk through the store's combine
        final int c = top;
        top = parent[c];
        if (kids[top * stride] != c) {
          flags[top] &= ~OWN;
        } else if ((flags[top] & OWN) != 0) {
          final int dst = SCRATCH + top * stride + cap;
          comb(dst, SCRATCH + c * stride + cap, dst - 1);
          continue;
        }
        repair(top);
      }
      return;
    }
    final byte[] flags = this.flags;
    while (top != root && (flags[top] & (LEFT | RIGHT)) == 0) {
      top = parent[top];
      repair(top);
    }
    int f = flags[top];
    if ((f & LEFT) != 0 || (top == root && hitLeft)) {
      int y = top;
      while ((flags[y] & LEAF) == 0) {
        y = kids[y * stride];
        repairOnSpine(y);
      }
    }
    if ((f & RIGHT) != 0 || (top == root && hitRight)) {
      int y = top;
      while ((flags[y] & LEAF) == 0) {
        y = kids[y * stride + cnt[y]];
        repairOnSpine(y);
      }
    }
  }

  /**
   * The classic {@link #repairAbove} for a scalar function: the same walk, with the plain up node's
   * fold ({@code Π↑ = Π↑(z0) v0 Π↑(z1) ... v_{a-1} Π↑(z_a)}, its parent's {@link #OWN} left to the
   * next step of the walk) inline; left-spine nodes and the root, which keep own parts, go through
   * {@link #repair}.
   */
  private void repairAboveScalar(int top) {
    final ScalarDoubleFunction sf = this.sf;
    final int root = this.root;
    final int[] parent = this.parent;
    final int[] kids = this.kids;
    final byte[] flags = this.flags;
    final int stride = this.stride;
    final int cap = this.cap;
    final double[] da = this.da;
    final byte[] cnt = this.cnt;
    while (top != root) {
      final int c = top;
      top = parent[c];
      final int kb = top * stride;
      int f = flags[top];
      if (kids[kb] != c) {
        f &= ~OWN;
        flags[top] = (byte) f;
      } else if ((f & OWN) != 0) {
        final int dst = SCRATCH + kb + cap;
        da[dst] = sf.combineValues(da[SCRATCH + c * stride + cap], da[dst - 1]);
        continue;
      }
      if ((f & LEFT) != 0 || top == root) {
        repair(top);
        continue;
      }
      final int vb = SCRATCH + kb;
      final int a = cnt[top];
      double acc = da[SCRATCH + kids[kb] * stride + cap];
      for (int i = 0; i < a; i++) {
        acc = sf.combineValues(acc, da[vb + i]);
        acc = sf.combineValues(acc, da[SCRATCH + kids[kb + i + 1] * stride + cap]);
      }
      da[vb + cap] = acc;
    }
  }

  // ---------------------------------------------------------------- search

  /**
   * The node holding {@code t}, or the leaf where it belongs. FiBA searches from the nearer finger:
   * up the spine to the first node whose subtree covers {@code t}, then down (O(log d)); the classic
   * tree searches from the root. Below the left finger's ancestors the nodes are scanned from the
   * left ({@link #descend}), everywhere else from the right ({@link #descendFromRight}): a late
   * arrival lands just before the younger entries that arrived before it, so on its path it sits
   * near the right end of each node (at the right end of most, in a steady stream at one delay).
   */
  final int searchNode(long t) {
    if (!finger || isLeaf(root)) {
      return descendFromRight(root, t, Long.MIN_VALUE, Long.MAX_VALUE);
    }
    int r = root;
    int a = cnt[r];
    if (t < time(r, 0)) {
      int y = leftFinger;
      while (parent[y] != r && t > time(y, cnt[y] - 1)) {
        y = parent[y];
      }
      return descend(y, t, time(parent[y], 0)); // y is a first child on the left spine: nothing lies to its left
    }
    if (t > time(r, a - 1)) {
      int y = rightFinger;
      while (parent[y] != r && t < time(y, 0)) {
        y = parent[y];
      }
      int pa = parent[y]; // y is a last child on the right spine: nothing lies to its right
      return descendFromRight(y, t, time(pa, cnt[pa] - 1), Long.MAX_VALUE);
    }
    return descendFromRight(r, t, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Index found by the last {@link #descend} or {@link #descendFromRight}: the first entry of the
   * returned node with time {@code >= t}, and whether its time is {@code t}. When the node is a
   * leaf and {@code t} is not in it, {@link #sLo} and {@link #sHi} are the times of the nearest
   * entries left and right of the leaf ({@code Long.MIN_VALUE} / {@code Long.MAX_VALUE} at the
   * window's ends): every time strictly between them belongs in that leaf.
   */
  int sIdx;
  boolean sFound;
  long sLo;
  long sHi;

  /**
   * The leaf of the last insert that searched ({@link #hintLeaf}, -1 if none) and the times of the
   * nearest entries on either side of it ({@link #hintLo}, {@link #hintHi}, separators in its
   * ancestors or the window's ends). An insert at a time strictly between them goes to that leaf
   * without a search: the entries between the two bounds are exactly the leaf's as long as no
   * entry crosses a leaf's border, which only the structural steps do (split, shifts, merge, move,
   * {@code evictInner}, height changes, freeing nodes, the bulk operations); each clears the hint.
   * Inserts, evictions and combines inside leaves keep it valid (an evicted bound still bounds the
   * leaf). A stream at a steady delay inserts into one leaf until it rebalances; two steps then set
   * the hint again without a search: an insert into the hint leaf that rebalances
   * it ({@link #rehintAfterRebalance}: the leaf now holding the new entry, or the one starting
   * right after it, bounded by the new entry's time and the next entry or the old upper bound,
   * between which no entry lies), and the left finger's
   * underflow ({@link #evictUnderflowAtLeft} and the general path of {@link #evict}: at the leaf
   * level they move only entries of the finger and its right sibling, all below the left bound of
   * every leaf right of them, and above it only separators between internal nodes, so such a hint
   * stays valid).
   */
  int hintLeaf = -1;
  long hintLo;
  long hintHi;
  /** Inserts that went to {@link #hintLeaf} without a search (tests read it). */
  long hintHits;

  /**
   * {@link #descend} with every node scanned from its right end; {@code lo} and {@code hi} bound
   * {@code y}'s subtree (entries outside it nearest to it, or the window's ends).
   */
  final int descendFromRight(int y, long t, long lo, long hi) {
    final long[] times = this.times;
    final byte[] cnt = this.cnt;
    final int cap = this.cap;
    while (true) {
      int b = y * cap;
      int a = cnt[y];
      int i = a;
      while (i > 0 && times[b + i - 1] >= t) {
        i--;
      }
      if (i < a && times[b + i] == t) {
        sIdx = i;
        sFound = true;
        return y;
      }
      if ((flags[y] & LEAF) != 0) {
        sIdx = i;
        sFound = false;
        sLo = lo;
        sHi = hi;
        return y;
      }
      if (i > 0) {
        lo = times[b + i - 1];
      }
      if (i < a) {
        hi = times[b + i];
      }
      y = kids[y * stride + i];
    }
  }

  /**
   * From left-spine node {@code y} (or the root) down to the node holding {@code t} or the leaf
   * where it belongs, each node scanned from its left end; {@code hi} bounds {@code y}'s subtree on
   * the right. Sets {@link #sIdx}, {@link #sFound} (and {@link #sLo}, {@link #sHi} at a leaf).
   */
  final int descend(int y, long t, long hi) {
    final long[] times = this.times;
    final byte[] cnt = this.cnt;
    final int cap = this.cap;
    long lo = Long.MIN_VALUE;
    while (true) {
      int b = y * cap;
      int a = cnt[y];
      int i = 0;
      while (i < a && times[b + i] < t) {
        i++;
      }
      if (i < a && times[b + i] == t) {
        sIdx = i;
        sFound = true;
        return y;
      }
      if ((flags[y] & LEAF) != 0) {
        sIdx = i;
        sFound = false;
        sLo = lo;
        sHi = hi;
        return y;
      }
      if (i > 0) {
        lo = times[b + i - 1];
      }
      if (i < a) {
        hi = times[b + i];
      }
      y = kids[y * stride + i];
    }
  }

  // ---------------------------------------------------------------- insert

  /** Lifts into LIFT first so that a rejected value leaves the tree unchanged. */
  @Override
  public final void insert(long time, double value) {
    p.liftDouble(LIFT, value, time);
    insertLifted(time, LIFT);
  }

  @Override
  public final void insert(long time, long value) {
    p.liftLong(LIFT, value, time);
    insertLifted(time, LIFT);
  }

  @Override
  public final void insert(long time, Object value) {
    lift(LIFT, time, value);
    insertLifted(time, LIFT);
  }

  final void lift(int slot, long time, Object value) {
    if (value instanceof Double || value instanceof Float) {
      p.liftDouble(slot, ((Number) value).doubleValue(), time);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      p.liftLong(slot, ((Number) value).longValue(), time);
    } else {
      p.liftObject(slot, value, time);
    }
  }

  /**
   * Figure 7 {@code insert}: search, local insert (or combine into an equal time), rebalance, repair.
   * Inserts in time order (beyond the right finger) or below the oldest time go straight to the
   * finger (in both trees). When the new entry lands at an end of a leaf that does not split, and the leaf's
   * aggregate has that end as its own end (appending to an up-aggregate, the root's inner
   * aggregate or a right-spine {@code Π→}; prepending to an up-aggregate, the root or a left-spine
   * {@code Π←}), the aggregate is extended by one combine instead of being recomputed; the
   * ancestors are repaired as usual.
   */
  final void insertLifted(long t, int src) {
    int y;
    int i;
    int rf = rightFinger;
    int ar = cnt[rf];
    int lf = leftFinger;
    final int o = lfOff;
    if (ar > 0 && t > times[rf * cap + ar - 1]) {
      if (o != 0 && ar + 2 > maxArity && !rebalancesOnTheRight(rf)) {
        compactLeft();
      }
      y = rf;
      i = ar;
    } else if (ar > 0 && t < times[lf * cap + o]) {
      if (o != 0) {
        if (cnt[lf] + 2 <= maxArity) { // room before the first entry, and no overflow
          prependAtOffset(lf, o - 1, t, src);
          return;
        }
        compactLeft();
      }
      y = lf;
      i = 0;
    } else {
      compactLeftIfOffset();
      y = searchForInsert(t);
      i = sIdx;
      if (sFound) {
        combineInto(y, i, src);
        return;
      }
    }
    int a = cnt[y];
    localInsert(y, i, t, src, -1);
    size++;
    if (a + 2 <= maxArity) { // no split: y is a leaf
      int f = flags[y];
      boolean up = !finger || (f & (LEFT | RIGHT)) == 0;
      if (a > 0 && i == a && (f & LEFT) == 0) { // (a left-spine leaf's suffix folds do not extend at the end)
        extendUp(y, vslot(y, i), true, up);
      } else if (a > 0 && i == 0 && (!finger || (f & RIGHT) == 0)) {
        extendUp(y, vslot(y, 0), false, up);
        if (y == sfxLeaf) { // the new Π← is the new entry's suffix fold
          if (sfxBase > 0) {
            cp(SCRATCH + sfx * stride + --sfxBase, aggSlot(y));
          } else {
            sfxLeaf = -1;
          }
        }
      } else {
        repair(y);
        repairAbove(y, false, false);
      }
      return;
    }
    int pa = parent[y];
    if (y == rightFinger && pa >= 0 && shiftFromRightFinger(y, pa, i == a)) {
      return;
    }
    if (pa >= 0 && cnt[pa] + 2 <= maxArity) { // y splits, its parent takes the separator without splitting
      if (finger && y == rightFinger && cnt[pa] > 0 && (pa == root || (flags[pa] & LEFT) == 0)) {
        // pa (root or right spine) excludes its last child y: afterwards it covers the split-off
        // up-aggregate of y and the separator too, which now end it
        split(y);
        int dst = aggSlot(pa);
        comb(dst, dst, aggSlot(y));
        comb(dst, dst, vslot(pa, cnt[pa] - 1));
        aggCnt[pa] += aggCnt[y] + 1;
        repair(rightFinger);
        return;
      }
      if (!finger && i == a && kids[pa * stride + cnt[pa]] == y) {
        // classic: the split rearranges pa's subtree without changing it, the new last entry extends it
        final boolean hinted = y == hintLeaf;
        final long hi = hintHi;
        int z = split(y);
        extendUp(pa, vslot(z, cnt[z] - 1), true, true);
        if (hinted) { // t ends z, and no entry lies between t and the old upper bound
          hintLeaf = z;
          hintLo = t;
          hintHi = hi;
        }
        return;
      }
    }
    final boolean hinted = y == hintLeaf; // the search or the hint bounded y
    final long hi = i < a ? times[y * cap + i + 1] : hintHi; // no entry lies strictly between t and hi
    rebalanceForInsert(y);
    repairAggs(rTop, rHitLeft, rHitRight);
    if (hinted) {
      rehintAfterRebalance(y, t, hi);
    }
  }

  /**
   * Whether the rebalancing of the overflowing right finger {@code rf} (not the root) after an
   * append ends at its parent: that parent has room for a separator, so the finger shifts into its
   * left sibling (never the left finger: {@link #shiftFromRightFinger}) or splits, and the repairs
   * stay on the right spine (a root parent's inner aggregate takes the split-off part; in the
   * classic tree, whose shortcut also shifts into a left sibling at the root, that sibling must not
   * be the left finger). The left finger's entries ({@link #lfOff}) are then not read.
   */
  private boolean rebalancesOnTheRight(int rf) {
    final int pa = parent[rf];
    final int a = cnt[pa];
    return a + 2 <= maxArity && (finger || kids[pa * stride + a - 1] != leftFinger);
  }

  /**
   * An insert below the oldest entry into slot {@code no} ({@code = lfOff - 1}) of the left finger
   * {@code lf}, a left-spine leaf with room: its {@code Π←} (and suffix folds) take {@code v} by one
   * combine, as {@link #extendUp} does for a prepend; no entry moves.
   */
  private void prependAtOffset(int lf, int no, long t, int src) {
    lfOff = no;
    times[lf * cap + no] = t;
    final int v = SCRATCH + lf * stride + no;
    cp(v, src);
    cnt[lf]++;
    size++;
    final int dst = v - no + cap;
    if (finger) {
      comb(dst, v, dst);
      aggCnt[lf]++;
    } else { // Π↑ of the finger and of each ancestor (every one a first child) take v
      extendUp(lf, v, false, true);
    }
    if (lf == sfxLeaf) { // the new Π← is the new entry's suffix fold
      if (sfxBase > 0) {
        cp(SCRATCH + sfx * stride + --sfxBase, dst);
      } else {
        sfxLeaf = -1;
      }
    }
  }

  /**
   * After an insert of {@code t} into the hint leaf {@code y} and its rebalancing: no entry lies
   * strictly between {@code t} and {@code hi} (the entry after {@code t} in {@code y}, or the hint's
   * upper bound if {@code t} ended {@code y}: the hint held every entry between its bounds). Only
   * {@code y} and the leaf that took its entries ({@link #rSibLeaf}: a split's new sibling, or the
   * sibling a shift filled) changed at the leaf level, so one of them holds {@code t} and is a
   * valid hint with bounds {@code (t, hi)}, or {@code t} went into a parent as the separator before
   * the one of them that starts with {@code hi} (in time order {@code t} is followed by {@code hi}):
   * that leaf, empty between the bounds, is where a time in {@code (t, hi)} goes, and is the hint.
   */
  private void rehintAfterRebalance(int y, long t, long hi) {
    int leaf = y;
    if (!holds(y, t)) {
      leaf = rSibLeaf;
      if (leaf < 0 || !holds(leaf, t)) {
        if (startsWith(y, hi)) {
          leaf = y;
        } else if (leaf < 0 || !startsWith(leaf, hi)) {
          return;
        }
      }
    }
    hintLeaf = leaf;
    hintLo = t;
    hintHi = hi;
  }

  /** Whether leaf {@code k}'s first entry is at time {@code t}. */
  private boolean startsWith(int k, long t) {
    return cnt[k] > 0 && times[k * cap] == t;
  }

  /** Whether time {@code t}, an entry of some leaf, lies in leaf {@code k} (leaves hold contiguous runs). */
  private boolean holds(int k, long t) {
    final int n = cnt[k];
    return n > 0 && times[k * cap] <= t && times[k * cap + n - 1] >= t;
  }

  /**
   * {@link #searchNode} for an insert inside the window: the hint leaf ({@link #hintLeaf}) if
   * {@code t} lies strictly between its bounds (scanned from the right), else the search, whose
   * leaf becomes the hint. Sets {@link #sIdx} and {@link #sFound}.
   */
  private int searchForInsert(long t) {
    int y = hintLeaf;
    if (y >= 0 && t > hintLo && t < hintHi) {
      hintHits++;
      return descendFromRight(y, t, hintLo, hintHi); // a leaf: its one node scanned
    }
    y = searchNode(t);
    if (!sFound && (flags[y] & LEAF) != 0) {
      hintLeaf = y;
      hintLo = sLo;
      hintHi = sHi;
    }
    return y;
  }

  /**
   * The new value in slot {@code v} is the last ({@code atEnd}) or first entry of leaf {@code y}
   * and of its aggregate: extends that aggregate by one combine ({@code agg ⊗ v} or
   * {@code v ⊗ agg}), then, while the node is the last (first) child of a parent that stores an
   * up-aggregate, the parent's likewise; the first ancestor that does not qualify and those above
   * it are repaired as usual ({@link #repairAbove}). {@code up}: whether {@code y} stores an
   * up-aggregate (in FiBA, a spine leaf or the root ends here: nothing above depends on it).
   */
  private void extendUp(int y, int v, boolean atEnd, boolean up) {
    final Partials p = this.p;
    int c = y;
    while (true) {
      int dst = aggSlot(c);
      if (atEnd) {
        comb(dst, dst, v);
      } else {
        comb(dst, v, dst);
      }
      if (finger) {
        aggCnt[c]++;
      } else if (c != root) {
        dropParentOwn(c);
      }
      if (!up || c == root) {
        return;
      }
      int pa = parent[c];
      int pkb = pa * stride;
      if (kids[atEnd ? pkb + cnt[pa] : pkb] != c || (finger && (pa == root || (flags[pa] & (LEFT | RIGHT)) != 0))) {
        break;
      }
      c = pa;
    }
    repairAbove(c, false, false);
  }

  /** An insert at an existing time: {@code old ⊗ new} in place, then the repairs. */
  private void combineInto(int y, int i, int src) {
    int s = vslot(y, i);
    flags[y] &= ~OWN;
    comb(s, s, src); // old ⊗ new
    repairAggs(y, false, false);
  }

  /**
   * Figure 7 {@code rebalanceForInsert}: splits upwards while a node overflows, but an overflowing
   * node whose left sibling, else right sibling, has room first fills that sibling
   * ({@link #shiftLeft}, {@link #shiftRight}), which ends the rebalancing (the parent's arity does
   * not change).
   */
  final void rebalanceForInsert(int node) {
    boolean hl = isLeft(node);
    boolean hr = isRight(node);
    rSibLeaf = -1;
    while (arity(node) > maxArity) {
      if (node == root) {
        heightIncrease();
        hl = true;
        hr = true;
      } else {
        int pa = parent[node];
        int ni = childIndex(node);
        int l = ni > 0 ? kids[pa * stride + ni - 1] : -1;
        int r = ni < cnt[pa] ? kids[pa * stride + ni + 1] : -1;
        if (l >= 0 && cnt[l] + 1 < maxArity) {
          if ((flags[node] & LEAF) != 0) {
            rSibLeaf = l;
          }
          shiftLeft(pa, ni, maxArity - 1 - cnt[l]);
          repairIfUp(l);
          repairIfUp(node);
          hl |= isLeft(l) | isLeft(pa);
          hr |= isRight(pa);
          node = pa;
          break;
        }
        if (r >= 0 && cnt[r] + 1 < maxArity) {
          if ((flags[node] & LEAF) != 0) {
            rSibLeaf = r;
          }
          shiftRight(pa, ni, maxArity - 1 - cnt[r]);
          repairIfUp(node);
          repairIfUp(r);
          hl |= isLeft(pa);
          hr |= isRight(r) | isRight(pa);
          node = pa;
          break;
        }
      }
      int z = split(node);
      if ((flags[node] & LEAF) != 0) {
        rSibLeaf = z;
      }
      node = parent[node];
      hl |= isLeft(node);
      hr |= isRight(node);
    }
    rTop = node;
    rHitLeft = hl;
    rHitRight = hr;
  }

  /** A new root whose only child is the old root; the old root is now on both spines. */
  final void heightIncrease() {
    hintLeaf = -1;
    int r = alloc();
    int old = root;
    kids[r * stride] = old;
    parent[old] = r;
    flags[old] = (byte) ((flags[old] & ~OWN) | LEFT | RIGHT);
    root = r;
  }

  /**
   * Splits {@code y} of arity {@code 2μ + 1}: {@code y} keeps {@code μ} entries (arity
   * {@code μ + 1}), entry {@code μ} moves up into the parent, a new right sibling takes the other
   * {@code μ - 1} entries (arity {@code μ}). Repairs the up-aggregates among the two halves; spine
   * aggregates are left to {@link #repairAggs}. Returns the new sibling.
   */
  final int split(int y) {
    hintLeaf = -1;
    int z = alloc();
    int a = cnt[y];
    int m = a / 2;
    boolean leaf = isLeaf(y);
    flags[z] = (byte) (flags[y] & (LEAF | RIGHT));
    flags[y] &= ~(RIGHT | OWN);
    int nz = a - m - 1;
    System.arraycopy(times, y * cap + m + 1, times, z * cap, nz);
    for (int j = 0; j < nz; j++) {
      cp(vslot(z, j), vslot(y, m + 1 + j));
    }
    if (!leaf) {
      for (int j = 0; j <= nz; j++) {
        setKid(z, j, kid(y, m + 1 + j));
      }
    }
    cnt[z] = (byte) nz;
    int pa = parent[y];
    int yi = childIndex(y);
    localInsert(pa, yi, time(y, m), vslot(y, m), z);
    cnt[y] = (byte) m;
    if (objectStore) {
      for (int j = m; j < a; j++) {
        p.release(vslot(y, j));
      }
    }
    if (y == rightFinger) {
      rightFinger = z;
    }
    repairIfUp(y);
    repairIfUp(z);
    return z;
  }

  /**
   * The overflowing right finger {@code y} (child {@code cnt[pa]} of {@code pa}) fills its left
   * sibling {@code l} if that has room ({@link #shiftLeft}), extending the aggregates that only
   * grow at their end instead of recomputing them: {@code l}'s up-aggregate takes its {@code k}
   * new entries; FiBA's {@code pa} (root inner or right-spine {@code Π→}, both ending with
   * {@code Π↑(l)} and the separator) takes the {@code k} entries that left {@code y}; the classic
   * {@code pa}'s subtree only gained the appended entry ({@code appended}), which extends it and
   * its ancestors as in {@link #extendUp}. Then {@code y} is recomputed. Returns false, having
   * changed nothing, if the sibling is full or these shortcuts do not apply ({@code l} on the left
   * spine; a classic insert that did not append).
   */
  private boolean shiftFromRightFinger(int y, int pa, boolean appended) {
    final int yi = cnt[pa];
    final int l = kids[pa * stride + yi - 1];
    final int al = cnt[l];
    if (al + 1 >= maxArity || (finger ? pa == root && yi == 1 : !appended)) {
      return false;
    }
    final int k = maxArity - 1 - al;
    shiftLeft(pa, yi, k);
    final int ld = aggSlot(l);
    final int lv = vslot(l, 0);
    for (int j = al; j < al + k; j++) {
      comb(ld, ld, lv + j);
    }
    if (finger) {
      aggCnt[l] += k;
      final int pd = aggSlot(pa);
      for (int j = al + 1; j < al + k; j++) {
        comb(pd, pd, lv + j);
      }
      comb(pd, pd, vslot(pa, yi - 1));
      aggCnt[pa] += k;
      repair(y);
    } else {
      if (l == sfxLeaf) { // l is the left finger (pa the root): its suffix folds do not extend at the end
        sfxLeaf = -1;
      }
      repair(y);
      extendUp(pa, vslot(y, cnt[y] - 1), true, true);
    }
    return true;
  }

  /** Calls of {@link #shiftLeft} and {@link #shiftRight} (tests read it to see that the path was taken). */
  long shifts;

  /**
   * Moves {@code k} entries ({@code 1 <= k < arity}) from child {@code yi} of {@code pa} to the
   * end of its left sibling through the parent: the separator {@code yi - 1} and the first {@code
   * k - 1} entries of the node go to the sibling (with the node's first {@code k} children if
   * internal), and the node's entry {@code k - 1} becomes the separator. Structure only: the
   * caller repairs the two nodes' and the parent's aggregates. Spine flags and fingers stay (the
   * sibling is never on the right spine, the node never on the left one).
   */
  final void shiftLeft(int pa, int yi, int k) {
    hintLeaf = -1;
    shifts++;
    final int y = kids[pa * stride + yi];
    final int l = kids[pa * stride + yi - 1];
    final int al = cnt[l];
    final int ay = cnt[y];
    moveEntry(l, al, pa, yi - 1);
    for (int j = 0; j < k - 1; j++) {
      moveEntry(l, al + 1 + j, y, j);
    }
    moveEntry(pa, yi - 1, y, k - 1);
    final int yb = y * cap;
    System.arraycopy(times, yb + k, times, yb, ay - k);
    final int vb = SCRATCH + y * stride;
    for (int j = 0; j < ay - k; j++) {
      cp(vb + j, vb + k + j);
    }
    if (objectStore) {
      for (int j = ay - k; j < ay; j++) {
        p.release(vb + j);
      }
    }
    if ((flags[y] & LEAF) == 0) {
      final int kb = y * stride;
      for (int j = 0; j < k; j++) {
        setKid(l, al + 1 + j, kids[kb + j]);
      }
      System.arraycopy(kids, kb + k, kids, kb, ay + 1 - k);
    }
    cnt[l] = (byte) (al + k);
    cnt[y] = (byte) (ay - k);
    flags[l] &= ~OWN;
    flags[y] &= ~OWN;
    flags[pa] &= ~OWN;
  }

  /**
   * The mirror of {@link #shiftLeft}: moves {@code k} entries ({@code 1 <= k < arity}) from child
   * {@code li} of {@code pa} to the front of its right sibling through the parent: the separator
   * {@code li} and the last {@code k - 1} entries of the node go to the sibling (with the node's
   * last {@code k} children if internal), and the node's entry {@code a - k} becomes the separator.
   * Structure only, like {@link #shiftLeft}.
   */
  final void shiftRight(int pa, int li, int k) {
    hintLeaf = -1;
    shifts++;
    final int l = kids[pa * stride + li];
    final int r = kids[pa * stride + li + 1];
    final int al = cnt[l];
    final int ar = cnt[r];
    final int rb = r * cap;
    final int rv = SCRATCH + r * stride;
    System.arraycopy(times, rb, times, rb + k, ar);
    for (int j = ar - 1; j >= 0; j--) {
      cp(rv + k + j, rv + j);
    }
    moveEntry(r, k - 1, pa, li);
    for (int j = 0; j < k - 1; j++) {
      moveEntry(r, j, l, al - k + 1 + j);
    }
    moveEntry(pa, li, l, al - k);
    if (objectStore) {
      for (int j = al - k; j < al; j++) {
        p.release(vslot(l, j));
      }
    }
    if ((flags[r] & LEAF) == 0) {
      final int kb = r * stride;
      System.arraycopy(kids, kb, kids, kb + k, ar + 1);
      for (int j = 0; j < k; j++) {
        setKid(r, j, kids[l * stride + al - k + 1 + j]);
      }
    }
    cnt[l] = (byte) (al - k);
    cnt[r] = (byte) (ar + k);
    flags[l] &= ~OWN;
    flags[r] &= ~OWN;
    flags[pa] &= ~OWN;
  }

  // ---------------------------------------------------------------- evict

  @Override
  public boolean evict(long t) {
    if (size == 0) {
      return false;
    }
    final int lf = leftFinger;
    final int o = lfOff;
    if (times[lf * cap + o] == t) { // the oldest entry: O(1) at the left finger
      final int a = cnt[lf];
      if (lf == sfxLeaf && a >= minArity && (flags[lf] & LEFT) != 0) { // no underflow: the next suffix fold is the new Π←
        lfOff = o + 1; // the other entries stay where they are
        cnt[lf] = (byte) (a - 1);
        size--;
        cp(aggSlot(lf), SCRATCH + sfx * stride + ++sfxBase);
        if (finger) {
          aggCnt[lf] = a - 1;
        } else { // the ancestors' Π↑: one combine each while they keep their own parts
          repairAbove(lf, false, false);
        }
        return true;
      }
    }
    compactLeftIfOffset();
    return evictOther(t);
  }

  /**
   * {@link #evict} of {@code t} in a non-empty tree whose left finger has no entry offset, past the
   * fast eviction: the left finger's underflow, the general leaf path, or an inner entry.
   */
  private boolean evictOther(long t) {
    int y;
    int i;
    final int lf = leftFinger;
    if (times[lf * cap] == t) {
      if (cnt[lf] == minArity - 1 && (flags[lf] & LEFT) != 0 && (evictUnderflowAtLeft(lf) || evictUnderflowAtLeftParent(lf))) {
        return true;
      }
      if (sfx < 0 && !objectStore && (flags[root] & LEAF) == 0) {
        sfx = alloc();
        if (finger) {
          psfx = alloc();
          gsfx = alloc();
        }
      }
      y = lf;
      i = 0;
    } else {
      y = searchNode(t);
      if (!sFound) {
        return false;
      }
      i = sIdx;
    }
    size--;
    if ((flags[y] & LEAF) != 0) {
      evictFromLeaf(y, i, y == lf);
    } else {
      evictInner(y, i);
      repairAggs(rTop, rHitLeft, rHitRight);
    }
    return true;
  }

  /**
   * The general path of {@link #evict} for entry {@code i} of leaf {@code y}: local evict,
   * rebalancing, repairs. At the left finger ({@code atLeft}) an insert hint on another leaf than
   * the finger and its right sibling is kept: the leaf-level rebalancing moves entries between those
   * two only, all below the lower bound of any leaf right of them, and the levels above move
   * separators between internal nodes only.
   */
  private void evictFromLeaf(int y, int i, boolean atLeft) {
    final int h = hintLeaf;
    final long hLo = hintLo;
    final long hHi = hintHi;
    final boolean keep = atLeft && h >= 0 && h != y && y != root && h != kids[parent[y] * stride + 1];
    localEvict(y, i, -1);
    rebalanceForEvict(y, -1);
    repairAggs(rTop, rHitLeft, rHitRight);
    if (keep) {
      hintLeaf = h;
      hintLo = hLo;
      hintHi = hHi;
    }
  }

  /** Calls of {@link #evictUnderflowAtLeft} that took the shortcut (tests read it). */
  long leftUnderflows;

  /**
   * Evicts the oldest entry from the left finger {@code lf} ({@code μ - 1} entries, so it
   * underflows) when its parent keeps its own part's suffix folds ({@link #psfx}) and does not
   * underflow in turn: a move of the second child's spare entries through the parent
   * ({@link #shiftLeft}, as {@link #move}) or a merge with it (as {@link #merge}), after which the
   * parent's own part is {@code v0 ⊕ Π↑(z1) ⊕ suffix(1)} (two combines) or the old
   * {@code suffix(1)} (none), and its {@code Π←} one combine more; then the finger's suffix folds.
   * The same structure and aggregates as the general path. Returns false, having changed nothing,
   * when the folds are not valid or a merge would underflow the parent.
   */
  private boolean evictUnderflowAtLeft(int lf) {
    final int pa = parent[lf];
    if (pa != psfxNode || (flags[pa] & OWN) == 0) {
      return false;
    }
    final int s = kids[pa * stride + 1]; // an up leaf: pa is neither the root nor on the right spine
    final int as = cnt[s];
    final int ap = cnt[pa];
    if (as < minArity && ap < minArity) {
      return false;
    }
    leftUnderflows++;
    if (as >= minArity && ap <= minArity) {
      touchAhead(pa, ap < minArity);
    }
    final int h = hintLeaf; // a hint right of s: every entry moved below lies below its bounds
    final long hLo = hintLo;
    final long hHi = hintHi;
    localEvict(lf, 0, -1);
    size--;
    int ps = SCRATCH + psfx * stride + psfxBase; // suffix(0)
    if (as >= minArity) { // move: v0 and Π↑(z1) changed, suffix(1) did not
      final int k = as + 1 - minArity;
      shiftLeft(pa, 1, k);
      repair(s);
      if (ap > 1) {
        comb(TMP, aggSlot(s), ps + 1);
        comb(ps, vslot(pa, 0), TMP);
      } else {
        comb(ps, vslot(pa, 0), aggSlot(s));
      }
      aggCnt[pa] -= k;
    } else { // merge: suffix(i + 1) is the new suffix(i)
      merge(pa, 0, 1);
      ps = SCRATCH + psfx * stride + ++psfxBase;
      aggCnt[pa] -= 1 + as;
    }
    ownFromSuffix(pa, ps);
    repair(lf);
    keepHintRightOf(h, hLo, hHi, lf, s);
    return true;
  }

  /** Sink of {@link #touchAhead}: a field write, so that the JIT keeps its loads. */
  long touched;

  /** Calls of {@link #touchAhead} that loaded a node (tests read it). */
  long touches;

  /**
   * Called by a move into the left finger, child of {@code pa}, while {@code pa} has {@code μ} or
   * {@code μ - 1} entries (the second or the next merge at the finger underflows it): loads the
   * cache lines of {@code pa}'s sibling {@code q} (its parent's child 1) that the left finger's
   * coming events read, in one batch, so that their misses overlap instead of stalling those events
   * one after another (the window's oldest nodes were last touched when they were built, and at
   * n = 2^20 they are out of the cache): with {@code μ} entries {@code q}'s times, values and child
   * ids (read when {@code pa} underflows: {@link #evictUnderflowAtLeftParent} moves or merges
   * them); with {@code μ - 1} ({@code children}) also its children's aggregates, counts, parents,
   * and the first and last lines of their times and values (read by that move or merge and the
   * repairs after it, and by the leaf-level moves into the finger over the rounds after it, whose
   * siblings these children become). Changes no state but {@link #touched} and {@link #touches}.
   */
  private void touchAhead(int pa, boolean children) {
    final int g = parent[pa];
    if (g < 0 || cnt[g] == 0) {
      return;
    }
    touches++;
    final int q = kids[g * stride + 1];
    final long[] times = this.times;
    final double[] da = this.da;
    final int cap = this.cap;
    final int stride = this.stride;
    int tb = q * cap;
    int vb = SCRATCH + q * stride;
    long x = times[tb] ^ times[tb + cap - 1] ^ cnt[q] ^ flags[q];
    if (da != null) {
      x ^= Double.doubleToRawLongBits(da[vb]) ^ Double.doubleToRawLongBits(da[vb + cap]);
    }
    if ((flags[q] & LEAF) == 0) {
      final int kb = q * stride;
      x ^= kids[kb + cap];
      if (children) {
        for (int j = 0, a = cnt[q]; j <= a; j++) {
          final int c = kids[kb + j];
          tb = c * cap;
          vb = SCRATCH + c * stride;
          x ^= parent[c] ^ aggCnt[c] ^ times[tb] ^ times[tb + cap - 1];
          if (da != null) {
            x ^= Double.doubleToRawLongBits(da[vb]) ^ Double.doubleToRawLongBits(da[vb + cap]);
          }
        }
      }
    }
    touched = x;
  }

  /**
   * Stores the left-spine node {@code k}'s own part from the suffix fold in slot {@code suffix}, and
   * its {@code Π← = own ⊕ Π←(parent)} (just the own part below the root), and marks it {@link #OWN}.
   */
  private void ownFromSuffix(int k, int suffix) {
    final int dst = aggSlot(k);
    cp(dst - 1, suffix);
    final int up = parent[k];
    if (up != root) {
      comb(dst, suffix, aggSlot(up));
    } else {
      cp(dst, suffix);
    }
    flags[k] |= OWN;
  }

  /**
   * Puts back the insert hint {@code h} (bounds {@code lo}, {@code hi}) saved before a left-finger
   * underflow, unless it was the finger {@code lf} or its sibling {@code s}, whose entries moved.
   */
  private void keepHintRightOf(int h, long lo, long hi, int lf, int s) {
    if (h >= 0 && h != lf && h != s) {
      hintLeaf = h;
      hintLo = lo;
      hintHi = hi;
    }
  }

  /** Calls of {@link #evictUnderflowAtLeftParent} that took the shortcut (tests read it). */
  long leftParentUnderflows;

  /**
   * The left finger {@code lf} ({@code μ - 1} entries) underflows and its merge with its sibling
   * {@code s} underflows its parent {@code pa} ({@code μ} children before), whose parent {@code g}
   * keeps its own part's suffix folds ({@link #gsfx}) and does not underflow in turn: after the leaf merge
   * ({@link #merge}), {@code pa} takes the spare entries and children of its sibling {@code q}
   * through {@code g} ({@link #shiftLeft}, as {@link #move}) or merges with it. Then {@code q}'s
   * up-aggregate is recomputed (a move), {@code g}'s own part is {@code v0 ⊕ Π↑(z1) ⊕ suffix(1)}
   * (two combines) or the old {@code suffix(1)} (none) and its {@code Π←} one combine more, and
   * {@code pa} and the finger are repaired (their suffix folds). The same structure and
   * aggregates as the general path, whose walk down the left spine this replaces. Returns false,
   * having changed nothing, when the folds are not valid or a merge would underflow {@code g}.
   */
  private boolean evictUnderflowAtLeftParent(int lf) {
    final int pa = parent[lf];
    final int g = parent[pa];
    if (g < 0 || g != gsfxNode || (flags[g] & OWN) == 0) {
      return false;
    }
    final int s = kids[pa * stride + 1]; // an up leaf: pa is neither the root nor on the right spine
    if (cnt[s] >= minArity || cnt[pa] >= minArity) {
      return false; // no merge, or one that leaves pa at arity μ or more
    }
    final int q = kids[g * stride + 1]; // an up node: g is neither the root nor on the right spine
    final int aq = cnt[q];
    final int ag = cnt[g];
    if (aq < minArity && ag < minArity) {
      return false;
    }
    leftParentUnderflows++;
    final int h = hintLeaf; // a hint right of s: the leaves right of s keep their entries
    final long hLo = hintLo;
    final long hHi = hintHi;
    localEvict(lf, 0, -1);
    size--;
    merge(pa, 0, 1);
    int gs = SCRATCH + gsfx * stride + gsfxBase; // suffix(0)
    if (aq >= minArity) { // move: v0 and Π↑(z1) changed, suffix(1) did not
      final int qc = aggCnt[q];
      shiftLeft(g, 1, aq + 1 - minArity);
      repair(q);
      if (ag > 1) {
        comb(TMP, aggSlot(q), gs + 1);
        comb(gs, vslot(g, 0), TMP);
      } else {
        comb(gs, vslot(g, 0), aggSlot(q));
      }
      aggCnt[g] += aggCnt[q] - qc;
    } else { // merge: suffix(i + 1) is the new suffix(i)
      aggCnt[g] -= 1 + aggCnt[q];
      merge(g, 0, 1);
      gs = SCRATCH + gsfx * stride + ++gsfxBase;
    }
    ownFromSuffix(g, gs);
    repair(pa);
    repair(lf);
    keepHintRightOf(h, hLo, hHi, lf, s);
    return true;
  }

  /** Levels climbed by the last {@link #rebalanceForEvict} (for {@link #evictInner}). */
  int rLevels;

  /**
   * Figure 7 {@code rebalanceForEvict}: merges with or borrows from a sibling while a node
   * underflows. Fix over the published pseudocode: a sibling on the left spine sets
   * {@code hitLeft} (symmetric to {@code hitRight}), so that borrowing from or merging with a
   * left-spine neighbour repairs the left-spine aggregates below it.
   */
  final void rebalanceForEvict(int node, int toRepair) {
    boolean hl = isLeft(node);
    boolean hr = isRight(node);
    int levels = 0;
    if (node == toRepair) {
      repairIfUp(node);
    }
    while (node != root && arity(node) < minArity) {
      int pa = parent[node];
      int ni = childIndex(node);
      int si = pickEvictionSibling(pa, ni);
      int sib = kid(pa, si);
      hl |= isLeft(sib);
      hr |= isRight(sib);
      if (arity(sib) <= minArity) {
        node = merge(pa, ni, si);
        if (pa == root && arity(pa) == 1) {
          heightDecrease(); // the merged node takes the old root's place
          levels++;
        } else {
          node = pa;
          levels++;
        }
      } else {
        move(pa, ni, si);
        node = pa;
        levels++;
      }
      if (node == toRepair) {
        repairIfUp(node);
      }
      hl |= isLeft(node);
      hr |= isRight(node);
    }
    rTop = node;
    rHitLeft = hl;
    rHitRight = hr;
    rLevels = levels;
  }

  /** The sibling to merge with or borrow from: the only one, or the one with the larger arity. */
  final int pickEvictionSibling(int pa, int ni) {
    if (ni == 0) {
      return 1;
    }
    if (ni == cnt[pa]) {
      return ni - 1;
    }
    return arity(kid(pa, ni - 1)) >= arity(kid(pa, ni + 1)) ? ni - 1 : ni + 1;
  }

  /**
   * Merges the children {@code min(ni, si)} and {@code min(ni, si) + 1} of {@code pa} with the
   * separating entry into the left one; frees the right one; returns the merged node.
   */
  final int merge(int pa, int ni, int si) {
    hintLeaf = -1;
    int li = Math.min(ni, si);
    int l = kid(pa, li);
    int r = kid(pa, li + 1);
    int al = cnt[l];
    int ar = cnt[r];
    boolean leaf = isLeaf(l);
    moveEntry(l, al, pa, li);
    for (int j = 0; j < ar; j++) {
      moveEntry(l, al + 1 + j, r, j);
    }
    if (!leaf) {
      for (int j = 0; j <= ar; j++) {
        setKid(l, al + 1 + j, kid(r, j));
      }
    }
    cnt[l] = (byte) (al + 1 + ar);
    flags[l] = (byte) ((flags[l] & ~OWN) | (flags[r] & RIGHT));
    if (r == rightFinger) {
      rightFinger = l;
    }
    localEvict(pa, li, li + 1);
    freeNode(r);
    repairIfUp(l);
    return l;
  }

  /**
   * Moves entries from sibling {@code si} through the parent into the underflowing child {@code ni}
   * (arity {@code μ - 1}; the sibling's arity exceeds {@code μ}): as many as leave the sibling at
   * arity {@code μ} ({@link #shiftLeft} / {@link #shiftRight}), so that evictions at the same end
   * meet the next underflow later; then repairs the two children's up-aggregates.
   */
  final void move(int pa, int ni, int si) {
    int node = kid(pa, ni);
    int sib = kid(pa, si);
    int k = cnt[sib] + 1 - minArity;
    if (si < ni) {
      shiftRight(pa, si, k);
    } else {
      shiftLeft(pa, si, k);
    }
    repairIfUp(node);
    repairIfUp(sib);
  }

  /** The root has arity 1: its only child becomes the root. */
  final void heightDecrease() {
    hintLeaf = -1;
    int old = root;
    int c = kid(old, 0);
    root = c;
    parent[c] = -1;
    flags[c] &= ~(LEFT | RIGHT | OWN);
    freeNode(old);
  }

  /**
   * Figure 8 {@code evictInner}: replaces entry {@code idx} of internal {@code node} by its
   * neighbour in time order from a leaf (the oldest of the right subtree if that child can spare
   * an entry, else the youngest of the left subtree), evicts that from the leaf, rebalances, and
   * repairs up to {@code node} if rebalancing stopped below it.
   */
  final void evictInner(int node, int idx) {
    hintLeaf = -1;
    int right = kid(node, idx + 1);
    int leaf;
    int pos;
    int depth = 1;
    if (arity(right) > minArity) {
      leaf = right;
      while (!isLeaf(leaf)) {
        leaf = kid(leaf, 0);
        depth++;
      }
      pos = 0;
    } else {
      leaf = kid(node, idx);
      while (!isLeaf(leaf)) {
        leaf = kid(leaf, cnt[leaf]);
        depth++;
      }
      pos = cnt[leaf] - 1;
    }
    moveEntry(node, idx, leaf, pos);
    flags[node] &= ~OWN;
    localEvict(leaf, pos, -1);
    rebalanceForEvict(leaf, node);
    if (rLevels < depth) { // top is a strict descendant of node
      int top = rTop;
      boolean hl = rHitLeft;
      boolean hr = rHitRight;
      while (top != node) {
        repairIfUp(top);
        top = parent[top];
        hl |= isLeft(top);
        hr |= isRight(top);
      }
      rTop = node;
      rHitLeft = hl;
      rHitRight = hr;
    }
  }

  // ---------------------------------------------------------------- queries

  /** Slot holding the whole-window aggregate: {@code Π←(leftFinger) ⊗ inner(root) ⊗ Π→(rightFinger)}. */
  final int querySlot() {
    if (!finger || isLeaf(root)) {
      return aggSlot(root);
    }
    comb(RES, aggSlot(leftFinger), aggSlot(root));
    comb(RES, RES, aggSlot(rightFinger));
    return RES;
  }

  @Override
  public final Object query() {
    return p.lower(querySlot());
  }

  @Override
  public final double queryDouble() {
    return p.lowerDouble(querySlot());
  }

  /** The raw partial aggregate of the window (for tests). */
  public final Object queryPartial() {
    return p.partial(querySlot());
  }

  /**
   * Figure 10: finger-search both bounds, recurse from their least common ancestor. When one bound
   * lies beyond the window's end, that ancestor is the lowest node on the path from that end's
   * finger whose separator in its parent lies on the other side of the other bound: found by the
   * climb alone, without searching for the other bound's node.
   */
  final int rangeSlot(long from, long to) {
    compactLeftIfOffset();
    p.setIdentity(RES);
    if (size == 0 || from > to) {
      return RES;
    }
    if (from <= oldestTime() && to >= youngestTime()) {
      return querySlot(); // the whole window: O(1) from the fingers and the root
    }
    boolean fromAll = from <= oldestTime(); // a bound beyond the window's end is beyond every subtree
    boolean toAll = to >= youngestTime();
    int top;
    if (toAll) { // the lowest right-spine node above from's node: its left separator is below from
      top = rightFinger;
      for (int pa; top != root && from <= times[(pa = parent[top]) * cap + cnt[pa] - 1]; ) {
        top = pa;
      }
    } else if (fromAll) { // the mirror image from the left finger
      top = leftFinger;
      for (int pa; top != root && to >= times[(pa = parent[top]) * cap]; ) {
        top = pa;
      }
    } else {
      int nf = fromAll ? leftFinger : searchNode(from);
      int nt = toAll ? rightFinger : searchNode(to);
      top = leastCommonAncestor(nf, nt);
    }
    final ScalarDoubleFunction sf = this.sf;
    if (sf != null) {
      da[RES] = queryRecValue(sf, top, from, fromAll, to, toAll, da[RES]);
    } else {
      queryRec(top, from, fromAll, to, toAll, RES);
    }
    return RES;
  }

  final int height(int k) {
    int h = 0;
    while (!isLeaf(k)) {
      k = kid(k, 0);
      h++;
    }
    return h;
  }

  final int leastCommonAncestor(int a, int b) {
    int ha = height(a);
    int hb = height(b);
    while (ha < hb) {
      a = parent[a];
      ha++;
    }
    while (hb < ha) {
      b = parent[b];
      hb++;
    }
    while (a != b) {
      a = parent[a];
      b = parent[b];
    }
    return a;
  }

  /**
   * Figure 10 {@code queryRec}: combines into {@code acc} the entries of {@code k}'s subtree in
   * {@code [from, to]}; {@code fromInf}/{@code toInf} say that the bound is below/above the whole
   * subtree (the neighbouring separator in the parent is inside the range), in which case a
   * stored up-aggregate is used instead of recursing. Spine nodes and the FiBA root have no
   * up-aggregate but lie on the two recursion chains, except the FiBA root's first and last
   * children: the whole subtree of the first is {@code Π←} of the left finger, of the last
   * {@code Π→} of the right finger (a query whose bound lies beyond the window's end reads it in
   * one combine instead of walking down that spine), and a deeper spine node inside the range
   * whose own aggregate is stored ({@link #OWN}): one combine for it, and the recursion goes on
   * into its spine child alone.
   */
  final void queryRec(int k, long from, boolean fromInf, long to, boolean toInf, int acc) {
    if (fromInf && toInf) {
      if (hasAggUp(k)) {
        comb(acc, acc, aggSlot(k));
        return;
      }
      if (finger && parent[k] == root) {
        comb(acc, acc, aggSlot(isLeft(k) ? leftFinger : rightFinger));
        return;
      }
      if ((flags[k] & OWN) != 0) { // a deeper spine node: its own part is stored, only its spine child recurses
        int own = aggSlot(k) - 1;
        if (isLeft(k)) {
          queryRec(kid(k, 0), from, true, to, true, acc);
          comb(acc, acc, own);
        } else {
          comb(acc, acc, own);
          queryRec(kid(k, cnt[k]), from, true, to, true, acc);
        }
        return;
      }
    }
    int a = cnt[k];
    boolean leaf = isLeaf(k);
    if (!leaf) {
      long t0 = time(k, 0);
      if (fromInf || from < t0) {
        queryRec(kid(k, 0), from, fromInf, to, toInf || t0 <= to, acc);
      }
    }
    for (int i = 0; i < a; i++) {
      long ti = time(k, i);
      if (!toInf && ti > to) {
        break;
      }
      boolean geFrom = fromInf || from <= ti;
      if (geFrom) {
        comb(acc, acc, vslot(k, i));
      }
      if (!leaf && (toInf || ti < to)) {
        if (i + 1 < a) {
          long tn = time(k, i + 1);
          if (fromInf || from < tn) {
            queryRec(kid(k, i + 1), from, geFrom, to, toInf || tn <= to, acc);
          }
        } else {
          queryRec(kid(k, i + 1), from, geFrom, to, toInf, acc);
        }
      }
    }
  }

  /**
   * {@link #queryRec} for a {@link ScalarDoubleFunction}: the same recursion and the same combines
   * in the same order, accumulated in a local {@code double} (returned) instead of a slot.
   */
  private double queryRecValue(ScalarDoubleFunction sf, int k, long from, boolean fromInf, long to, boolean toInf, double acc) {
    final double[] da = this.da;
    final int f = flags[k];
    if (fromInf && toInf) {
      if (!finger || (k != root && (f & (LEFT | RIGHT)) == 0)) {
        return sf.combineValues(acc, da[aggSlot(k)]);
      }
      if (finger && parent[k] == root) {
        return sf.combineValues(acc, da[aggSlot((f & LEFT) != 0 ? leftFinger : rightFinger)]);
      }
      if ((f & OWN) != 0) { // a deeper spine node: its own part is stored, only its spine child recurses
        int own = aggSlot(k) - 1;
        if ((f & LEFT) != 0) {
          acc = queryRecValue(sf, kids[k * stride], from, true, to, true, acc);
          return sf.combineValues(acc, da[own]);
        }
        acc = sf.combineValues(acc, da[own]);
        return queryRecValue(sf, kids[k * stride + cnt[k]], from, true, to, true, acc);
      }
    }
    final long[] times = this.times;
    final int a = cnt[k];
    final int tb = k * cap;
    final int vb = SCRATCH + k * stride;
    final int kb = k * stride;
    if ((f & LEAF) != 0) {
      for (int i = 0; i < a; i++) {
        long ti = times[tb + i];
        if (!toInf && ti > to) {
          break;
        }
        if (fromInf || from <= ti) {
          acc = sf.combineValues(acc, da[vb + i]);
        }
      }
      return acc;
    }
    long t0 = times[tb];
    if (fromInf || from < t0) {
      acc = queryRecValue(sf, kids[kb], from, fromInf, to, toInf || t0 <= to, acc);
    }
    for (int i = 0; i < a; i++) {
      long ti = times[tb + i];
      if (!toInf && ti > to) {
        break;
      }
      boolean geFrom = fromInf || from <= ti;
      if (geFrom) {
        acc = sf.combineValues(acc, da[vb + i]);
      }
      if (toInf || ti < to) {
        int z = kids[kb + i + 1];
        boolean zToInf = toInf;
        if (i + 1 < a) {
          long tn = times[tb + i + 1];
          if (!fromInf && from >= tn) {
            continue;
          }
          zToInf = toInf || tn <= to;
        }
        if (geFrom && zToInf && (!finger || (z != root && (flags[z] & (LEFT | RIGHT)) == 0))) {
          acc = sf.combineValues(acc, da[SCRATCH + z * stride + cap]); // inside the range: its up-aggregate
        } else {
          acc = queryRecValue(sf, z, from, geFrom, to, zToInf, acc);
        }
      }
    }
    return acc;
  }

  @Override
  public final Object query(long from, long to) {
    return p.lower(rangeSlot(from, to));
  }

  @Override
  public final double queryDouble(long from, long to) {
    return p.lowerDouble(rangeSlot(from, to));
  }

  /** The raw partial aggregate of {@code [from, to]} (for tests). */
  public final Object queryPartial(long from, long to) {
    return p.partial(rangeSlot(from, to));
  }

  @Override
  public final byte[] entryBytes(long time) {
    if (size == 0) {
      return null;
    }
    compactLeftIfOffset();
    int y = searchNode(time);
    if (!sFound) {
      return null;
    }
    int slot = vslot(y, sIdx);
    int n = p.serializedSize(slot);
    if (n < 0) {
      throw new UnsupportedOperationException("function '" + p.function().name() + "' has no byte form of its partials");
    }
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n);
    p.write(slot, b);
    return b.array();
  }

  @Override
  public final long oldestTime() {
    if (size == 0) {
      throw new NoSuchElementException("oldestTime() on an empty window (algorithm '" + name + "')");
    }
    return times[leftFinger * cap + lfOff];
  }

  @Override
  public final long youngestTime() {
    if (size == 0) {
      throw new NoSuchElementException("youngestTime() on an empty window (algorithm '" + name + "')");
    }
    final int rf = rightFinger;
    return times[rf * cap + (rf == leftFinger ? lfOff : 0) + cnt[rf] - 1];
  }

  /** Descends from the root; the last entry {@code >= t} seen on the way down is the smallest. */
  @Override
  public final long ceilingTime(long t) {
    if (size == 0) {
      return Long.MAX_VALUE;
    }
    compactLeftIfOffset();
    final long[] times = this.times;
    long best = Long.MAX_VALUE;
    int y = root;
    while (true) {
      int b = y * cap;
      int a = cnt[y];
      int i = 0;
      while (i < a && times[b + i] < t) {
        i++;
      }
      if (i < a) {
        if (times[b + i] == t) {
          return t;
        }
        best = times[b + i];
      }
      if ((flags[y] & LEAF) != 0) {
        return best;
      }
      y = kids[y * stride + i];
    }
  }

  @Override
  public final int size() {
    return size;
  }

  @Override
  public final String algorithm() {
    return name;
  }

  /** MIN_ARITY (μ) of this tree: a non-root node has between μ and 2μ children. */
  public final int minArity() {
    return minArity;
  }

  @Override
  public final AggregateFunction<?, ?, ?> function() {
    return fn;
  }

  /** The partial store (tests may inspect it). */
  public final Partials partials() {
    return p;
  }

  /** Tree height (0 for a single leaf). */
  public final int height() {
    return height(root);
  }

  /**
   * Bytes held by the node pool's arrays, including free capacity, plus the partial store when it
   * is primitive ({@code wordsPerPartial} 8-byte words per slot; pass 0 to leave it out).
   */
  public final long allocatedBytes(int wordsPerPartial) {
    long b = 8L * times.length + 4L * kids.length + 4L * parent.length + cnt.length + flags.length
        + 4L * aggCnt.length;
    return b + 8L * wordsPerPartial * p.capacity();
  }

  @Override
  public String toString() {
    return name + "(" + fn.name() + ", n=" + size + ")";
  }

  // ---------------------------------------------------------------- bulk (loops; overridden in BulkFingerBTree)

  @Override
  public int bulkEvict(long t) {
    int removed = 0;
    while (size > 0 && oldestTime() <= t) {
      evict(oldestTime());
      removed++;
    }
    return removed;
  }

  @Override
  public void bulkInsert(long[] ts, double[] values, int from, int len) {
    checkSorted(ts, from, len);
    for (int i = from; i < from + len; i++) {
      insert(ts[i], values[i]);
    }
  }

  @Override
  public void bulkInsert(long[] ts, Object[] values, int from, int len) {
    checkSorted(ts, from, len);
    for (int i = from; i < from + len; i++) {
      insert(ts[i], values[i]);
    }
  }

  static void checkSorted(long[] ts, int from, int len) {
    Objects.checkFromIndexSize(from, len, ts.length);
    for (int i = from + 1; i < from + len; i++) {
      if (ts[i] < ts[i - 1]) {
        throw new IllegalArgumentException("bulkInsert: times not sorted at index " + i + ": " + ts[i - 1]
            + " > " + ts[i]);
      }
    }
  }

  // ---------------------------------------------------------------- invariants

  /**
   * Checks every structural and aggregation invariant, recomputing each stored partial from its
   * definition for the node's position through the function's generic combine (independent of
   * the store's kernels): arity bounds, equal leaf depth, time order within and across nodes,
   * parent links, spine flags, fingers, size, and up / inner / left / right aggregates.
   * Stored partials are compared for equality with a left-to-right fold: the tree brackets some
   * combines otherwise (a prepend's {@code v ⊗ agg}, a classic own part's {@code Π↑(z0) ⊗ own}),
   * which is exact only for a function whose combine is associative on the data (integer-valued
   * doubles in the tests), not for float sums of fractions.
   *
   * @throws IllegalStateException describing the first violation
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void checkInvariants() {
    AggregateFunction f = fn;
    if (lfOff != 0 && (lfOff < 0 || objectStore || leftFinger == root || !isLeaf(leftFinger)
        || lfOff + cnt[leftFinger] > cap)) {
      fail("left finger " + leftFinger + " has entry offset " + lfOff + " for " + cnt[leftFinger] + " entries");
    }
    if (parent[root] != -1) {
      fail("root " + root + " has parent " + parent[root]);
    }
    if ((flags[root] & (LEFT | RIGHT)) != 0) {
      fail("root " + root + " has spine flags " + flags[root]);
    }
    if (!isLeaf(root) && arity(root) < 2) {
      fail("internal root " + root + " has arity " + arity(root));
    }
    int[] leafDepth = {-1};
    int[] count = {0};
    int[] nodeCount = {0};
    Object[] up = new Object[nodeCap];
    upCnt = new int[nodeCap];
    checkRec(root, 0, Long.MIN_VALUE, false, Long.MAX_VALUE, false, true, true, leafDepth, count, nodeCount, up);
    if (count[0] != size) {
      fail("size " + size + " but the tree holds " + count[0] + " entries");
    }
    int lf = root;
    while (!isLeaf(lf)) {
      lf = kid(lf, 0);
    }
    int rf = root;
    while (!isLeaf(rf)) {
      rf = kid(rf, cnt[rf]);
    }
    if (lf != leftFinger) {
      fail("left finger " + leftFinger + " but the leftmost leaf is " + lf);
    }
    if (rf != rightFinger) {
      fail("right finger " + rightFinger + " but the rightmost leaf is " + rf);
    }
    checkHint();
    if (!finger) { // own parts down the left spine: everything but the first child's subtree
      for (int y = root; !isLeaf(y); y = kid(y, 0)) {
        Object own = f.identity();
        for (int i = 0; i < cnt[y]; i++) {
          own = f.combine(own, p.partial(ev(y, i)));
          own = f.combine(own, up[kid(y, i + 1)]);
        }
        expectOwn(y, "left", own);
      }
      if (lf != root) {
        expectSuffixes(lf, null);
      }
      return;
    }
    // position-aware aggregates, recomputed top-down from the definitions
    // root: inner aggregate
    Object inner = f.identity();
    int innerCnt = 0;
    for (int i = 0; i < cnt[root]; i++) {
      inner = f.combine(inner, p.partial(ev(root, i)));
      innerCnt++;
      if (!isLeaf(root) && i + 1 < cnt[root]) {
        inner = f.combine(inner, up[kid(root, i + 1)]);
        innerCnt += upCnt[kid(root, i + 1)];
      }
    }
    expect(root, "inner", inner, innerCnt);
    if (isLeaf(root)) {
      return;
    }
    Object above = null;
    for (int y = kid(root, 0); ; y = kid(y, 0)) {
      Object own = f.identity();
      int ownCnt = 0;
      for (int i = 0; i < cnt[y]; i++) {
        own = f.combine(own, p.partial(ev(y, i)));
        ownCnt++;
        if (!isLeaf(y)) {
          own = f.combine(own, up[kid(y, i + 1)]);
          ownCnt += upCnt[kid(y, i + 1)];
        }
      }
      Object want = above == null ? own : f.combine(own, above);
      expectOwn(y, "left", own);
      expect(y, "left", want, ownCnt);
      if (isLeaf(y)) {
        expectSuffixes(y, above);
        break;
      }
      expectOwnSuffixes(y, up);
      above = want;
    }
    above = null;
    for (int y = kid(root, cnt[root]); ; y = kid(y, cnt[y])) {
      Object own = f.identity();
      int ownCnt = 0;
      for (int i = 0; i < cnt[y]; i++) {
        if (!isLeaf(y)) {
          own = f.combine(own, up[kid(y, i)]);
          ownCnt += upCnt[kid(y, i)];
        }
        own = f.combine(own, p.partial(ev(y, i)));
        ownCnt++;
      }
      Object want = above == null ? own : f.combine(above, own);
      expectOwn(y, "right", own);
      expect(y, "right", want, ownCnt);
      above = want;
      if (isLeaf(y)) {
        break;
      }
    }
  }

  private int[] upCnt;

  /**
   * The insert hint, if set, is a leaf of the tree, its bounds lie within the leaf's (a time between
   * them belongs in the leaf), and it holds every entry strictly between them.
   */
  private void checkHint() {
    int h = hintLeaf;
    if (h < 0) {
      return;
    }
    if (!isLeaf(h)) {
      fail("hint " + h + " is not a leaf");
    }
    for (int c = h; c != root; c = parent[c]) {
      int pa = parent[c];
      if (pa < 0 || kid(pa, childIndex(c)) != c) {
        fail("hint " + h + " is not in the tree");
      }
    }
    long lo = Long.MIN_VALUE; // the leaf's bounds: the separators nearest it, or the window's ends
    long hi = Long.MAX_VALUE;
    boolean hasLo = false;
    boolean hasHi = false;
    for (int c = h; c != root; c = parent[c]) {
      int pa = parent[c];
      int ci = childIndex(c);
      if (!hasLo && ci > 0) {
        lo = et(pa, ci - 1);
        hasLo = true;
      }
      if (!hasHi && ci < cnt[pa]) {
        hi = et(pa, ci);
        hasHi = true;
      }
    }
    if (hintLo < lo || hintHi > hi) {
      fail("hint " + h + " (" + hintLo + ", " + hintHi + ") reaches past the leaf's bounds (" + lo + ", " + hi + ")");
    }
    int outside = countBetween(root, h, hintLo, hintHi);
    if (outside != 0) {
      fail("hint " + h + " (" + hintLo + ", " + hintHi + "): " + outside + " entries between its bounds lie elsewhere");
    }
  }

  /** Entries strictly between {@code lo} and {@code hi} in the subtree of {@code k} but not in node {@code h}. */
  private int countBetween(int k, int h, long lo, long hi) {
    int n = 0;
    for (int i = 0; i < cnt[k]; i++) {
      long t = et(k, i);
      if (k != h && t > lo && t < hi) {
        n++;
      }
    }
    if (!isLeaf(k)) {
      for (int i = 0; i <= cnt[k]; i++) {
        n += countBetween(kid(k, i), h, lo, hi);
      }
    }
    return n;
  }

  /**
   * If {@link #sfxLeaf} is the left-finger leaf {@code k}, its suffix folds match {@code v_i ⊕ ...
   * ⊕ v_{a-1} ⊕ above} ({@code above}: the parent's {@code Π←}, null below the root).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void expectSuffixes(int k, Object above) {
    if (sfxLeaf != k || k != leftFinger) {
      return;
    }
    AggregateFunction f = fn;
    Object acc = above == null ? f.identity() : above;
    if (sfxBase + cnt[k] != stride) {
      fail("suffix folds of the left finger " + k + " start at " + sfxBase + " for " + cnt[k] + " entries");
    }
    for (int i = cnt[k] - 1; i >= 0; i--) {
      acc = f.combine(p.partial(ev(k, i)), acc);
      Object got = p.partial(ev(sfx, sfxBase + i));
      if (!Objects.deepEquals(got, acc)) {
        fail("suffix fold " + i + " of the left finger " + k + " (" + describe(k) + ") is " + show(got)
            + ", expected " + show(acc));
      }
    }
  }

  /**
   * If {@link #psfxNode} or {@link #gsfxNode} is the left-spine node {@code k} and {@code k} keeps
   * {@link #OWN}, the suffix folds of its own part match {@code v_i ⊕ Π↑(z_{i+1}) ⊕ ... ⊕ v_{a-1} ⊕
   * Π↑(z_a)}.
   */
  private void expectOwnSuffixes(int k, Object[] up) {
    expectOwnSuffixes(k, up, psfxNode, psfx, psfxBase);
    expectOwnSuffixes(k, up, gsfxNode, gsfx, gsfxBase);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void expectOwnSuffixes(int k, Object[] up, int node, int psfx, int psfxBase) {
    if (node != k || (flags[k] & OWN) == 0) {
      return;
    }
    AggregateFunction f = fn;
    if (psfxBase + cnt[k] != stride) {
      fail("own suffix folds of " + k + " start at " + psfxBase + " for " + cnt[k] + " entries");
    }
    Object acc = f.identity();
    for (int i = cnt[k] - 1; i >= 0; i--) {
      acc = f.combine(up[kid(k, i + 1)], acc);
      acc = f.combine(p.partial(ev(k, i)), acc);
      Object got = p.partial(ev(psfx, psfxBase + i));
      if (!Objects.deepEquals(got, acc)) {
        fail("own suffix fold " + i + " of left-spine node " + k + " (" + describe(k) + ") is " + show(got)
            + ", expected " + show(acc));
      }
    }
  }

  /** A spine node marked {@link #OWN} keeps {@code own} in its value slot {@code C - 1}. */
  private void expectOwn(int k, String kind, Object own) {
    if ((flags[k] & OWN) == 0) {
      return;
    }
    if (isLeaf(k) || cnt[k] >= cap) {
      fail(kind + "-spine node " + k + " (" + describe(k) + ") marked OWN but is a leaf or full");
    }
    Object got = p.partial(ev(k, cap - 1));
    if (!Objects.deepEquals(got, own)) {
      fail("own aggregate of " + kind + "-spine node " + k + " (" + describe(k) + ") is " + show(got)
          + ", expected " + show(own));
    }
  }

  private void expect(int k, String kind, Object want, int wantCnt) {
    if (finger && aggCnt[k] != wantCnt) {
      fail(kind + " aggregate of node " + k + " (" + describe(k) + ") counts " + aggCnt[k] + " entries, expected "
          + wantCnt);
    }
    Object got = p.partial(aggSlot(k));
    if (!Objects.deepEquals(got, want)) {
      fail(kind + " aggregate of node " + k + " (" + describe(k) + ") is " + show(got) + ", expected " + show(want));
    }
  }

  /** Returns the recomputed up-aggregate of {@code k}'s subtree (stored in {@code up[k]}). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object checkRec(int k, int depth, long lo, boolean hasLo, long hi, boolean hasHi, boolean onLeft,
      boolean onRight, int[] leafDepth, int[] count, int[] nodeCount, Object[] up) {
    AggregateFunction f = fn;
    nodeCount[0]++;
    int countBefore = count[0];
    if (nodeCount[0] > nodeHigh) {
      fail("more reachable nodes than allocated (" + nodeHigh + "): a cycle?");
    }
    int a = cnt[k];
    boolean leaf = isLeaf(k);
    if (k != root) {
      if (arity(k) < minArity || arity(k) > maxArity) {
        fail("node " + k + " (" + describe(k) + ") has arity " + arity(k) + " outside [" + minArity + ", " + maxArity + "]");
      }
      boolean wantLeft = onLeft;
      boolean wantRight = onRight;
      if (isLeft(k) != wantLeft || isRight(k) != wantRight) {
        fail("node " + k + " (" + describe(k) + ") has spine flags left=" + isLeft(k) + " right=" + isRight(k)
            + ", expected left=" + wantLeft + " right=" + wantRight);
      }
    } else if (arity(k) > maxArity) {
      fail("root has arity " + arity(k) + " > " + maxArity);
    }
    if ((flags[k] & OWN) != 0 && (leaf || (finger ? k == root || (flags[k] & (LEFT | RIGHT)) == 0
        : k != root && (flags[k] & LEFT) == 0))) {
      fail("node " + k + " (" + describe(k) + ") marked OWN at a leaf or off the spines (FiBA: or at the root;"
          + " classic: off the left spine and the root)");
    }
    for (int i = 0; i < a; i++) {
      long t = et(k, i);
      if (i > 0 && et(k, i - 1) >= t) {
        fail("node " + k + " (" + describe(k) + "): times not increasing at index " + i);
      }
      if ((hasLo && t <= lo) || (hasHi && t >= hi)) {
        fail("node " + k + " (" + describe(k) + "): time " + t + " outside its separators (" + (hasLo ? lo : "-inf")
            + ", " + (hasHi ? hi : "+inf") + ")");
      }
    }
    count[0] += a;
    Object agg = f.identity();
    if (leaf) {
      if (leafDepth[0] < 0) {
        leafDepth[0] = depth;
      } else if (leafDepth[0] != depth) {
        fail("leaf " + k + " at depth " + depth + " but another leaf is at depth " + leafDepth[0]);
      }
      for (int i = 0; i < a; i++) {
        agg = f.combine(agg, p.partial(ev(k, i)));
      }
    } else {
      for (int i = 0; i <= a; i++) {
        int c = kid(k, i);
        if (c < 0 || c >= nodeHigh) {
          fail("node " + k + " has a bad child id " + c + " at " + i);
        }
        if (parent[c] != k) {
          fail("node " + c + " is child " + i + " of " + k + " but its parent is " + parent[c]);
        }
        boolean cl = i == 0 ? (k == root || onLeft) : false;
        boolean cr = i == a ? (k == root || onRight) : false;
        Object sub = checkRec(c, depth + 1, i == 0 ? lo : et(k, i - 1), i == 0 ? hasLo : true,
            i == a ? hi : et(k, i), i == a ? hasHi : true, cl, cr, leafDepth, count, nodeCount, up);
        agg = f.combine(agg, sub);
        if (i < a) {
          agg = f.combine(agg, p.partial(ev(k, i)));
        }
      }
    }
    up[k] = agg;
    upCnt[k] = count[0] - countBefore;
    if (hasAggUp(k)) {
      expect(k, "up", agg, upCnt[k]);
    }
    return agg;
  }

  final String describe(int k) {
    StringBuilder sb = new StringBuilder();
    sb.append(k == root ? "root" : isLeft(k) ? "left spine" : isRight(k) ? "right spine" : "inner");
    sb.append(isLeaf(k) ? " leaf" : " internal").append(", times [");
    for (int i = 0; i < cnt[k]; i++) {
      sb.append(i > 0 ? " " : "").append(et(k, i));
    }
    return sb.append(']').toString();
  }

  /** Time of entry {@code i} of {@code k}, read past the left finger's offset ({@link #lfOff}); for the checker. */
  private long et(int k, int i) {
    return times[k * cap + (k == leftFinger ? lfOff : 0) + i];
  }

  /** Value slot of entry {@code i} of {@code k}, past the left finger's offset; for the checker. */
  private int ev(int k, int i) {
    return vslot(k, (k == leftFinger ? lfOff : 0) + i);
  }

  static String show(Object o) {
    if (o instanceof double[] d) {
      return Arrays.toString(d);
    }
    if (o instanceof long[] l) {
      return l.length > 8 ? "long[" + l.length + "]@" + Arrays.hashCode(l) : Arrays.toString(l);
    }
    String s = String.valueOf(o);
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  static void fail(String msg) {
    throw new IllegalStateException(msg);
  }
}

package io.swag.core.ooo;

import io.swag.core.AggregateFunction;

/**
 * The baseline of the FiBA paper (Tangwongsan, Hirzel, Schneider, VLDB 2019, Section 3.1): a
 * classic B-tree keyed by time, augmented with up-aggregates. Every node stores
 * {@code Π↑(y) = Π↑(z0) v0 Π↑(z1) ... v_{a-2} Π↑(z_{a-1})}, so the root holds the whole window.
 *
 * <p>Size invariants: {@code MIN_ARITY = μ <= a <= MAX_ARITY = 2μ} for non-root nodes,
 * {@code 2 <= a} for an internal root, all leaves at one depth, time order within and across
 * nodes. Rebalancing is after the fact (split on overflow, merge or move on underflow).
 *
 * <p>A node on the left spine (and the root) with fewer than {@code 2μ} entries also keeps its own
 * part {@code v0 Π↑(z1) ... v_{a-2} Π↑(z_{a-1})}, everything but its first child's subtree, in
 * its free value slot (flag {@code OWN}, see {@code BTreeCore.repair}): a change that reaches it
 * only through its first child (an eviction or a prepend at the left finger) repairs it with one
 * combine. A change through another child (an append below the root's last child, say) drops the
 * own part, and the node's next repair folds it in full. The same number of combines folds it as
 * the plain up-aggregate; no slot is added (for object partials such as {@code collect} the own
 * part is one more object per node).
 *
 * <p>With a primitive store the left-finger leaf also keeps the suffix folds of its up-aggregate
 * and its entries at an offset ({@code BTreeCore.sfx}, {@code BTreeCore.lfOff}): evicting the
 * oldest entry without underflow takes the next suffix (no combine) and a prepend below it one
 * combine, neither shifts the leaf, and the walk up costs one combine per level.
 *
 * <p>Complexity (n entries): {@code query()} O(1) and no combine; {@code insert}/{@code evict}
 * O(log n) (search from the root, or O(1) at a finger for the window's ends; repair up to the root); range query O(log n); bulk operations
 * are loops of single ones. Space: see {@link BTreeCore} (one node pool of primitive arrays).
 */
public final class ClassicBTree extends BTreeCore {

  /**
   * An empty classic augmented B-tree.
   *
   * @param fn the aggregate function
   * @param minArity the min arity, 2, 4 or 8
   */
  public ClassicBTree(AggregateFunction<?, ?, ?> fn, int minArity) {
    super("bclassic" + minArity, fn, minArity, false);
  }
}

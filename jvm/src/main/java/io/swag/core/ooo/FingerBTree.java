package io.swag.core.ooo;

import io.swag.core.AggregateFunction;

/**
 * FiBA, the finger B-tree aggregator (Tangwongsan, Hirzel, Schneider, VLDB 2019, Sections 3.2-3.3,
 * Figures 7 and 8), with single inserts and evicts; {@code bulkEvict}/{@code bulkInsert} are loops
 * of single operations (see {@link BulkFingerBTree} for the real bulk algorithms).
 *
 * <p>Aggregation invariants (position-aware partial aggregates): non-spine nodes store their
 * up-aggregate {@code Π↑}; the root stores its inner aggregate (everything but the subtrees of its
 * first and last child); non-root left-spine nodes store {@code Π←(y)} = everything under the
 * root's first child except {@code y}'s first child's subtree, and right-spine nodes the mirror
 * image {@code Π→}. Hence {@code query() = Π←(leftFinger) ⊗ inner(root) ⊗ Π→(rightFinger)}.
 * An internal non-root spine node may also keep its own part ({@code Π←(y)} or {@code Π→(y)}
 * without the parent term) in its free value slot, flagged {@code OWN} (see {@code BTreeCore.repair}):
 * the repair walk down a spine then recomputes such a node with one combine. With a primitive store
 * the left-finger leaf's {@code Π←} is folded right to left with every suffix kept aside ({@code BTreeCore.sfx}), so
 * evicting the oldest entry without underflow costs no combine.
 * Size invariants as in {@link ClassicBTree}; left and right fingers point at the extreme leaves.
 *
 * <p>Complexity: {@code query()} O(1) (two combines); {@code insert}/{@code evict} amortized
 * O(log d), where d is the distance to the nearer window end (O(1) in order), worst case
 * O(log n); {@code query(from, to)} O(log d_from + log d_to + log n_sub). Space O(n), see
 * {@link BTreeCore}.
 */
public class FingerBTree extends BTreeCore {

  /**
   * An empty finger B-tree with single operations.
   *
   * @param fn the aggregate function
   * @param minArity the min arity, 2, 4 or 8
   */
  public FingerBTree(AggregateFunction<?, ?, ?> fn, int minArity) {
    this("nbfiba" + minArity, fn, minArity);
  }

  FingerBTree(String name, AggregateFunction<?, ?, ?> fn, int minArity) {
    super(name, fn, minArity, true);
  }
}

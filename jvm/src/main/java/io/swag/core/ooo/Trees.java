package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.TimedAggregator;
import java.util.List;

/** The out-of-order (B-tree) aggregators by name: a shortcut to {@link Algorithm#newTree}. */
public final class Trees {
  private Trees() {}

  /** The canonical tree names ({@link Algorithm#TREE_NAMES}); {@link #create} also takes their aliases. */
  public static final List<String> NAMES = Algorithm.TREE_NAMES;

  /**
   * {@code bclassicμ}: classic augmented B-tree; {@code nbfibaμ}: finger B-tree with single
   * operations (bulk operations as loops); {@code bfibaμ}: finger B-tree with the bulk algorithms
   * of VLDB 2023. {@code μ} is MIN_ARITY (2, 4 or 8). Aliases as in {@link Algorithm}.
   *
   * @param name a tree algorithm name
   * @param fn the aggregate function
   * @return a new, empty tree
   */
  public static TimedAggregator create(String name, AggregateFunction<?, ?, ?> fn) {
    return Algorithm.parse(name).newTree(fn);
  }
}

package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import io.swag.core.TimedAggregator;
import java.util.List;

/** Factory of the out-of-order (B-tree) aggregators by name. */
public final class Trees {
  private Trees() {}

  /** All names accepted by {@link #create}. */
  public static final List<String> NAMES = List.of("bclassic2", "bclassic4", "bclassic8", "fiba2", "fiba4", "fiba8",
      "bfiba2", "bfiba4", "bfiba8", "fiba");

  /**
   * {@code bclassicμ}: classic augmented B-tree; {@code fibaμ}: finger B-tree with single
   * operations (bulk operations as loops); {@code bfibaμ}: finger B-tree with the bulk algorithms
   * of VLDB 2023; {@code fiba}: the default ({@code bfiba4}). {@code μ} is MIN_ARITY (2, 4 or 8).
   */
  public static TimedAggregator create(String name, AggregateFunction<?, ?, ?> fn) {
    String n = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT);
    switch (n) {
      case "fiba":
        return new BulkFingerBTree(fn, 4, "fiba");
      case "bclassic2", "bclassic4", "bclassic8":
        return new ClassicBTree(fn, arity(n, "bclassic"));
      case "fiba2", "fiba4", "fiba8":
        return new FingerBTree(fn, arity(n, "fiba"));
      case "bfiba2", "bfiba4", "bfiba8":
        return new BulkFingerBTree(fn, arity(n, "bfiba"));
      default:
        throw new IllegalArgumentException("unknown out-of-order algorithm '" + name + "'; known: " + NAMES);
    }
  }

  private static int arity(String n, String prefix) {
    return Integer.parseInt(n.substring(prefix.length()));
  }
}

package io.swag.core;

import io.swag.core.fifo.Daba;
import io.swag.core.fifo.DabaLite;
import io.swag.core.fifo.DoubleDaba;
import io.swag.core.fifo.DoubleDabaLite;
import io.swag.core.fifo.DoubleFifo;
import io.swag.core.fifo.DoubleFlatFit;
import io.swag.core.fifo.DoubleTwoStacksLite;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.FlatFat;
import io.swag.core.fifo.FlatFit;
import io.swag.core.fifo.PartialsFifo;
import io.swag.core.fifo.Recalc;
import io.swag.core.fifo.SubtractOnEvict;
import io.swag.core.fifo.TimedFifo;
import io.swag.core.fifo.TwoStacks;
import io.swag.core.fifo.TwoStacksLite;
import io.swag.core.fn.Mean;
import io.swag.core.fn.ScalarDoubleFunction;
import io.swag.core.ooo.BulkFingerBTree;
import io.swag.core.ooo.ClassicBTree;
import io.swag.core.ooo.FingerBTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sliding-window aggregation algorithms, by name: the one parser of every algorithm name the
 * library accepts ({@link Swag}, plans, the engines, Python), and what each name builds.
 *
 * <p>Canonical names (what {@link #id()} returns, what plans store and what the built structures
 * report as their {@code algorithm()}):
 * <ul>
 *   <li>in order (FIFO: non-decreasing times, evict the oldest): {@code recalc}, {@code soe}
 *       (subtract-on-evict), {@code two_stacks}, {@code two_stacks_lite}, {@code daba},
 *       {@code daba_lite}, {@code flatfat} (FlatFAT, the Reactive Aggregator), {@code flatfit};
 *   <li>out of order (B-trees of min arity μ = 2, 4, 8): {@code bclassicμ} (classic augmented
 *       B-tree), {@code nbfibaμ} (FiBA, finger B-tree without bulk operations: a bulk operation is a
 *       loop of single ones), {@code bfibaμ} (FiBA with the bulk evict and insert of VLDB 2023);
 *   <li>{@code adaptive}: a plan's choice (DABA Lite that switches a key to its plan's
 *       {@code bfibaμ} at the first out-of-order record), built by the plan's executors only.
 * </ul>
 *
 * <p>Also accepted ({@link #ALIASES}): {@code subtract_on_evict} for {@code soe}; and, deprecated
 * because they do not say what they build, {@code reactive} (builds {@code flatfat}), {@code fiba}
 * (builds the <em>bulk</em> tree {@code bfiba4}) and {@code fiba2/4/8} (build the <em>non-bulk</em>
 * trees {@code nbfiba2/4/8}). The family names {@code bclassic}, {@code nbfiba}, {@code bfiba} (and
 * the deprecated {@code fiba}) stand for min arity 4, or the arity given with
 * {@link #parse(String, Object)}. Names are case-insensitive, trimmed, and {@code -} reads as
 * {@code _}.
 */
public enum Algorithm {
  /** Recalculate: combines the whole window at each query. */
  RECALC("recalc", Shape.FIFO, 0),
  /** Subtract-on-evict: needs an invertible function. */
  SOE("soe", Shape.FIFO, 0),
  /** Two-Stacks. */
  TWO_STACKS("two_stacks", Shape.FIFO, 0),
  /** Two-Stacks Lite. */
  TWO_STACKS_LITE("two_stacks_lite", Shape.FIFO, 0),
  /** DABA: De-Amortized Banker's Aggregator. */
  DABA("daba", Shape.FIFO, 0),
  /** DABA Lite. */
  DABA_LITE("daba_lite", Shape.FIFO, 0),
  /** FlatFAT, the Reactive Aggregator. */
  FLATFAT("flatfat", Shape.FIFO, 0),
  /** FlatFIT. */
  FLATFIT("flatfit", Shape.FIFO, 0),
  /** Classic augmented B-tree of min arity 2. */
  BCLASSIC2("bclassic2", Shape.CLASSIC_TREE, 2),
  /** Classic augmented B-tree of min arity 4. */
  BCLASSIC4("bclassic4", Shape.CLASSIC_TREE, 4),
  /** Classic augmented B-tree of min arity 8. */
  BCLASSIC8("bclassic8", Shape.CLASSIC_TREE, 8),
  /** Finger B-tree (FiBA) of min arity 2, without bulk operations. */
  NBFIBA2("nbfiba2", Shape.FINGER_TREE, 2),
  /** Finger B-tree (FiBA) of min arity 4, without bulk operations. */
  NBFIBA4("nbfiba4", Shape.FINGER_TREE, 4),
  /** Finger B-tree (FiBA) of min arity 8, without bulk operations. */
  NBFIBA8("nbfiba8", Shape.FINGER_TREE, 8),
  /** Finger B-tree (FiBA) of min arity 2, with bulk evict and insert. */
  BFIBA2("bfiba2", Shape.BULK_FINGER_TREE, 2),
  /** Finger B-tree (FiBA) of min arity 4, with bulk evict and insert. */
  BFIBA4("bfiba4", Shape.BULK_FINGER_TREE, 4),
  /** Finger B-tree (FiBA) of min arity 8, with bulk evict and insert. */
  BFIBA8("bfiba8", Shape.BULK_FINGER_TREE, 8),
  /** A plan's choice: DABA Lite that switches to a tree at the first out-of-order record. */
  ADAPTIVE("adaptive", Shape.ADAPTIVE, 0);

  private enum Shape { FIFO, CLASSIC_TREE, FINGER_TREE, BULK_FINGER_TREE, ADAPTIVE }

  /** The min arity of a tree family name without a number ({@code bfiba}, {@code bclassic}, ...). */
  public static final int DEFAULT_MIN_ARITY = 4;

  /**
   * The names accepted besides the canonical ones, each with the canonical name it builds. The
   * deprecated ones are in {@link #DEPRECATED}.
   */
  public static final Map<String, String> ALIASES;

  /** The deprecated aliases, each with why and what to write instead. */
  public static final Map<String, String> DEPRECATED;

  /** The canonical in-order (FIFO) names, in declaration order. */
  public static final List<String> FIFO_NAMES;

  /** The canonical out-of-order (B-tree) names, in declaration order. */
  public static final List<String> TREE_NAMES;

  static {
    Map<String, String> aliases = new LinkedHashMap<>();
    Map<String, String> deprecated = new LinkedHashMap<>();
    aliases.put("subtract_on_evict", "soe");
    aliases.put("reactive", "flatfat");
    deprecated.put("reactive", "deprecated: 'reactive' builds FlatFAT; write 'flatfat'");
    aliases.put("fiba", "bfiba4");
    deprecated.put("fiba", "deprecated: 'fiba' builds the bulk FiBA tree bfiba4 while 'fiba4' builds the non-bulk"
        + " one; write 'bfiba4' (or 'bfiba' with a min arity)");
    for (int m : new int[] {2, 4, 8}) {
      aliases.put("fiba" + m, "nbfiba" + m);
      deprecated.put("fiba" + m, "deprecated: 'fiba" + m + "' builds the non-bulk FiBA tree while 'fiba' builds the"
          + " bulk one; write 'nbfiba" + m + "' (non-bulk) or 'bfiba" + m + "' (bulk)");
    }
    for (String family : new String[] {"bclassic", "nbfiba", "bfiba"}) {
      aliases.put(family, family + DEFAULT_MIN_ARITY);
    }
    ALIASES = Collections.unmodifiableMap(aliases);
    DEPRECATED = Collections.unmodifiableMap(deprecated);
    List<String> fifo = new ArrayList<>();
    List<String> trees = new ArrayList<>();
    for (Algorithm a : values()) {
      if (a.isFifo()) {
        fifo.add(a.id);
      } else if (a.isTree()) {
        trees.add(a.id);
      }
    }
    FIFO_NAMES = List.copyOf(fifo);
    TREE_NAMES = List.copyOf(trees);
  }

  private final String id;
  private final Shape shape;
  private final int minArity;

  Algorithm(String id, Shape shape, int minArity) {
    this.id = id;
    this.shape = shape;
    this.minArity = minArity;
  }

  /**
   * The algorithm a name stands for (canonical name or {@linkplain #ALIASES alias}).
   *
   * @param name the name
   * @return the algorithm
   * @throws IllegalArgumentException naming the value and listing the valid names, for an unknown
   *     or null name
   */
  public static Algorithm parse(String name) {
    Algorithm a = find(name);
    if (a == null) {
      throw unknown(name);
    }
    return a;
  }

  /**
   * Like {@link #parse(String)}, with a B-tree min arity ({@code null}: the name's own): a tree name
   * gives the tree of that family with {@code minArity} 2, 4 or 8 ({@code fiba4} with 2 is
   * {@code nbfiba2}; {@code fiba} with 8 is {@code bfiba8}). A min arity with a name that is not a
   * tree is an error.
   *
   * @param name the name
   * @param minArity the B-tree min arity (2, 4 or 8), or null
   * @return the algorithm
   */
  public static Algorithm parse(String name, Object minArity) {
    Algorithm a = parse(name);
    if (minArity == null) {
      return a;
    }
    if (!a.isTree()) {
      throw new SwagException(SwagException.Kind.INVALID_OPTION, "option 'minArity' applies to the B-tree algorithms (" + String.join(", ",
          TREE_NAMES) + "), not to '" + name + "'");
    }
    int m = minArity instanceof Number n && n.doubleValue() == n.intValue() ? n.intValue() : -1;
    return a.withMinArity(m, minArity);
  }

  /**
   * The algorithm of a name, or null if the name is unknown (or null).
   *
   * @param name the name, or null
   * @return the algorithm, or null
   */
  public static Algorithm find(String name) {
    if (name == null) {
      return null;
    }
    String n = normalize(name);
    String canonical = ALIASES.getOrDefault(n, n);
    for (Algorithm a : values()) {
      if (a.id.equals(canonical)) {
        return a;
      }
    }
    return null;
  }

  /**
   * Whether {@code name} is a deprecated alias ({@link #DEPRECATED} says why); false for unknown names.
   *
   * @param name the name, or null
   * @return true for a deprecated alias
   */
  public static boolean isDeprecated(String name) {
    return name != null && DEPRECATED.containsKey(normalize(name));
  }

  /**
   * Every accepted name: the canonical ones, then the aliases.
   *
   * @return the names
   */
  public static List<String> acceptedNames() {
    List<String> r = new ArrayList<>();
    for (Algorithm a : values()) {
      r.add(a.id);
    }
    r.addAll(ALIASES.keySet());
    return r;
  }

  private static String normalize(String name) {
    return name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
  }

  private static IllegalArgumentException unknown(String name) {
    String known = "known algorithms: " + String.join(", ", FIFO_NAMES) + ", " + String.join(", ", TREE_NAMES)
        + ", adaptive; aliases: " + String.join(", ", ALIASES.keySet());
    if (name == null) {
      return new SwagException(SwagException.Kind.UNKNOWN_ALGORITHM, "algorithm name is null; " + known);
    }
    return new SwagException(SwagException.Kind.UNKNOWN_ALGORITHM, "unknown algorithm '" + name + "'; " + known);
  }

  /**
   * The canonical name, as plans store it and the built structure reports it.
   *
   * @return the canonical name
   */
  public String id() {
    return id;
  }

  /**
   * An in-order (FIFO) aggregator: non-decreasing times, whole-window queries, evicts the oldest.
   *
   * @return true for an in-order algorithm
   */
  public boolean isFifo() {
    return shape == Shape.FIFO;
  }

  /**
   * A B-tree: inserts and evicts at any time, range queries.
   *
   * @return true for a tree
   */
  public boolean isTree() {
    return shape == Shape.CLASSIC_TREE || shape == Shape.FINGER_TREE || shape == Shape.BULK_FINGER_TREE;
  }

  /**
   * {@code adaptive}: in order until the first out-of-order operation, then a tree.
   *
   * @return true for {@code adaptive}
   */
  public boolean isAdaptive() {
    return shape == Shape.ADAPTIVE;
  }

  /**
   * Whether records may arrive out of time order: a tree, or {@code adaptive} (which switches to one).
   *
   * @return true if records may arrive out of order
   */
  public boolean acceptsOutOfOrder() {
    return isTree() || isAdaptive();
  }

  /**
   * A tree with the bulk evict and insert algorithms ({@code bfibaμ}).
   *
   * @return true for a bulk tree
   */
  public boolean isBulk() {
    return shape == Shape.BULK_FINGER_TREE;
  }

  /**
   * A tree's min arity μ (2, 4 or 8); 0 for the others.
   *
   * @return the min arity, or 0
   */
  public int minArity() {
    return minArity;
  }

  /**
   * The bulk FiBA tree {@code bfibaμ} of min arity 2, 4 or 8 (the plans' tree).
   *
   * @param minArity the min arity, 2, 4 or 8
   * @return the algorithm
   */
  public static Algorithm bulkTree(int minArity) {
    return BFIBA4.withMinArity(minArity, minArity);
  }

  private Algorithm withMinArity(int m, Object given) {
    if (m != 2 && m != 4 && m != 8) {
      throw new SwagException(SwagException.Kind.INVALID_OPTION, "option 'minArity' must be 2, 4 or 8, got " + given);
    }
    for (Algorithm a : values()) {
      if (a.shape == shape && a.minArity == m) {
        return a;
      }
    }
    throw new IllegalStateException(id + " has no min arity " + m);
  }

  /**
   * A new in-order aggregator of this algorithm; fails for a tree or {@code adaptive}. For a
   * function whose partial is one double ({@link ScalarDoubleFunction}: sum, min, max, first,
   * last), or a count and one double ({@link Mean}: mean and geomean, on {@link Mean#summands()}),
   * DABA Lite, Two-Stacks Lite, DABA and FlatFIT are built on a {@code double[]} of their own
   * ({@link DoubleFifo}: {@link DoubleDabaLite}, {@link DoubleTwoStacksLite}, {@link DoubleDaba},
   * {@link DoubleFlatFit}); every other pair as {@link #newGenericFifo}. Both forms give the same
   * results to the bit.
   *
   * @param fn the aggregate function
   * @return a new, empty aggregator
   */
  public FifoBase newFifo(AggregateFunction<?, ?, ?> fn) {
    ScalarDoubleFunction op = fn instanceof ScalarDoubleFunction s ? s
        : fn instanceof Mean mean ? mean.summands() : null;
    if (op != null) {
      switch (this) {
        case TWO_STACKS_LITE:
          return new DoubleTwoStacksLite(op);
        case DABA:
          return new DoubleDaba(op);
        case DABA_LITE:
          return new DoubleDabaLite(op);
        case FLATFIT:
          return new DoubleFlatFit(op);
        default:
          break;
      }
    }
    return newGenericFifo(fn);
  }

  /**
   * A new in-order aggregator of this algorithm on the function's {@link Partials} store, for any
   * function ({@link #newFifo} builds this form unless a typed one exists; tests compare the two);
   * fails for a tree or {@code adaptive}.
   *
   * @param fn the aggregate function
   * @return a new, empty aggregator
   */
  public PartialsFifo newGenericFifo(AggregateFunction<?, ?, ?> fn) {
    return switch (this) {
      case RECALC -> new Recalc(fn);
      case SOE -> new SubtractOnEvict(fn);
      case TWO_STACKS -> new TwoStacks(fn);
      case TWO_STACKS_LITE -> new TwoStacksLite(fn);
      case DABA -> new Daba(fn);
      case DABA_LITE -> new DabaLite(fn);
      case FLATFAT -> new FlatFat(fn);
      case FLATFIT -> new FlatFit(fn);
      default -> throw new SwagException(SwagException.Kind.UNKNOWN_ALGORITHM, "algorithm '" + id + "' is not an in-order algorithm; in-order"
          + " algorithms: " + String.join(", ", FIFO_NAMES));
    };
  }

  /**
   * A new B-tree of this algorithm; fails for an in-order algorithm or {@code adaptive}.
   *
   * @param fn the aggregate function
   * @return a new, empty tree
   */
  public TimedAggregator newTree(AggregateFunction<?, ?, ?> fn) {
    return switch (shape) {
      case CLASSIC_TREE -> new ClassicBTree(fn, minArity);
      case FINGER_TREE -> new FingerBTree(fn, minArity);
      case BULK_FINGER_TREE -> new BulkFingerBTree(fn, minArity);
      default -> throw new SwagException(SwagException.Kind.UNKNOWN_ALGORITHM, "algorithm '" + id + "' is not an out-of-order algorithm;"
          + " out-of-order algorithms: " + String.join(", ", TREE_NAMES));
    };
  }

  /**
   * A new timed aggregator: a tree, or an in-order algorithm behind {@link TimedFifo}
   * (non-decreasing times). {@code adaptive} is built by the plans' executors, which give it its
   * tree and product function.
   *
   * @param fn the aggregate function
   * @return a new, empty aggregator
   */
  public TimedAggregator newTimed(AggregateFunction<?, ?, ?> fn) {
    if (isAdaptive()) {
      throw new SwagException(SwagException.Kind.UNKNOWN_ALGORITHM, "algorithm 'adaptive' is a plan's choice, built by the plan executors;"
          + " known algorithms: " + String.join(", ", FIFO_NAMES) + ", " + String.join(", ", TREE_NAMES));
    }
    return isTree() ? newTree(fn) : new TimedFifo(newFifo(fn));
  }

  /** The canonical name. */
  @Override
  public String toString() {
    return id;
  }
}

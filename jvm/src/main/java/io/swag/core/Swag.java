package io.swag.core;

import io.swag.core.SwagException.Kind;
import io.swag.core.fifo.Daba;
import io.swag.core.fifo.DabaLite;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.Recalc;
import io.swag.core.fifo.SubtractOnEvict;
import io.swag.core.fifo.TimedFifo;
import io.swag.core.fifo.TwoStacks;
import io.swag.core.fifo.TwoStacksLite;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.util.HashMap;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Entry point: creates aggregators by algorithm name and function.
 *
 * <pre>{@code
 * FifoAggregator w = Swag.fifo("daba_lite", "max");
 * w.insert(3.0); w.insert(5.0); w.evict();
 * double m = w.queryDouble();   // 5.0
 * }</pre>
 */
public final class Swag {
  private Swag() {}

  /** In-order algorithm names accepted by {@link #fifo}. */
  public static final List<String> FIFO_ALGORITHMS = List.of(
      "recalc", "soe", "two_stacks", "two_stacks_lite", "daba", "daba_lite", "reactive", "flatfit");

  /** A FIFO aggregator: {@code algorithm} from {@link #FIFO_ALGORITHMS}, function by name. */
  public static FifoBase fifo(String algorithm, String function) {
    return fifo(algorithm, Functions.byName(function, Collections.emptyMap()));
  }

  /** A FIFO aggregator with function options (e.g. {@code bloom} with {@code bits}). */
  public static FifoBase fifo(String algorithm, String function, Map<String, ?> options) {
    return fifo(algorithm, Functions.byName(function, options));
  }

  /** A FIFO aggregator for any function. */
  public static FifoBase fifo(String algorithm, AggregateFunction<?, ?, ?> function) {
    return constructor(algorithm).apply(function);
  }

  /** A timestamped FIFO aggregator (in-order times, evict by time). */
  public static TimedFifo timedFifo(String algorithm, String function) {
    return new TimedFifo(fifo(algorithm, function));
  }

  public static TimedFifo timedFifo(String algorithm, String function, Map<String, ?> options) {
    return new TimedFifo(fifo(algorithm, function, options));
  }

  public static TimedFifo timedFifo(String algorithm, AggregateFunction<?, ?, ?> function) {
    return new TimedFifo(fifo(algorithm, function));
  }

  /** Out-of-order algorithm names accepted by {@link #timed}: B-tree variants of FiBA. */
  public static final List<String> OUT_OF_ORDER_ALGORITHMS = Trees.NAMES;

  /**
   * A timestamped aggregator behind the out-of-order interface: a B-tree from
   * {@link #OUT_OF_ORDER_ALGORITHMS} (any insert order), or an in-order algorithm from
   * {@link #FIFO_ALGORITHMS} (non-decreasing times; see {@link TimedFifo}).
   */
  public static TimedAggregator timed(String algorithm, String function) {
    return timed(algorithm, function, Collections.emptyMap());
  }

  /**
   * Like {@link #timed(String, String)}; {@code options} configure the function (e.g. {@code bits})
   * and, for {@code fiba}/{@code bfiba}/{@code bclassic}, the tree: {@code minArity} 2, 4 or 8.
   */
  public static TimedAggregator timed(String algorithm, String function, Map<String, ?> options) {
    Map<String, Object> fnOptions = new HashMap<>(options == null ? Collections.emptyMap() : options);
    Object arity = fnOptions.remove("minArity");
    return timed(algorithm, Functions.byName(function, fnOptions), arity);
  }

  /** A timestamped aggregator for any function ({@code minArity}: null for the default). */
  public static TimedAggregator timed(String algorithm, AggregateFunction<?, ?, ?> function, Object minArity) {
    if (algorithm == null) {
      throw new SwagException(Kind.UNKNOWN_ALGORITHM, "algorithm name is null; known algorithms: " + FIFO_ALGORITHMS
          + ", " + OUT_OF_ORDER_ALGORITHMS);
    }
    String a = algorithm.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    if (a.equals("fiba") || a.equals("bfiba") || a.equals("bclassic") || OUT_OF_ORDER_ALGORITHMS.contains(a)) {
      if (minArity != null) {
        int m = minArity instanceof Number n ? n.intValue() : -1;
        if (m != 2 && m != 4 && m != 8) {
          throw new SwagException(Kind.INVALID_OPTION, "option 'minArity' must be 2, 4 or 8, got " + minArity);
        }
        String base = a.equals("fiba") ? "bfiba" : a.replaceAll("[0-9]+$", "");
        a = base + m;
      } else if (a.equals("bfiba") || a.equals("bclassic")) {
        a = a + "4";
      }
      return Trees.create(a, function);
    }
    if (minArity != null) {
      throw new SwagException(Kind.INVALID_OPTION, "option 'minArity' applies to the B-tree algorithms (fiba, bfiba, "
          + "bclassic), not to '" + algorithm + "'");
    }
    try {
      return new TimedFifo(fifo(algorithm, function));
    } catch (IllegalArgumentException e) {
      if (SwagException.kindOf(e) == Kind.UNKNOWN_ALGORITHM) {
        throw new SwagException(Kind.UNKNOWN_ALGORITHM, "unknown algorithm '" + algorithm + "'; known algorithms: "
            + String.join(", ", FIFO_ALGORITHMS) + ", " + String.join(", ", OUT_OF_ORDER_ALGORITHMS), e);
      }
      throw e;
    }
  }

  private static Function<AggregateFunction<?, ?, ?>, FifoBase> constructor(String algorithm) {
    if (algorithm == null) {
      throw new SwagException(Kind.UNKNOWN_ALGORITHM, "algorithm name is null; known algorithms: " + FIFO_ALGORITHMS);
    }
    switch (algorithm.trim().toLowerCase(Locale.ROOT).replace('-', '_')) {
      case "recalc":
        return Recalc::new;
      case "soe":
      case "subtract_on_evict":
        return SubtractOnEvict::new;
      case "two_stacks":
        return TwoStacks::new;
      case "two_stacks_lite":
        return TwoStacksLite::new;
      case "daba":
        return Daba::new;
      case "daba_lite":
        return DabaLite::new;
      case "reactive":
        return io.swag.core.fifo.FlatFat::new;
      case "flatfit":
        return io.swag.core.fifo.FlatFit::new;
      default:
        throw new SwagException(Kind.UNKNOWN_ALGORITHM, "unknown algorithm '" + algorithm + "'; known in-order algorithms: "
            + String.join(", ", FIFO_ALGORITHMS));
    }
  }
}

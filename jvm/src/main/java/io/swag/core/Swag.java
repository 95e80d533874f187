package io.swag.core;

import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.TimedFifo;
import io.swag.core.fn.Functions;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point: creates aggregators by algorithm name and function. Names are parsed by
 * {@link Algorithm#parse} (canonical names, aliases, deprecated aliases).
 *
 * <pre>{@code
 * FifoAggregator w = Swag.fifo("daba_lite", "max");
 * w.insert(3.0); w.insert(5.0); w.evict();
 * double m = w.queryDouble();   // 5.0
 * }</pre>
 */
public final class Swag {
  private Swag() {}

  /** The canonical in-order algorithm names accepted by {@link #fifo} ({@link Algorithm#FIFO_NAMES}). */
  public static final List<String> FIFO_ALGORITHMS = Algorithm.FIFO_NAMES;

  /**
   * A FIFO aggregator: {@code algorithm} an in-order name ({@link Algorithm}), function by name.
   *
   * @param algorithm an in-order algorithm name
   * @param function a function name
   * @return a new, empty aggregator
   */
  public static FifoBase fifo(String algorithm, String function) {
    return fifo(algorithm, Functions.byName(function, Collections.emptyMap()));
  }

  /**
   * A FIFO aggregator with function options (e.g. {@code bloom} with {@code bits}).
   *
   * @param algorithm an in-order algorithm name
   * @param function a function name
   * @param options the function's options
   * @return a new, empty aggregator
   */
  public static FifoBase fifo(String algorithm, String function, Map<String, ?> options) {
    return fifo(algorithm, Functions.byName(function, options));
  }

  /**
   * A FIFO aggregator for any function.
   *
   * @param algorithm an in-order algorithm name
   * @param function the function
   * @return a new, empty aggregator
   */
  public static FifoBase fifo(String algorithm, AggregateFunction<?, ?, ?> function) {
    return Algorithm.parse(algorithm).newFifo(function);
  }

  /**
   * A timestamped FIFO aggregator (in-order times, evict by time).
   *
   * @param algorithm an in-order algorithm name
   * @param function a function name
   * @return a new, empty aggregator
   */
  public static TimedFifo timedFifo(String algorithm, String function) {
    return new TimedFifo(fifo(algorithm, function));
  }

  /**
   * A timestamped FIFO aggregator with function options.
   *
   * @param algorithm an in-order algorithm name
   * @param function a function name
   * @param options the function's options
   * @return a new, empty aggregator
   */
  public static TimedFifo timedFifo(String algorithm, String function, Map<String, ?> options) {
    return new TimedFifo(fifo(algorithm, function, options));
  }

  /**
   * A timestamped FIFO aggregator for any function.
   *
   * @param algorithm an in-order algorithm name
   * @param function the function
   * @return a new, empty aggregator
   */
  public static TimedFifo timedFifo(String algorithm, AggregateFunction<?, ?, ?> function) {
    return new TimedFifo(fifo(algorithm, function));
  }

  /** The canonical out-of-order (B-tree) names accepted by {@link #timed} ({@link Algorithm#TREE_NAMES}). */
  public static final List<String> OUT_OF_ORDER_ALGORITHMS = Algorithm.TREE_NAMES;

  /**
   * A timestamped aggregator behind the out-of-order interface: a B-tree from
   * {@link #OUT_OF_ORDER_ALGORITHMS} (any insert order), or an in-order algorithm from
   * {@link #FIFO_ALGORITHMS} (non-decreasing times; see {@link TimedFifo}).
   *
   * @param algorithm an algorithm name
   * @param function a function name
   * @return a new, empty aggregator
   */
  public static TimedAggregator timed(String algorithm, String function) {
    return timed(algorithm, function, Collections.emptyMap());
  }

  /**
   * Like {@link #timed(String, String)}; {@code options} configure the function (e.g. {@code bits})
   * and, for a tree, its min arity: {@code minArity} 2, 4 or 8 ({@link Algorithm#parse(String, Object)}).
   *
   * @param algorithm an algorithm name
   * @param function a function name
   * @param options the function's options and {@code minArity}
   * @return a new, empty aggregator
   */
  public static TimedAggregator timed(String algorithm, String function, Map<String, ?> options) {
    Map<String, Object> fnOptions = new HashMap<>(options == null ? Collections.emptyMap() : options);
    Object arity = fnOptions.remove("minArity");
    return timed(algorithm, Functions.byName(function, fnOptions), arity);
  }

  /**
   * A timestamped aggregator for any function ({@code minArity}: null for the name's own).
   *
   * @param algorithm an algorithm name
   * @param function the function
   * @param minArity the B-tree min arity, or null
   * @return a new, empty aggregator
   */
  public static TimedAggregator timed(String algorithm, AggregateFunction<?, ?, ?> function, Object minArity) {
    return Algorithm.parse(algorithm, minArity).newTimed(function);
  }
}

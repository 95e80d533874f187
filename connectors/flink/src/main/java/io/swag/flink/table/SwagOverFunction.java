package io.swag.flink.table;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fn.Functions;
import io.swag.core.plan.OnError;
import io.swag.core.plan.RowContract;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.FunctionContext;

/**
 * An aggregate function with retraction for bounded OVER windows
 * ({@code ROWS/RANGE BETWEEN ... PRECEDING AND CURRENT ROW}), backed by an in-order aggregator:
 * Flink retracts the rows that leave the frame, and retracting the oldest row is O(1) for every
 * function, where Flink's built-in MAX/MIN/FIRST_VALUE... with retraction scan a map view. Null
 * inputs are ignored (like the built-ins). A refused value (NaN, {@link RowContract}) is ignored too
 * (and so is its retraction) and counted by the metric {@value #REJECTED_METRIC}, unless the job
 * parameter {@value #ON_ERROR_PARAM} is {@code fail}: then it fails the job with the reason.
 * Registered by {@link SwagFunctions#register}.
 *
 * <p>State: the frame's values in a state-backed map view of the accumulator
 * ({@link OverAccumulator}): one put per row and one remove per retraction on every backend. The
 * aggregators live in a cache of this function instance, at most {@value #CACHE_PARAM} keys
 * (job parameter, default {@value #DEFAULT_CACHE_KEYS}), least recently used dropped; a key not in
 * it rebuilds its aggregator from its view (O(frame), once). The cache belongs to one task and is
 * created with it, so after a restore every key rebuilds from the restored state.
 */
public abstract class SwagOverFunction<T, A extends OverAccumulator> extends AggregateFunction<T, A> {
  private static final long serialVersionUID = 1L;
  /** The job parameter bounding the keys whose OVER frames stay on the heap, per function and task. */
  public static final String CACHE_PARAM = "swag.over.cache-max-keys";
  /** The default of {@value #CACHE_PARAM}. */
  public static final int DEFAULT_CACHE_KEYS = 10_000;
  /** The job parameter choosing what a refused value does: {@code reject} (default: ignored, counted) or {@code fail}. */
  public static final String ON_ERROR_PARAM = "swag.on-error";
  /** The counter of refused values ignored. */
  public static final String REJECTED_METRIC = "swagRejectedValues";
  static final String ALGORITHM = "daba_lite";
  private final String function;
  private transient TokenCache<OverFrame> frames;
  private transient OverFrame last;
  private transient boolean failOnError;
  private transient org.apache.flink.metrics.Counter rejected;

  /**
   * A function computing swag's {@code function} over the frame.
   *
   * @param function the swag function's name
   */
  protected SwagOverFunction(String function) {
    this.function = function;
  }

  @Override
  public void open(FunctionContext context) throws Exception {
    super.open(context);
    frames = new TokenCache<>(TokenCache.maxKeys(context, CACHE_PARAM, DEFAULT_CACHE_KEYS, "swag_" + function));
    last = null;
    failOnError = failOnError(context, "swag_" + function);
    rejected = context.getMetricGroup().counter(REJECTED_METRIC);
  }

  /** The job parameter {@value #ON_ERROR_PARAM}: true for {@code fail}; a value other than fail/reject is an error. */
  static boolean failOnError(FunctionContext context, String function) {
    return OnError.parse(function + ": job parameter " + ON_ERROR_PARAM, context.getJobParameter(ON_ERROR_PARAM, null))
        == OnError.FAIL;
  }

  /** Whether {@code v} is refused (then ignored and counted, or the job fails); the same answer at retraction. */
  private boolean refused(Object v) {
    if (!RowContract.isNaN(v)) {
      return false;
    }
    if (failOnError) {
      throw new IllegalArgumentException("swag_" + function + ": the argument is NaN (job parameter " + ON_ERROR_PARAM
          + " = fail)");
    }
    return true;
  }

  private TokenCache<OverFrame> frames() {
    if (frames == null) { // used without open (a planner's constant folding, a test)
      frames = new TokenCache<>(DEFAULT_CACHE_KEYS);
    }
    return frames;
  }

  abstract A newAccumulator();

  @Override
  public A createAccumulator() {
    A a = newAccumulator();
    a.token = newToken();
    return a;
  }

  private long newToken() {
    return frames().newToken();
  }

  /** The key's frame on the heap: the cached one if it still serves the accumulator, else rebuilt. */
  final OverFrame frame(A acc) {
    OverFrame f = last;
    if (f != null && f.serves(acc)) {
      return f;
    }
    f = frames().get(acc.token);
    if (f == null || !f.serves(acc)) {
      f = rebuild(acc);
      frames.put(acc.token, f);
    }
    last = f;
    return f;
  }

  private OverFrame rebuild(A acc) {
    FifoBase fifo = Double.isNaN(acc.rank)
        ? Swag.fifo(ALGORITHM, Functions.byName(function))
        : Swag.fifo(ALGORITHM, Functions.byName(function, Map.of("rank", acc.rank)));
    OverFrame f = new OverFrame(acc.token, acc.head, fifo);
    try {
      for (long s = acc.head; s < acc.tail; s++) {
        Object v = acc.value(s);
        if (v == null) {
          throw new IllegalStateException("swag_" + function + ": the OVER frame's state lacks value " + s
              + " of [" + acc.head + ", " + acc.tail + ")");
        }
        if (v instanceof Double d) {
          fifo.insertArg(d.doubleValue(), s);
        } else {
          fifo.insertArg(v, s);
        }
        f.values.addLast(v);
        f.tail++;
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("swag_" + function + ": cannot read the OVER frame's state", e);
    }
    return f;
  }

  void add(A acc, Object v) {
    if (v == null) {
      return;
    }
    if (refused(v)) {
      if (rejected != null) {
        rejected.inc();
      }
      return;
    }
    OverFrame f = frame(acc);
    try {
      if (v instanceof Double d) {
        f.fifo.insertArg(d.doubleValue(), f.tail); // throws (IllegalArgumentException) before changing anything
      } else {
        f.fifo.insertArg(v, f.tail);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("swag_" + function + ": " + e.getMessage(), e);
    }
    try {
      acc.putValue(f.tail, v);
    } catch (Exception e) {
      throw new IllegalStateException("swag_" + function + ": cannot write the OVER frame's state", e);
    }
    f.values.addLast(v);
    acc.tail = ++f.tail;
  }

  void remove(A acc, Object v) {
    if (v == null || RowContract.isNaN(v)) {
      return; // never added
    }
    OverFrame f = frame(acc);
    if (f.values.isEmpty()) {
      throw new IllegalStateException("swag_" + function + ": retract of " + v + " from an empty OVER frame");
    }
    Map<String, Integer> pending = acc.pending;
    if (pending == null && v.equals(f.values.peekFirst())) {
      evictOldest(acc, f);
      return;
    }
    if (pending == null) {
      pending = new HashMap<>();
    }
    pending.merge(String.valueOf(v), 1, Integer::sum);
    while (!pending.isEmpty() && !f.values.isEmpty()) {
      String k = String.valueOf(f.values.peekFirst());
      Integer c = pending.get(k);
      if (c == null) {
        break;
      }
      if (c == 1) {
        pending.remove(k);
      } else {
        pending.put(k, c - 1);
      }
      evictOldest(acc, f);
    }
    acc.pending = pending.isEmpty() ? null : pending;
  }

  private void evictOldest(A acc, OverFrame f) {
    try {
      acc.view().remove(f.head);
    } catch (Exception e) {
      throw new IllegalStateException("swag_" + function + ": cannot write the OVER frame's state", e);
    }
    f.values.pollFirst();
    f.fifo.evict();
    acc.head = ++f.head;
  }

  /** The frame's aggregate, null for an empty frame. */
  Object query(A acc) {
    if (acc.head == acc.tail) {
      return null;
    }
    return frame(acc).fifo.query();
  }

  /**
   * Resets the accumulator (used by some operators instead of creating a new one).
   *
   * @param acc the accumulator
   */
  public void resetAccumulator(A acc) {
    acc.view().clear();
    acc.head = 0;
    acc.tail = 0;
    acc.pending = null;
    acc.rank = Double.NaN;
    acc.token = newToken();
  }

  /** A function of one DOUBLE argument returning DOUBLE: max, min, first, last, stddev, median... */
  public static class OfDouble extends SwagOverFunction<Double, OverAccumulator.OfDouble> {
    private static final long serialVersionUID = 1L;

    /**
     * A function computing swag's {@code function} over a frame of DOUBLE values.
     *
     * @param function the swag function's name
     */
    public OfDouble(String function) {
      super(function);
    }

    @Override
    OverAccumulator.OfDouble newAccumulator() {
      return new OverAccumulator.OfDouble();
    }

    /**
     * Adds a value to the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void accumulate(OverAccumulator.OfDouble acc, Double v) {
      add(acc, v);
    }

    /**
     * Retracts a value that leaves the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void retract(OverAccumulator.OfDouble acc, Double v) {
      remove(acc, v);
    }

    @Override
    public Double getValue(OverAccumulator.OfDouble acc) {
      Object r = query(acc);
      return r == null ? null : ((Number) r).doubleValue();
    }
  }

  /** {@code swag_max(x)}. */
  public static final class Max extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_max} function. */
    public Max() {
      super("max");
    }
  }

  /** {@code swag_min(x)}. */
  public static final class Min extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_min} function. */
    public Min() {
      super("min");
    }
  }

  /** {@code swag_first(x)}: the oldest value of the frame. */
  public static final class First extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_first} function. */
    public First() {
      super("first");
    }
  }

  /** {@code swag_last(x)}: the newest value of the frame. */
  public static final class Last extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_last} function. */
    public Last() {
      super("last");
    }
  }

  /** {@code swag_stddev(x)}: sample standard deviation (swag's {@code stddev}). */
  public static final class Stddev extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_stddev} function. */
    public Stddev() {
      super("stddev");
    }
  }

  /** {@code swag_median(x)}: KLL sketch median (approximate for large frames). */
  public static final class Median extends OfDouble {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_median} function. */
    public Median() {
      super("median");
    }
  }

  /** {@code swag_quantile(x, rank)}: KLL sketch quantile; {@code rank} a constant in [0, 1]. */
  public static final class Quantile extends SwagOverFunction<Double, OverAccumulator.OfDouble> {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_quantile} function. */
    public Quantile() {
      super("quantile");
    }

    @Override
    OverAccumulator.OfDouble newAccumulator() {
      return new OverAccumulator.OfDouble();
    }

    /**
     * Adds a value to the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     * @param rank the quantile's rank, in [0, 1]
     */
    public void accumulate(OverAccumulator.OfDouble acc, Double v, Double rank) {
      if (rank == null || !(rank >= 0 && rank <= 1)) {
        throw new SwagException(Kind.INVALID_OPTION, "swag_quantile: rank must be in [0, 1], got " + rank);
      }
      if (Double.isNaN(acc.rank)) {
        acc.rank = rank; // a constant of the query: fixed by the first row, before the frame is built
      }
      add(acc, v);
    }

    /**
     * Retracts a value that leaves the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     * @param rank the quantile's rank
     */
    public void retract(OverAccumulator.OfDouble acc, Double v, Double rank) {
      remove(acc, v);
    }

    @Override
    public Double getValue(OverAccumulator.OfDouble acc) {
      Object r = query(acc);
      return r == null ? null : ((Number) r).doubleValue();
    }
  }

  /** {@code swag_distinct_count(x)}: HyperLogLog estimate of the distinct values (any type). */
  public static final class DistinctCount extends SwagOverFunction<Long, OverAccumulator.OfKey> {
    private static final long serialVersionUID = 1L;

    /** The {@code swag_distinct_count} function. */
    public DistinctCount() {
      super("hll");
    }

    @Override
    OverAccumulator.OfKey newAccumulator() {
      return new OverAccumulator.OfKey();
    }

    /**
     * Adds a string to the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void accumulate(OverAccumulator.OfKey acc, String v) {
      add(acc, v);
    }

    /**
     * Adds a BIGINT to the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void accumulate(OverAccumulator.OfKey acc, Long v) {
      if (v != null && acc.head == acc.tail) {
        acc.longs = true;
      }
      add(acc, v);
    }

    /**
     * Retracts a value that leaves the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void retract(OverAccumulator.OfKey acc, String v) {
      remove(acc, v);
    }

    /**
     * Retracts a value that leaves the frame; null is ignored.
     *
     * @param acc the accumulator
     * @param v the value
     */
    public void retract(OverAccumulator.OfKey acc, Long v) {
      remove(acc, v);
    }

    @Override
    public Long getValue(OverAccumulator.OfKey acc) {
      Object r = query(acc);
      return r == null ? 0L : Math.round(((Number) r).doubleValue());
    }
  }
}

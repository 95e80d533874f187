package io.swag.spark;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.Json;
import io.swag.core.plan.OnError;
import java.io.Serializable;
import java.util.Map;
import java.util.Set;

/**
 * Every option of the Spark connector, in one place (parsed from a small JSON object so that Python
 * and Java pass the same text):
 *
 * <ul>
 *   <li>{@code output_mode}: {@code append} (default: one final row per key and window, after its
 *       allowed lateness) or {@code update} (a row when the window's end passes, then an updated row
 *       per micro-batch that brings records inside the lateness);
 *   <li>{@code watermark_delay_ms}: if the streaming input has no watermark, add
 *       {@code withWatermark(time, delay)}; without it such an input is an error;
 *   <li>{@code on_error}: {@code reject} (default: a rejected record is counted and, with
 *       {@code late = keep}, returned with its reason) or {@code fail} (the task, and so the query,
 *       fails with the record's reason); see {@link io.swag.core.plan.OnError}.
 *   <li>{@code late}: {@code count} (default: late and rejected records are counted in the query's
 *       observed metrics and not returned) or {@code keep} (they are returned too, with
 *       {@code swag_kind} = {@code late} / {@code rejected}, the record and the reason, for a side
 *       table);
 *   <li>{@code metrics_name}: the name of the observed metrics (default {@code swag});
 *   <li>{@code cache_max_keys}: how many keys' aggregators an executor JVM keeps between
 *       micro-batches for this query (default 100,000; 0 turns the cache off). A key not cached (or
 *       dropped, least recently used first) is rebuilt from the state store with one bulk insert: the
 *       results are the same, only slower;
 *   <li>{@code preaggregate}: {@code auto} (default) or {@code off}. With {@code auto}, a streaming
 *       query whose functions are all mergeable (commutative, with a byte form of their partials:
 *       count, sum, mean, geomean, variance, stddev, min, max, mincount, maxcount, bloom, countmin,
 *       and the sketches hll, kll, quantile, median) combines the
 *       records of each key and slice (the gcd of window sizes, slides and offsets) before the
 *       shuffle ({@link SlicePreAggregator}), and keeps slices rather than records in the state
 *       store. Not with {@code late = keep} (which returns late records themselves) nor with
 *       {@code per_record} emission; late records are then counted per slice (with their number)
 *       rather than listed. Streaming and batch (back-fill) alike.
 *   <li>{@code preaggregate_slots}: (key, slice) partials a pre-aggregating task holds at most before
 *       it hands them on (default: as many as fit in 32 MB, from 64 to 65,536; 8,192 when a
 *       function keeps a sketch): bounds the map side's memory on long partitions; a slice cut by
 *       a flush leaves as two rows, combined on the other side.
 * </ul>
 */
public final class SwagSparkOptions implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Set<String> KNOWN = Set.of("output_mode", "watermark_delay_ms", "late", "metrics_name", "on_error",
      "cache_max_keys", "preaggregate", "preaggregate_slots");
  /** The default of {@code cache_max_keys}. */
  public static final int DEFAULT_CACHE_MAX_KEYS = 100_000;
  /** The most open (key, slice) partials per task by default (small primitive partials). */
  public static final int DEFAULT_PREAGGREGATE_SLOTS = 65_536;
  /** The memory a task's open partials of a fixed size may take by default. */
  public static final long PREAGGREGATE_BYTES = 32L << 20;
  /** The default for sketch partials (hll, kll: up to a few KB each), so a task holds tens of MB at most. */
  public static final int DEFAULT_PREAGGREGATE_SKETCH_SLOTS = 8_192;

  /** {@code output_mode}: {@code append} or {@code update}. */
  public final String outputMode;
  /**
   * {@code watermark_delay_ms}: the watermark delay to add to a streaming input without one, or null.
   */
  public final Long watermarkDelayMs;
  /** {@code late = keep}: late and rejected records are returned too. */
  public final boolean keepLate;
  /** {@code metrics_name}: the name of the observed metrics. */
  public final String metricsName;
  /**
   * {@code cache_max_keys}: the keys whose aggregators an executor JVM keeps between micro-batches; 0:
   * none.
   */
  public final int cacheMaxKeys;
  /** {@code preaggregate = auto}: pre-aggregate slices before the shuffle where the query allows it. */
  public final boolean preaggregate;
  /**
   * (key, slice) partials a pre-aggregating task holds at most before it hands them on; 0: the
   * default for the query's partials ({@link #DEFAULT_PREAGGREGATE_SLOTS}, or
   * {@link #DEFAULT_PREAGGREGATE_SKETCH_SLOTS} when a function keeps a sketch).
   */
  public final int preaggregateSlots;
  /** What a rejected record does ({@code on_error}: reject, the default, or fail: {@link OnError}). */
  public final OnError onError;

  private SwagSparkOptions(String outputMode, Long watermarkDelayMs, boolean keepLate, String metricsName,
      int cacheMaxKeys, boolean preaggregate, int preaggregateSlots, OnError onError) {
    this.onError = onError;
    this.preaggregate = preaggregate;
    this.preaggregateSlots = preaggregateSlots;
    this.outputMode = outputMode;
    this.watermarkDelayMs = watermarkDelayMs;
    this.keepLate = keepLate;
    this.metricsName = metricsName;
    this.cacheMaxKeys = cacheMaxKeys;
  }

  /**
   * The defaults of every option.
   *
   * @return the default options
   */
  public static SwagSparkOptions defaults() {
    return new SwagSparkOptions("append", null, false, "swag", DEFAULT_CACHE_MAX_KEYS, true, 0, OnError.REJECT);
  }

  /**
   * Parses {@code {"output_mode": ..., ...}}; null or empty: the defaults.
   *
   * @param json the options' JSON object, or null
   * @return the options
   * @throws IllegalArgumentException naming the option and value, for an unknown option or a bad value
   */
  public static SwagSparkOptions fromJson(String json) {
    if (json == null || json.isBlank()) {
      return defaults();
    }
    Object root = Json.parse(json);
    if (!(root instanceof Map<?, ?> m)) {
      throw new SwagException(Kind.INVALID_QUERY, "options: expected a JSON object, got " + json);
    }
    for (Object k : m.keySet()) {
      if (!KNOWN.contains(k)) {
        throw new SwagException(Kind.INVALID_QUERY, "options: unknown option '" + k + "' (known: " + KNOWN + ")");
      }
    }
    String mode = m.containsKey("output_mode") ? String.valueOf(m.get("output_mode")) : "append";
    if (!mode.equals("append") && !mode.equals("update")) {
      throw new SwagException(Kind.INVALID_QUERY, "options.output_mode: '" + mode + "' is not one of append, update");
    }
    Long delay = null;
    Object d = m.get("watermark_delay_ms");
    if (d != null) {
      if (!(d instanceof Number n) || n.longValue() < 0 || n.doubleValue() != n.longValue()) {
        throw new SwagException(Kind.INVALID_QUERY, "options.watermark_delay_ms: " + d + " is not a non-negative integer");
      }
      delay = n.longValue();
    }
    String late = m.containsKey("late") ? String.valueOf(m.get("late")) : "count";
    if (!late.equals("count") && !late.equals("keep")) {
      throw new SwagException(Kind.INVALID_QUERY, "options.late: '" + late + "' is not one of count, keep");
    }
    String name = m.containsKey("metrics_name") ? String.valueOf(m.get("metrics_name")) : "swag";
    int cacheMax = intOption(m, "cache_max_keys", DEFAULT_CACHE_MAX_KEYS, 0);
    int slots = intOption(m, "preaggregate_slots", 0, 1);
    String pre = m.containsKey("preaggregate") ? String.valueOf(m.get("preaggregate")) : "auto";
    if (!pre.equals("auto") && !pre.equals("off")) {
      throw new SwagException(Kind.INVALID_QUERY, "options.preaggregate: '" + pre + "' is not one of auto, off");
    }
    OnError onError = OnError.parse("options.on_error", m.get("on_error"));
    return new SwagSparkOptions(mode, delay, late.equals("keep"), name, cacheMax, pre.equals("auto"), slots, onError);
  }

  private static int intOption(Map<?, ?> m, String name, int dflt, int min) {
    Object c = m.get(name);
    if (c == null) {
      return dflt;
    }
    if (!(c instanceof Number n) || n.longValue() < min || n.doubleValue() != n.longValue() || n.longValue() > Integer.MAX_VALUE) {
      throw new SwagException(Kind.INVALID_QUERY, "options." + name + ": " + c + " is not an integer from " + min + " to " + Integer.MAX_VALUE);
    }
    return n.intValue();
  }

  /**
   * Whether each window is emitted once, after its lateness ({@code output_mode = append}).
   *
   * @return true in append mode
   */
  public boolean finalOnly() {
    return outputMode.equals("append");
  }
}

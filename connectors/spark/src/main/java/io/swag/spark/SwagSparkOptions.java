package io.swag.spark;

import io.swag.core.plan.Json;
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
 *   <li>{@code late}: {@code count} (default: late and rejected records are counted in the query's
 *       observed metrics and not returned) or {@code keep} (they are returned too, with
 *       {@code swag_kind} = {@code late} / {@code rejected}, the record and the reason, for a side
 *       table);
 *   <li>{@code metrics_name}: the name of the observed metrics (default {@code swag}).
 * </ul>
 */
public final class SwagSparkOptions implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Set<String> KNOWN = Set.of("output_mode", "watermark_delay_ms", "late", "metrics_name");

  public final String outputMode;
  public final Long watermarkDelayMs;
  public final boolean keepLate;
  public final String metricsName;

  private SwagSparkOptions(String outputMode, Long watermarkDelayMs, boolean keepLate, String metricsName) {
    this.outputMode = outputMode;
    this.watermarkDelayMs = watermarkDelayMs;
    this.keepLate = keepLate;
    this.metricsName = metricsName;
  }

  public static SwagSparkOptions defaults() {
    return new SwagSparkOptions("append", null, false, "swag");
  }

  /** Parses {@code {"output_mode": ..., ...}}; null or empty: the defaults. */
  public static SwagSparkOptions fromJson(String json) {
    if (json == null || json.isBlank()) {
      return defaults();
    }
    Object root = Json.parse(json);
    if (!(root instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("options: expected a JSON object, got " + json);
    }
    for (Object k : m.keySet()) {
      if (!KNOWN.contains(k)) {
        throw new IllegalArgumentException("options: unknown option '" + k + "' (known: " + KNOWN + ")");
      }
    }
    String mode = m.containsKey("output_mode") ? String.valueOf(m.get("output_mode")) : "append";
    if (!mode.equals("append") && !mode.equals("update")) {
      throw new IllegalArgumentException("options.output_mode: '" + mode + "' is not one of append, update");
    }
    Long delay = null;
    Object d = m.get("watermark_delay_ms");
    if (d != null) {
      if (!(d instanceof Number n) || n.longValue() < 0 || n.doubleValue() != n.longValue()) {
        throw new IllegalArgumentException("options.watermark_delay_ms: " + d + " is not a non-negative integer");
      }
      delay = n.longValue();
    }
    String late = m.containsKey("late") ? String.valueOf(m.get("late")) : "count";
    if (!late.equals("count") && !late.equals("keep")) {
      throw new IllegalArgumentException("options.late: '" + late + "' is not one of count, keep");
    }
    String name = m.containsKey("metrics_name") ? String.valueOf(m.get("metrics_name")) : "swag";
    return new SwagSparkOptions(mode, delay, late.equals("keep"), name);
  }

  public boolean finalOnly() {
    return outputMode.equals("append");
  }
}

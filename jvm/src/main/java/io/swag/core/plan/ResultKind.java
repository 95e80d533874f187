package io.swag.core.plan;

/**
 * The kind of value an output column holds, one per function ({@link AggregateSpec#resultKind}), which
 * each engine maps to its own type (docs/query-spec.md, "Output columns"):
 *
 * <ul>
 *   <li>{@code LONG}: {@code count}, a user function declaring LONG. Spark {@code LongType}, Flink
 *       {@code BIGINT} / {@code Long}, Python {@code int}.
 *   <li>{@code DOUBLE}: sums, means, extremes, first/last, spreads, {@code hll}, quantiles, {@code kll}
 *       with a rank. Spark {@code DoubleType}, Flink {@code DOUBLE}, Python {@code float}.
 *   <li>{@code TIME}: {@code argmin}, {@code argmax}, and {@code window_start}/{@code window_end} of time
 *       windows: the engine's event-time type. Spark: {@code TimestampType} if the time column is a
 *       timestamp, else {@code LongType} epoch ms; Flink: epoch ms {@code BIGINT}; local: epoch ms.
 *   <li>{@code LIST}: {@code collect}: an array of the input's values (strings and booleans as they are,
 *       numbers as doubles).
 *   <li>{@code STRUCT}: {@code m4}, {@code mincount}, {@code maxcount}, {@code bloom}, {@code countmin},
 *       {@code kll} without a rank: named fields ({@link io.swag.core.fn.Structured}). Spark: their JSON
 *       text ({@link #text}, {@code StringType}); Flink: the same JSON text ({@code STRING}); Python: a dict.
 *   <li>{@code STRING}, {@code BOOLEAN}: a user function declaring them.
 * </ul>
 */
public enum ResultKind {
  /** An integer ({@code Long}). */
  LONG,
  /** A floating-point number ({@code Double}). */
  DOUBLE,
  /** A time (epoch ms). */
  TIME,
  /** A list of values. */
  LIST,
  /** A structure of named fields. */
  STRUCT,
  /** A string. */
  STRING,
  /** A boolean. */
  BOOLEAN;

  /**
   * The text form of a {@code STRUCT} or {@code LIST} result where an engine emits text: JSON, a
   * structure as the object of its named fields ({@link io.swag.core.fn.Structured#toMap}), a list
   * as an array; a NaN or infinite number as null, which JSON lacks. Any other value: its
   * {@code String.valueOf}.
   *
   * @param value a {@code STRUCT} or {@code LIST} result
   * @return the JSON text
   */
  public static String text(Object value) {
    if (!(value instanceof io.swag.core.fn.Structured) && !(value instanceof java.util.List)) {
      return String.valueOf(value);
    }
    return Json.write(plain(value));
  }

  private static Object plain(Object v) {
    if (v instanceof io.swag.core.fn.Structured s) {
      v = s.toMap();
    }
    if (v instanceof java.util.Map<?, ?> m) {
      java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
      for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
        r.put(String.valueOf(e.getKey()), plain(e.getValue()));
      }
      return r;
    }
    if (v instanceof java.util.List<?> l) {
      java.util.List<Object> r = new java.util.ArrayList<>(l.size());
      for (Object x : l) {
        r.add(plain(x));
      }
      return r;
    }
    if ((v instanceof Double || v instanceof Float) && !Double.isFinite(((Number) v).doubleValue())) {
      return null;
    }
    return v;
  }
}

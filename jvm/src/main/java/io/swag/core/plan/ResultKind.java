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
 *       text ({@code StringType}); Flink: the Java object; Python: a dict.
 *   <li>{@code STRING}, {@code BOOLEAN}: a user function declaring them.
 * </ul>
 */
public enum ResultKind {
  LONG,
  DOUBLE,
  TIME,
  LIST,
  STRUCT,
  STRING,
  BOOLEAN
}

package io.swag.core;

/**
 * The kind of value an aggregate's result column holds, as the engines type it: {@code DOUBLE}
 * (Spark {@code DoubleType}, Flink {@code DOUBLE}), {@code LONG} ({@code LongType}, {@code BIGINT}),
 * {@code STRING} ({@code StringType}, {@code STRING}), {@code BOOLEAN}. A user-defined function
 * declares it ({@link AggregateFunction#resultType}); its results are converted to it by
 * {@link #convert}.
 */
public enum ResultType {
  /** A double ({@code DoubleType}, {@code DOUBLE}). */
  DOUBLE,
  /** A long ({@code LongType}, {@code BIGINT}). */
  LONG,
  /** A string ({@code StringType}, {@code STRING}). */
  STRING,
  /** A boolean ({@code BooleanType}, {@code BOOLEAN}). */
  BOOLEAN;

  /**
   * {@code value} as this kind: a {@link Number} as {@code Double}/{@code Long}, anything as its
   * {@code String.valueOf} text, a {@link Boolean} as itself; null stays null.
   *
   * @param value the value to convert, or null
   * @return {@code value} as this kind, or null
   * @throws IllegalArgumentException naming the value if it cannot be converted
   */
  public Object convert(Object value) {
    if (value == null) {
      return null;
    }
    switch (this) {
      case DOUBLE -> {
        if (value instanceof Number n) {
          return n.doubleValue();
        }
      }
      case LONG -> {
        if (value instanceof Number n) {
          return n.longValue();
        }
      }
      case STRING -> {
        return String.valueOf(value);
      }
      case BOOLEAN -> {
        if (value instanceof Boolean) {
          return value;
        }
      }
      default -> throw new AssertionError(this);
    }
    throw new IllegalArgumentException("a result of type " + name() + " cannot hold " + Inputs.describe(value));
  }
}

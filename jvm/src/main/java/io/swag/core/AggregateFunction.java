package io.swag.core;

/**
 * An aggregation in the lift / combine / lower form of the papers (Tangwongsan et al., VLDB 2015,
 * Table 1): {@code lift} turns one input into a partial aggregate, {@code combine} is an
 * associative operator with identity {@link #identity()}, and {@code lower} turns a partial
 * aggregate into the result.
 *
 * <p>{@code combine} need not be commutative nor invertible; every swag algorithm calls it with the
 * older partial on the left. Partials are treated as immutable values: {@code combine} must return a
 * new partial (or one of its arguments unchanged) and never modify its arguments.
 *
 * <p>This generic form boxes. The built-in numeric functions also provide a primitive store
 * ({@link #newPartials()}) so that the aggregators run on {@code double[]}/{@code long[]} without
 * allocating per record.
 *
 * @param <IN> input type
 * @param <ACC> partial aggregate type
 * @param <OUT> result type
 */
public interface AggregateFunction<IN, ACC, OUT> {

  /**
   * Short name, e.g. {@code "max"}; the name used by {@link io.swag.core.fn.Functions#byName}.
   *
   * @return the function's name
   */
  String name();

  /**
   * The identity element: {@code combine(identity(), x) == combine(x, identity()) == x}.
   *
   * @return the identity partial
   */
  ACC identity();

  /**
   * The partial aggregate of a single input. {@code arg} is the input's time or sequence number.
   *
   * @param value the input value
   * @param arg the input's time or sequence number
   * @return the partial aggregate of {@code value}
   */
  ACC lift(IN value, long arg);

  /**
   * Associative: {@code combine(combine(a, b), c) == combine(a, combine(b, c))}; {@code a} is older.
   *
   * @param older the partial of the older inputs
   * @param newer the partial of the newer inputs
   * @return the partial of both, older first
   */
  ACC combine(ACC older, ACC newer);

  /**
   * The result of a partial aggregate.
   *
   * @param partial a partial aggregate
   * @return the result of {@code partial}
   */
  OUT lower(ACC partial);

  /**
   * Whether {@code combine(a, b) == combine(b, a)} for all partials.
   *
   * @return true if the function is commutative
   */
  default boolean isCommutative() {
    return false;
  }

  /**
   * Whether {@link #inverse} is supported.
   *
   * @return true if {@link #inverse} is supported
   */
  default boolean isInvertible() {
    return false;
  }

  /**
   * For invertible functions: {@code inverse(combine(a, b), a) == b} (removes the older part
   * {@code a}).
   *
   * @param whole the partial of {@code a} followed by {@code b}
   * @param older the partial {@code a} to remove
   * @return the partial {@code b}
   */
  default ACC inverse(ACC whole, ACC older) {
    throw new UnsupportedOperationException("function '" + name() + "' is not invertible");
  }

  /**
   * Relative cost of one combine, used by the planner (1 = a few machine instructions).
   *
   * @return the relative cost of one combine
   */
  default int combineCost() {
    return 10;
  }

  /**
   * The type of {@link #lower}'s results as the engines' output columns hold them. Read for
   * user-defined functions (function {@code udaf} of a query, {@link io.swag.core.fn.UserFunctions}),
   * whose results are converted to it; the built-in functions' column types are the engines'.
   *
   * @return the result type of {@link #lower}
   */
  default ResultType resultType() {
    return ResultType.STRING;
  }

  /**
   * A store of partial aggregates for this function, addressed by slot. The default boxes every
   * partial as an object; built-in numeric functions override it with primitive stores.
   *
   * @return a new, empty store of partials
   */
  default Partials newPartials() {
    return new ObjectPartials<>(this);
  }
}

package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.Functions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One aggregate of a window: {@code output} column = {@code function}({@code column}) with
 * {@code options}. Immutable value; options are kept sorted by name (canonical JSON). Validation
 * is done by {@link QuerySpec} (it knows the field path).
 */
public final class AggregateSpec {
  private final String output;
  private final String function;
  private final String column;
  private final Map<String, Object> options;

  /**
   * {@code column} may be null only for {@code count}; {@code options} may be null (none).
   *
   * @param output the output column's name
   * @param function the function name
   * @param column the input column, or null
   * @param options the function options, or null
   */
  public AggregateSpec(String output, String function, String column, Map<String, ?> options) {
    this.output = output;
    this.function = function == null ? null : function.trim().toLowerCase(java.util.Locale.ROOT);
    this.column = column;
    this.options = Collections.unmodifiableMap(new TreeMap<>(options == null ? Map.of() : options));
  }

  /**
   * {@code output = function(column)} without options.
   *
   * @param output the output column's name
   * @param function the function name
   * @param column the input column, or null
   * @return the aggregate
   */
  public static AggregateSpec of(String output, String function, String column) {
    return new AggregateSpec(output, function, column, null);
  }

  /**
   * The output column's name.
   *
   * @return the name
   */
  public String output() {
    return output;
  }

  /**
   * The function name, lower case as given (an alias such as {@code avg} stays an alias).
   *
   * @return the function name
   */
  public String function() {
    return function;
  }

  /**
   * The input column, or null (count of records).
   *
   * @return the input column, or null
   */
  public String column() {
    return column;
  }

  /**
   * Function options, sorted by name.
   *
   * @return the options, by name
   */
  public Map<String, Object> options() {
    return options;
  }

  /**
   * A new instance of the function (O(1), or the sketch's setup).
   *
   * @return a new function
   */
  public AggregateFunction<?, ?, ?> create() {
    if (io.swag.core.fn.UserFunctions.FUNCTION.equals(function)) {
      return io.swag.core.fn.UserFunctions.load(options, column);
    }
    return Functions.byName(function, options);
  }

  /**
   * The kind of value the function's output column holds (one rule for every engine:
   * {@link ResultKind}).
   *
   * @return the result kind
   */
  public ResultKind resultKind() {
    return switch (function) {
      case "count" -> ResultKind.LONG;
      case "argmin", "argmax" -> ResultKind.TIME;
      case "collect" -> ResultKind.LIST;
      case "sum", "mean", "avg", "geomean", "stddev", "variance", "min", "max", "first", "last", "hll", "median",
          "quantile" -> ResultKind.DOUBLE;
      case "kll" -> options.containsKey("rank") ? ResultKind.DOUBLE : ResultKind.STRUCT;
      case io.swag.core.fn.UserFunctions.FUNCTION -> switch (create().resultType()) {
        case DOUBLE -> ResultKind.DOUBLE;
        case LONG -> ResultKind.LONG;
        case BOOLEAN -> ResultKind.BOOLEAN;
        case STRING -> ResultKind.STRING;
      };
      case "m4", "mincount", "maxcount", "bloom", "countmin" -> ResultKind.STRUCT;
      default -> throw new IllegalArgumentException("function '" + function + "' is not one of "
          + Functions.names());
    };
  }

  /** Identity of the computation, ignoring the output name: aggregates with equal keys are computed once. */
  String computationKey() {
    return function + "(" + column + ")" + Json.write(options);
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("output", output);
    m.put("function", function);
    m.put("column", column);
    m.put("options", new LinkedHashMap<>(options));
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AggregateSpec a && Objects.equals(output, a.output) && Objects.equals(function, a.function)
        && Objects.equals(column, a.column) && Json.write(options).equals(Json.write(a.options));
  }

  @Override
  public int hashCode() {
    return Objects.hash(output, function, column, Json.write(options));
  }

  @Override
  public String toString() {
    return Json.write(toMap());
  }
}

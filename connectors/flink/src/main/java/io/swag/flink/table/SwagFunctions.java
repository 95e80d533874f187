package io.swag.flink.table;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.functions.UserDefinedFunction;

/**
 * Registers swag's SQL functions in a {@link TableEnvironment} (also called by PyFlink's
 * {@code swag.flink.register_functions(t_env)}): the OVER aggregates with retraction
 * {@code swag_max, swag_min, swag_first, swag_last, swag_stddev, swag_median, swag_quantile,
 * swag_distinct_count}, and the process table function {@code swag_window} ({@link SwagWindowFunction}).
 */
public final class SwagFunctions {
  private SwagFunctions() {}

  /**
   * The functions by SQL name.
   *
   * @return the functions
   */
  public static Map<String, UserDefinedFunction> all() {
    Map<String, UserDefinedFunction> m = new LinkedHashMap<>();
    m.put("swag_max", new SwagOverFunction.Max());
    m.put("swag_min", new SwagOverFunction.Min());
    m.put("swag_first", new SwagOverFunction.First());
    m.put("swag_last", new SwagOverFunction.Last());
    m.put("swag_stddev", new SwagOverFunction.Stddev());
    m.put("swag_median", new SwagOverFunction.Median());
    m.put("swag_quantile", new SwagOverFunction.Quantile());
    m.put("swag_distinct_count", new SwagOverFunction.DistinctCount());
    m.put("swag_window", new SwagWindowFunction());
    return m;
  }

  /**
   * Registers every function as a temporary system function; returns their names.
   *
   * @param tEnv the table environment
   * @return the registered names
   */
  public static String[] register(TableEnvironment tEnv) {
    Map<String, UserDefinedFunction> m = all();
    for (Map.Entry<String, UserDefinedFunction> e : m.entrySet()) {
      tEnv.createTemporarySystemFunction(e.getKey(), e.getValue());
    }
    return m.keySet().toArray(new String[0]);
  }
}

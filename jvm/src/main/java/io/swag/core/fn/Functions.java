package io.swag.core.fn;

import io.swag.core.AggregateFunction;
import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The built-in aggregate functions by short name. Names are case-insensitive; options are passed
 * as a map (e.g. {@code bloom: bits, hashes}; {@code countmin: width, depth}; {@code hll: lgK};
 * {@code kll: k, rank}). {@code quantile} and {@code median} are {@code kll} with a rank.
 */
public final class Functions {
  private Functions() {}

  private static final List<String> NAMES = List.of("sum", "count", "mean", "geomean", "stddev", "variance",
      "min", "max", "argmin", "argmax", "mincount", "maxcount", "first", "last", "collect", "m4", "bloom",
      "countmin", "hll", "kll", "quantile", "median", UserFunctions.FUNCTION);

  /**
   * All names accepted by {@link #byName}.
   *
   * @return the names
   */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * The function called {@code name}, with default options.
   *
   * @param name the function's name
   * @return a new function
   */
  public static AggregateFunction<?, ?, ?> byName(String name) {
    return byName(name, Collections.emptyMap());
  }

  /**
   * The function called {@code name}, configured by {@code options}.
   *
   * @param name the function's name
   * @param options the function's options, or null
   * @return a new function
   */
  public static AggregateFunction<?, ?, ?> byName(String name, Map<String, ?> options) {
    if (name == null) {
      throw new SwagException(Kind.UNKNOWN_FUNCTION, "function name is null; known functions: " + NAMES);
    }
    Map<String, ?> o = options == null ? Collections.emptyMap() : options;
    String n = name.trim().toLowerCase(java.util.Locale.ROOT);
    if (n.equals(UserFunctions.FUNCTION)) {
      return UserFunctions.load(o, null);
    }
    Set<String> allowed = new TreeSet<>();
    AggregateFunction<?, ?, ?> f;
    switch (n) {
      case "sum" -> f = new Sum();
      case "count" -> f = new Count();
      case "mean", "avg" -> f = new Mean(false);
      case "geomean" -> f = new Mean(true);
      case "stddev" -> f = new Variance(true);
      case "variance" -> f = new Variance(false);
      case "min" -> f = new MinMax(false);
      case "max" -> f = new MinMax(true);
      case "argmin" -> f = new ArgMinMax(false);
      case "argmax" -> f = new ArgMinMax(true);
      case "mincount" -> f = new MinMaxCount(false);
      case "maxcount" -> f = new MinMaxCount(true);
      case "first" -> f = new FirstLast(false);
      case "last" -> f = new FirstLast(true);
      case "collect" -> f = new Collect();
      case "m4" -> f = new M4();
      case "bloom" -> {
        allowed.addAll(List.of("bits", "hashes"));
        f = new Bloom(intOpt(n, o, "bits", Bloom.DEFAULT_BITS), intOpt(n, o, "hashes", Bloom.DEFAULT_HASHES));
      }
      case "countmin" -> {
        allowed.addAll(List.of("width", "depth"));
        f = new CountMin(intOpt(n, o, "width", 128), intOpt(n, o, "depth", 3));
      }
      case "hll" -> {
        allowed.add("lgK");
        f = new Hll(intOpt(n, o, "lgK", 12));
      }
      case "kll", "quantile", "median" -> {
        allowed.addAll(List.of("k", "rank"));
        double def = n.equals("median") ? 0.5 : Double.NaN;
        double rank = doubleOpt(n, o, "rank", def);
        if (n.equals("quantile") && Double.isNaN(rank)) {
          throw new SwagException(Kind.INVALID_OPTION, "function 'quantile' needs option 'rank' in [0, 1]");
        }
        f = new Kll(intOpt(n, o, "k", 200), rank);
      }
      default -> throw new SwagException(Kind.UNKNOWN_FUNCTION,
          "unknown aggregate function '" + name + "'; known functions: " + String.join(", ", NAMES));
    }
    for (String key : o.keySet()) {
      if (!allowed.contains(key)) {
        throw new SwagException(Kind.INVALID_OPTION, "function '" + n + "' has no option '" + key + "'"
            + (allowed.isEmpty() ? " (it takes no options)" : "; options: " + allowed));
      }
    }
    return f;
  }

  private static int intOpt(String fn, Map<String, ?> o, String key, int def) {
    Object v = o.get(key);
    if (v == null) {
      return def;
    }
    if (v instanceof Number num && num.doubleValue() == Math.rint(num.doubleValue())) {
      return num.intValue();
    }
    if (v instanceof String s) {
      try {
        return Integer.parseInt(s.trim());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new SwagException(Kind.INVALID_OPTION, "function '" + fn + "' option '" + key + "' must be an integer, got "
        + io.swag.core.Inputs.describe(v));
  }

  private static double doubleOpt(String fn, Map<String, ?> o, String key, double def) {
    Object v = o.get(key);
    if (v == null) {
      return def;
    }
    if (v instanceof Number num) {
      return num.doubleValue();
    }
    if (v instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new SwagException(Kind.INVALID_OPTION, "function '" + fn + "' option '" + key + "' must be a number, got "
        + io.swag.core.Inputs.describe(v));
  }
}

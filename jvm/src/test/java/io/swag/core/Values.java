package io.swag.core;

import java.util.SplittableRandom;

/** Random input values suited to each function, chosen so that exact comparisons are meaningful. */
public final class Values {
  private Values() {}

  /**
   * A value for {@code function}: small integers as doubles (sums stay exact under any
   * association), a narrow range for min/max-like functions (so ties happen), positive numbers for
   * geomean, strings for collect/hll/bloom now and then.
   */
  public static Object next(String function, SplittableRandom r, long seq) {
    switch (function) {
      case "argmin", "argmax", "mincount", "maxcount", "min", "max", "first", "last", "m4":
        return (double) (r.nextInt(41) - 20);
      case "geomean":
        return 0.5 + r.nextInt(100) / 10.0;
      case "collect":
        return r.nextInt(4) == 0 ? (Object) ("s" + seq) : (Object) (long) r.nextInt(1000);
      case "hll", "bloom", "countmin":
        return r.nextInt(3) == 0 ? (Object) ("k" + r.nextInt(500)) : (Object) (long) r.nextInt(2000);
      default:
        return (double) (r.nextInt(2001) - 1000);
    }
  }
}

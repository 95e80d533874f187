package io.swag.core.fn;

import io.swag.core.LongFunction;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The minimum ({@code max = false}) or maximum together with how many times it occurs (the papers'
 * "maxcount"). Partial: (value as double bits, count) in two longs. Commutative. Result:
 * {@link MinMaxCount.Result}, or null for an empty window.
 */
public final class MinMaxCount extends LongFunction {

  /** The extreme value and its multiplicity. */
  public record Result(double value, long count) implements Structured {
    @Override
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("value", value);
      m.put("count", count);
      return m;
    }
  }

  private final boolean max;

  /**
   * The minimum or the maximum with its count.
   *
   * @param max true for {@code maxcount}, false for {@code mincount}
   */
  public MinMaxCount(boolean max) {
    super(max ? "maxcount" : "mincount", 2);
    this.max = max;
  }

  @Override
  public void identity(long[] a, int o) {
    a[o] = 0;
    a[o + 1] = 0;
  }

  @Override
  public void liftDouble(double x, long arg, long[] a, int o) {
    a[o] = Double.doubleToRawLongBits(x == 0.0 ? 0.0 : x); // -0.0 and 0.0 are one value
    a[o + 1] = 1;
  }

  @Override
  public void liftLong(long x, long arg, long[] a, int o) {
    liftDouble((double) x, arg, a, o);
  }

  @Override
  public void combine(long[] a, int dst, int older, int newer) {
    long cx = a[older + 1], cy = a[newer + 1];
    long v;
    long c;
    if (cy == 0) {
      v = a[older];
      c = cx;
    } else if (cx == 0) {
      v = a[newer];
      c = cy;
    } else {
      double x = Double.longBitsToDouble(a[older]);
      double y = Double.longBitsToDouble(a[newer]);
      if (x == y) {
        v = a[older];
        c = cx + cy;
      } else if (max ? y > x : y < x) {
        v = a[newer];
        c = cy;
      } else {
        v = a[older];
        c = cx;
      }
    }
    a[dst] = v;
    a[dst + 1] = c;
  }

  @Override
  public Object lower(long[] a, int o) {
    return a[o + 1] == 0 ? null : new Result(Double.longBitsToDouble(a[o]), a[o + 1]);
  }

  @Override
  public double lowerDouble(long[] a, int o) {
    return a[o + 1] == 0 ? Double.NaN : Double.longBitsToDouble(a[o]);
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public int combineCost() {
    return 1;
  }
}

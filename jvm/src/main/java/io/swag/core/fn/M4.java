package io.swag.core.fn;

import io.swag.core.DoubleFunction;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * M4 (first, last, min, max), the visualization-oriented aggregate. Not commutative. Partial: four
 * doubles, NaN meaning "empty". Result: {@link M4.Result}, or null for an empty window. first and
 * last are the inputs as given; min and max are those of {@link MinMax} (-0.0 and 0.0 are one
 * value, a zero min or max is 0.0).
 */
public final class M4 extends DoubleFunction {

  /** The four values of an M4 aggregate. */
  public record Result(double first, double last, double min, double max) implements Structured {
    @Override
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("first", first);
      m.put("last", last);
      m.put("min", min);
      m.put("max", max);
      return m;
    }
  }

  /** The M4 function. */
  public M4() {
    super("m4", 4);
  }

  @Override
  public void identity(double[] a, int o) {
    a[o] = Double.NaN;
    a[o + 1] = Double.NaN;
    a[o + 2] = Double.NaN;
    a[o + 3] = Double.NaN;
  }

  @Override
  public void lift(double x, long arg, double[] a, int o) {
    a[o] = x;
    a[o + 1] = x;
    a[o + 2] = x + 0.0; // as in MinMax: -0.0 counts as 0.0
    a[o + 3] = x + 0.0;
  }

  @Override
  public void combine(double[] a, int dst, int older, int newer) {
    if (a[newer] != a[newer]) {
      if (dst != older) {
        System.arraycopy(a, older, a, dst, 4);
      }
      return;
    }
    if (a[older] != a[older]) {
      if (dst != newer) {
        System.arraycopy(a, newer, a, dst, 4);
      }
      return;
    }
    double f = a[older], l = a[newer + 1];
    double mn = Math.min(a[older + 2], a[newer + 2]);
    double mx = Math.max(a[older + 3], a[newer + 3]);
    a[dst] = f;
    a[dst + 1] = l;
    a[dst + 2] = mn;
    a[dst + 3] = mx;
  }

  @Override
  public Object lower(double[] a, int o) {
    return a[o] != a[o] ? null : new Result(a[o], a[o + 1], a[o + 2], a[o + 3]);
  }

  @Override
  public int combineCost() {
    return 3;
  }
}

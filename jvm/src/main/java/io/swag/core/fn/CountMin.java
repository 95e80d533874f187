package io.swag.core.fn;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.LongFunction;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Count-min sketch of item frequencies: {@code depth} rows of {@code width} counters (defaults 3 x
 * 128), stored flat in the aggregator's {@code long[]}. DataSketches has a count-min sketch only in
 * releases that need Java 21+, so this one is built in. Combine is element-wise addition, so it is
 * commutative and invertible. Result: {@link CountMin.Sketch}.
 */
public final class CountMin extends LongFunction {
  private final int cmWidth;
  private final int depth;

  /** A count-min result: frequency estimates (never below the true count). */
  public static final class Sketch implements Structured {
    private final long[] c;
    private final int width;
    private final int depth;

    Sketch(long[] c, int width, int depth) {
      this.c = c;
      this.width = width;
      this.depth = depth;
    }

    /**
     * The estimated count of an item (never below the true count).
     *
     * @param item the item
     * @return the estimate
     */
    public long estimate(Object item) {
      return est(Hashing.hashObject("countmin", item));
    }

    /**
     * The estimated count of a long item (never below the true count).
     *
     * @param item the item
     * @return the estimate
     */
    public long estimateLong(long item) {
      return est(Hashing.hashLong(item));
    }

    private long est(long h) {
      long best = Long.MAX_VALUE;
      for (int r = 0; r < depth; r++) {
        best = Math.min(best, c[r * width + index(h, r, width)]);
      }
      return best;
    }

    /**
     * Total count of items (exact).
     *
     * @return the number of items
     */
    public long total() {
      long t = 0;
      for (int i = 0; i < width; i++) {
        t += c[i];
      }
      return t;
    }

    @Override
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("width", width);
      m.put("depth", depth);
      m.put("total", total());
      return m;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Sketch s && Arrays.equals(s.c, c);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(c);
    }
  }

  /**
   * A sketch of {@code depth} rows of {@code width} counters.
   *
   * @param width counters per row
   * @param depth the number of rows
   */
  public CountMin(int width, int depth) {
    super("countmin", checked(width, depth));
    this.cmWidth = width;
    this.depth = depth;
  }

  private static int checked(int width, int depth) {
    if (width < 1 || width > 1 << 16) {
      throw new SwagException(Kind.INVALID_OPTION, "countmin option 'width' must be in 1..65536, got " + width);
    }
    if (depth < 1 || depth > 16) {
      throw new SwagException(Kind.INVALID_OPTION, "countmin option 'depth' must be in 1..16, got " + depth);
    }
    return width * depth;
  }

  static int index(long h, int row, int width) {
    long x = h + row * 0x9E3779B97F4A7C15L;
    x ^= x >>> 31;
    x *= 0xBF58476D1CE4E5B9L;
    x ^= x >>> 29;
    return (int) Long.remainderUnsigned(x, width);
  }

  @Override
  public void identity(long[] a, int o) {
    Arrays.fill(a, o, o + width(), 0L);
  }

  private void set(long h, long[] a, int o) {
    Arrays.fill(a, o, o + width(), 0L);
    for (int r = 0; r < depth; r++) {
      a[o + r * cmWidth + index(h, r, cmWidth)] = 1;
    }
  }

  @Override
  public void liftDouble(double x, long arg, long[] a, int o) {
    set(Hashing.hashDouble(x), a, o);
  }

  @Override
  public void liftLong(long x, long arg, long[] a, int o) {
    set(Hashing.hashLong(x), a, o);
  }

  @Override
  public void liftObject(Object x, long arg, long[] a, int o) {
    set(Hashing.hashObject("countmin", x), a, o);
  }

  @Override
  public void combine(long[] a, int dst, int older, int newer) {
    int w = width();
    for (int i = 0; i < w; i++) {
      a[dst + i] = a[older + i] + a[newer + i];
    }
  }

  @Override
  public void inverse(long[] a, int dst, int whole, int older) {
    int w = width();
    for (int i = 0; i < w; i++) {
      a[dst + i] = a[whole + i] - a[older + i];
    }
  }

  @Override
  public Object lower(long[] a, int o) {
    return new Sketch(Arrays.copyOfRange(a, o, o + width()), cmWidth, depth);
  }

  @Override
  public double lowerDouble(long[] a, int o) {
    return ((Sketch) lower(a, o)).total();
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public boolean isInvertible() {
    return true;
  }
}

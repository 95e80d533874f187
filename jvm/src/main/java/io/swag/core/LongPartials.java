package io.swag.core;

import java.util.Arrays;

/** {@link Partials} of a {@link LongFunction}: {@code width} longs per slot in one array. */
public final class LongPartials extends Partials {
  private final LongFunction f;
  private final int w;
  private long[] a = new long[0];
  private int slots;

  /**
   * A store of {@code f}'s partials as longs, {@code f.width()} per slot.
   *
   * @param f the function whose partials it holds
   */
  public LongPartials(LongFunction f) {
    this.f = f;
    this.w = f.width();
  }

  @Override
  public int capacity() {
    return slots;
  }

  @Override
  public void resize(int n) {
    a = Arrays.copyOf(a, Math.multiplyExact(n, w));
    for (int s = slots; s < n; s++) {
      f.identity(a, s * w);
    }
    slots = n;
  }

  @Override
  public void combine(int dst, int older, int newer) {
    f.combine(a, dst * w, older * w, newer * w);
  }

  @Override
  public void copy(int dst, int src) {
    if (w == 1) {
      a[dst] = a[src];
    } else {
      copyWide(dst, src);
    }
  }

  private void copyWide(int dst, int src) {
    System.arraycopy(a, src * w, a, dst * w, w);
  }

  @Override
  public void setIdentity(int dst) {
    f.identity(a, dst * w);
  }

  @Override
  public void inverse(int dst, int whole, int older) {
    f.inverse(a, dst * w, whole * w, older * w);
  }

  @Override
  public void liftDouble(int dst, double value, long arg) {
    if (value != value) {
      throw Inputs.nan(f.name());
    }
    f.liftDouble(value, arg, a, dst * w);
  }

  @Override
  public void liftLong(int dst, long value, long arg) {
    f.liftLong(value, arg, a, dst * w);
  }

  @Override
  public void liftObject(int dst, Object value, long arg) {
    if (value instanceof Double || value instanceof Float) {
      liftDouble(dst, ((Number) value).doubleValue(), arg);
    } else {
      f.liftObject(value, arg, a, dst * w);
    }
  }

  @Override
  public Object lower(int src) {
    return f.lower(a, src * w);
  }

  @Override
  public double lowerDouble(int src) {
    return f.lowerDouble(a, src * w);
  }

  @Override
  public int serializedSize() {
    return 8 * w;
  }

  @Override
  public void write(int src, java.nio.ByteBuffer out) {
    for (int i = src * w, e = i + w; i < e; i++) {
      out.putLong(a[i]);
    }
  }

  @Override
  public void read(int dst, java.nio.ByteBuffer in) {
    for (int i = dst * w, e = i + w; i < e; i++) {
      a[i] = in.getLong();
    }
  }

  @Override
  public Object partial(int src) {
    return Arrays.copyOfRange(a, src * w, src * w + w);
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return f;
  }
}

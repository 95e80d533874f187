package io.swag.core;

import java.util.Arrays;

/** {@link Partials} of a {@link DoubleFunction}: {@code width} doubles per slot in one array. */
public final class DoublePartials extends Partials {
  private final DoubleFunction f;
  private final int w;
  private double[] a = new double[0];
  private int slots;

  /**
   * A store of {@code f}'s partials as doubles, {@code f.width()} per slot.
   *
   * @param f the function whose partials it holds
   */
  public DoublePartials(DoubleFunction f) {
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
    f.lift(f.checkInput(value), arg, a, dst * w);
  }

  @Override
  public void liftLong(int dst, long value, long arg) {
    f.lift((double) value, arg, a, dst * w);
  }

  @Override
  public void liftObject(int dst, Object value, long arg) {
    f.liftObject(value, arg, a, dst * w);
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
      out.putDouble(a[i]);
    }
  }

  @Override
  public void read(int dst, java.nio.ByteBuffer in) {
    for (int i = dst * w, e = i + w; i < e; i++) {
      a[i] = in.getDouble();
    }
  }

  @Override
  public Object partial(int src) {
    return Arrays.copyOfRange(a, src * w, src * w + w);
  }

  /**
   * The backing array, slot {@code s} at {@code [s * width, s * width + width)}, for a caller that
   * runs the function's kernels on it directly (a typed path without the store's index arithmetic).
   * Valid until the next {@link #resize}, which may replace it.
   *
   * @return the backing array
   */
  public double[] array() {
    return a;
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return f;
  }
}

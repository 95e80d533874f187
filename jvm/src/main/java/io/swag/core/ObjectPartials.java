package io.swag.core;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * {@link Partials} for any {@link AggregateFunction}: one object per slot. If the function
 * implements {@link ByteForm}, a slot's byte form is its length (an int) and then the function's
 * bytes; otherwise the store has no byte form.
 */
public final class ObjectPartials<IN, ACC, OUT> extends Partials {
  private final AggregateFunction<IN, ACC, OUT> fn;
  private final ACC identity;
  private Object[] a = new Object[0];

  /**
   * A store that boxes each partial of {@code fn} as an object.
   *
   * @param fn the function whose partials it holds
   */
  public ObjectPartials(AggregateFunction<IN, ACC, OUT> fn) {
    this.fn = fn;
    this.identity = fn.identity();
  }

  @Override
  public int capacity() {
    return a.length;
  }

  @Override
  public void resize(int slots) {
    int old = a.length;
    a = Arrays.copyOf(a, slots);
    if (slots > old) {
      Arrays.fill(a, old, slots, identity);
    }
  }

  @SuppressWarnings("unchecked")
  @Override
  public void combine(int dst, int older, int newer) {
    a[dst] = fn.combine((ACC) a[older], (ACC) a[newer]);
  }

  @Override
  public void copy(int dst, int src) {
    a[dst] = a[src];
  }

  @Override
  public void setIdentity(int dst) {
    a[dst] = identity;
  }

  @Override
  public void release(int dst) {
    a[dst] = identity;
  }

  @SuppressWarnings("unchecked")
  @Override
  public void inverse(int dst, int whole, int older) {
    a[dst] = fn.inverse((ACC) a[whole], (ACC) a[older]);
  }

  @Override
  public void liftDouble(int dst, double value, long arg) {
    liftObject(dst, value, arg);
  }

  @Override
  public void liftLong(int dst, long value, long arg) {
    liftObject(dst, value, arg);
  }

  @SuppressWarnings("unchecked")
  @Override
  public void liftObject(int dst, Object value, long arg) {
    a[dst] = fn.lift((IN) value, arg);
  }

  @SuppressWarnings("unchecked")
  @Override
  public Object lower(int src) {
    return fn.lower((ACC) a[src]);
  }

  @Override
  public boolean hasByteForm() {
    return fn instanceof ByteForm;
  }

  @SuppressWarnings("unchecked")
  @Override
  public int serializedSize(int src) {
    return fn instanceof ByteForm<?> b ? 4 + ((ByteForm<ACC>) b).byteSize((ACC) a[src]) : -1;
  }

  @SuppressWarnings("unchecked")
  @Override
  public void write(int src, ByteBuffer out) {
    ByteForm<ACC> b = byteForm();
    int at = out.position();
    out.putInt(0);
    b.write((ACC) a[src], out);
    out.putInt(at, out.position() - at - 4); // the length of what was written, not what was announced
  }

  @Override
  public void read(int dst, ByteBuffer in) {
    ByteForm<ACC> b = byteForm();
    int n = in.getInt();
    if (n < 0 || n > in.remaining()) {
      throw new IllegalArgumentException("function '" + fn.name() + "': a partial of " + n
          + " bytes in a byte form with " + in.remaining() + " left");
    }
    int end = in.position() + n;
    try {
      a[dst] = b.read(in, n);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) { // e.g. DataSketches' own exception for a corrupt image
      throw new IllegalArgumentException("function '" + fn.name() + "': a partial that does not read back: " + e, e);
    }
    if (in.position() != end) {
      throw new IllegalStateException("function '" + fn.name() + "': read " + (in.position() - end + n) + " of " + n + " bytes");
    }
  }

  @SuppressWarnings("unchecked")
  private ByteForm<ACC> byteForm() {
    if (fn instanceof ByteForm<?> b) {
      return (ByteForm<ACC>) b;
    }
    throw new UnsupportedOperationException("function '" + fn.name() + "' has no byte form of its partials");
  }

  @Override
  public Object partial(int src) {
    return a[src];
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return fn;
  }
}

package io.swag.core;

import java.util.Arrays;

/** {@link Partials} for any {@link AggregateFunction}: one object per slot. */
public final class ObjectPartials<IN, ACC, OUT> extends Partials {
  private final AggregateFunction<IN, ACC, OUT> fn;
  private final ACC identity;
  private Object[] a = new Object[0];

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
  public Object partial(int src) {
    return a[src];
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return fn;
  }
}

package io.swag.core;

import java.util.Arrays;

/**
 * A function whose partial aggregate is a fixed number ({@link #width()}) of longs, computed in
 * place inside a shared {@code long[]} (counts, Bloom filter words, count-min counters, or a double
 * stored as its bits beside a long argument). Same kernel contract as {@link DoubleFunction}.
 */
public abstract class LongFunction implements AggregateFunction<Object, long[], Object> {
  private final String name;
  private final int width;

  /**
   * A function named {@code name} whose partials are {@code width} longs.
   *
   * @param name the function's name
   * @param width longs per partial aggregate
   */
  protected LongFunction(String name, int width) {
    this.name = name;
    this.width = width;
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * Longs per partial aggregate.
   *
   * @return the number of longs per partial
   */
  public final int width() {
    return width;
  }

  /**
   * Writes the identity at {@code a[o .. o+width)}.
   *
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   */
  public abstract void identity(long[] a, int o);

  /**
   * Writes {@code lift(x)} for a double input ({@code x} is never NaN).
   *
   * @param x the input value
   * @param arg the input's time or sequence number
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   */
  public abstract void liftDouble(double x, long arg, long[] a, int o);

  /**
   * Writes {@code lift(x)} for a long input.
   *
   * @param x the input value
   * @param arg the input's time or sequence number
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   */
  public abstract void liftLong(long x, long arg, long[] a, int o);

  /**
   * Writes {@code lift(x)} for any other input; default: numbers only.
   *
   * @param x the input value
   * @param arg the input's time or sequence number
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   */
  public void liftObject(Object x, long arg, long[] a, int o) {
    if (x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte) {
      liftLong(((Number) x).longValue(), arg, a, o);
    } else {
      double d = Inputs.toDouble(name, x);
      liftDouble(d, arg, a, o);
    }
  }

  /**
   * {@code a[dst..] = a[older..] ⊕ a[newer..]} (offsets, not slots).
   *
   * @param a the array of partials
   * @param dst the offset of the result
   * @param older the offset of the older partial
   * @param newer the offset of the newer partial
   */
  public abstract void combine(long[] a, int dst, int older, int newer);

  /**
   * {@code a[dst..] = a[whole..] ⊖ a[older..]} for invertible functions; the default throws
   * {@link UnsupportedOperationException}.
   *
   * @param a the array of partials
   * @param dst the offset of the result
   * @param whole the offset of the partial of both parts
   * @param older the offset of the older part to remove
   */
  public void inverse(long[] a, int dst, int whole, int older) {
    throw new UnsupportedOperationException("function '" + name + "' is not invertible");
  }

  /**
   * The result for the partial at {@code a[o..]}.
   *
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   * @return the result
   */
  public abstract Object lower(long[] a, int o);

  /**
   * The numeric result for the partial at {@code a[o..]} (NaN for none).
   *
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   * @return the result as a double
   */
  public double lowerDouble(long[] a, int o) {
    Object r = lower(a, o);
    return r == null ? Double.NaN : ((Number) r).doubleValue();
  }

  @Override
  public Partials newPartials() {
    return new LongPartials(this);
  }

  @Override
  public final long[] identity() {
    long[] r = new long[width];
    identity(r, 0);
    return r;
  }

  @Override
  public final long[] lift(Object value, long arg) {
    long[] r = new long[width];
    if (value instanceof Double || value instanceof Float) {
      liftDouble(Inputs.toDouble(name, value), arg, r, 0);
    } else {
      liftObject(value, arg, r, 0);
    }
    return r;
  }

  @Override
  public final long[] combine(long[] older, long[] newer) {
    long[] r = new long[2 * width];
    System.arraycopy(older, 0, r, 0, width);
    System.arraycopy(newer, 0, r, width, width);
    combine(r, 0, 0, width);
    return Arrays.copyOf(r, width);
  }

  @Override
  public final long[] inverse(long[] whole, long[] older) {
    long[] r = new long[2 * width];
    System.arraycopy(whole, 0, r, 0, width);
    System.arraycopy(older, 0, r, width, width);
    inverse(r, 0, 0, width);
    return Arrays.copyOf(r, width);
  }

  @Override
  public final Object lower(long[] partial) {
    return lower(partial, 0);
  }

  @Override
  public int combineCost() {
    return width;
  }

  @Override
  public String toString() {
    return name;
  }
}

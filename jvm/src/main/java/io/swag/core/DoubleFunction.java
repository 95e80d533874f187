package io.swag.core;

import java.util.Arrays;

/**
 * A function whose partial aggregate is a fixed number ({@link #width()}) of doubles, computed
 * in place inside a shared {@code double[]}. Subclasses implement the kernel methods on offsets;
 * the generic {@link AggregateFunction} methods (which allocate) are derived from them.
 *
 * <p>Kernel contract: {@code combine(a, dst, older, newer)} must read both operands before it
 * writes, because {@code dst} may equal {@code older} or {@code newer}.
 */
public abstract class DoubleFunction implements AggregateFunction<Object, double[], Object> {
  private final String name;
  private final int width;

  /**
   * A function named {@code name} whose partials are {@code width} doubles.
   *
   * @param name the function's name
   * @param width doubles per partial aggregate
   */
  protected DoubleFunction(String name, int width) {
    this.name = name;
    this.width = width;
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * Doubles per partial aggregate.
   *
   * @return the number of doubles per partial
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
  public abstract void identity(double[] a, int o);

  /**
   * Writes {@code lift(x)} at {@code a[o .. o+width)}; {@code x} is never NaN.
   *
   * @param x the input value
   * @param arg the input's time or sequence number
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   */
  public abstract void lift(double x, long arg, double[] a, int o);

  /**
   * {@code a[dst..] = a[older..] ⊕ a[newer..]} (offsets, not slots).
   *
   * @param a the array of partials
   * @param dst the offset of the result
   * @param older the offset of the older partial
   * @param newer the offset of the newer partial
   */
  public abstract void combine(double[] a, int dst, int older, int newer);

  /**
   * {@code a[dst..] = a[whole..] ⊖ a[older..]} for invertible functions.
   *
   * @param a the array of partials
   * @param dst the offset of the result
   * @param whole the offset of the partial of both parts
   * @param older the offset of the older part to remove
   */
  public void inverse(double[] a, int dst, int whole, int older) {
    throw notInvertible();
  }

  /**
   * The error of {@code inverse} on a function that is not invertible.
   *
   * @return the exception to throw
   */
  protected final UnsupportedOperationException notInvertible() {
    return new UnsupportedOperationException("function '" + name + "' is not invertible");
  }

  /**
   * The input check of every double lift: {@code x} itself, or the library's error for NaN (the
   * one {@link DoublePartials#liftDouble} throws), for stores that lift without {@link Partials}.
   *
   * @param x the input value
   * @return {@code x}
   * @throws IllegalArgumentException if {@code x} is NaN
   */
  public final double checkInput(double x) {
    if (x != x) {
      throw Inputs.nan(name);
    }
    return x;
  }

  /**
   * Lifts an input that is not a Java number ({@link DoublePartials#liftObject}) into {@code a[o..]}:
   * by default its conversion to a double ({@link Inputs#toDouble}), NaN refused as by
   * {@link #checkInput}. A function whose inputs are records rather than numbers (a plan's product of
   * one function, which reads its column) overrides it.
   *
   * @param value the input
   * @param arg the input's time or sequence number
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   * @throws IllegalArgumentException if the function refuses the input
   */
  public void liftObject(Object value, long arg, double[] a, int o) {
    lift(checkInput(Inputs.toDouble(name, value)), arg, a, o);
  }

  /**
   * The result for the partial at {@code a[o..]}.
   *
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   * @return the result of the partial
   */
  public abstract Object lower(double[] a, int o);

  /**
   * The numeric result for the partial at {@code a[o..]} (NaN for none).
   *
   * @param a the array of partials
   * @param o the partial's offset in {@code a}
   * @return the result as a double, NaN for none
   */
  public double lowerDouble(double[] a, int o) {
    Object r = lower(a, o);
    return r == null ? Double.NaN : ((Number) r).doubleValue();
  }

  @Override
  public Partials newPartials() {
    return new DoublePartials(this);
  }

  // ---- generic (allocating) form, derived from the kernel ----

  @Override
  public final double[] identity() {
    double[] r = new double[width];
    identity(r, 0);
    return r;
  }

  @Override
  public final double[] lift(Object value, long arg) {
    double[] r = new double[width];
    lift(Inputs.toDouble(name, value), arg, r, 0);
    return r;
  }

  @Override
  public final double[] combine(double[] older, double[] newer) {
    double[] r = new double[2 * width];
    System.arraycopy(older, 0, r, 0, width);
    System.arraycopy(newer, 0, r, width, width);
    combine(r, 0, 0, width);
    return Arrays.copyOf(r, width);
  }

  @Override
  public final double[] inverse(double[] whole, double[] older) {
    double[] r = new double[2 * width];
    System.arraycopy(whole, 0, r, 0, width);
    System.arraycopy(older, 0, r, width, width);
    inverse(r, 0, 0, width);
    return Arrays.copyOf(r, width);
  }

  @Override
  public final Object lower(double[] partial) {
    return lower(partial, 0);
  }

  @Override
  public int combineCost() {
    return 1;
  }

  @Override
  public String toString() {
    return name;
  }
}

package io.swag.core.fn;

import io.swag.core.DoubleFunction;

/**
 * A {@link DoubleFunction} whose partial aggregate is one double: its rules are written once, on
 * values ({@link #combineValues}, ...), and the in-place kernels on offsets that {@link
 * io.swag.core.DoublePartials} calls are derived from them. The in-order aggregators keep the
 * window of such a function in a {@code double[]} of their own and call the value methods directly
 * (no offsets, no result slot): {@code io.swag.core.Algorithm#newFifo} picks those typed classes
 * ({@code io.swag.core.fifo.DoubleFifo}) for every function of this class.
 */
public abstract class ScalarDoubleFunction extends DoubleFunction {

  /**
   * A function named {@code name} whose partials are one double.
   *
   * @param name the function's name
   */
  protected ScalarDoubleFunction(String name) {
    super(name, 1);
  }

  /**
   * The identity partial.
   *
   * @return the identity
   */
  public abstract double identityValue();

  /**
   * {@code lift(x)}; {@code x} is never NaN.
   *
   * @param x the input value
   * @param arg the input's time or sequence number
   * @return the partial of {@code x}
   */
  public abstract double liftValue(double x, long arg);

  /**
   * {@code older ⊕ newer}.
   *
   * @param older the older partial
   * @param newer the newer partial
   * @return their combination
   */
  public abstract double combineValues(double older, double newer);

  /**
   * Whether {@link #combineValues} returns one of its two operands, bit for bit, for every pair of
   * lifted values: then the partial of a sequence is one of its partials, the same bits however the
   * combines are bracketed (float {@code sum} is not such a function: its bracketing rounds).
   *
   * @return false unless a function says so
   */
  public boolean selectsOperand() {
    return false;
  }

  /**
   * Whether {@link #lowerValue(double)} of every partial that is not NaN is that partial, boxed: a
   * {@code Double} with its bits. A caller holding such a result for a partial of the same bits
   * may use it again instead of lowering (results are immutable).
   *
   * @return false unless a function says so
   */
  public boolean lowersToPartial() {
    return false;
  }

  /**
   * {@code whole ⊖ older} for invertible functions.
   *
   * @param whole the partial of both parts
   * @param older the older part to remove
   * @return the partial of the newer part
   * @throws UnsupportedOperationException if the function is not invertible
   */
  public double inverseValues(double whole, double older) {
    throw notInvertible();
  }

  /**
   * The result of a partial ({@code null} for none).
   *
   * @param partial the partial
   * @return the result, or null
   */
  public abstract Object lowerValue(double partial);

  /**
   * The numeric result of a partial (NaN for none).
   *
   * @param partial the partial
   * @return the result as a double, NaN for none
   */
  public abstract double lowerDoubleValue(double partial);

  /**
   * The function an in-order window of this one answers for: this function, or, for the part of a
   * partial that leaves out the count ({@link Mean#summands()}), the function whose partial also
   * holds the count. Results, errors and {@code function()} of the aggregator are that function's.
   *
   * @return the function the window answers for
   */
  public DoubleFunction windowFunction() {
    return this;
  }

  /**
   * The result of a window of {@code count} elements whose partial is {@code partial} (NaN for
   * none): {@link #lowerDoubleValue(double)}, unless the function's partial leaves out the count
   * ({@link Mean#summands()}).
   *
   * @param partial the window's partial
   * @param count the number of elements in the window
   * @return the result as a double, NaN for none
   */
  public double lowerDoubleValue(double partial, long count) {
    return lowerDoubleValue(partial);
  }

  /**
   * The result of a window of {@code count} elements whose partial is {@code partial} ({@code null}
   * for none): {@link #lowerValue(double)}, unless the function's partial leaves out the count.
   *
   * @param partial the window's partial
   * @param count the number of elements in the window
   * @return the result, or null
   */
  public Object lowerValue(double partial, long count) {
    return lowerValue(partial);
  }

  /**
   * The window's partial in the form of {@link #windowFunction()}'s partials: {@code {partial}}, or
   * {@code {count, partial}} when the function's partial leaves out the count.
   *
   * @param partial the window's partial
   * @param count the number of elements in the window
   * @return a new array of {@code windowFunction().width()} doubles
   */
  public double[] windowPartial(double partial, long count) {
    return new double[] {partial};
  }

  /**
   * {@code lift} of an input that is not a Java number: by default its conversion to a double
   * ({@link io.swag.core.Inputs#toDouble}), NaN refused ({@link #checkInput}). The typed in-order
   * classes and {@link #liftObject} call it; a function whose inputs are records (a plan's product
   * of one function) overrides it.
   *
   * @param value the input
   * @param arg the input's time or sequence number
   * @return the partial of {@code value}
   * @throws IllegalArgumentException if the function refuses the input
   */
  public double liftObjectValue(Object value, long arg) {
    return liftValue(checkInput(io.swag.core.Inputs.toDouble(name(), value)), arg);
  }

  // ---- the kernels on offsets, derived ----

  @Override
  public final void identity(double[] a, int o) {
    a[o] = identityValue();
  }

  @Override
  public final void lift(double x, long arg, double[] a, int o) {
    a[o] = liftValue(x, arg);
  }

  @Override
  public final void liftObject(Object value, long arg, double[] a, int o) {
    a[o] = liftObjectValue(value, arg);
  }

  @Override
  public final void combine(double[] a, int dst, int older, int newer) {
    a[dst] = combineValues(a[older], a[newer]);
  }

  @Override
  public final void inverse(double[] a, int dst, int whole, int older) {
    a[dst] = inverseValues(a[whole], a[older]);
  }

  @Override
  public final Object lower(double[] a, int o) {
    return lowerValue(a[o]);
  }

  @Override
  public final double lowerDouble(double[] a, int o) {
    return lowerDoubleValue(a[o]);
  }
}

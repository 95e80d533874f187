package io.swag.core.plan;

import io.swag.core.Inputs;
import io.swag.core.fn.ScalarDoubleFunction;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Collections;

/**
 * The {@link ProductFunction} of one {@link ScalarDoubleFunction} (a group whose only aggregate is a
 * sum, min, max, first or last) in typed form: its partial is the function's one {@code double}, so
 * that the aggregators keep it on a {@code double} store of their own ({@link
 * io.swag.core.Algorithm#newFifo}'s {@link io.swag.core.fifo.DoubleFifo} classes, the trees' {@link
 * io.swag.core.DoublePartials} path), with no {@code Object[]} partial, no {@code List} per lift and
 * no boxing. The plan's aggregators are built on {@link ProductFunction#aggregated()}, which is this
 * class for such a product.
 *
 * <p>It takes the product's inputs ({@link #liftObjectValue}): a row (the function reads its column), a
 * {@link ProductFunction.At} (a row lifted with its own time), a {@link ProductFunction.Batch} (its
 * records combined in order) or a {@link ProductFunction.Lifted} (a partial in the byte form of
 * {@link ProductPartials#write}); and gives the product's result, a list of one result. Partials,
 * their byte form (one {@code double}), results and the errors on the product's inputs are those of
 * the product of the one function ({@link ProductPartials} over the function's {@link
 * io.swag.core.DoublePartials}): a column value is lifted and refused exactly as the function's own
 * store does, a malformed input is refused with the product's message. A bare number is not an
 * input of the product and is refused as the product refuses it.
 *
 * <p>Invariant: every partial is a partial of {@link #function()} (lifted by it, combined by it), so
 * that its byte form is the one the product writes for it.
 */
public final class ScalarProduct extends ScalarDoubleFunction {
  private final ProductFunction product;
  private final ScalarDoubleFunction op;
  private final double identity; // the function's identity, read once (the FIFO algorithms ask for it at every step)
  private final boolean lowersToPartial; // op.lowersToPartial(), read once

  /**
   * The typed form of {@code product}, a product of one {@link ScalarDoubleFunction}.
   *
   * @param product the product
   * @throws IllegalArgumentException if {@code product} is not a product of one such function
   */
  ScalarProduct(ProductFunction product) {
    super(product.name());
    if (product.arity() != 1 || !(product.functions().get(0) instanceof ScalarDoubleFunction)) {
      throw new IllegalArgumentException("not a product of one scalar double function: " + product.name());
    }
    this.product = product;
    this.op = (ScalarDoubleFunction) product.functions().get(0);
    this.identity = op.identityValue();
    this.lowersToPartial = op.lowersToPartial();
  }

  /**
   * The one function of the product.
   *
   * @return the function
   */
  public ScalarDoubleFunction function() {
    return op;
  }

  /**
   * The product this is the typed form of.
   *
   * @return the product
   */
  public ProductFunction product() {
    return product;
  }

  @Override
  public double identityValue() {
    return identity;
  }

  /**
   * A bare number is not an input of the product: refused with the product's message.
   *
   * @throws IllegalArgumentException always
   */
  @Override
  public double liftValue(double x, long arg) {
    throw new IllegalArgumentException("function '" + product.name() + "' takes a row or an Object[] of 1 inputs, got the number " + x);
  }

  /**
   * Lifts an input of the product (see the class comment); a rejected input throws before any change.
   *
   * @throws IllegalArgumentException naming the function and value if the input is refused
   */
  @Override
  public double liftObjectValue(Object value, long arg) {
    if (value instanceof ProductFunction.At a) {
      value = a.row;
      arg = a.time;
    } else if (value instanceof Partial p) {
      return p.value;
    } else if (value instanceof ProductFunction.Batch b) {
      return liftBatch(b);
    }
    if (value instanceof Object[]) {
      return liftColumn(product.input(value, 0), arg);
    }
    if (value instanceof ProductFunction.Lifted l) {
      return read(l);
    }
    throw new IllegalArgumentException("function '" + product.name() + "' takes a row or an Object[] of 1 inputs, got "
        + Inputs.describe(value));
  }

  /**
   * A partial already lifted (by {@link #liftObjectValue}), handed to an aggregator as its input: the
   * plan's {@link AdaptiveAggregator} keeps its pending entries as partials and moves them on with it.
   * Mutable and reused by its owner: an aggregator lifts its input at once.
   */
  static final class Partial {
    double value;

    Partial set(double v) {
      this.value = v;
      return this;
    }
  }

  /** The column value lifted as the function's own store lifts it (DoublePartials), with its checks. */
  private double liftColumn(Object v, long arg) {
    if (v instanceof Double || v instanceof Float) {
      return liftDouble(((Number) v).doubleValue(), arg);
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return op.liftValue((double) ((Number) v).longValue(), arg);
    }
    return op.liftObjectValue(v, arg);
  }

  /**
   * The partial of a row whose column holds the {@code Double} {@code v}, lifted with {@code arg}: what
   * {@link #liftObjectValue} gives for that row (the function's check, then its lift).
   *
   * @param v the column's value
   * @param arg the lift argument (the row's own time)
   * @return the partial
   * @throws IllegalArgumentException naming the function if it refuses {@code v} (a NaN)
   */
  double liftDouble(double v, long arg) {
    return op.liftValue(op.checkInput(v), arg);
  }

  /** The records of a slice combined in order, as {@link ProductPartials} combines them. */
  private double liftBatch(ProductFunction.Batch b) {
    int n = b.size();
    if (n == 0) {
      return op.identityValue();
    }
    double acc = liftColumn(product.input(b.values.get(0), 0), b.times[0]);
    for (int j = 1; j < n; j++) {
      acc = op.combineValues(acc, liftColumn(product.input(b.values.get(j), 0), b.times[j]));
    }
    return acc;
  }

  private double read(ProductFunction.Lifted l) {
    ByteBuffer in = ByteBuffer.wrap(l.bytes);
    double x;
    try {
      x = in.getDouble();
    } catch (BufferUnderflowException e) {
      throw l.cutShort(product.name(), e);
    }
    l.checkConsumed(product.name(), in);
    return x;
  }

  @Override
  public double combineValues(double older, double newer) {
    return op.combineValues(older, newer);
  }

  @Override
  public double inverseValues(double whole, double older) {
    return op.inverseValues(whole, older);
  }

  /** The product's result: an unmodifiable list of the function's one result ({@link #lowerOne}). */
  @Override
  public Object lowerValue(double partial) {
    return Collections.singletonList(lowerOne(partial));
  }

  /**
   * Whether the function's combine returns one of its two operands
   * ({@link ScalarDoubleFunction#selectsOperand}).
   *
   * @return true for max, min, first and last
   */
  @Override
  public boolean selectsOperand() {
    return op.selectsOperand();
  }

  /**
   * The function's one result of a partial: the only element of {@link #lowerValue(double)}'s list.
   *
   * @param partial the partial
   * @return the function's result
   */
  Object lowerOne(double partial) {
    return op.lowerValue(partial);
  }

  /**
   * {@link #lowerOne(double)}, or {@code held} when it is that result already: a {@code Double} with
   * the partial's bits, for a function whose results are its partials
   * ({@link ScalarDoubleFunction#lowersToPartial}) and a partial that is not NaN. A caller that
   * holds the last result of a window gets it back while the window's answer repeats (no new box).
   *
   * @param partial the partial
   * @param held a result the caller holds, or null
   * @return the function's result
   */
  Object lowerOne(double partial, Object held) {
    if (lowersToPartial && partial == partial && held instanceof Double d
        && Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(partial)) {
      return held;
    }
    return op.lowerValue(partial);
  }

  @Override
  public double lowerDoubleValue(double partial) {
    return op.lowerDoubleValue(partial);
  }

  @Override
  public boolean isCommutative() {
    return op.isCommutative();
  }

  @Override
  public boolean isInvertible() {
    return op.isInvertible();
  }

  @Override
  public int combineCost() {
    return op.combineCost();
  }
}

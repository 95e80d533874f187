package io.swag.core;

/**
 * A growable array of partial aggregates of one {@link AggregateFunction}, addressed by slot index.
 *
 * <p>Every aggregator in swag is written once against this class: it moves slot indices around and
 * asks the store to {@link #combine}, {@link #copy} or {@code lift*} into slots. The store decides the
 * representation: a {@code double[]} or {@code long[]} with a fixed number of words per partial for
 * numeric functions (no boxing, no allocation per record), or an {@code Object[]} for sketches and
 * other object partials.
 *
 * <p>Contract: {@code combine(dst, a, b)} stores {@code slot[a] ⊕ slot[b]} into {@code dst}, where
 * {@code dst} may equal {@code a} or {@code b}. All slot operations are O(width of a partial) for
 * primitive stores and one call of the function's combine for object stores.
 */
public abstract class Partials {

  /**
   * Number of addressable slots.
   *
   * @return the number of slots
   */
  public abstract int capacity();

  /**
   * Changes the number of slots, keeping the contents of slots {@code [0, min(old, new))}.
   *
   * @param slots the new number of slots
   */
  public abstract void resize(int slots);

  /**
   * {@code slot[dst] = slot[older] ⊕ slot[newer]}; {@code dst} may alias either operand.
   *
   * @param dst the result's slot
   * @param older the older partial's slot
   * @param newer the newer partial's slot
   */
  public abstract void combine(int dst, int older, int newer);

  /**
   * {@code slot[dst] = slot[src]}.
   *
   * @param dst the destination slot
   * @param src the source slot
   */
  public abstract void copy(int dst, int src);

  /**
   * {@code slot[dst] = identity}.
   *
   * @param dst the slot
   */
  public abstract void setIdentity(int dst);

  /**
   * Tells the store that {@code slot[dst]} is no longer used, so an object partial can be garbage
   * collected. The slot's content is undefined afterwards. No-op for primitive stores.
   *
   * @param dst the slot
   */
  public void release(int dst) {}

  /**
   * For invertible functions: {@code slot[dst] = slot[whole] ⊖ slot[older]}.
   *
   * @param dst the result's slot
   * @param whole the slot of the partial of both parts
   * @param older the slot of the older part to remove
   */
  public abstract void inverse(int dst, int whole, int older);

  /**
   * {@code slot[dst] = lift(value)}; {@code arg} is the value's time or sequence number.
   *
   * @param dst the slot
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public abstract void liftDouble(int dst, double value, long arg);

  /**
   * {@code slot[dst] = lift(value)}.
   *
   * @param dst the slot
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public abstract void liftLong(int dst, long value, long arg);

  /**
   * {@code slot[dst] = lift(value)} for any input object (numbers, strings, pairs, ...).
   *
   * @param dst the slot
   * @param value the value
   * @param arg the value's time or sequence number
   */
  public abstract void liftObject(int dst, Object value, long arg);

  /**
   * The result {@code lower(slot[src])} as an object ({@code null} for "no value").
   *
   * @param src the slot
   * @return the result, or null
   */
  public abstract Object lower(int src);

  /**
   * The result {@code lower(slot[src])} as a double, for numeric results (NaN for "no value").
   *
   * @param src the slot
   * @return the result as a double
   */
  public double lowerDouble(int src) {
    Object o = lower(src);
    if (o == null) {
      return Double.NaN;
    }
    if (o instanceof Number) {
      return ((Number) o).doubleValue();
    }
    throw new UnsupportedOperationException(
        "function '" + function().name() + "' has a non-numeric result (" + o.getClass().getSimpleName() + ")");
  }

  /**
   * Bytes per slot in the byte form ({@link #write}, {@link #read}) when every slot has the same
   * size, or {@code -1} (no byte form, or one of varying size: see {@link #hasByteForm()}).
   * Primitive stores have a fixed one: their partials are a fixed number of doubles or longs, so a
   * partial can leave the JVM (e.g. a slice pre-aggregated before a shuffle) and come back intact.
   *
   * @return the bytes per slot, or {@code -1}
   */
  public int serializedSize() {
    return -1;
  }

  /**
   * Whether partials have a byte form: a fixed-size one ({@link #serializedSize()} {@code >= 0}), or
   * a varying one (object partials of a function that implements {@link ByteForm}).
   *
   * @return true if partials have a byte form
   */
  public boolean hasByteForm() {
    return serializedSize() >= 0;
  }

  /**
   * Bytes of {@code slot[src]} in the byte form; {@code -1} if there is none.
   *
   * @param src the slot
   * @return the number of bytes, or {@code -1}
   */
  public int serializedSize(int src) {
    return serializedSize();
  }

  /**
   * Writes {@code slot[src]} in the byte form ({@link #serializedSize(int)} bytes) at the buffer's
   * position.
   *
   * @param src the slot
   * @param out the buffer to write to
   */
  public void write(int src, java.nio.ByteBuffer out) {
    throw new UnsupportedOperationException("function '" + function().name() + "' has no byte form of its partials");
  }

  /**
   * {@code slot[dst] =} the partial in the byte form at the buffer's position (as written by
   * {@link #write}).
   *
   * @param dst the slot
   * @param in the buffer to read from
   */
  public void read(int dst, java.nio.ByteBuffer in) {
    throw new UnsupportedOperationException("function '" + function().name() + "' has no byte form of its partials");
  }

  /**
   * A copy of the raw partial in {@code slot[src]}, as the function's generic ACC value.
   *
   * @param src the slot
   * @return the partial
   */
  public abstract Object partial(int src);

  /**
   * The function whose partials this store holds.
   *
   * @return the function
   */
  public abstract AggregateFunction<?, ?, ?> function();
}

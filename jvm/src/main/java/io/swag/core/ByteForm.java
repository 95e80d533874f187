package io.swag.core;

import java.nio.ByteBuffer;

/**
 * A byte form for the object partials of an {@link AggregateFunction} (sketches): implemented by a
 * function whose partials are objects of varying size, so that its {@link ObjectPartials} can
 * {@linkplain Partials#write write} and {@linkplain Partials#read read} them, e.g. a slice
 * pre-aggregated before a shuffle. Primitive stores ({@link DoublePartials}, {@link LongPartials})
 * have a fixed-size byte form of their own and need none of this.
 *
 * <p>Contract: {@code read(bytes of write(p))} lowers to the same result as {@code p} and combines
 * with any partial as {@code p} does (for a randomized sketch: in distribution); written again it
 * has the same size, though not always the same layout (e.g. the order of a hash set).
 * {@link #byteSize} is the number of bytes {@link #write} puts.
 *
 * @param <ACC> the function's partial type
 */
public interface ByteForm<ACC> {

  /**
   * Bytes that {@link #write} puts for {@code partial}.
   *
   * @param partial a partial aggregate
   * @return the number of bytes
   */
  int byteSize(ACC partial);

  /**
   * Puts {@code partial} at the buffer's position ({@link #byteSize} bytes).
   *
   * @param partial a partial aggregate
   * @param out the buffer to write to
   */
  void write(ACC partial, ByteBuffer out);

  /**
   * The partial in the {@code length} bytes at the buffer's position; advances it by {@code length}.
   *
   * @param in the buffer to read from
   * @param length the number of bytes of the partial
   * @return the partial read
   */
  ACC read(ByteBuffer in, int length);

  /**
   * The next {@code length} bytes of {@code in}, copied (for a sketch's {@code heapify}).
   *
   * @param in the buffer to read from
   * @param length the number of bytes to take
   * @return a new array of the bytes
   */
  static byte[] take(ByteBuffer in, int length) {
    byte[] b = new byte[length];
    in.get(b);
    return b;
  }
}

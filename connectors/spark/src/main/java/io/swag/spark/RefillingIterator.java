package io.swag.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An iterator whose elements are made a batch at a time, as they are consumed: when {@link #out} is
 * used up, {@link #refill()} appends the next batch to it. The operators' outputs use it so that a
 * task holds one batch of output rows, not a partition's or a key's whole output.
 *
 * @param <T> the elements
 */
abstract class RefillingIterator<T> implements Iterator<T> {
  /** The current batch; {@link #refill()} appends to it (it is empty then). */
  protected final List<T> out = new ArrayList<>();
  private int next;
  private boolean done;

  /** Appends the next batch to {@link #out}; returns false once no batch will follow this one. */
  protected abstract boolean refill();

  @Override
  public final boolean hasNext() {
    while (next == out.size() && !done) {
      out.clear();
      next = 0;
      done = !refill();
    }
    return next < out.size();
  }

  @Override
  public final T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return out.get(next++);
  }
}

package io.swag.core.fn;

import io.swag.core.AggregateFunction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The window's values as a list in arrival order: the non-commutative function that makes order
 * bugs visible. Partials are immutable ropes, so combine is O(1) (one node) and lower is O(n).
 */
public final class Collect implements AggregateFunction<Object, Collect.Rope, List<Object>> {

  /** An immutable concatenation tree; leaves hold one value. */
  public static final class Rope {
    static final Rope EMPTY = new Rope(null, null, null, 0);
    final Rope left;
    final Rope right;
    final Object value;
    final int size;

    Rope(Rope left, Rope right, Object value, int size) {
      this.left = left;
      this.right = right;
      this.value = value;
      this.size = size;
    }

    /**
     * The number of values.
     *
     * @return the number of values
     */
    public int size() {
      return size;
    }

    /**
     * The values in order (iterative: ropes built by flips can be deep).
     *
     * @return the values
     */
    public List<Object> toList() {
      if (size == 0) {
        return Collections.emptyList();
      }
      List<Object> out = new ArrayList<>(size);
      ArrayDeque<Rope> stack = new ArrayDeque<>();
      stack.push(this);
      while (!stack.isEmpty()) {
        Rope r = stack.pop();
        if (r.size == 0) {
          continue;
        }
        if (r.left == null) {
          out.add(r.value);
        } else {
          stack.push(r.right);
          stack.push(r.left);
        }
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Rope r && r.size == size && r.toList().equals(toList());
    }

    @Override
    public int hashCode() {
      return toList().hashCode();
    }

    @Override
    public String toString() {
      return toList().toString();
    }
  }

  @Override
  public String name() {
    return "collect";
  }

  @Override
  public Rope identity() {
    return Rope.EMPTY;
  }

  @Override
  public Rope lift(Object value, long arg) {
    return new Rope(null, null, value, 1);
  }

  @Override
  public Rope combine(Rope older, Rope newer) {
    if (newer.size == 0) {
      return older;
    }
    if (older.size == 0) {
      return newer;
    }
    return new Rope(older, newer, null, older.size + newer.size);
  }

  @Override
  public List<Object> lower(Rope partial) {
    return partial.toList();
  }

  @Override
  public int combineCost() {
    return 5;
  }
}

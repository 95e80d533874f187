package io.swag.core.fifo;

import io.swag.core.AggregateFunction;
import java.util.ArrayDeque;

/**
 * The naive recompute through the function's generic (boxing) form: a deque of lifted partials,
 * folded left to right on demand. Independent of {@link io.swag.core.Partials} and of every
 * algorithm under test.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
final class Oracle {
  private final AggregateFunction fn;
  private final ArrayDeque<Object> window = new ArrayDeque<>();

  Oracle(AggregateFunction<?, ?, ?> fn) {
    this.fn = fn;
  }

  void insert(Object value, long arg) {
    window.addLast(fn.lift(value, arg));
  }

  void evict() {
    window.removeFirst();
  }

  int size() {
    return window.size();
  }

  Object partial() {
    Object acc = fn.identity();
    for (Object x : window) {
      acc = fn.combine(acc, x);
    }
    return acc;
  }

  Object result() {
    return fn.lower(partial());
  }
}

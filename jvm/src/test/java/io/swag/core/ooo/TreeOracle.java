package io.swag.core.ooo;

import io.swag.core.AggregateFunction;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The naive out-of-order window: a sorted map from time to the generic partial (lift, and combine
 * for equal times in arrival order), folded in time order on demand. Independent of
 * {@link io.swag.core.Partials} and of the trees under test.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
final class TreeOracle {
  final AggregateFunction fn;
  final TreeMap<Long, Object> map = new TreeMap<>();

  TreeOracle(AggregateFunction<?, ?, ?> fn) {
    this.fn = fn;
  }

  void insert(long t, Object value) {
    Object lifted = fn.lift(value, t);
    map.merge(t, lifted, (older, newer) -> fn.combine(older, newer));
  }

  boolean evict(long t) {
    return map.remove(t) != null;
  }

  int bulkEvict(long t) {
    NavigableMap<Long, Object> h = map.headMap(t, true);
    int c = h.size();
    h.clear();
    return c;
  }

  int size() {
    return map.size();
  }

  Object query() {
    return fold(map);
  }

  Object query(long from, long to) {
    if (from > to) {
      return fn.identity();
    }
    return fold(map.subMap(from, true, to, true));
  }

  /** Whether at most {@code limit} entries lie in {@code [from, to]} (O(limit)). */
  boolean atMost(long from, long to, int limit) {
    if (from > to) {
      return true;
    }
    int c = 0;
    for (Long ignored : map.subMap(from, true, to, true).keySet()) {
      if (++c > limit) {
        return false;
      }
    }
    return true;
  }

  private Object fold(Map<Long, Object> m) {
    Object acc = fn.identity();
    for (Object x : m.values()) {
      acc = fn.combine(acc, x);
    }
    return acc;
  }
}

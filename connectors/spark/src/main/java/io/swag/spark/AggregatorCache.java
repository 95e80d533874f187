package io.swag.spark;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The executor-side cache of per-key aggregators of the Spark operator, bounded per operator (one
 * streaming query's swag operator): at most {@code maxKeys} entries; when a put goes over, the least
 * recently put 10% (at least one) are dropped. Dropping is always safe: an entry is only a copy of
 * what the state store holds (stamped with the state's version nonce), and a missing one is rebuilt
 * from the state store with one bulk insert.
 *
 * <p>An operator not used (no take or put) for {@link #IDLE_NANOS} (30 minutes) loses its whole
 * cache at the next put of any operator: that is how the entries of a stopped query go. A query
 * whose micro-batches are further apart than that rebuilds its keys from the state store each
 * batch: the same results, only slower.
 *
 * <p>Tasks of different partitions use it at the same time on disjoint keys; {@link #take} removes
 * the entry, so one task works on a key's aggregator at a time. Cost: O(1) per take and put, plus a
 * trim of O(n log n) at most once per {@code maxKeys / 10} puts (amortized O(log n)).
 *
 * @param <K> the key (Spark's grouping key {@code Row})
 * @param <V> the cached aggregator state
 */
final class AggregatorCache<K, V> {
  /** A cached value, with the state version it reflects. */
  record Entry<V>(long version, V value, long stamp) {}

  /** How long an operator may go unused before its entries are dropped. */
  static final long IDLE_NANOS = 30L * 60 * 1_000_000_000L;

  private final Map<String, Map<K, Entry<V>>> byOperator = new ConcurrentHashMap<>();
  /** Last take or put per operator, in {@link #nanos} time. */
  private final Map<String, Long> lastUsed = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong();
  private final LongSupplier nanos;
  private final long idleNanos;
  private volatile long lastSweep;

  AggregatorCache() {
    this(System::nanoTime, IDLE_NANOS);
  }

  /** With a clock and an idle limit of its own (tests). */
  AggregatorCache(LongSupplier nanos, long idleNanos) {
    this.nanos = nanos;
    this.idleNanos = idleNanos;
    this.lastSweep = nanos.getAsLong();
  }

  /** Removes and returns the entry of {@code key} in {@code operator}'s cache, or null. */
  Entry<V> take(String operator, K key) {
    Map<K, Entry<V>> m = byOperator.get(operator);
    if (m == null) {
      return null;
    }
    lastUsed.put(operator, nanos.getAsLong());
    return m.remove(key);
  }

  /** Drops the entry of {@code key}, if any. */
  void remove(String operator, K key) {
    Map<K, Entry<V>> m = byOperator.get(operator);
    if (m != null) {
      m.remove(key);
    }
  }

  /** Caches {@code value} for {@code key} as of state {@code version}; keeps at most {@code maxKeys} entries. */
  void put(String operator, int maxKeys, K key, long version, V value) {
    if (maxKeys <= 0) {
      return; // caching off: every batch rebuilds from the state store
    }
    long now = nanos.getAsLong();
    lastUsed.put(operator, now);
    Map<K, Entry<V>> m = byOperator.computeIfAbsent(operator, o -> new ConcurrentHashMap<>());
    m.put(key, new Entry<>(version, value, clock.incrementAndGet()));
    if (m.size() > maxKeys) {
      trim(m, maxKeys);
    }
    if (now - lastSweep > idleNanos / 8) {
      sweep(now);
    }
  }

  /** Drops the caches of operators unused for longer than the idle limit. O(operators). */
  private void sweep(long now) {
    lastSweep = now;
    for (Map.Entry<String, Long> e : lastUsed.entrySet()) {
      if (now - e.getValue() > idleNanos) {
        String op = e.getKey();
        lastUsed.remove(op, e.getValue()); // unless used meanwhile
        if (!lastUsed.containsKey(op)) {
          byOperator.remove(op);
        }
      }
    }
  }

  /** Operators with a cache in this JVM. */
  int operators() {
    return byOperator.size();
  }

  /** Entries cached for {@code operator}. */
  int size(String operator) {
    Map<K, Entry<V>> m = byOperator.get(operator);
    return m == null ? 0 : m.size();
  }

  /** Entries cached over all operators of this JVM. */
  long size() {
    long n = 0;
    for (Map<K, Entry<V>> m : byOperator.values()) {
      n += m.size();
    }
    return n;
  }

  private static <K, V> void trim(Map<K, Entry<V>> m, int maxKeys) {
    synchronized (m) {
      int n = m.size();
      if (n <= maxKeys) {
        return; // another task trimmed it
      }
      int keep = Math.max(1, maxKeys - Math.max(1, maxKeys / 10)); // the newest (just put) stays
      long[] stamps = new long[n];
      int i = 0;
      for (Entry<V> e : m.values()) {
        if (i == stamps.length) {
          break; // entries added meanwhile: they are newer, keep them
        }
        stamps[i++] = e.stamp();
      }
      Arrays.sort(stamps, 0, i);
      int drop = i - keep;
      if (drop <= 0) {
        return;
      }
      long threshold = stamps[drop - 1]; // drop every entry stamped at or before it
      m.values().removeIf(e -> e.stamp() <= threshold);
    }
  }
}

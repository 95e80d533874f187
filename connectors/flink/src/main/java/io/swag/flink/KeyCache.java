package io.swag.flink;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The operator's cache of keys on the heap, least recently used first out: an LRU cache whose
 * recency order is kept only while it can matter. Each entry carries the stamp of its last use (a
 * counter, one store per hit). While no eviction has been asked for since the cache was at most
 * half full, the entries sit in a plain {@code HashMap} (a hit does not relink anything); the first
 * {@link #removeEldest} builds an access-ordered {@code LinkedHashMap} from the entries sorted by
 * stamp, which then serves until a removal leaves the cache at most half full again.
 *
 * <p>Invariants: every entry's stamp is distinct and larger for a later use (a {@link #get} hit or
 * a {@link #put}); in ordered mode the map's iteration order is ascending by stamp, so its first
 * entry is the least recently used; {@link #removeEldest} removes the entry with the smallest stamp,
 * as an access-ordered {@code LinkedHashMap} would. Switching to ordered mode costs O(n log n) and
 * happens only after at least {@code maxKeys / 2} puts since the cache last switched back.
 */
final class KeyCache<K, V extends KeyCache.Entry> {
  /** The per-entry stamp of its last use. */
  abstract static class Entry {
    long used;
  }

  private final int maxKeys;
  private HashMap<K, V> map = new HashMap<>();
  private boolean ordered;
  private long tick;

  KeyCache(int maxKeys) {
    this.maxKeys = maxKeys;
  }

  /** The entry of {@code key}, marked as used now, or null. */
  V get(Object key) {
    V v = map.get(key);
    if (v != null) {
      v.used = ++tick;
    }
    return v;
  }

  /** Adds the entry of a key not in the cache, used now. */
  void put(K key, V v) {
    v.used = ++tick;
    map.put(key, v);
  }

  /** Removes the entry of {@code key} (none: nothing). */
  V remove(Object key) {
    V v = map.remove(key);
    if (ordered && map.size() <= maxKeys / 2) {
      map = new HashMap<>(map);
      ordered = false;
    }
    return v;
  }

  /** Removes and returns the least recently used entry (the cache is not empty). */
  V removeEldest() {
    if (!ordered) {
      ArrayList<Map.Entry<K, V>> all = new ArrayList<>(map.entrySet());
      all.sort((a, b) -> Long.compare(a.getValue().used, b.getValue().used));
      LinkedHashMap<K, V> m = new LinkedHashMap<>(Math.max(16, (int) (all.size() / 0.75f) + 1), 0.75f, true);
      for (Map.Entry<K, V> e : all) {
        m.put(e.getKey(), e.getValue());
      }
      map = m;
      ordered = true;
    }
    var it = map.values().iterator();
    V v = it.next();
    it.remove();
    return v;
  }

  int size() {
    return map.size();
  }

  /** The entries, in no particular order (not to be changed while walked). */
  Collection<V> values() {
    return map.values();
  }

  /** Whether the recency order is kept in the map (for tests). */
  boolean ordered() {
    return ordered;
  }
}

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyCache} against an access-ordered {@code LinkedHashMap} (the reference LRU order) on
 * seeded random traces of hits, misses, puts, removals and evictions down to the cap, as the
 * operator drives it: the same entries, the same eviction victims in the same order.
 */
class KeyCacheTest {
  private static final class E extends KeyCache.Entry {
    final long k;

    E(long k) {
      this.k = k;
    }
  }

  @Test
  void evictsExactlyAsAnAccessOrderedMap() {
    for (int seed = 0; seed < 300; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int max = 1 + rnd.nextInt(seed % 3 == 0 ? 3 : 40);
      int keySpace = max + 1 + rnd.nextInt(3 * max + 2);
      KeyCache<Long, E> cache = new KeyCache<>(max);
      LinkedHashMap<Long, E> ref = new LinkedHashMap<>(16, 0.75f, true);
      int switches = 0;
      boolean wasOrdered = false;
      for (int op = 0; op < 3000; op++) {
        Long key = (long) rnd.nextInt(keySpace);
        int kind = rnd.nextInt(10);
        if (kind < 6) { // a record or timer of the key: hit, or load and cache with evictions
          E got = cache.get(key);
          assertSame(ref.get(key), got, "seed " + seed + " op " + op);
          if (got == null) {
            E e = new E(key);
            cache.put(key, e);
            ref.put(key, e);
            while (cache.size() > max) {
              E old = cache.removeEldest();
              Map.Entry<Long, E> eldest = ref.entrySet().iterator().next();
              ref.remove(eldest.getKey());
              assertSame(eldest.getValue(), old, "seed " + seed + " op " + op + ": victim");
            }
          }
        } else if (kind < 9) { // a key dropped when idle
          assertSame(ref.remove(key), cache.remove(key), "seed " + seed + " op " + op);
          if (cache.size() <= max / 2) {
            assertFalse(cache.ordered(), "unordered at most half full after a removal");
          }
        } else {
          long n = 0;
          HashSet<E> seen = new HashSet<>();
          for (E e : cache.values()) {
            n++;
            seen.add(e);
          }
          assertEquals(ref.size(), n);
          assertEquals(new HashSet<>(ref.values()), seen);
        }
        assertEquals(ref.size(), cache.size());
        assertTrue(cache.size() <= max);
        if (cache.ordered() && !wasOrdered) {
          switches++;
        }
        wasOrdered = cache.ordered();
      }
      assertTrue(switches <= 3000 / Math.max(1, max / 2 + 1) + 1, "switches " + switches);
    }
  }

  @Test
  void staysUnorderedWhileNothingIsEvicted() {
    KeyCache<Long, E> cache = new KeyCache<>(100);
    for (long k = 0; k < 100; k++) {
      cache.put(k, new E(k));
    }
    for (int i = 0; i < 10_000; i++) {
      cache.get((long) (i % 100));
    }
    assertFalse(cache.ordered());
    cache.get(0L);
    cache.put(100L, new E(100));
    assertEquals(1L, cache.removeEldest().k); // 0 was used last of the first 100
    assertTrue(cache.ordered());
  }
}

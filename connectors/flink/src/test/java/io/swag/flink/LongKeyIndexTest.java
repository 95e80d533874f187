package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LongKeyIndex} against {@link HashMap} on seeded random puts, replacements and removals:
 * after every operation, every key of the universe (small ranges, so that runs of probed slots form
 * and removals shift entries back, and the extremes of {@code long}) maps to the same value and the
 * sizes agree; through growth from 16 slots and down to empty.
 */
class LongKeyIndexTest {
  @ParameterizedTest(name = "seed {0}, universe {1}, operations {2}")
  @CsvSource({"1, 8, 2000", "2, 64, 20000", "3, 1000, 50000", "4, 3, 500"})
  void agreesWithAHashMap(long seed, int universe, int operations) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[universe + 4];
    for (int i = 0; i < universe; i++) {
      keys[i] = random.nextBoolean() ? i - universe / 2 : (long) i << 40; // dense, and spread
    }
    keys[universe] = Long.MIN_VALUE;
    keys[universe + 1] = Long.MAX_VALUE;
    keys[universe + 2] = 0;
    keys[universe + 3] = -1;
    LongKeyIndex<String> index = new LongKeyIndex<>();
    Map<Long, String> expected = new HashMap<>();
    for (int op = 0; op < operations; op++) {
      long k = keys[random.nextInt(keys.length)];
      // phases: mostly puts, then mostly removals, so the index grows and empties again
      boolean put = random.nextInt(100) < (op % 1000 < 600 ? 75 : 25);
      if (put) {
        String v = "v" + op;
        index.put(k, v);
        expected.put(k, v);
      } else {
        index.remove(k);
        expected.remove(k);
      }
      int at = op;
      assertEquals(expected.size(), index.size(), () -> "size after operation " + at);
      for (long q : keys) {
        assertSame(expected.get(q), index.get(q), () -> "key " + q + " after operation " + at);
      }
    }
    for (long q : keys) {
      index.remove(q);
    }
    assertEquals(0, index.size());
    for (long q : keys) {
      assertNull(index.get(q));
    }
  }

  /**
   * A run of probed slots that wraps past the table's end: 7 keys whose home slot (the top 4 bits of
   * the key times the golden ratio, in the first table of 16 slots) is 14 or 15, removed in every
   * rotation of their order; after each removal the others are still found.
   */
  @org.junit.jupiter.api.Test
  void aRunThatWrapsPastTheEndShiftsBackAcrossIt() {
    long[] wrapping = new long[7];
    int n = 0;
    for (long k = 1; n < wrapping.length; k++) {
      if ((k * 0x9E3779B97F4A7C15L) >>> 60 >= 14) {
        wrapping[n++] = k;
      }
    }
    for (int rotation = 0; rotation < wrapping.length; rotation++) {
      LongKeyIndex<Long> index = new LongKeyIndex<>();
      for (long k : wrapping) {
        index.put(k, k);
      }
      Map<Long, Long> expected = new HashMap<>();
      for (long k : wrapping) {
        expected.put(k, k);
      }
      for (int i = 0; i < wrapping.length; i++) {
        long gone = wrapping[(rotation + i) % wrapping.length];
        index.remove(gone);
        expected.remove(gone);
        for (long k : wrapping) {
          int r = rotation;
          assertEquals(expected.get(k), index.get(k), () -> "rotation " + r + ", after removing " + gone + ": key " + k);
        }
      }
    }
  }

  @org.junit.jupiter.api.Test
  void clearEmptiesAndNullValuesAreRefused() {
    LongKeyIndex<String> index = new LongKeyIndex<>();
    for (long k = 0; k < 100; k++) {
      index.put(k * 7919, "x" + k);
    }
    assertEquals(100, index.size());
    index.clear();
    assertEquals(0, index.size());
    assertNull(index.get(7919));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> index.put(5, null));
    assertEquals("LongKeyIndex: null value for key 5", e.getMessage());
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Differential: {@link TimeLog} against a {@code TreeMap<Long, List<row>>} (the structure it
 * replaced in {@link KeyWindows}) on seeded random traces of adds, evictions and ceiling queries,
 * in order, out of order and in bursts of equal times; invariants checked after every operation.
 */
class TimeLogTest {
  /** One trace: {@code disorder} = how far back a time may be displaced; {@code dupes} = 1 in n equal times. */
  @ParameterizedTest
  @CsvSource({
      "1, 0, 1, true", "2, 0, 1, false", "3, 5, 1, true", "4, 50, 3, true", "5, 1000, 2, false",
      "6, 100000, 1, true", "7, 700, 20, true", "8, 3, 1, false"})
  void equalsTreeMapReference(long seed, long disorder, int dupes, boolean keepRows) {
    Random r = new Random(seed);
    TimeLog log = new TimeLog(keepRows);
    TreeMap<Long, List<Object>> ref = new TreeMap<>();
    long clock = 0;
    long evicted = Long.MIN_VALUE;
    long size = 0;
    for (int step = 0; step < 60_000; step++) {
      int op = r.nextInt(100);
      if (op < 80) {
        if (r.nextInt(dupes) == 0) {
          clock += r.nextInt(3);
        }
        long t = clock - (disorder > 0 ? (long) r.nextInt((int) Math.min(disorder, Integer.MAX_VALUE)) : 0);
        if (t <= evicted) {
          t = evicted + 1; // callers never add at or below a bound they evicted
        }
        Object row = new Object[] {step};
        log.add(t, row);
        ref.computeIfAbsent(t, k -> new ArrayList<>()).add(row);
        size++;
      } else if (op < 90) {
        long bound = clock - r.nextInt((int) Math.max(2, Math.min(3 * disorder + 50, 100_000)));
        if (bound < evicted) {
          bound = evicted;
        }
        evicted = bound;
        List<Long> heard = new ArrayList<>();
        long n = log.evict(bound, heard::add);
        Map<Long, List<Object>> head = ref.headMap(bound, true);
        long want = 0;
        for (List<Object> v : head.values()) {
          want += v.size();
        }
        assertEquals(new ArrayList<>(head.keySet()), heard, "distinct evicted times at step " + step);
        assertEquals(want, n, "evicted count at step " + step);
        head.clear();
        size -= want;
      } else {
        long q = clock - r.nextInt((int) Math.max(2, Math.min(2 * disorder + 10, 100_000)));
        Long c = ref.ceilingKey(q);
        assertEquals(c == null ? Long.MAX_VALUE : c, log.ceiling(q), "ceiling(" + q + ") at step " + step);
      }
      if (step % 97 == 0 || disorder < 10) {
        log.checkInvariants();
      }
      assertEquals(size, log.size());
      if (!ref.isEmpty()) {
        assertEquals((long) ref.lastKey(), log.last());
      }
    }
    log.checkInvariants();
    List<Object> want = new ArrayList<>();
    List<Long> wantTimes = new ArrayList<>();
    for (Map.Entry<Long, List<Object>> e : ref.entrySet()) {
      for (Object o : e.getValue()) {
        want.add(o);
        wantTimes.add(e.getKey());
      }
    }
    List<Object> got = new ArrayList<>();
    List<Long> gotTimes = new ArrayList<>();
    log.forEach((t, row) -> {
      gotTimes.add(t);
      got.add(row);
    });
    assertEquals(wantTimes, gotTimes);
    if (keepRows) {
      assertEquals(want.size(), got.size());
      for (int i = 0; i < want.size(); i++) {
        assertSame(want.get(i), got.get(i), "row " + i + " (equal times keep arrival order)");
      }
    }
  }

  /** The worst cases of the block layout: every add at the front (splits), then evicting it all. */
  @Test
  void descendingTimesSplitBlocksAndEvictAll() {
    TimeLog log = new TimeLog(true);
    int n = 20 * TimeLog.CAP + 7;
    for (int i = 0; i < n; i++) {
      log.add(n - i, new Object[] {i});
      if (i % 50 == 0) {
        log.checkInvariants();
      }
    }
    log.checkInvariants();
    assertEquals(n, log.size());
    assertEquals(1, log.ceiling(Long.MIN_VALUE));
    assertEquals(n, log.last());
    long[] prev = {0};
    log.forEach((t, row) -> {
      assertEquals(prev[0] + 1, t);
      prev[0] = t;
    });
    assertEquals(n, log.evict(n, null));
    assertTrue(log.isEmpty());
    log.checkInvariants();
    assertEquals(Long.MAX_VALUE, log.ceiling(0));
    log.add(5, null); // reuses a freed block
    assertEquals(5, log.last());
    log.checkInvariants();
  }

  /**
   * {@link TimeLog#ceiling(long, TimeLog.Cursor)} against {@code TreeMap.ceilingKey}: three cursors
   * with rising targets (a window's next-window look-ups; now and then one falls back), interleaved
   * with in-order adds, adds before the youngest time (before and after a cursor's entry), evictions
   * past a cursor (and of whole blocks, and of everything) and gaps of empty time.
   */
  @ParameterizedTest
  @CsvSource({"11, 0, 0", "12, 5, 0", "13, 0, 20", "14, 40, 5", "15, 3000, 2", "16, 0, 1"})
  void cursorCeilingEqualsTreeMap(long seed, long disorder, int gapsPerMille) {
    Random r = new Random(seed);
    TimeLog log = new TimeLog(false);
    TreeMap<Long, Integer> ref = new TreeMap<>();
    TimeLog.Cursor[] cs = {new TimeLog.Cursor(), new TimeLog.Cursor(), new TimeLog.Cursor()};
    long[] target = new long[cs.length];
    long clock = 0;
    long evicted = Long.MIN_VALUE;
    for (int step = 0; step < 80_000; step++) {
      int op = r.nextInt(100);
      if (op < 55) {
        clock += r.nextInt(1000) < gapsPerMille ? 1 + r.nextInt(5 * TimeLog.CAP) : r.nextInt(3);
        long t = clock - (disorder > 0 && r.nextInt(4) == 0 ? r.nextInt((int) disorder + 1) : 0);
        t = Math.max(t, evicted + 1);
        log.add(t, null);
        ref.merge(t, 1, Integer::sum);
      } else if (op < 62) {
        long bound = r.nextInt(50) == 0 ? clock : clock - r.nextInt((int) Math.min(2 * disorder + 3 * TimeLog.CAP, 100_000));
        if (bound > evicted) {
          evicted = bound;
          log.evict(bound, null);
          ref.headMap(bound, true).clear();
        }
      } else {
        int k = r.nextInt(cs.length);
        if (r.nextInt(200) == 0) {
          target[k] = clock - r.nextInt(3 * TimeLog.CAP); // a target below the last: a full search
        } else {
          target[k] += r.nextInt(r.nextInt(20) == 0 ? 4 * TimeLog.CAP : 4);
        }
        Long want = ref.ceilingKey(target[k]);
        assertEquals(want == null ? Long.MAX_VALUE : want, log.ceiling(target[k], cs[k]),
            "cursor " + k + " ceiling(" + target[k] + ") at step " + step);
      }
    }
  }
}

package io.swag.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class AggregatorCacheTest {
  @Test
  void takeRemovesAndOperatorsAreSeparate() {
    AggregatorCache<String, String> c = new AggregatorCache<>();
    c.put("op1", 10, "k", 7L, "tree");
    c.put("op2", 10, "k", 8L, "other");
    AggregatorCache.Entry<String> e = c.take("op1", "k");
    assertEquals(7L, e.version());
    assertEquals("tree", e.value());
    assertNull(c.take("op1", "k"), "taken entries are gone: one task at a time works on a key");
    assertEquals(1, c.size("op2"));
    c.remove("op2", "k");
    assertEquals(0, c.size());
  }

  @Test
  void boundDropsTheLeastRecentlyPutFirst() {
    AggregatorCache<Integer, Integer> c = new AggregatorCache<>();
    int max = 100;
    Random rnd = new Random(3);
    Set<Integer> recent = new HashSet<>();
    java.util.ArrayDeque<Integer> order = new java.util.ArrayDeque<>();
    for (int i = 0; i < 10_000; i++) {
      int k = rnd.nextInt(1_000);
      c.put("op", max, k, i, k);
      order.remove(k);
      order.addLast(k);
      assertTrue(c.size("op") <= max, "size " + c.size("op") + " after put " + i);
    }
    // the 90 most recently put keys survive every trim (a trim keeps 90% of the bound)
    java.util.Iterator<Integer> it = order.descendingIterator();
    for (int i = 0; i < 90 && it.hasNext(); i++) {
      recent.add(it.next());
    }
    for (int k : recent) {
      AggregatorCache.Entry<Integer> e = c.take("op", k);
      assertTrue(e != null && e.value() == k, "recent key " + k + " was dropped");
    }
  }

  @Test
  void theCacheOfAnOperatorLeftIdleGoesAtTheNextPut() {
    long[] now = {0};
    long minute = 60_000_000_000L;
    AggregatorCache<String, String> c = new AggregatorCache<>(() -> now[0], 30 * minute);
    c.put("stopped", 10, "a", 1L, "x");
    c.put("stopped", 10, "b", 1L, "y");
    c.put("running", 10, "a", 1L, "z");
    for (int m = 1; m <= 40; m++) { // "running" has a batch every minute; "stopped" never again
      now[0] = m * minute;
      AggregatorCache.Entry<String> e = c.take("running", "a");
      assertEquals("z", e.value(), "minute " + m);
      c.put("running", 10, "a", e.version(), e.value());
      if (m <= 30) {
        assertEquals(2, c.size("stopped"), "minute " + m + ": not idle long enough yet");
      }
    }
    assertEquals(0, c.size("stopped"), "idle for 40 minutes");
    assertEquals(1, c.operators());
    assertEquals(1, c.size("running"));
    // an operator that comes back after its cache went starts empty and works as before
    assertNull(c.take("stopped", "a"));
    c.put("stopped", 10, "a", 2L, "x2");
    assertEquals("x2", c.take("stopped", "a").value());
  }

  @Test
  void zeroTurnsCachingOffAndOneKeepsOne() {
    AggregatorCache<String, String> c = new AggregatorCache<>();
    c.put("op", 0, "a", 1L, "x");
    assertEquals(0, c.size());
    c.put("op", 1, "a", 1L, "x");
    c.put("op", 1, "b", 2L, "y");
    assertEquals(1, c.size("op"));
    assertEquals("y", c.take("op", "b").value());
  }

  @Test
  void concurrentTasksStayWithinTheBound() throws Exception {
    AggregatorCache<Integer, Integer> c = new AggregatorCache<>();
    int max = 50;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Future<?>[] fs = new Future<?>[4];
      for (int t = 0; t < fs.length; t++) {
        int part = t;
        fs[t] = pool.submit(() -> {
          for (int i = 0; i < 20_000; i++) {
            int k = part * 1_000_000 + (i % 300); // disjoint keys per task, like Spark partitions
            AggregatorCache.Entry<Integer> e = c.take("op", k);
            assertTrue(e == null || e.value() == k);
            c.put("op", max, k, i, k);
          }
        });
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(c.size("op") <= max + 4, "size " + c.size("op")); // puts racing a trim may add one each
    // 1200 keys went through: a trim keeps 90% of the bound, so the cache is not emptied either
    assertTrue(c.size("op") >= max - max / 10, "size " + c.size("op"));
  }
}

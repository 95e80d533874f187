package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.fifo.DabaLite;
import io.swag.core.fn.Functions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.api.dataview.MapView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential: the state-backed DABA Lite ({@link StateDabaLite}) against swag-core's
 * {@link DabaLite} on seeded random insert/evict sequences: after every step the same pointer
 * offsets, the same deque partials, the same {@code aggRA}, {@code aggB} and query; the aggregator
 * is dropped and resumed from its fields and the view at random batch boundaries (what Flink does
 * between timestamps); the view never holds a chunk without live positions. And the state work of
 * a batch does not grow with the frame.
 */
class StateDabaLiteTest {

  /** A map view counting its accesses (what a state-backed one would read and write). */
  static final class CountingView extends MapView<Long, byte[]> {
    long ops;

    @Override
    public byte[] get(Long key) throws Exception {
      ops++;
      return super.get(key);
    }

    @Override
    public void put(Long key, byte[] value) throws Exception {
      ops++;
      super.put(key, value.clone()); // a state backend keeps bytes, not our array
    }

    @Override
    public void remove(Long key) throws Exception {
      ops++;
      super.remove(key);
    }
  }

  /** The store of a resumed aggregator: its fields as the accumulator keeps them. */
  static final class Saved {
    long[] ptr = new long[6];
    byte[] aggRA;
    byte[] aggB;
  }

  static StateDabaLite resume(AggregateFunction<?, ?, ?> fn, MapView<Long, byte[]> view, int c, Saved s) {
    return new StateDabaLite(fn, view, c, s.ptr, s.aggRA, s.aggB);
  }

  static void save(StateDabaLite d, Saved s) {
    d.flush();
    s.ptr = d.pointers();
    s.aggRA = d.aggRABytes();
    s.aggB = d.aggBBytes();
  }

  static Object value(String fn, Random r) {
    if (fn.equals("hll")) {
      return r.nextBoolean() ? (Object) ("s" + r.nextInt(300)) : (Object) (long) r.nextInt(300);
    }
    return (double) (r.nextInt(2000) - 1000) / (r.nextInt(4) + 1);
  }

  static boolean samePartial(AggregateFunction<?, ?, ?> fn, Object x, Object y) {
    if (x instanceof double[] dx) {
      return Arrays.equals(dx, (double[]) y);
    }
    if (x instanceof long[] lx) {
      return Arrays.equals(lx, (long[]) y);
    }
    @SuppressWarnings("unchecked")
    AggregateFunction<Object, Object, Object> g = (AggregateFunction<Object, Object, Object>) fn;
    return java.util.Objects.equals(g.lower(x), g.lower(y));
  }

  /**
   * {@code steps} random steps on a frame whose target size wanders up to {@code maxSize}; batches
   * of 1..{@code maxBatch} steps between resumes.
   */
  static void differential(String name, long seed, int steps, int maxSize, int maxBatch, int chunk) {
    AggregateFunction<?, ?, ?> fn = Functions.byName(name);
    DabaLite core = new DabaLite(fn);
    CountingView view = new CountingView();
    Saved saved = new Saved();
    StateDabaLite d = resume(fn, view, chunk, saved);
    Random r = new Random(seed);
    long seq = 0;
    java.util.ArrayDeque<Object> raw = new java.util.ArrayDeque<>();
    int target = 1 + r.nextInt(maxSize);
    int untilResume = 1 + r.nextInt(maxBatch);
    int fullChecks = 0;
    for (int step = 0; step < steps; step++) {
      if (r.nextInt(200) == 0) {
        target = 1 + r.nextInt(maxSize);
      }
      boolean insert = core.size() == 0 || (core.size() < target ? r.nextInt(10) < 7 : r.nextInt(10) < 3);
      if (insert) {
        Object v = value(name, r);
        core.insertArg(v, seq);
        d.insert(v);
        raw.addLast(v);
        seq++;
      } else {
        assertEquals(raw.pollFirst(), d.oldest(), "oldest value");
        core.evict();
        d.evict();
      }
      String at = name + " seed " + seed + " step " + step;
      assertEquals(core.size(), d.size(), at);
      assertArrayEquals(core.pointers(), d.offsets(), at);
      Object q = core.size() == 0 ? null : core.query();
      assertEquals(q, d.size() == 0 ? null : d.query(), at);
      assertTrue(samePartial(fn, core.aggRA(), d.aggRA()), at + " aggRA");
      assertTrue(samePartial(fn, core.aggB(), d.aggB()), at + " aggB");
      if (step % 97 == 0 || core.size() < 40) {
        for (int i = 0; i < core.size(); i++) {
          assertTrue(samePartial(fn, core.at(i), d.at(i)), at + " element " + i);
        }
        fullChecks++;
      }
      if (--untilResume == 0) {
        save(d, saved);
        checkView(view, saved.ptr[0], saved.ptr[5], chunk, at);
        d = resume(fn, view, chunk, saved);
        untilResume = 1 + r.nextInt(maxBatch);
      }
    }
    assertTrue(fullChecks > steps / 100, "element checks: " + fullChecks);
  }

  /** No entry wholly below front or at/above end; every chunk with live positions present. */
  static void checkView(MapView<Long, byte[]> view, long front, long end, int c, String at) {
    try {
      for (Long k : view.keys()) {
        assertTrue((k + 1) * c > front && k * c < end, at + ": chunk " + k + " outside [" + front + ", " + end + ")");
      }
      for (long k = front / c; front < end && k * c < end; k++) {
        assertTrue(view.contains(k), at + ": chunk " + k + " missing");
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"max", "min", "sum", "first", "last", "stddev", "argmax"})
  void equalsCoreDabaLite(String fn) {
    for (long seed = 1; seed <= 3; seed++) {
      differential(fn, seed, 6000, 300, 40, 32);
      differential(fn, seed + 100, 3000, 40, 5, 4); // small chunks: many chunk boundaries
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"hll", "median"})
  void equalsCoreDabaLiteForSketches(String fn) {
    // at most 150 values in a frame: KLL keeps them all (no random compaction), so both agree exactly
    differential(fn, 7, 2500, 150, 30, 1);
    differential(fn, 8, 1500, 150, 30, 3);
  }

  @Test
  void sketchesGetOneSlotPerChunkNumbersMany() {
    assertEquals(1, StateDabaLite.slotsPerChunk(Functions.byName("hll")));
    assertEquals(1, StateDabaLite.slotsPerChunk(Functions.byName("kll", Map.of("rank", 0.5))));
    assertEquals(32, StateDabaLite.slotsPerChunk(Functions.byName("max")));
    assertEquals(32, StateDabaLite.slotsPerChunk(Functions.byName("stddev")));
  }

  @Test
  void aRejectedValueChangesNothing() {
    AggregateFunction<?, ?, ?> fn = Functions.byName("max");
    StateDabaLite d = resume(fn, new MapView<>(), 32, new Saved());
    d.insert(3.0);
    d.insert(5.0);
    assertThrows(IllegalArgumentException.class, () -> d.insert(Double.NaN));
    assertEquals(2, d.size());
    assertEquals(5.0, d.query());
    d.evict();
    d.evict();
    assertEquals(0, d.size());
  }

  @Test
  void aMissingChunkIsAnError() throws Exception {
    AggregateFunction<?, ?, ?> fn = Functions.byName("max");
    MapView<Long, byte[]> view = new MapView<>();
    Saved s = new Saved();
    StateDabaLite d = resume(fn, view, 4, s);
    for (int i = 0; i < 10; i++) {
      d.insert((double) i);
    }
    save(d, s);
    view.remove(1L); // positions 4..7
    StateDabaLite resumed = resume(fn, view, 4, s);
    OverStateException x = assertThrows(OverStateException.class, () -> {
      for (int i = 0; i < 10; i++) {
        resumed.evict();
        resumed.query();
      }
    });
    assertTrue(x.getMessage().contains("chunk 1"), x.getMessage());
  }

  /**
   * Per batch of {@code batch} rows (evict the oldest, insert, query; then the accumulator is
   * written back and resumed), the most view accesses once the frame is full, over two frames' worth
   * of rows (so that every phase of DABA Lite, flips included, occurs).
   */
  static long[] accessesPerBatch(int frame, int batch) {
    int batches = Math.max(3_000, 2 * frame / batch + 100);
    AggregateFunction<?, ?, ?> fn = Functions.byName("max");
    CountingView view = new CountingView();
    Saved s = new Saved();
    StateDabaLite d = resume(fn, view, 32, s);
    Random r = new Random(frame);
    for (int i = 0; i < frame; i++) {
      d.insert((double) r.nextInt(1000));
      if (i % 1000 == 999) {
        save(d, s);
        d = resume(fn, view, 32, s);
      }
    }
    save(d, s);
    long max = 0;
    long total = 0;
    List<Long> perBatch = new ArrayList<>();
    for (int k = 0; k < batches; k++) {
      long before = view.ops;
      d = resume(fn, view, 32, s);
      for (int i = 0; i < batch; i++) {
        d.evict();
        d.insert((double) r.nextInt(1000));
        d.query();
      }
      save(d, s);
      long ops = view.ops - before;
      perBatch.add(ops);
      max = Math.max(max, ops);
      total += ops;
    }
    assertTrue(perBatch.stream().allMatch(x -> x > 0), "every batch writes the view");
    return new long[] {max, total / batches};
  }

  @Test
  void stateWorkPerBatchDoesNotGrowWithTheFrame() {
    for (int batch : new int[] {1, 25}) {
      long[] small = accessesPerBatch(1_000, batch);
      long[] large = accessesPerBatch(100_000, batch);
      // a batch moves F, L, A and E by about its size: the chunks under them (at most 8 for one
      // row: F, F+1, E, L, L+1, A-2, A-1, A) are read once and written once, plus a removal
      long bound = batch == 1 ? 16 : 28;
      assertTrue(small[0] <= bound, "frame 1,000, batch " + batch + ": " + small[0] + " view accesses");
      assertTrue(large[0] <= bound, "frame 100,000, batch " + batch + ": " + large[0] + " view accesses");
      if (batch == 25) {
        // chunks of 32 slots: under one access per row on average
        assertTrue(large[1] < batch, "frame 100,000: " + large[1] + " view accesses per batch of " + batch);
      }
    }
  }
}

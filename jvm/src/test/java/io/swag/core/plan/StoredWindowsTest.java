package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StoredWindows} driven as the Flink operator drives it (one record at a time, the watermark
 * after each record, due timers fired), against {@link NaiveOracle} on seeded out-of-order streams
 * with late records. At random steps keys are flushed to an in-memory {@link EntryStore} (a
 * checkpoint) and at others dropped and rebuilt from store and meta (a cache eviction or a restore),
 * so results after a rebuild must equal an uninterrupted run's. Checked after every flush, without
 * reading the class's own bookkeeping: a slices store holds exactly the slices (start to partial)
 * that still have accepted records above the evicted time, a flush puts one entry per slice touched
 * since the last one (so a late record rewrites only its slice) and nothing else; a rows store's
 * chunks hold exactly the accepted records not yet evicted (as a multiset), and a flush writes one
 * chunk at most.
 */
class StoredWindowsTest {

  /** An in-memory store that counts its puts and removes. */
  static final class MapStore implements EntryStore {
    final TreeMap<Long, byte[]> map = new TreeMap<>();
    int puts;
    int removes;
    List<Long> putIds = new ArrayList<>();

    @Override
    public byte[] get(long id) {
      return map.get(id);
    }

    @Override
    public void put(long id, byte[] bytes) {
      map.put(id, bytes.clone());
      puts++;
      putIds.add(id);
    }

    @Override
    public void remove(long id) {
      map.remove(id);
      removes++;
    }

    @Override
    public void clear() {
      map.clear();
    }

    @Override
    public void forEach(Visitor v) throws Exception {
      for (Map.Entry<Long, byte[]> e : map.entrySet()) {
        v.visit(e.getKey(), e.getValue().clone());
      }
    }
  }

  /** A key as the operator keeps it: windows, store, meta bytes after the last flush. */
  static final class Key {
    StoredWindows w;
    final MapStore store = new MapStore();
    byte[] meta;
    /** Test-side log: slice start (or time) of every accepted record not yet known evicted. */
    final List<long[]> accepted = new ArrayList<>(); // {time, slice start, value}
    final TreeSet<Long> touched = new TreeSet<>();
    /** While dropped from the cache: the earliest timer it has registered (its windows', the cold path's). */
    long timer = Long.MAX_VALUE;
  }

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    long seed = 500;
    for (long lateness : new long[] {0, 150}) {
      l.add(Arguments.of("rows", ExecutorDifferentialTest.spec("window_end", "out_of_order", lateness,
          ExecutorDifferentialTest.SHARED), null, seed++));
      l.add(Arguments.of("slices", ExecutorDifferentialTest.spec("window_end", "out_of_order", lateness,
          KeyWindowsEngineTest.MERGEABLE), null, seed++));
    }
    // the planner's own slicing of a non-mergeable group (a SlicedAggregator under the rows store)
    l.add(Arguments.of("rows", ExecutorDifferentialTest.spec("window_end", "out_of_order", 150,
        ExecutorDifferentialTest.SHARED), (UnaryOperator<GroupPlan>) g -> g.withSlicing(true), seed++));
    // a planned slicing of a mergeable group: storedGroups replaces it by stored slices
    l.add(Arguments.of("slices", ExecutorDifferentialTest.spec("window_end", "out_of_order", 150,
        KeyWindowsEngineTest.MERGEABLE), (UnaryOperator<GroupPlan>) g -> g.withSlicing(true), seed++));
    l.add(Arguments.of("slices", ExecutorDifferentialTest.spec("window_end", "unknown", 40,
        KeyWindowsEngineTest.MERGEABLE), (UnaryOperator<GroupPlan>) g -> g.withAlgorithm("adaptive", 8), seed++));
    l.add(Arguments.of("rows", ExecutorDifferentialTest.spec("per_record", "out_of_order", 60,
        ExecutorDifferentialTest.win("a", 100, 100, 0), ExecutorDifferentialTest.win("b", 300, 10, 0)), null, seed++));
    return l.stream();
  }

  /** Without flushes (a job without checkpoints) what a key holds for the next flush stays O(window). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void withoutFlushesTheHeldDataStaysBoundedByTheWindow(String layout) {
    QuerySpec spec = ExecutorDifferentialTest.spec("window_end", "out_of_order", 0, layout.equals("slices")
        ? KeyWindowsEngineTest.MERGEABLE : ExecutorDifferentialTest.SHARED);
    WindowGroup g = WindowGroup.storedGroups(Planner.plan(spec), List.of("k", "t", "v"), false).get(0);
    StoredWindows w = new StoredWindows(g, 1);
    KeyWindows.WindowOutput none = (i, s, e, r) -> { };
    long maxHeld = 0;
    Random rnd = new Random(7);
    for (long t = 0; t < 200_000; t++) {
      long rt = t - rnd.nextInt(20); // a little out of order
      w.insert(rt, new Object[] {"k", rt, (double) (t % 13)}, t - 30, none);
      if (t % 50 == 0) {
        w.windows().fire(t - 30, none);
      }
      maxHeld = Math.max(maxHeld, w.heldSinceFlush());
    }
    // largest window 300 ms (+ 30 ms watermark delay); slices of 10 ms: about 34 live slices; rows:
    // 330 live rows of at most 30 bytes, and two 64 KB segments
    long bound = layout.equals("slices") ? 2 * 40 + 16 : 330 * 30 + 2 * (64 << 10) + 1024;
    assertTrue(maxHeld <= bound, layout + ": held " + maxHeld + " > " + bound);
    assertTrue(maxHeld > 0);
  }

  static Stream<String> layouts() {
    return Stream.of("slices", "rows");
  }

  @ParameterizedTest(name = "{0} {1} seed {3}")
  @MethodSource("cases")
  void storedEqualsOracle(String layout, QuerySpec spec, UnaryOperator<GroupPlan> change, long seed) throws Exception {
    Plan plan = Planner.plan(spec);
    if (change != null) {
      plan = plan.withGroup(0, change.apply(plan.groups().get(0)));
    }
    List<WindowGroup> groups = WindowGroup.storedGroups(plan, List.of("k", "t", "v"), false);
    WindowGroup g = groups.get(0);
    boolean slices = layout.equals("slices");
    assertEquals(slices, g.preaggregates());
    assertFalse(slices && g.plan().slicing(), "stored slices replace the planner's sliced aggregator");
    long width = g.plan().sliceMs();
    List<Map<String, Object>> records = ExecutorDifferentialTest.stream(seed, 2000, 4, 40, 0.03);
    NaiveOracle or = new NaiveOracle(plan.spec());
    Map<String, Key> keys = new TreeMap<>();
    Map<String, String> got = new HashMap<>();
    Map<String, String> want = new HashMap<>();
    Map<String, Integer> emits = new HashMap<>();
    Random rnd = new Random(seed);
    long late = 0;
    long wm = Long.MIN_VALUE;
    long max = Long.MIN_VALUE;
    int flushes = 0;
    int reloads = 0;
    int colds = 0;
    ColdSlices cold = slices ? new ColdSlices(g) : null;
    byte[] emptyMeta = metaOf(new StoredWindows(g, 1));
    ByteArrayOutputStream empty = new ByteArrayOutputStream();
    StoredWindows.writeEmptyMetas(2, new DataOutputStream(empty));
    ByteArrayOutputStream two = new ByteArrayOutputStream();
    StoredWindows.writeMetas(new StoredWindows[] {new StoredWindows(g, 1), new StoredWindows(g, 1)},
        new DataOutputStream(two));
    assertArrayEquals(two.toByteArray(), empty.toByteArray(), "the metas of empty groups");
    int step = 0;
    for (Map<String, Object> r : records) {
      or.process(r);
      long t = ((Number) r.get("t")).longValue();
      max = Math.max(max, t);
      String k = (String) r.get("k");
      if (!g.accepts(t, wm)) {
        late++;
      } else {
        Key key = keys.computeIfAbsent(k, x -> new Key());
        Object[] row = {k, t, r.get("v")};
        long fire = cold == null || key.w != null ? Long.MIN_VALUE : cold.fireTime(t, wm);
        if (fire != Long.MIN_VALUE) { // a key not in the cache: the record goes into its stored slice
          cold.insert(t, row, key.store);
          if (key.meta == null) {
            key.meta = emptyMeta;
          }
          key.timer = Math.min(key.timer, fire);
          key.accepted.add(new long[] {t, Math.floorDiv(t, width) * width, ((Number) r.get("v")).longValue()});
          colds++;
        } else {
          if (key.w == null) {
            key.w = key.meta == null ? new StoredWindows(g, 1) : reload(g, key);
            key.timer = Long.MAX_VALUE;
          }
          key.w.insert(t, row, wm, new KeyWindowsEngineTest.Out(g, k, got, emits));
          long s = slices ? Math.floorDiv(t, width) * width : t;
          key.accepted.add(new long[] {t, s, ((Number) r.get("v")).longValue()});
          key.touched.add(s);
        }
      }
      long next = max - 30;
      if (next > wm) {
        wm = next;
        or.advance(wm);
        for (Map.Entry<String, Key> e : keys.entrySet()) {
          Key key = e.getValue();
          if (key.w == null) {
            if (key.meta == null || key.timer > wm) {
              continue;
            }
            key.w = reload(g, key); // a timer of a key not in the cache
            key.timer = Long.MAX_VALUE;
          }
          KeyWindows kw = key.w.windows();
          if (kw.nextTimer() <= wm) {
            key.w.windows().fire(wm, new KeyWindowsEngineTest.Out(g, e.getKey(), got, emits));
          }
        }
      }
      KeyWindowsEngineTest.latest(or.rows, want);
      or.rows.clear();
      if (step % 10 == 0) {
        assertEquals(want, got, "latest rows after step " + step);
      }
      step++;
      // every third case flushes rarely (deltas compact), every third after almost every record (a
      // SQL function writes through), the others every 20 records or so
      int dice = rnd.nextInt(seed % 3 == 0 ? 400 : seed % 3 == 1 ? 3 : 40);
      if (dice < 2) { // a checkpoint: flush every changed key
        for (Key key : keys.values()) {
          if (key.w != null) {
            flush(key, slices, g, wm);
            flushes++;
          }
        }
      } else if (dice == 2) { // the cache drops a key: flush it, rebuild it later
        Key key = keys.get("k" + rnd.nextInt(4));
        if (key != null && key.w != null) {
          flush(key, slices, g, wm);
          key.timer = key.w.windows().nextTimer();
          key.w = null;
          reloads++;
        }
      }
    }
    or.finish();
    for (Map.Entry<String, Key> e : keys.entrySet()) {
      Key key = e.getValue();
      if (key.w == null) {
        key.w = reload(g, key);
      }
      key.w.windows().fire(Long.MAX_VALUE, new KeyWindowsEngineTest.Out(g, e.getKey(), got, emits));
      assertTrue(key.w.windows().isIdle());
    }
    KeyWindowsEngineTest.latest(or.rows, want);
    assertEquals(want, got, "latest rows at the end");
    assertEquals(or.lateTotal, late, "late records");
    assertTrue(late > 5, "late records made: " + late);
    assertTrue(seed % 3 == 0 ? flushes > 2 && reloads > 0 : flushes > 20 && reloads > 10,
        "flushes " + flushes + ", reloads " + reloads);
    assertTrue(!slices || colds > (seed % 3 == 0 ? 0 : 50), "records on the cold path: " + colds);
  }

  private static byte[] metaOf(StoredWindows w) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    w.writeMeta(new DataOutputStream(b));
    return b.toByteArray();
  }

  private static StoredWindows reload(WindowGroup g, Key key) throws Exception {
    return StoredWindows.load(g, 1, new DataInputStream(new ByteArrayInputStream(key.meta)), key.store);
  }

  /** Flushes a key and checks the store against the test's own log of accepted records. */
  private static void flush(Key key, boolean slices, WindowGroup g, long wm) throws Exception {
    key.store.puts = 0;
    key.store.putIds.clear();
    int chunksBefore = key.store.map.size();
    key.w.flush(key.store);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    key.w.writeMeta(new DataOutputStream(b));
    key.meta = b.toByteArray();
    assertEquals(StoredWindows.META_BYTES, key.meta.length);
    long evicted = g.evictBound(key.w.windows().firedWatermark());
    // what must be stored: accepted records above what the windows can no longer need
    key.accepted.removeIf(a -> a[1] <= evicted);
    if (slices) {
      TreeMap<Long, List<Long>> live = new TreeMap<>();
      for (long[] a : key.accepted) {
        live.computeIfAbsent(a[1], x -> new ArrayList<>()).add(a[2]);
      }
      // stored slices above the evicted bound are exactly the live ones (older ones may wait for the
      // next flush after the windows evict them)
      assertEquals(live.keySet(), key.store.map.tailMap(evicted, false).keySet(), "stored slices");
      for (Map.Entry<Long, List<Long>> e : live.entrySet()) {
        ProductPartials p = (ProductPartials) g.function().newPartials();
        p.resize(1);
        p.read(0, java.nio.ByteBuffer.wrap(key.store.map.get(e.getKey())));
        @SuppressWarnings("unchecked")
        List<Object> res = (List<Object>) p.lower(0);
        assertEquals((long) e.getValue().size(), ((Number) res.get(0)).longValue(), "count of slice " + e.getKey());
        assertEquals(e.getValue().stream().mapToLong(Long::longValue).sum(), ((Number) res.get(1)).longValue(),
            "sum of slice " + e.getKey());
      }
      TreeSet<Long> want = new TreeSet<>();
      for (long s : key.touched) {
        if (s > evicted) {
          want.add(s);
        }
      }
      assertEquals(want, new TreeSet<>(key.store.putIds),
          "a flush writes exactly the live slices touched since the last one");
      assertEquals(key.store.putIds.size(), want.size(), "one put per slice");
    } else {
      assertTrue(key.store.puts <= 1, "one chunk per flush, got " + key.store.puts);
      List<Long> stored = new ArrayList<>();
      for (Map.Entry<Long, byte[]> chunk : key.store.map.entrySet()) {
        boolean live = false;
        for (Object[] row : RowCodec.decode(chunk.getValue())) {
          long t = (Long) row[1];
          if (t > evicted) {
            stored.add(t * 1000 + ((Number) row[2]).longValue());
            live = true;
          }
        }
        assertTrue(live, "chunk " + chunk.getKey() + " has no row above the evicted bound " + evicted);
      }
      List<Long> wantRows = new ArrayList<>();
      for (long[] a : key.accepted) {
        wantRows.add(a[0] * 1000 + a[2]);
      }
      stored.sort(null);
      wantRows.sort(null);
      assertEquals(wantRows, stored, "stored rows above the evicted bound");
      assertTrue(key.store.map.size() <= chunksBefore + 1);
    }
    key.touched.clear();
  }

  @Test
  void aRefusedValueChangesNothing() throws Exception {
    Plan plan = Planner.plan(ExecutorDifferentialTest.spec("window_end", "out_of_order", 0,
        KeyWindowsEngineTest.MERGEABLE));
    WindowGroup g = WindowGroup.storedGroups(plan, List.of("k", "t", "v"), false).get(0);
    for (boolean slices : new boolean[] {true, false}) {
      WindowGroup grp = slices ? g : WindowGroup.storedGroups(Planner.plan(ExecutorDifferentialTest.spec(
          "window_end", "out_of_order", 0, ExecutorDifferentialTest.SHARED)), List.of("k", "t", "v"), false).get(0);
      StoredWindows w = new StoredWindows(grp, 1);
      assertEquals(slices, w.storesSlices());
      KeyWindows.WindowOutput none = (i, s, e, r) -> { };
      w.insert(5, new Object[] {"a", 5L, 1.0}, Long.MIN_VALUE, none);
      assertThrows(IllegalArgumentException.class,
          () -> w.insert(6, new Object[] {"a", 6L, Double.NaN}, Long.MIN_VALUE, none));
      MapStore store = new MapStore();
      w.flush(store);
      assertEquals(1, store.map.size());
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      w.writeMeta(new DataOutputStream(b));
      StoredWindows back = StoredWindows.load(grp, 1, new DataInputStream(new ByteArrayInputStream(b.toByteArray())),
          store);
      assertEquals(1, back.windows().entries(), "the refused record left nothing behind");
    }
  }

  /**
   * An in-order plan keeps its FIFO while every slice holds one record (a flush reads each slice from
   * the FIFO's entries), and moves a key to its tree at its first record that shares a slice.
   */
  @Test
  void anInOrderFifoServesSlicesOfOneRecordAndSwitchesAtTheFirstShared() throws Exception {
    QuerySpec spec = ExecutorDifferentialTest.spec("window_end", "in_order", 0, KeyWindowsEngineTest.MERGEABLE[1]); // one window: the in-order plan
    WindowGroup g = WindowGroup.storedGroups(Planner.plan(spec), List.of("k", "t", "v"), false).get(0);
    assertTrue(g.preaggregates());
    StoredWindows w = new StoredWindows(g, 1);
    AdaptiveAggregator a = (AdaptiveAggregator) w.windows().aggregator();
    KeyWindows.WindowOutput none = (i, s, e, r) -> { };
    for (long t = 3; t < 10_000; t += 100) { // one record per 100 ms slice
      w.insert(t, new Object[] {"k", t, (double) (t % 7)}, t - 1, none);
    }
    assertTrue(a.fifo() != null, "slices of one record: still the FIFO");
    MapStore store = new MapStore();
    w.flush(store);
    long evicted = g.evictBound(w.windows().firedWatermark());
    int live = 0;
    for (long t = 3; t < 10_000; t += 100) {
      long s = t - 3;
      if (s > evicted) {
        live++;
        ProductPartials p = (ProductPartials) g.function().newPartials();
        p.resize(1);
        p.read(0, java.nio.ByteBuffer.wrap(store.map.get(s)));
        @SuppressWarnings("unchecked")
        List<Object> res = (List<Object>) p.lower(0);
        assertEquals(1L, ((Number) res.get(0)).longValue(), "count of slice " + s);
        assertEquals((double) (t % 7), ((Number) res.get(1)).doubleValue(), "sum of slice " + s);
      }
    }
    assertEquals(live, store.map.tailMap(evicted, false).size());
    assertTrue(live >= 3, "live slices " + live);
    Object before = w.windows().aggregator().query(9000, 9799);
    w.insert(9950, new Object[] {"k", 9950L, 5.0}, 9949, none); // shares slice 9900 with the record at 9903
    assertTrue(a.fifo() == null, "a shared slice switches the key to its tree");
    assertEquals(before, w.windows().aggregator().query(9000, 9799));
    @SuppressWarnings("unchecked")
    List<Object> r = (List<Object>) w.windows().aggregator().query(9900, 9999);
    assertEquals(2L, ((Number) r.get(0)).longValue(), "count of the shared slice");
    assertEquals(5.0 + 9903 % 7, ((Number) r.get(1)).doubleValue(), "sum of the shared slice");
  }

  @Test
  void aGroupSlicedByThePlannerIsRefusedUnlessBuiltForStorage() {
    Plan plan = Planner.plan(ExecutorDifferentialTest.spec("window_end", "out_of_order", 0,
        KeyWindowsEngineTest.MERGEABLE));
    plan = plan.withGroup(0, plan.groups().get(0).withSlicing(true));
    WindowGroup planned = WindowGroup.timeGroups(plan, List.of("k", "t", "v"), false).get(0);
    assertThrows(IllegalArgumentException.class, () -> new StoredWindows(planned, 1));
  }
}

package io.swag.core.plan;

import io.swag.core.Swag;
import io.swag.core.TimedAggregator;
import io.swag.core.ooo.Trees;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The time windows of a query: per key one shared timed aggregator (plan algorithm: a FiBA tree,
 * or an {@link AdaptiveAggregator} for the in-order algorithms, optionally behind a
 * {@link SlicedAggregator}); every window is a range query {@code [start, end - 1]} of it.
 *
 * <p>{@code window_end} (docs/query-spec.md): a window fires, for each key with records in it, when
 * the watermark reaches {@code end - 1}. Per key and window it keeps one timer: the earliest
 * non-empty unfired window; after it fires, the next non-empty window is found from the key's
 * record times ({@code TreeMap}, O(log n)), so firing costs O(log n) per emitted row, never
 * O(size/slide) per record. A record is accepted while, for some window containing it,
 * {@code end - 1 + lateness > watermark}; an accepted record emits at once an updated row for each
 * window containing it that already fired and is still within lateness. Eviction: after the
 * watermark moved, entries older than the oldest window still open ({@code end - 1 + lateness >
 * watermark}) are bulk-evicted, lazily when the key is next touched.
 *
 * <p>{@code per_record}: a record at t is accepted iff {@code t + lateness > watermark} and emits per
 * window the aggregate over {@code (t - size, t]} (row {@code window_start = t - size + 1},
 * {@code window_end = t + 1}); entries {@code <= watermark - lateness - maxSize + 1} are evicted.
 */
final class TimeGroupExecutor extends GroupExecutor {
  private final long lateness;
  private final boolean perRecord;
  private final long maxSize;
  private final Map<Object, State> states = new HashMap<>();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();
  private long watermark = Long.MIN_VALUE;
  /** Entries with time <= bound are in no window still needed. */
  private long bound = Long.MIN_VALUE;
  private long timerSeq;

  private final class State {
    final Object key;
    final Object[] keyValues;
    final TimedAggregator agg;
    final TreeMap<Long, int[]> times = new TreeMap<>();
    final long[] nextFire;
    final long[] timerId;
    long evicted = Long.MIN_VALUE;

    State(Object key, Object[] keyValues) {
      this.key = key;
      this.keyValues = keyValues;
      this.agg = newAggregator();
      this.nextFire = new long[windows.length];
      this.timerId = new long[windows.length];
      java.util.Arrays.fill(nextFire, Long.MAX_VALUE);
    }
  }

  private static final class Timer implements Comparable<Timer> {
    final long fire;
    final long id;
    final State state;
    final int window;

    Timer(long fire, long id, State state, int window) {
      this.fire = fire;
      this.id = id;
      this.state = state;
      this.window = window;
    }

    @Override
    public int compareTo(Timer o) {
      int c = Long.compare(fire, o.fire);
      return c != 0 ? c : Long.compare(id, o.id);
    }
  }

  TimeGroupExecutor(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex, List<Map<String, Object>> out) {
    super(spec, plan, columnIndex, out);
    this.lateness = spec.latenessMs();
    this.perRecord = spec.perRecord();
    long m = 0;
    for (WindowSpec w : windows) {
      m = Math.max(m, w.size());
    }
    this.maxSize = m;
    if (plan.slicing()) {
      if (perRecord) {
        throw new IllegalArgumentException("slicing needs emit window_end (per-record windows are not slice-aligned)");
      }
      for (WindowSpec w : windows) {
        if (w.size() % plan.sliceMs() != 0 || w.slide() % plan.sliceMs() != 0 || w.offset() % plan.sliceMs() != 0) {
          throw new IllegalArgumentException("slice width " + plan.sliceMs() + " ms does not divide window "
              + w.name() + " (size, slide, offset)");
        }
      }
    }
    newAggregator(); // fail early on a bad algorithm name
  }

  private TimedAggregator newAggregator() {
    String a = plan.algorithm();
    TimedAggregator agg;
    if (a.equals("adaptive")) {
      agg = new AdaptiveAggregator("daba_lite", plan.treeAlgorithm(), fn);
    } else if (Swag.FIFO_ALGORITHMS.contains(a)) {
      agg = new AdaptiveAggregator(a, plan.treeAlgorithm(), fn);
    } else {
      agg = Trees.create(a, fn);
    }
    return plan.slicing() ? new SlicedAggregator(agg, plan.sliceMs(), fn) : agg;
  }

  @Override
  boolean accepts(long t) {
    if (watermark == Long.MIN_VALUE) {
      return true;
    }
    if (perRecord) {
      return satAdd(t, lateness) > watermark;
    }
    for (WindowSpec w : windows) {
      if (satAdd(satAdd(w.lastStart(t), w.size() - 1), lateness) > watermark) {
        return true;
      }
    }
    return false;
  }

  @Override
  void process(Object key, Object[] keyValues, long t, Object[] row) {
    State s = states.get(key);
    if (s == null) {
      s = new State(key, keyValues);
      states.put(key, s);
    }
    evict(s, false);
    s.agg.insert(t, (Object) row); // a rejected value throws here and changes nothing
    if (perRecord) {
      for (int i = 0; i < windows.length; i++) {
        long from = t - windows[i].size() + 1;
        emit(keyValues, i, from, t + 1, s.agg.query(from, t));
      }
      return;
    }
    int[] c = s.times.get(t);
    if (c == null) {
      s.times.put(t, new int[] {1});
    } else {
      c[0]++;
    }
    for (int i = 0; i < windows.length; i++) {
      WindowSpec w = windows[i];
      long first = w.firstStart(t);
      long last = w.lastStart(t);
      long firstUnfired = first;
      if (watermark != Long.MIN_VALUE) {
        // windows that fired (end - 1 <= wm) and are within lateness (end - 1 + L > wm): update rows
        long lo = Math.max(first, w.alignUp(satAdd(satAdd(watermark, -lateness), 2 - w.size())));
        long hi = Math.min(last, w.lastStart(satAdd(watermark, 1 - w.size())));
        for (long st = lo; st <= hi; st += w.slide()) {
          emit(keyValues, i, st, st + w.size(), s.agg.query(st, st + w.size() - 1));
        }
        firstUnfired = Math.max(first, w.alignUp(satAdd(watermark, 2 - w.size())));
      }
      if (firstUnfired <= last) {
        schedule(s, i, firstUnfired + w.size() - 1);
      }
    }
  }

  private void schedule(State s, int i, long fire) {
    if (fire < s.nextFire[i]) {
      s.nextFire[i] = fire;
      s.timerId[i] = ++timerSeq;
      timers.add(new Timer(fire, timerSeq, s, i));
    }
  }

  @Override
  void advance(long wm) {
    if (wm <= watermark) {
      return;
    }
    watermark = wm;
    long b;
    if (wm == Long.MAX_VALUE) {
      b = Long.MAX_VALUE;
    } else if (perRecord) {
      b = satAdd(satAdd(wm, -lateness), -maxSize + 1);
    } else {
      b = Long.MAX_VALUE;
      for (WindowSpec w : windows) {
        b = Math.min(b, w.alignUp(satAdd(satAdd(wm, -lateness), 2 - w.size())) - 1);
      }
    }
    bound = Math.max(bound, b);
    List<State> fired = new java.util.ArrayList<>();
    while (!timers.isEmpty() && timers.peek().fire <= wm) {
      Timer tm = timers.poll();
      State s = tm.state;
      int i = tm.window;
      if (s.timerId[i] != tm.id || states.get(s.key) != s) {
        continue; // replaced by an earlier timer
      }
      WindowSpec w = windows[i];
      long st = tm.fire - w.size() + 1;
      emit(s.keyValues, i, st, st + w.size(), s.agg.query(st, tm.fire));
      s.nextFire[i] = Long.MAX_VALUE;
      Long t0 = s.times.ceilingKey(st + w.slide());
      if (t0 != null) {
        long next = Math.max(st + w.slide(), w.firstStart(t0));
        schedule(s, i, next + w.size() - 1);
      }
      fired.add(s);
    }
    for (State s : fired) {
      evict(s, true);
    }
  }

  /** Bulk-evicts what no open window needs; drops the key's state once empty without timers. */
  private void evict(State s, boolean mayDrop) {
    if (bound <= s.evicted) {
      return;
    }
    s.evicted = bound;
    s.agg.bulkEvict(bound);
    if (!perRecord) {
      s.times.headMap(bound, true).clear();
    }
    if (mayDrop && s.agg.isEmpty()) {
      for (long f : s.nextFire) {
        if (f != Long.MAX_VALUE) {
          return;
        }
      }
      states.remove(s.key);
    }
  }
}

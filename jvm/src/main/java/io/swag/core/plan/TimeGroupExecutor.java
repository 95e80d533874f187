package io.swag.core.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The time windows of a query in the {@link LocalExecutor}: per key one {@link KeyWindows} of the
 * group's {@link WindowGroup} (which holds the semantics, shared with the engine operators), and one
 * timer queue over all keys so that rows firing at one watermark come out in timer order (window
 * end, then arrival of the timer), as an engine's timer service would emit them.
 *
 * <p>Per key and window one timer: the earliest non-empty unfired window; after it fires, the key
 * schedules its next non-empty window (O(log n)). Eviction: after the watermark moved, entries that
 * no window needs are bulk-evicted, lazily when the key is next touched; a key whose state is empty
 * with nothing pending is dropped.
 */
final class TimeGroupExecutor extends GroupExecutor {
  private final WindowGroup group;
  private final Map<Object, State> states = new HashMap<>();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();
  private long watermark = Long.MIN_VALUE;
  private long timerSeq;

  private final class State implements KeyWindows.WindowOutput {
    final Object key;
    final Object[] keyValues;
    final KeyWindows kw;
    final long[] timerId;
    final long[] scheduled;

    State(Object key, Object[] keyValues) {
      this.key = key;
      this.keyValues = keyValues;
      this.kw = group.newKey(false, false);
      this.timerId = new long[windows.length];
      this.scheduled = new long[windows.length];
      java.util.Arrays.fill(scheduled, Long.MAX_VALUE);
    }

    @Override
    public void emit(int window, long start, long end, List<Object> results) {
      TimeGroupExecutor.this.emit(keyValues, window, start, end, results);
    }

    /** Queues a timer for each window whose next fire moved earlier. */
    void sync() {
      for (int i = 0; i < scheduled.length; i++) {
        long f = kw.nextFire(i);
        if (f < scheduled[i]) {
          scheduled[i] = f;
          timerId[i] = ++timerSeq;
          timers.add(new Timer(f, timerSeq, this, i));
        }
      }
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
    this.group = new WindowGroup(spec, plan, columnIndex, false);
  }

  @Override
  ExecutedPlan.Group executed() {
    return group.executed();
  }

  @Override
  boolean accepts(long t) {
    return group.accepts(t, watermark);
  }

  @Override
  void process(Object key, Object[] keyValues, long t, Object[] row) {
    State s = states.get(key);
    if (s == null) {
      s = new State(key, keyValues);
      states.put(key, s);
    }
    s.kw.insert(t, row, watermark, s);
    s.sync();
  }

  @Override
  void advance(long wm) {
    if (wm <= watermark) {
      return;
    }
    watermark = wm;
    long bound = group.evictBound(wm);
    List<State> fired = new ArrayList<>();
    while (!timers.isEmpty() && timers.peek().fire <= wm) {
      Timer tm = timers.poll();
      State s = tm.state;
      int i = tm.window;
      if (s.timerId[i] != tm.id || states.get(s.key) != s) {
        continue; // replaced by an earlier timer
      }
      s.scheduled[i] = Long.MAX_VALUE;
      s.kw.fireWindow(i, s);
      s.sync();
      fired.add(s);
    }
    for (State s : fired) {
      s.kw.evict(bound);
      if (s.kw.isIdle()) {
        states.remove(s.key);
      }
    }
  }
}

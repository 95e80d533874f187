package io.swag.core.plan;

import io.swag.core.TimedAggregator;
import java.util.Arrays;
import java.util.List;

/**
 * The state of one key in one {@link WindowGroup}: one timed aggregator shared by all windows and
 * functions of the group (each window a range query of it), the key's record times, and per window
 * the next window to fire. Engine operators keep one per key on the heap and drive it with
 * {@link #insert}, {@link #nextTimer} (register an event-time timer) and {@link #fire}.
 *
 * <p>Cost: an insert is one aggregator insert (amortized O(log d) for FiBA, O(1) in order) plus a
 * {@link TimeLog} append of the record time (O(1) in order) when times are kept, plus one range query
 * per updated row; firing costs one range query and one ceiling look-up per emitted row (with the
 * times kept, from where the window's last look-up ended: O(1) when its next window starts at the next
 * record time), never
 * O(size/slide) per record;
 * eviction is one bulk evict.
 *
 * <p>A key of slices (a log of distinct times) whose aggregator is an {@link AdaptiveAggregator}
 * keeps no second copy of its times while the aggregator's in-order ring holds them in strictly
 * increasing order: the ring answers the next window's first record (from a cursor per window) and
 * reports the evicted times; at the aggregator's switch to its tree, or at an equal time, the
 * {@link TimeLog} is made from the ring, for good.
 *
 * <p>With {@code retainRows} the key also keeps its input rows (until evicted) so that an engine can
 * write them to its state at checkpoint time ({@link #forEachRow}) and rebuild the aggregator with
 * one bulk insert on restore ({@link #restore}); this doubles the memory per entry but works for
 * every algorithm, function and slicing alike.
 *
 * <p>Invariant: every window of this key with fire watermark ({@code end - 1}, plus the lateness in
 * {@linkplain WindowGroup#finalOnly() final} mode) {@code <= } the watermark last passed to
 * {@link #fire} has fired; {@code nextFire[i]} is the fire watermark of window {@code i}'s earliest
 * non-empty unfired window, or {@code Long.MAX_VALUE}. Not thread-safe.
 */
public final class KeyWindows {
  /** Receives output rows: the group's window index, start, end, and the product's results. */
  public interface WindowOutput {
    /**
     * Receives one output row.
     *
     * @param window the group's window index
     * @param start the window's start
     * @param end the window's end
     * @param results the product's results
     */
    void emit(int window, long start, long end, List<Object> results);

    /**
     * Receives one output row of a product of one function: its one result (what {@link #emit} would
     * receive as the only element of its list). By default {@link #emit} of that list.
     *
     * @param window the group's window index
     * @param start the window's start
     * @param end the window's end
     * @param result the function's result
     */
    default void emitOne(int window, long start, long end, Object result) {
      emit(window, start, end, java.util.Collections.singletonList(result));
    }

    /**
     * The result this output holds for window {@code window} (a result {@link #emitOne} received
     * earlier, still in its row), or null. A window whose answer equals it to the bit receives that
     * object again instead of a new one (results are immutable). By default none.
     *
     * @param window the group's window index
     * @return a result this output holds, or null
     */
    default Object heldOne(int window) {
      return null;
    }
  }

  /** Receives retained rows, oldest time first, equal times in arrival order. */
  public interface RowVisitor {
    /**
     * Receives one retained row.
     *
     * @param time the row's time
     * @param row the row
     */
    void visit(long time, Object[] row);
  }

  private final WindowGroup g;
  private final boolean retainRows;
  private final boolean keepTimes;
  private final boolean distinctTimes;
  private final long delay;
  private TimedAggregator agg;
  private TimeLog times; // null unless keepTimes, and null while ringLog serves
  // while the key's adaptive aggregator keeps its ring, in strictly increasing times (a log of distinct
  // times), the ring is the time log: no second copy; materialize() makes the TimeLog for good
  private AdaptiveAggregator ringLog;
  private AdaptiveAggregator.RingCursor[] ringCursors;
  private long ringLast = Long.MIN_VALUE;
  private boolean ringAny;
  private final long[] nextFire;
  private final TimeLog.Cursor[] cursors; // per window, where its last next-window look-up ended (null unless keepTimes)
  private final AlignedStart[] insertStarts; // per window, the last start of an inserted time (lastStart, remembered)
  private final AlignedStart[] fireStarts; // per window, the same for the next record after a fired window
  private long evicted = Long.MIN_VALUE;
  private long evictedAt = Long.MIN_VALUE; // the watermark of the last evictAt (its bound is done)
  private final long[] bounds; // per window, three starts derived from the watermark boundsAt (computeBounds)
  private long boundsAt = Long.MIN_VALUE;
  private long firedWatermark = Long.MIN_VALUE;
  private java.util.function.LongConsumer evictionListener;

  KeyWindows(WindowGroup g, boolean retainRows, boolean recordTimes) {
    this(g, retainRows, recordTimes, false);
  }

  /** {@code distinctTimes}: the time index holds each time once (entries at slice starts), no rows. */
  KeyWindows(WindowGroup g, boolean retainRows, boolean recordTimes, boolean distinctTimes) {
    if (distinctTimes && retainRows) {
      throw new IllegalArgumentException("a log of distinct times keeps no rows");
    }
    this.g = g;
    this.retainRows = retainRows;
    this.keepTimes = retainRows || recordTimes || distinctTimes;
    this.distinctTimes = distinctTimes;
    this.delay = g.fireDelay();
    this.agg = g.newAggregator();
    if (distinctTimes && agg instanceof AdaptiveAggregator a && !a.switched()) {
      ringLog = a;
      ringCursors = new AdaptiveAggregator.RingCursor[g.windows.length];
      for (int i = 0; i < ringCursors.length; i++) {
        ringCursors[i] = new AdaptiveAggregator.RingCursor();
      }
      a.setSwitchListener(this::materialize);
    } else {
      this.times = keepTimes ? new TimeLog(retainRows) : null;
    }
    this.nextFire = new long[g.windows.length];
    Arrays.fill(nextFire, Long.MAX_VALUE);
    this.bounds = new long[3 * g.windows.length];
    this.cursors = keepTimes ? new TimeLog.Cursor[g.windows.length] : null;
    this.insertStarts = new AlignedStart[g.windows.length];
    this.fireStarts = new AlignedStart[g.windows.length];
    for (int i = 0; i < g.windows.length; i++) {
      insertStarts[i] = new AlignedStart(g.windows[i].slide(), g.windows[i].offset());
      fireStarts[i] = new AlignedStart(g.windows[i].slide(), g.windows[i].offset());
    }
    for (int i = 0; keepTimes && i < cursors.length; i++) {
      cursors[i] = new TimeLog.Cursor();
    }
  }

  /**
   * The key's group.
   *
   * @return the group
   */
  public WindowGroup group() {
    return g;
  }

  /**
   * Adds a record the group {@linkplain WindowGroup#accepts accepts}; first evicts what no window
   * needs at {@code watermark}. Emits at once the rows it causes: per window the aggregate ending
   * with it ({@code per_record}), or ({@code window_end}) an updated row for each window containing
   * it that already fired, i.e. with {@code end - 1 <= watermark} ({@code watermark}: the one last
   * passed to {@link #fire} for this key, or any larger watermark up to which the engine has fired
   * every timer). A value a function refuses throws {@link IllegalArgumentException} before any
   * change.
   *
   * @param t the record's time
   * @param row the record
   * @param watermark the current watermark
   * @param out receives the emitted rows
   */
  public void insert(long t, Object row, long watermark, WindowOutput out) {
    evictAt(watermark);
    if (watermark > firedWatermark) {
      firedWatermark = watermark;
    }
    agg.insert(t, row); // a rejected value throws here and changes nothing
    logTime(t, row);
    if (g.perRecord) {
      for (int i = 0; i < g.windows.length; i++) {
        long from = t - g.windows[i].size() + 1;
        out.emit(i, from, t + 1, asList(agg.query(from, t)));
      }
      return;
    }
    for (int i = 0; i < g.windows.length; i++) {
      if (t > watermark && nextFire[i] <= sat(t, delay)) {
        // t's earliest unfired window fires no earlier than t (+ the delay), so no earlier than the window
        // already scheduled, and no window holding t has fired (each ends after t > watermark):
        // updateAndSchedule would do nothing
        continue;
      }
      updateAndSchedule(i, t, watermark, Long.MIN_VALUE, out);
    }
  }

  /**
   * For window {@code i} and a record at {@code t}: emits an updated row for each window containing
   * it that already fired and is within the lateness ({@code end - 1 <= watermark < end - 1 + L},
   * none in final mode), skipping starts {@code <= lastEmitted}; schedules its earliest unfired window.
   * Returns the last start emitted (or {@code lastEmitted}).
   */
  private long updateAndSchedule(int i, long t, long watermark, long lastEmitted, WindowOutput out) {
    WindowSpec w = g.windows[i];
    long last = insertStarts[i].floor(t); // w.lastStart(t)
    long first = w.firstStart(t, last);
    long firstUnfired = first;
    if (watermark != Long.MIN_VALUE) {
      if (watermark != boundsAt) {
        computeBounds(watermark);
      }
      if (!g.finalOnly) {
        long lo = Math.max(first, bounds[3 * i]);
        if (lastEmitted != Long.MIN_VALUE) {
          lo = Math.max(lo, lastEmitted + w.slide());
        }
        long hi = Math.min(last, bounds[3 * i + 1]);
        for (long st = lo; st <= hi; st += w.slide()) {
          out.emit(i, st, st + w.size(), asList(agg.query(st, st + w.size() - 1)));
          lastEmitted = st;
        }
      }
      firstUnfired = Math.max(first, bounds[3 * i + 2]);
    }
    if (firstUnfired <= last) {
      schedule(i, sat(firstUnfired + w.size() - 1, delay));
    }
    return lastEmitted;
  }

  /**
   * Adds a micro-batch of accepted records with one bulk insert (O(n log n) to sort, then
   * {@link TimedAggregator#bulkInsert}); emits one updated row per fired window the batch touched
   * (not one per record), after the whole batch is in. {@code rows[i]} is at {@code ts[i]}; equal
   * times keep their order in the arrays. Checks every value first: a refused value throws
   * {@link IllegalArgumentException} before any change.
   *
   * @param ts the records' times
   * @param batch the records
   * @param n the number of records
   * @param watermark the current watermark
   * @param out receives the emitted rows
   */
  public void insertBatch(long[] ts, Object[][] batch, int n, long watermark, WindowOutput out) {
    if (!g.perRecord) {
      for (int i = 0; i < n; i++) {
        g.check(batch[i], ts[i]);
      }
    }
    insertCheckedBatch(ts, batch, n, watermark, out);
  }

  /**
   * {@link #insertBatch} for rows the caller has already passed through {@link WindowGroup#check}
   * one by one (an engine that rejects bad rows individually before the batch goes in): the same
   * effect without checking every value a second time. An unchecked bad value may leave the
   * aggregator half updated. The values may also be pre-lifted partials
   * ({@link ProductFunction.Lifted}, e.g. slices pre-aggregated before a shuffle, at their slice start).
   *
   * @param ts the records' times
   * @param batch the records
   * @param n the number of records
   * @param watermark the current watermark
   * @param out receives the emitted rows
   */
  public void insertCheckedBatch(long[] ts, Object[] batch, int n, long watermark, WindowOutput out) {
    if (g.perRecord) {
      for (int i = 0; i < n; i++) {
        insert(ts[i], batch[i], watermark, out);
      }
      return;
    }
    evictAt(watermark);
    if (watermark > firedWatermark) {
      firedWatermark = watermark;
    }
    int[] order = TimeOrder.of(ts, n); // stable, O(n) when already in order
    long[] st = new long[n];
    Object[] sv = new Object[n];
    for (int i = 0; i < n; i++) {
      st[i] = ts[order[i]];
      sv[i] = batch[order[i]];
    }
    bulkInsert(st, sv, n);
    for (int i = 0; i < n; i++) {
      logTime(st[i], sv[i]); // after the aggregator: a ring that serves as the log holds them (materialize)
    }
    for (int i = 0; i < g.windows.length; i++) {
      long lastEmitted = Long.MIN_VALUE;
      for (int k = 0; k < n; k++) {
        lastEmitted = updateAndSchedule(i, st[k], watermark, lastEmitted, out);
      }
    }
  }

  private void logTime(long t, Object value) {
    if (ringLog != null) {
      if (!ringAny || t > ringLast) { // the ring holds t (inserted before this call) and stays distinct
        ringLast = t;
        ringAny = true;
        return;
      }
      materialize(); // an equal time: the log of distinct times takes over from the ring
    }
    if (distinctTimes) {
      times.addDistinct(t);
    } else if (keepTimes) {
      times.add(t, value);
    }
  }

  /**
   * Makes the time log from the ring that served as it (the distinct times of its entries), for good:
   * at the aggregator's switch to its tree (before the ring goes) or at an equal time.
   */
  private void materialize() {
    AdaptiveAggregator a = ringLog;
    if (a == null) {
      return;
    }
    ringLog = null;
    ringCursors = null;
    TimeLog log = new TimeLog(false);
    a.forEachTime(log::addDistinct);
    times = log;
  }

  /** One bulk insert of sorted times; a sliced aggregator pre-aggregates per slice, record by record. */
  private void bulkInsert(long[] st, Object[] sv, int n) {
    if (agg instanceof SlicedAggregator) {
      for (int i = 0; i < n; i++) {
        agg.insert(st[i], sv[i]);
      }
    } else {
      agg.bulkInsert(st, sv, 0, n);
    }
  }

  /**
   * Fills {@link #bounds} for {@code watermark}: per window the first start still within the lateness,
   * the last start already fired and the first start not yet fired (what {@link #updateAndSchedule}
   * needs of the watermark, once per watermark instead of per record).
   */
  private void computeBounds(long watermark) {
    for (int i = 0; i < g.windows.length; i++) {
      WindowSpec w = g.windows[i];
      bounds[3 * i] = w.alignUp(sat(sat(watermark, -g.lateness), 2 - w.size()));
      bounds[3 * i + 1] = w.lastStart(sat(watermark, 1 - w.size()));
      bounds[3 * i + 2] = w.alignUp(sat(sat(watermark, -delay), 2 - w.size()));
    }
    boundsAt = watermark;
  }

  private void schedule(int i, long fire) {
    if (fire < nextFire[i]) {
      nextFire[i] = fire;
    }
  }

  /** The fire watermark of window {@code i}'s next window, or {@code Long.MAX_VALUE}. */
  long nextFire(int i) {
    return nextFire[i];
  }

  /**
   * The earliest watermark at which this key has work: a window to fire, or (nothing pending) its
   * entries to drop once past their lateness; {@code Long.MAX_VALUE} if none. Engines register an
   * event-time timer for it (and again after each {@link #fire}).
   *
   * @return the next timer watermark, or {@code Long.MAX_VALUE}
   */
  public long nextTimer() {
    long m = Long.MAX_VALUE;
    for (long f : nextFire) {
      m = Math.min(m, f);
    }
    if (m == Long.MAX_VALUE && !agg.isEmpty()) {
      m = g.expiry(times != null ? times.last() : agg.youngestTime()); // a ring that serves as the log: its youngest
    }
    return m;
  }

  /**
   * Emits every pending window whose fire watermark is {@code <= watermark}, ordered by that, then by
   * window index; then bulk-evicts what no window needs any more.
   *
   * @param watermark the current watermark
   * @param out receives the emitted rows
   */
  public void fire(long watermark, WindowOutput out) {
    if (nextFire.length == 1) {
      fireOne(watermark, out);
    }
    while (true) {
      int best = -1;
      for (int i = 0; i < nextFire.length; i++) {
        if (nextFire[i] != Long.MAX_VALUE && nextFire[i] <= watermark && (best < 0 || nextFire[i] < nextFire[best])) {
          best = i;
        }
      }
      if (best < 0) {
        break;
      }
      fireWindow(best, out);
    }
    if (watermark > firedWatermark) {
      firedWatermark = watermark;
    }
    evictAt(watermark);
  }

  /**
   * {@link #fire}'s windows for a group of one window: while the adaptive aggregator's typed ring
   * serves as the time log, a run of due windows at once ({@link AdaptiveAggregator#fireRun}), else
   * one by one.
   */
  private void fireOne(long watermark, WindowOutput out) {
    WindowSpec w = g.windows[0];
    long f;
    while ((f = nextFire[0]) != Long.MAX_VALUE && f <= watermark) {
      AdaptiveAggregator a = ringLog;
      long st = f - delay - w.size() + 1;
      if (a != null && a.runs(st, st + w.size() - 1)) {
        a.fireRun(w, delay, watermark, 0, nextFire, out, ringCursors[0]);
      } else {
        fireWindow(0, out);
      }
    }
  }

  /** Emits window {@code i}'s pending window and schedules its next non-empty one. */
  void fireWindow(int i, WindowOutput out) {
    WindowSpec w = g.windows[i];
    long f = nextFire[i];
    long st = f - delay - w.size() + 1;
    if (agg instanceof AdaptiveAggregator a && a.answersOne()) {
      out.emitOne(i, st, st + w.size(), a.queryOne(st, st + w.size() - 1, out.heldOne(i))); // no list per row
    } else {
      out.emit(i, st, st + w.size(), asList(agg.query(st, st + w.size() - 1)));
    }
    nextFire[i] = Long.MAX_VALUE;
    long t = ringLog != null ? ringLog.ceilingTime(st + w.slide(), ringCursors[i])
        : times != null ? times.ceiling(st + w.slide(), cursors[i]) : agg.ceilingTime(st + w.slide());
    if (t != Long.MAX_VALUE) {
      long next = Math.max(st + w.slide(), w.firstStart(t, fireStarts[i].floor(t))); // w.firstStart(t)
      schedule(i, sat(next + w.size() - 1, delay));
    }
  }

  /** The smallest record time {@code >= t}, or {@code Long.MAX_VALUE}: from the times if kept, else the aggregator. */
  private long ceilingTime(long t) {
    if (times != null) {
      return times.ceiling(t);
    }
    return agg.ceilingTime(t);
  }

  /** {@link #evict} at the group's bound for {@code watermark}, computed once per watermark. */
  private void evictAt(long watermark) {
    if (watermark != evictedAt) {
      evictedAt = watermark;
      evict(g.evictBound(watermark));
    }
  }

  /** Bulk-evicts the entries with time {@code <= bound} (once per bound); returns how many went. */
  int evict(long bound) {
    if (bound <= evicted) {
      return 0;
    }
    evicted = bound;
    if (agg.isEmpty()) {
      return 0;
    }
    if (ringLog != null) {
      return ringLog.bulkEvict(bound, evictionListener);
    }
    int n = agg.bulkEvict(bound);
    if (times != null) {
      times.evict(bound, evictionListener);
    }
    return n;
  }

  /**
   * Called with each distinct record time as it is evicted (engines mirror evictions in their state
   * store); needs record times to be kept ({@code retainRows} or {@code window_end}).
   *
   * @param listener receives each evicted time
   */
  public void setEvictionListener(java.util.function.LongConsumer listener) {
    if (listener != null && !keepTimes) {
      throw new IllegalStateException("an eviction listener needs a KeyWindows that keeps its record times"
          + " (WindowGroup.newKey(retainRows, true))");
    }
    this.evictionListener = listener;
  }

  /**
   * The watermark last passed to {@link #fire} (or restored).
   *
   * @return the last fired watermark
   */
  public long firedWatermark() {
    return firedWatermark;
  }

  /**
   * Entries (distinct times, or slices) in the aggregator.
   *
   * @return the number of entries
   */
  public int entries() {
    return agg.size();
  }

  /**
   * Records held (retained rows, or records inserted and not evicted when times are kept; else 0).
   *
   * @return the number of records held
   */
  public long records() {
    return times != null ? times.size() : ringLog != null ? ringLog.size() : 0;
  }

  /**
   * Empty and no window pending: the key's state can be dropped.
   *
   * @return true if the key's state can be dropped
   */
  public boolean isIdle() {
    if (!agg.isEmpty()) {
      return false;
    }
    for (long f : nextFire) {
      if (f != Long.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }

  /**
   * The read-back of what this key executes, from its own aggregator (an adaptive one shows whether
   * it has switched to its tree); see {@link ExecutedPlan}.
   *
   * @return the key's read-back
   */
  public ExecutedPlan.Group executed() {
    return ExecutedPlan.Group.ofTime(g, agg);
  }

  /**
   * The aggregator (for tests and metrics).
   *
   * @return the aggregator
   */
  public TimedAggregator aggregator() {
    return agg;
  }

  /**
   * Visits the retained rows, oldest first. Needs {@code retainRows}.
   *
   * @param v the visitor
   */
  public void forEachRow(RowVisitor v) {
    if (!retainRows) {
      throw new IllegalStateException("forEachRow needs a KeyWindows made with retainRows = true");
    }
    times.forEach((t, row) -> v.visit(t, (Object[]) row));
  }

  /**
   * Visits the retained values (rows, or {@linkplain ProductFunction.Lifted pre-lifted slices}), oldest
   * first. Needs {@code retainRows}.
   *
   * @param v receives each value and its time
   */
  public void forEachValue(java.util.function.ObjLongConsumer<Object> v) {
    if (!retainRows) {
      throw new IllegalStateException("forEachValue needs a KeyWindows made with retainRows = true");
    }
    times.forEach((t, value) -> v.accept(value, t));
  }

  /**
   * Rebuilds an empty key from rows (e.g. a checkpoint) with one bulk insert, as if they had been
   * inserted and every window with fire watermark {@code <= firedWatermark} had fired; emits nothing.
   *
   * @param ts the records' times
   * @param batch the records
   * @param n the number of records
   * @param firedWatermark the watermark up to which windows count as fired
   */
  public void restore(long[] ts, Object[] batch, int n, long firedWatermark) {
    if (!agg.isEmpty() || (times != null && !times.isEmpty())) {
      throw new IllegalStateException("restore needs an empty key");
    }
    this.firedWatermark = firedWatermark;
    this.evicted = Long.MIN_VALUE;
    this.evictedAt = Long.MIN_VALUE;
    int[] order = TimeOrder.of(ts, n);
    long[] st = new long[n];
    Object[] sv = new Object[n];
    for (int i = 0; i < n; i++) {
      st[i] = ts[order[i]];
      sv[i] = batch[order[i]];
    }
    bulkInsert(st, sv, n);
    for (int i = 0; i < n; i++) {
      logTime(st[i], sv[i]); // after the aggregator, as in insertCheckedBatch
    }
    Arrays.fill(nextFire, Long.MAX_VALUE);
    for (int i = 0; keepTimes && i < cursors.length; i++) {
      cursors[i].reset();
    }
    for (int i = 0; ringCursors != null && i < ringCursors.length; i++) {
      ringCursors[i].reset();
    }
    if (g.perRecord || agg.isEmpty()) {
      return;
    }
    for (int i = 0; i < g.windows.length; i++) {
      WindowSpec w = g.windows[i];
      long from = firedWatermark == Long.MIN_VALUE ? Long.MIN_VALUE
          : w.alignUp(sat(sat(firedWatermark, -delay), 2 - w.size()));
      long t0 = ceilingTime(from);
      if (t0 != Long.MAX_VALUE) {
        long s = Math.max(from, w.firstStart(t0));
        nextFire[i] = sat(s + w.size() - 1, delay);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Object> asList(Object results) {
    return (List<Object>) results;
  }

  private static long sat(long a, long b) {
    return WindowGroup.satAdd(a, b);
  }
}

package io.swag.spark;

import io.swag.core.plan.CountGroup;
import io.swag.core.plan.CountWindow;
import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.ProductFunction;
import io.swag.core.plan.QueryGroups;
import io.swag.core.plan.RowCodec;
import io.swag.core.plan.WindowGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The swag window operator for {@code transformWithState} in event-time mode, one instance per
 * partition and batch, executing a plan per key with {@link KeyWindows}.
 *
 * <p><b>State.</b> The window contents live in Spark's state store, so that a restart from the
 * checkpoint or a task retry gives exact results: {@code chunks}, a map from batch id to the key's
 * accepted input rows of that batch (one state put per key and batch, {@link RowCodec}-encoded,
 * each row with its time, its key columns null when {@link Layout#keysFromGroup}; with {@linkplain SlicePreAggregator pre-aggregation}, the key's slices of
 * that batch as (slice start, partial bytes) instead);
 * {@code evicted}, the largest record time the aggregator evicted (every stored row at or below it
 * is gone: a chunk is removed, one state remove, once its largest time is); {@code fired}, the
 * watermark up to which the key's windows fired; {@code timer}, the registered timer;
 * {@code version}, a random nonce written with every change. A query of several groups keeps these
 * per group (each time group its own chunks, evicted time and fired watermark; a record is stored
 * in each group that accepts it); a count group keeps the chunks of its last records, the key's
 * record count and the count before its first stored chunk ({@link CountWindow}). The aggregator itself is an
 * executor-side cache ({@link #CACHE}, bounded per operator) keyed by operator and key and stamped with the nonce; a
 * stale or missing cache entry (another executor, a restart, a retried batch) is rebuilt from the
 * chunks (rows above {@code evicted}, chunks in batch order) with one bulk insert. The chunks'
 * index (largest time, batch id) lives only in the cache entry and is rebuilt with it, so no state
 * value grows with the window. So a batch costs O(records of the batch + entries evicted)
 * aggregator work and O(1 + chunks dropped) state operations and bytes written per key, not
 * O(window).
 *
 * <p><b>Time.</b> Spark's watermark {@code S} means records with time {@code < S} are late; swag's
 * {@code W = S - 1}. A key's next swag timer {@code f} (fire when {@code W >= f}) is a Spark timer
 * at {@code f + 1} (fires when {@code S >= f + 1}). Input rows reach the processor unfiltered (the
 * entry point strips the watermark from the time column), so records later than the allowed
 * lateness are seen here and reported as {@code late} rows, never dropped silently. Records are
 * judged against Spark's late-events watermark (the previous batch's, {@link LateEventsWatermark},
 * read from the checkpoint's offset log), as Spark's built-in window aggregation does, also in the
 * first batch after a restart and on any executor.
 *
 * <p><b>Records.</b> A record goes to every time group that accepts it ({@link QueryGroups}: checked
 * by all of them first) and to every count group; it is late if no time group accepts it and the
 * query has no count window. A count window takes a key's records in the order Spark delivers them:
 * batch by batch, and within a batch in the order of the key's rows in the task (after a shuffle
 * from several partitions, that order is not reproducible on a replay).
 *
 * <p>Each partition of each batch reports what it runs to the query's {@link PlanReports} (once, in
 * {@link #init}: the read-back of its window group's aggregator, {@link io.swag.core.plan.ExecutedPlan}).
 */
public final class SwagProcessor extends StatefulProcessor<Row, Row, Row> {
  private static final long serialVersionUID = 1L;
  /**
   * Executor-side aggregators: per operator id, key to the key's state and the nonce it reflects;
   * at most {@code cache_max_keys} keys per operator ({@link SwagSparkOptions}).
   */
  static final AggregatorCache<Row, KeyState> CACHE = new AggregatorCache<>();

  /**
   * Keys whose aggregators this JVM holds, over all swag operators (for tests and monitoring).
   *
   * @return the number of cached keys
   */
  public static long cachedKeys() {
    return CACHE.size();
  }

  /**
   * One group's stored chunks as the working copy knows them: an index of pairs (bound, batch id) in
   * batch order, where the bound is the chunk's largest record time (a time group) or the key's record
   * count after the chunk (a count group), and the group's drop mark: the evicted time, or the record
   * count before the first stored chunk. A chunk is removed (one state remove) once its bound is at or
   * below the mark.
   */
  static final class Chunks {
    long[] index;
    int indexLen; // longs used
    long mark;
    boolean markChanged;

    Chunks(long[] index, long mark) {
      this.index = index;
      this.indexLen = index.length;
      this.mark = mark;
    }

    void onEvict(long t) {
      if (t > mark) {
        mark = t;
        markChanged = true;
      }
    }

    void add(long bound, long batchId) {
      if (indexLen + 2 > index.length) {
        index = java.util.Arrays.copyOf(index, Math.max(8, 2 * index.length));
      }
      index[indexLen++] = bound;
      index[indexLen++] = batchId;
    }
  }

  /** The working copy of a key's state (see the class doc). */
  static final class KeyState {
    final KeyWindows[] time;
    final CountWindow[] count;
    /** Per time group, then per count group. */
    final Chunks[] chunks;

    KeyState(KeyWindows[] time, CountWindow[] count, Chunks[] chunks) {
      this.time = time;
      this.count = count;
      this.chunks = chunks;
    }
  }

  private final Layout layout;
  private final String operatorId;
  private final boolean finalOnly;
  private final int cacheMaxKeys;
  private final LateEventsWatermark lateEvents;
  /** Input rows are slices pre-aggregated before the shuffle ({@link SlicePreAggregator}), not records. */
  private final boolean preaggregated;
  /** Where each partition reports the plan it executes. */
  private final PlanReports reports;
  /**
   * {@link Layout#keysFromGroup} on the records path: a record row's key columns are the key's values,
   * and the stored chunks hold null in them (filled from the key when read back).
   */
  private transient boolean keyless;
  private transient QueryGroups groups;
  private transient QueryGroups.Memo acceptMemo;
  private transient int timeGroups;
  /** Per time group, then per count group. */
  private transient MapState<Long, byte[]>[] chunks;
  /** Per group: the evicted time (time groups), the record count before the first stored chunk (count groups). */
  private transient ValueState<Long>[] marks;
  /** Per time group: the watermark up to which its windows fired. */
  private transient ValueState<Long>[] fired;
  /** Per count group: the key's record count. */
  private transient ValueState<Long>[] counted;
  private transient ValueState<Long> timer;
  private transient ValueState<Long> version;
  /** Per time group, reused: whether it accepts the record at hand. */
  private transient boolean[] accepted;
  /** Per group, the buffer a key's chunk is encoded into, reused across keys of this task. */
  private transient RowCodec.Writer[] chunkWriters;
  /** A record row as stored ({@link #keyless}: without its key values), reused. */
  private transient Object[] storedRow;

  SwagProcessor(Layout layout, String operatorId, boolean finalOnly, int cacheMaxKeys, LateEventsWatermark lateEvents,
      boolean preaggregated, PlanReports reports) {
    this.preaggregated = preaggregated;
    this.reports = reports;
    this.layout = layout;
    this.operatorId = operatorId;
    this.finalOnly = finalOnly;
    this.cacheMaxKeys = cacheMaxKeys;
    this.lateEvents = lateEvents;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"}) // arrays of generic state handles
  public void init(OutputMode outputMode, TimeMode timeMode) {
    groups = layout.groups(finalOnly, preaggregated);
    acceptMemo = groups.newMemo();
    timeGroups = groups.time().size();
    int n = timeGroups + groups.count().size();
    reports.add(SwagSpark.operatorReport(groups, "stream", preaggregated));
    chunks = new MapState[n];
    marks = new ValueState[n];
    fired = new ValueState[timeGroups];
    counted = new ValueState[groups.count().size()];
    for (int g = 0; g < n; g++) {
      // time group 0 keeps the names of a one-group query's state
      String suffix = g < timeGroups ? (g == 0 ? "" : "_" + g) : "_count_" + (g - timeGroups);
      chunks[g] = getHandle().getMapState("chunks" + suffix, Encoders.LONG(), Encoders.BINARY(), TTLConfig.NONE());
      marks[g] = getHandle().getValueState((g < timeGroups ? "evicted" : "dropped") + suffix, Encoders.LONG(),
          TTLConfig.NONE());
      if (g < timeGroups) {
        fired[g] = getHandle().getValueState("fired" + suffix, Encoders.LONG(), TTLConfig.NONE());
      } else {
        counted[g - timeGroups] = getHandle().getValueState("records" + suffix, Encoders.LONG(), TTLConfig.NONE());
      }
    }
    timer = getHandle().getValueState("timer", Encoders.LONG(), TTLConfig.NONE());
    version = getHandle().getValueState("version", Encoders.LONG(), TTLConfig.NONE());
    accepted = new boolean[timeGroups];
    chunkWriters = new RowCodec.Writer[n];
    for (int g = 0; g < n; g++) {
      chunkWriters[g] = new RowCodec.Writer(1024);
    }
    storedRow = new Object[layout.columns.size()];
    keyless = layout.keysFromGroup && !preaggregated;
  }

  /**
   * The key's state: the cached one if it reflects the stored state, else rebuilt from it. The
   * cache entry is taken out while the task works on it and put back by {@link #save} with the
   * nonce written to state: a task that fails in between leaves no entry behind (its retry rebuilds
   * from the state store's last committed version), and two attempts never share an aggregator.
   */
  private KeyState load(Row key) {
    return load(key, keyless ? layout.keyValues(key) : null);
  }

  /** {@link #load(Row)}; {@code keyValues}: the key's values for the stored rows' key columns ({@link #keyless}). */
  private KeyState load(Row key, Object[] keyValues) {
    long v = version.exists() ? version.get() : 0L;
    AggregatorCache.Entry<KeyState> c = CACHE.take(operatorId, key);
    if (c != null && c.version() == v && v != 0L) {
      return c.value();
    }
    KeyWindows[] time = new KeyWindows[timeGroups];
    CountWindow[] count = new CountWindow[groups.count().size()];
    Chunks[] ch = new Chunks[chunks.length];
    for (int g = 0; g < chunks.length; g++) {
      ChunkRows stored = v == 0L ? ChunkRows.NONE : readChunks(g, keyValues);
      if (g < timeGroups) {
        WindowGroup wg = groups.time().get(g);
        time[g] = wg.newKey(wg.perRecord());
        if (v != 0L) {
          time[g].restore(stored.ts, stored.rows, stored.n, fired[g].exists() ? fired[g].get() : Long.MIN_VALUE);
        }
      } else {
        int cg = g - timeGroups;
        count[cg] = groups.count().get(cg).newKey(false);
        if (stored.n > 0) {
          Object[][] rows = new Object[stored.n][];
          for (int i = 0; i < stored.n; i++) {
            rows[i] = (Object[]) stored.rows[i];
          }
          count[cg].restore(counted[cg].get(), stored.ts, rows, stored.n);
        }
      }
      ch[g] = new Chunks(stored.index, stored.mark);
    }
    return new KeyState(time, count, ch);
  }

  /** A group's stored values above its mark, in batch order, and its chunk index. */
  private static final class ChunkRows {
    static final ChunkRows NONE = new ChunkRows(new long[0], new Object[0], 0, new long[0], Long.MIN_VALUE);
    final long[] ts;
    final Object[] rows;
    final int n;
    final long[] index;
    final long mark;

    ChunkRows(long[] ts, Object[] rows, int n, long[] index, long mark) {
      this.ts = ts;
      this.rows = rows;
      this.n = n;
      this.index = index;
      this.mark = mark;
    }
  }

  /**
   * Group {@code g}'s stored chunks in batch order (their ids), so that rows of equal time keep their
   * insertion order: a time group's values above its evicted time (record rows, or slices as
   * {@linkplain ProductFunction.Lifted partials}), a count group's rows after its drop mark; with
   * {@code keyValues}, each record row's key columns set to them.
   */
  private ChunkRows readChunks(int g, Object[] keyValues) {
    boolean isTime = g < timeGroups;
    int chunkCount = 0;
    long[] ids = new long[8];
    byte[][] blobs = new byte[8][];
    scala.collection.Iterator<scala.Tuple2<Long, byte[]>> it = chunks[g].iterator();
    while (it.hasNext()) {
      scala.Tuple2<Long, byte[]> e = it.next();
      if (chunkCount == ids.length) {
        ids = java.util.Arrays.copyOf(ids, 2 * chunkCount);
        blobs = java.util.Arrays.copyOf(blobs, 2 * chunkCount);
      }
      ids[chunkCount] = e._1();
      blobs[chunkCount++] = e._2();
    }
    int[] order = io.swag.core.plan.TimeOrder.of(ids, chunkCount);
    long[] idx = new long[2 * chunkCount];
    long mark = marks[g].exists() ? marks[g].get() : (isTime ? Long.MIN_VALUE : 0L);
    long records = mark; // count group: the record count after each row
    int n = 0;
    long[] ts = new long[64];
    Object[] rows = new Object[64];
    for (int k = 0; k < chunkCount; k++) {
      long bound = Long.MIN_VALUE;
      for (Object[] r : RowCodec.decode(blobs[order[k]])) {
        // a record row, or a slice: (slice start, partial bytes)
        if (keyValues != null) {
          System.arraycopy(keyValues, 0, r, 0, keyValues.length);
        }
        long t = preaggregated ? (Long) r[0] : layout.time(r);
        if (isTime) {
          bound = Math.max(bound, t);
          if (t <= mark) {
            continue; // evicted already
          }
        } else {
          bound = ++records;
        }
        if (n == ts.length) {
          ts = java.util.Arrays.copyOf(ts, 2 * n);
          rows = java.util.Arrays.copyOf(rows, 2 * n);
        }
        ts[n] = t;
        rows[n++] = preaggregated ? new ProductFunction.Lifted((byte[]) r[1]) : r;
      }
      idx[2 * k] = bound;
      idx[2 * k + 1] = ids[order[k]];
    }
    return new ChunkRows(ts, rows, n, idx, mark);
  }

  /**
   * Writes the key's bookkeeping after a change: per group drops the chunks it no longer needs, then
   * its mark (if it moved), fired watermark or record count; the timer, the nonce, the cache:
   * O(groups + chunks dropped) state operations and bytes.
   */
  private void save(Row key, KeyState ks) {
    long next = Long.MAX_VALUE;
    boolean idle = ks.count.length == 0;
    for (KeyWindows kw : ks.time) {
      next = Math.min(next, kw.nextTimer());
      idle &= kw.isIdle();
    }
    long sparkTimer = next == Long.MAX_VALUE ? Long.MAX_VALUE : next + 1;
    Long old = timer.exists() ? timer.get() : null;
    if (idle) {
      if (old != null) {
        getHandle().deleteTimer(old);
      }
      for (int g = 0; g < chunks.length; g++) {
        chunks[g].clear();
        marks[g].clear();
      }
      for (ValueState<Long> f : fired) {
        f.clear();
      }
      timer.clear();
      version.clear();
      CACHE.remove(operatorId, key);
      return;
    }
    if (old == null || old != sparkTimer) {
      if (old != null) {
        getHandle().deleteTimer(old);
      }
      if (sparkTimer != Long.MAX_VALUE) {
        getHandle().registerTimer(sparkTimer);
        timer.update(sparkTimer);
      } else {
        timer.clear();
      }
    }
    for (int g = 0; g < chunks.length; g++) {
      Chunks c = ks.chunks[g];
      if (g >= timeGroups) {
        CountWindow cw = ks.count[g - timeGroups];
        // the chunks wholly before the window's oldest record go
        long before = cw.count() - cw.size();
        for (int i = 0; i + 1 < c.indexLen; i += 2) {
          if (c.index[i] <= before) {
            c.onEvict(c.index[i]);
          }
        }
        counted[g - timeGroups].update(cw.count());
      }
      int keep = 0;
      long[] idx = c.index;
      for (int i = 0; i + 1 < c.indexLen; i += 2) {
        if (idx[i] <= c.mark) {
          chunks[g].removeKey(idx[i + 1]); // every value of the chunk is out of the windows
        } else {
          idx[keep++] = idx[i];
          idx[keep++] = idx[i + 1];
        }
      }
      c.indexLen = keep;
      if (c.markChanged) {
        marks[g].update(c.mark);
        c.markChanged = false;
      }
      if (g < timeGroups) {
        fired[g].update(ks.time[g].firedWatermark());
      }
    }
    long nonce = ThreadLocalRandom.current().nextLong();
    if (nonce == 0L) {
      nonce = 1L;
    }
    version.update(nonce);
    CACHE.put(operatorId, cacheMaxKeys, key, nonce, ks);
  }

  @Override
  public scala.collection.Iterator<Row> handleInputRows(Row key, scala.collection.Iterator<Row> rows, TimerValues tv) {
    if (preaggregated) {
      return handleSlices(key, rows, tv);
    }
    // a query of count windows only runs without event time (no watermark, no timers)
    long wm = timeGroups == 0 ? Long.MIN_VALUE : lateEvents.of(getHandle(), tv.getCurrentWatermarkInMs()) - 1;
    List<Row> out = new ArrayList<>();
    String badKey = layout.nullKey(key);
    if (badKey != null) {
      while (rows.hasNext()) {
        out.add(layout.recordRow(key, "rejected", rows.next(), badKey));
      }
      return CollectionConverters.asScala(out.iterator());
    }
    Object[] keyValues = keyless ? layout.keyValues(key) : null;
    KeyState ks = load(key, keyValues);
    int groupCount = chunks.length;
    int[] n = new int[groupCount];
    long[][] ts = new long[groupCount][16];
    Object[][][] batch = new Object[groupCount][16][];
    for (RowCodec.Writer w : chunkWriters) {
      w.reset();
    }
    int keyCols = keyless ? layout.keys : 0;
    while (rows.hasNext()) {
      Row in = rows.next();
      Object[] row = layout.convertOrReject(key, keyValues, in, out);
      if (row == null) {
        continue;
      }
      long t = layout.time(row);
      int first = groups.accept(t, wm, accepted, acceptMemo);
      if (groups.late(first)) {
        out.add(layout.recordRow(key, "late", in, groups.lateReason(t, wm)));
        continue;
      }
      try {
        groups.check(row, t, accepted, -1);
      } catch (IllegalArgumentException e) {
        out.add(layout.recordRow(key, "rejected", in, e.getMessage()));
        continue;
      }
      if (keyless) { // the stored form: null key columns, filled from the key when read back
        System.arraycopy(row, keyCols, storedRow, keyCols, row.length - keyCols);
      }
      for (int g = 0; g < groupCount; g++) {
        if (g >= timeGroups || accepted[g]) {
          if (n[g] == ts[g].length) {
            ts[g] = java.util.Arrays.copyOf(ts[g], 2 * n[g]);
            batch[g] = java.util.Arrays.copyOf(batch[g], 2 * n[g]);
          }
          ts[g][n[g]] = t;
          batch[g][n[g]++] = row;
          chunkWriters[g].add(keyless ? storedRow : row); // while the record's values are in the cache
        }
      }
    }
    insertAndSave(key, ks, ts, batch, n, wm, out);
    return CollectionConverters.asScala(out.iterator());
  }

  /**
   * Inserts a key's accepted input of this batch, per group {@code g}: {@code values[g][i]} at
   * {@code ts[g][i]} (record rows, or {@linkplain ProductFunction.Lifted slices}), emitting the rows it
   * causes; writes each group's chunk (its stored rows, encoded into {@code chunkWriters[g]} by the
   * caller) and saves the key.
   */
  private void insertAndSave(Row key, KeyState ks, long[][] ts, Object[][] values, int[] n, long wm, List<Row> out) {
    boolean changed = false;
    long batchId = getHandle().getQueryInfo().getBatchId();
    for (int g = 0; g < n.length; g++) {
      if (n[g] == 0) {
        continue;
      }
      changed = true;
      long bound;
      if (g < timeGroups) {
        KeyWindows kw = ks.time[g];
        WindowGroup wg = groups.time().get(g);
        int gi = g;
        kw.setEvictionListener(ks.chunks[g]::onEvict);
        // The key's own fired watermark lags the stream's when its timers have not run for a while:
        // bring it up to the late-events watermark, else a record accepted for one window would also
        // go into (and, in update mode, re-emit; in append mode, fire) a window of the key that is
        // past its lateness by the stream's watermark (what Spark's built-in aggregation drops).
        long insertWm = Math.max(kw.firedWatermark(), wm);
        kw.insertCheckedBatch(ts[g], values[g], n[g], insertWm,
            (w, s, e, r) -> out.add(layout.windowRow(key, gi, wg, w, s, e, r)));
        kw.setEvictionListener(null);
        bound = Long.MIN_VALUE;
        for (int i = 0; i < n[g]; i++) {
          bound = Math.max(bound, ts[g][i]);
        }
      } else {
        int c = g - timeGroups;
        CountWindow cw = ks.count[c];
        CountGroup cg = groups.count().get(c);
        CountWindow.Output emit = (s, e, r) -> out.add(layout.countRow(key, c, cg, s, e, r));
        for (int i = 0; i < n[g]; i++) {
          cw.insert(ts[g][i], (Object[]) values[g][i], emit);
        }
        bound = cw.count();
      }
      // the batch's input of the group: one chunk, one state put (a key gets input once per batch)
      chunks[g].updateValue(batchId, chunkWriters[g].toByteArray());
      ks.chunks[g].add(bound, batchId);
    }
    if (changed) {
      save(key, ks);
    } else if (version.exists()) {
      CACHE.put(operatorId, cacheMaxKeys, key, version.get(), ks); // unchanged: give it back
    }
  }

  /**
   * {@link #handleInputRows} for slices pre-aggregated before the shuffle ({@link Layout#sliceSchema};
   * a plan of one time group): a rejected record arrives as its own row and is reported; a slice is
   * late or accepted as a whole (all its records lie in the same windows), a late one counting its
   * records; accepted slices go in with one bulk insert and are stored as (slice start, partial bytes).
   */
  private scala.collection.Iterator<Row> handleSlices(Row key, scala.collection.Iterator<Row> rows, TimerValues tv) {
    long wm = lateEvents.of(getHandle(), tv.getCurrentWatermarkInMs()) - 1;
    List<Row> out = new ArrayList<>();
    WindowGroup group = groups.time().get(0);
    String badKey = layout.nullKey(key);
    int n = 0;
    long[] ts = new long[16];
    Object[] values = new Object[16];
    RowCodec.Writer chunk = chunkWriters[0];
    chunk.reset();
    Object[] sliceRow = new Object[2];
    while (rows.hasNext()) {
      Row in = rows.next();
      long count = layout.sliceCount(in);
      if (layout.sliceRejected(in)) { // rejected on the map side
        out.add(layout.recordRow(key, "rejected", layout.sliceRecord(in), layout.sliceReason(in), count));
        continue;
      }
      if (badKey != null) { // cannot happen: the map side rejects records with a null key
        out.add(layout.recordRow(key, "rejected", null, badKey, count));
        continue;
      }
      long s = layout.sliceStart(in);
      if (!group.accepts(s, wm)) {
        long g = group.plan().sliceMs();
        out.add(layout.recordRow(key, "late", null, count + " record(s) with times in [" + s + ", " + (s + g)
            + ") are beyond the allowed lateness (" + group.latenessMs() + " ms) at watermark " + wm, count));
        continue;
      }
      byte[] partial = layout.slicePartial(in);
      if (n == ts.length) {
        ts = java.util.Arrays.copyOf(ts, 2 * n);
        values = java.util.Arrays.copyOf(values, 2 * n);
      }
      ts[n] = s;
      values[n++] = new ProductFunction.Lifted(partial);
      sliceRow[0] = s;
      sliceRow[1] = partial;
      chunk.add(sliceRow);
    }
    if (n > 0 || version.exists()) {
      insertAndSave(key, load(key), new long[][] {ts}, new Object[][] {values}, new int[] {n}, wm, out);
    }
    return CollectionConverters.asScala(out.iterator());
  }

  @Override
  public scala.collection.Iterator<Row> handleExpiredTimer(Row key, TimerValues tv, ExpiredTimerInfo info) {
    long wm = tv.getCurrentWatermarkInMs() - 1;
    timer.clear(); // this timer fired
    if (!version.exists()) {
      return CollectionConverters.asScala(java.util.Collections.<Row>emptyIterator());
    }
    KeyState ks = load(key);
    List<Row> out = new ArrayList<>();
    for (int g = 0; g < ks.time.length; g++) {
      KeyWindows kw = ks.time[g];
      WindowGroup wg = groups.time().get(g);
      int gi = g;
      kw.setEvictionListener(ks.chunks[g]::onEvict);
      kw.fire(wm, (w, s, e, r) -> out.add(layout.windowRow(key, gi, wg, w, s, e, r)));
      kw.setEvictionListener(null);
    }
    save(key, ks);
    return CollectionConverters.asScala(out.iterator());
  }
}

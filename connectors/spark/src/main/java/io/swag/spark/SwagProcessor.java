package io.swag.spark;

import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.ProductFunction;
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
 * each row with its time; with {@linkplain SlicePreAggregator pre-aggregation}, the key's slices of
 * that batch as (slice start, partial bytes) instead);
 * {@code evicted}, the largest record time the aggregator evicted (every stored row at or below it
 * is gone: a chunk is removed, one state remove, once its largest time is); {@code fired}, the
 * watermark up to which the key's windows fired; {@code timer}, the registered timer;
 * {@code version}, a random nonce written with every change. The aggregator itself is an
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

  /** Keys whose aggregators this JVM holds, over all swag operators (for tests and monitoring). */
  public static long cachedKeys() {
    return CACHE.size();
  }

  /** The working copy of a key's state: aggregator, chunk index, evicted time (see the class doc). */
  static final class KeyState {
    final KeyWindows kw;
    long[] index; // pairs (largest time, batch id) of the stored chunks, in batch order
    int indexLen; // longs used
    long evicted;
    boolean evictedChanged;

    KeyState(KeyWindows kw, long[] index, long evicted) {
      this.kw = kw;
      this.index = index;
      this.indexLen = index.length;
      this.evicted = evicted;
    }

    void onEvict(long t) {
      if (t > evicted) {
        evicted = t;
        evictedChanged = true;
      }
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
  private transient WindowGroup group;
  private transient MapState<Long, byte[]> chunks;
  private transient ValueState<Long> evicted;
  private transient ValueState<Long> fired;
  private transient ValueState<Long> timer;
  private transient ValueState<Long> version;
  /** The buffer a key's chunk is encoded into, reused across keys of this task. */
  private transient RowCodec.Writer chunkWriter;

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
  public void init(OutputMode outputMode, TimeMode timeMode) {
    group = layout.group(finalOnly, preaggregated);
    reports.add(SwagSpark.operatorReport(group, "stream", preaggregated));
    chunks = getHandle().getMapState("chunks", Encoders.LONG(), Encoders.BINARY(), TTLConfig.NONE());
    evicted = getHandle().getValueState("evicted", Encoders.LONG(), TTLConfig.NONE());
    fired = getHandle().getValueState("fired", Encoders.LONG(), TTLConfig.NONE());
    timer = getHandle().getValueState("timer", Encoders.LONG(), TTLConfig.NONE());
    version = getHandle().getValueState("version", Encoders.LONG(), TTLConfig.NONE());
  }

  /**
   * The key's aggregator: the cached one if it reflects the stored state, else rebuilt from it. The
   * cache entry is taken out while the task works on it and put back by {@link #save} with the
   * nonce written to state: a task that fails in between leaves no entry behind (its retry rebuilds
   * from the state store's last committed version), and two attempts never share an aggregator.
   */
  private KeyState load(Row key) {
    long v = version.exists() ? version.get() : 0L;
    AggregatorCache.Entry<KeyState> c = CACHE.take(operatorId, key);
    if (c != null && c.version() == v && v != 0L) {
      return c.value();
    }
    KeyWindows kw = group.newKey(group.perRecord());
    if (v == 0L) {
      return new KeyState(kw, new long[0], Long.MIN_VALUE);
    }
    // the chunks in batch order (their ids), so that rows of equal time keep their insertion order
    int chunkCount = 0;
    long[] ids = new long[8];
    byte[][] blobs = new byte[8][];
    scala.collection.Iterator<scala.Tuple2<Long, byte[]>> it = chunks.iterator();
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
    long ev = evicted.exists() ? evicted.get() : Long.MIN_VALUE;
    int n = 0;
    long[] ts = new long[64];
    Object[] rows = new Object[64];
    for (int k = 0; k < chunkCount; k++) {
      long chunkMax = Long.MIN_VALUE;
      for (Object[] r : RowCodec.decode(blobs[order[k]])) {
        // a record row, or a slice: (slice start, partial bytes)
        long t = (Long) r[preaggregated ? 0 : layout.timeIdx];
        chunkMax = Math.max(chunkMax, t);
        if (t <= ev) {
          continue; // evicted already
        }
        if (n == ts.length) {
          ts = java.util.Arrays.copyOf(ts, 2 * n);
          rows = java.util.Arrays.copyOf(rows, 2 * n);
        }
        ts[n] = t;
        rows[n++] = preaggregated ? new ProductFunction.Lifted((byte[]) r[1]) : r;
      }
      idx[2 * k] = chunkMax;
      idx[2 * k + 1] = ids[order[k]];
    }
    kw.restore(ts, rows, n, fired.exists() ? fired.get() : Long.MIN_VALUE);
    return new KeyState(kw, idx, ev);
  }

  /**
   * Writes the key's bookkeeping after a change: drops the chunks evicted completely, then the
   * evicted time (if it moved), timer, fired watermark, nonce, cache: O(1 + chunks dropped) state
   * operations and bytes.
   */
  private void save(Row key, KeyState ks) {
    KeyWindows kw = ks.kw;
    long next = kw.nextTimer();
    long sparkTimer = next == Long.MAX_VALUE ? Long.MAX_VALUE : next + 1;
    Long old = timer.exists() ? timer.get() : null;
    if (kw.isIdle()) {
      if (old != null) {
        getHandle().deleteTimer(old);
      }
      chunks.clear();
      evicted.clear();
      fired.clear();
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
    int keep = 0;
    long[] idx = ks.index;
    for (int i = 0; i + 1 < ks.indexLen; i += 2) {
      if (idx[i] <= ks.evicted) {
        chunks.removeKey(idx[i + 1]); // every row of the chunk was evicted
      } else {
        idx[keep++] = idx[i];
        idx[keep++] = idx[i + 1];
      }
    }
    ks.indexLen = keep;
    if (ks.evictedChanged) {
      evicted.update(ks.evicted);
      ks.evictedChanged = false;
    }
    fired.update(kw.firedWatermark());
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
    long wm = lateEvents.of(getHandle(), tv.getCurrentWatermarkInMs()) - 1;
    List<Row> out = new ArrayList<>();
    String badKey = layout.nullKey(key);
    if (badKey != null) {
      while (rows.hasNext()) {
        out.add(layout.recordRow(key, "rejected", rows.next(), badKey));
      }
      return CollectionConverters.asScala(out.iterator());
    }
    KeyState ks = load(key);
    int n = 0;
    long[] ts = new long[16];
    Object[][] batch = new Object[16][];
    while (rows.hasNext()) {
      Row in = rows.next();
      Object[] row = layout.convertOrReject(key, in, group, out);
      if (row == null) {
        continue;
      }
      long t = (Long) row[layout.timeIdx];
      if (!group.accepts(t, wm)) {
        out.add(layout.recordRow(key, "late", in, "time " + t + " is beyond the allowed lateness ("
            + group.latenessMs() + " ms) at watermark " + wm));
        continue;
      }
      if (n == ts.length) {
        ts = java.util.Arrays.copyOf(ts, 2 * n);
        batch = java.util.Arrays.copyOf(batch, 2 * n);
      }
      ts[n] = t;
      batch[n++] = row;
    }
    insertAndSave(key, ks, ts, batch, n, wm, out, null);
    return CollectionConverters.asScala(out.iterator());
  }

  /**
   * Inserts a key's accepted input of this batch ({@code values[i]} at {@code ts[i]}: record rows,
   * or {@linkplain ProductFunction.Lifted slices}), emitting the rows it causes; writes the values
   * as one chunk ({@code chunkRows[i]}, or the rows themselves) and saves the key.
   */
  private void insertAndSave(Row key, KeyState ks, long[] ts, Object[] values, int n, long wm, List<Row> out,
      Object[][] chunkRows) {
    KeyWindows kw = ks.kw;
    if (n > 0) {
      kw.setEvictionListener(ks::onEvict);
      // The key's own fired watermark lags the stream's when its timers have not run for a while:
      // bring it up to the late-events watermark, else a record accepted for one window would also
      // go into (and, in update mode, re-emit; in append mode, fire) a window of the key that is
      // past its lateness by the stream's watermark (what Spark's built-in aggregation drops).
      long insertWm = Math.max(kw.firedWatermark(), wm);
      kw.insertCheckedBatch(ts, values, n, insertWm, (w, s, e, r) -> out.add(layout.windowRow(key, group, w, s, e, r)));
      kw.setEvictionListener(null);
      // the batch's input: one chunk, one state put (a key gets input once per batch)
      if (chunkWriter == null) {
        chunkWriter = new RowCodec.Writer(32 * n);
      }
      chunkWriter.reset();
      long chunkMax = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        chunkWriter.add(chunkRows != null ? chunkRows[i] : (Object[]) values[i]);
        chunkMax = Math.max(chunkMax, ts[i]);
      }
      long batchId = getHandle().getQueryInfo().getBatchId();
      chunks.updateValue(batchId, chunkWriter.toByteArray());
      if (ks.indexLen + 2 > ks.index.length) {
        ks.index = java.util.Arrays.copyOf(ks.index, Math.max(8, 2 * ks.index.length));
      }
      ks.index[ks.indexLen++] = chunkMax;
      ks.index[ks.indexLen++] = batchId;
      save(key, ks);
    } else if (version.exists()) {
      CACHE.put(operatorId, cacheMaxKeys, key, version.get(), ks); // unchanged: give it back
    }
  }

  /**
   * {@link #handleInputRows} for slices pre-aggregated before the shuffle ({@link Layout#sliceSchema}):
   * a rejected record arrives as its own row and is reported; a slice is late or accepted as a whole
   * (all its records lie in the same windows), a late one counting its records; accepted slices go
   * in with one bulk insert and are stored as (slice start, partial bytes).
   */
  private scala.collection.Iterator<Row> handleSlices(Row key, scala.collection.Iterator<Row> rows, TimerValues tv) {
    long wm = lateEvents.of(getHandle(), tv.getCurrentWatermarkInMs()) - 1;
    List<Row> out = new ArrayList<>();
    int keys = layout.keys;
    String badKey = layout.nullKey(key);
    int n = 0;
    long[] ts = new long[16];
    Object[] values = new Object[16];
    Object[][] chunkRows = new Object[16][];
    while (rows.hasNext()) {
      Row in = rows.next();
      long count = in.getLong(keys + 1);
      if (!in.isNullAt(keys + 4)) { // rejected on the map side
        out.add(layout.recordRow(key, "rejected", in.getString(keys + 3), in.getString(keys + 4), count));
        continue;
      }
      if (badKey != null) { // cannot happen: the map side rejects records with a null key
        out.add(layout.recordRow(key, "rejected", null, badKey, count));
        continue;
      }
      long s = in.getLong(keys);
      if (!group.accepts(s, wm)) {
        long g = group.plan().sliceMs();
        out.add(layout.recordRow(key, "late", null, count + " record(s) with times in [" + s + ", " + (s + g)
            + ") are beyond the allowed lateness (" + group.latenessMs() + " ms) at watermark " + wm, count));
        continue;
      }
      byte[] partial = (byte[]) in.get(keys + 2);
      if (n == ts.length) {
        ts = java.util.Arrays.copyOf(ts, 2 * n);
        values = java.util.Arrays.copyOf(values, 2 * n);
        chunkRows = java.util.Arrays.copyOf(chunkRows, 2 * n);
      }
      ts[n] = s;
      values[n] = new ProductFunction.Lifted(partial);
      chunkRows[n++] = new Object[] {s, partial};
    }
    if (n > 0 || version.exists()) {
      insertAndSave(key, load(key), ts, values, n, wm, out, chunkRows);
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
    KeyWindows kw = ks.kw;
    List<Row> out = new ArrayList<>();
    kw.setEvictionListener(ks::onEvict);
    kw.fire(wm, (w, s, e, r) -> out.add(layout.windowRow(key, group, w, s, e, r)));
    kw.setEvictionListener(null);
    save(key, ks);
    return CollectionConverters.asScala(out.iterator());
  }
}

package io.swag.spark;

import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.RowCodec;
import io.swag.core.plan.WindowGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The swag window operator for {@code transformWithState} in event-time mode, one instance per
 * partition and batch, executing a plan per key with {@link KeyWindows}.
 *
 * <p><b>State.</b> The window contents live in Spark's state store, so that a restart from the
 * checkpoint or a task retry gives exact results: {@code entries}, a map from record time to the
 * encoded input rows at that time ({@link RowCodec}); {@code fired}, the watermark up to which the
 * key's windows fired; {@code timer}, the registered timer; {@code version}, a random nonce written
 * with every change. The aggregator itself is an executor-side cache ({@link #CACHE}) keyed by
 * operator and key and stamped with the nonce; a stale or missing cache entry (another executor, a
 * restart, a retried batch) is rebuilt from {@code entries} with one bulk insert. So a batch costs
 * O(records of the batch + entries evicted) state operations and aggregator work, not O(window).
 *
 * <p><b>Time.</b> Spark's watermark {@code S} means records with time {@code < S} are late; swag's
 * {@code W = S - 1}. A key's next swag timer {@code f} (fire when {@code W >= f}) is a Spark timer
 * at {@code f + 1} (fires when {@code S >= f + 1}). Input rows reach the processor unfiltered (the
 * entry point strips the watermark from the time column), so records later than the allowed
 * lateness are seen here and reported as {@code late} rows, never dropped silently. Records are
 * judged against Spark's late-events watermark (the previous batch's, {@link LateEventsWatermark},
 * read from the checkpoint's offset log), as Spark's built-in window aggregation does, also in the
 * first batch after a restart and on any executor.
 */
public final class SwagProcessor extends StatefulProcessor<Row, Row, Row> {
  private static final long serialVersionUID = 1L;
  /** Executor-side aggregators: (operator id, key) to the nonce they reflect and the key's state. */
  static final Map<CacheKey, Cached> CACHE = new ConcurrentHashMap<>();

  record CacheKey(String operator, Row key) {}

  record Cached(long version, KeyWindows kw) {}

  private final Layout layout;
  private final String operatorId;
  private final boolean finalOnly;
  private final LateEventsWatermark lateEvents;
  private transient WindowGroup group;
  private transient MapState<Long, byte[]> entries;
  private transient ValueState<Long> fired;
  private transient ValueState<Long> timer;
  private transient ValueState<Long> version;

  SwagProcessor(Layout layout, String operatorId, boolean finalOnly, LateEventsWatermark lateEvents) {
    this.layout = layout;
    this.operatorId = operatorId;
    this.finalOnly = finalOnly;
    this.lateEvents = lateEvents;
  }

  @Override
  public void init(OutputMode outputMode, TimeMode timeMode) {
    group = WindowGroup.timeGroups(layout.plan(), layout.columns, finalOnly).get(0);
    entries = getHandle().getMapState("entries", Encoders.LONG(), Encoders.BINARY(), TTLConfig.NONE());
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
  private KeyWindows load(Row key) {
    long v = version.exists() ? version.get() : 0L;
    CacheKey ck = new CacheKey(operatorId, key);
    Cached c = CACHE.remove(ck);
    if (c != null && c.version() == v && v != 0L) {
      return c.kw();
    }
    KeyWindows kw = group.newKey(group.perRecord());
    if (v != 0L) {
      List<Long> ts = new ArrayList<>();
      List<Object[]> rows = new ArrayList<>();
      scala.collection.Iterator<Tuple2<Long, byte[]>> it = entries.iterator();
      while (it.hasNext()) {
        Tuple2<Long, byte[]> e = it.next();
        for (Object[] r : RowCodec.decode(e._2())) {
          ts.add(e._1());
          rows.add(r);
        }
      }
      long[] ta = new long[ts.size()];
      for (int i = 0; i < ta.length; i++) {
        ta[i] = ts.get(i);
      }
      kw.restore(ta, rows.toArray(new Object[0][]), ta.length, fired.exists() ? fired.get() : Long.MIN_VALUE);
    }
    return kw;
  }

  /** Writes the key's bookkeeping after a change: timer, fired watermark, nonce, cache. */
  private void save(Row key, KeyWindows kw) {
    CacheKey ck = new CacheKey(operatorId, key);
    long next = kw.nextTimer();
    long sparkTimer = next == Long.MAX_VALUE ? Long.MAX_VALUE : next + 1;
    Long old = timer.exists() ? timer.get() : null;
    if (kw.isIdle()) {
      if (old != null) {
        getHandle().deleteTimer(old);
      }
      entries.clear();
      fired.clear();
      timer.clear();
      version.clear();
      CACHE.remove(ck);
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
    fired.update(kw.firedWatermark());
    long nonce = ThreadLocalRandom.current().nextLong();
    if (nonce == 0L) {
      nonce = 1L;
    }
    version.update(nonce);
    CACHE.put(ck, new Cached(nonce, kw));
  }

  @Override
  public scala.collection.Iterator<Row> handleInputRows(Row key, scala.collection.Iterator<Row> rows, TimerValues tv) {
    long wm = lateEvents.of(getHandle(), tv.getCurrentWatermarkInMs()) - 1;
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < layout.keys; i++) {
      if (key.isNullAt(i)) {
        while (rows.hasNext()) {
          out.add(layout.recordRow(key, "rejected", rows.next(), "key column '" + layout.columns.get(i) + "' is null"));
        }
        return CollectionConverters.asScala(out.iterator());
      }
    }
    KeyWindows kw = load(key);
    int n = 0;
    long[] ts = new long[16];
    Object[][] batch = new Object[16][];
    while (rows.hasNext()) {
      Row in = rows.next();
      Object[] row = new Object[layout.columns.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = Layout.toSwag(in.get(i));
      }
      Long t = layout.time(in.get(layout.timeIdx));
      if (t == null) {
        out.add(layout.recordRow(key, "rejected", in, in.get(layout.timeIdx) == null
            ? "time column '" + layout.columns.get(layout.timeIdx) + "' is null"
            : "time column '" + layout.columns.get(layout.timeIdx) + "': unparsable time " + in.get(layout.timeIdx)));
        continue;
      }
      row[layout.timeIdx] = t;
      String nan = nanColumn(row);
      if (nan != null) {
        out.add(layout.recordRow(key, "rejected", in, "column '" + nan + "' is NaN"));
        continue;
      }
      if (!group.accepts(t, wm)) {
        out.add(layout.recordRow(key, "late", in, "time " + t + " is beyond the allowed lateness ("
            + group.latenessMs() + " ms) at watermark " + wm));
        continue;
      }
      try {
        group.check(row, t);
      } catch (IllegalArgumentException e) {
        out.add(layout.recordRow(key, "rejected", in, e.getMessage()));
        continue;
      }
      if (n == ts.length) {
        ts = java.util.Arrays.copyOf(ts, 2 * n);
        batch = java.util.Arrays.copyOf(batch, 2 * n);
      }
      ts[n] = t;
      batch[n++] = row;
    }
    if (n > 0) {
      kw.setEvictionListener(entries::removeKey);
      // The key's own fired watermark lags the stream's when its timers have not run for a while:
      // bring it up to the late-events watermark, else a record accepted for one window would also
      // go into (and, in update mode, re-emit; in append mode, fire) a window of the key that is
      // past its lateness by the stream's watermark (what Spark's built-in aggregation drops).
      long insertWm = Math.max(kw.firedWatermark(), wm);
      kw.insertBatch(ts, batch, n, insertWm, (w, s, e, r) -> out.add(layout.windowRow(key, group, w, s, e, r)));
      kw.setEvictionListener(null);
      TreeMap<Long, byte[]> add = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        add.merge(ts[i], RowCodec.encode(batch[i]), RowCodec::append);
      }
      for (Map.Entry<Long, byte[]> e : add.entrySet()) {
        byte[] old = entries.getValue(e.getKey());
        entries.updateValue(e.getKey(), RowCodec.append(old, e.getValue()));
      }
      save(key, kw);
    } else if (version.exists()) {
      CACHE.put(new CacheKey(operatorId, key), new Cached(version.get(), kw)); // unchanged: give it back
    }
    return CollectionConverters.asScala(out.iterator());
  }

  private String nanColumn(Object[] row) {
    for (int i = layout.keys; i < row.length; i++) {
      if (i != layout.timeIdx && row[i] instanceof Double d && d.isNaN()) {
        return layout.columns.get(i);
      }
    }
    return null;
  }

  @Override
  public scala.collection.Iterator<Row> handleExpiredTimer(Row key, TimerValues tv, ExpiredTimerInfo info) {
    long wm = tv.getCurrentWatermarkInMs() - 1;
    timer.clear(); // this timer fired
    if (!version.exists()) {
      return CollectionConverters.asScala(java.util.Collections.<Row>emptyIterator());
    }
    KeyWindows kw = load(key);
    List<Row> out = new ArrayList<>();
    kw.setEvictionListener(entries::removeKey);
    kw.fire(wm, (w, s, e, r) -> out.add(layout.windowRow(key, group, w, s, e, r)));
    kw.setEvictionListener(null);
    save(key, kw);
    return CollectionConverters.asScala(out.iterator());
  }
}

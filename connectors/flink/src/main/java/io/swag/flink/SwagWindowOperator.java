package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import io.swag.core.plan.ColdSlices;
import io.swag.core.plan.CountGroup;
import io.swag.core.plan.CountWindow;
import io.swag.core.plan.EntryStore;
import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.OnError;
import io.swag.core.plan.Plan;
import io.swag.core.plan.QueryGroups;
import io.swag.core.plan.RowCodec;
import io.swag.core.plan.StoredWindows;
import io.swag.core.plan.WindowGroup;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.types.Row;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keyed event-time window operator of swag: executes the time-window groups of a {@link Plan}
 * with exactly the semantics of docs/query-spec.md (the engine-free {@link WindowGroup} /
 * {@link KeyWindows} core), and its count windows.
 *
 * <p>Per key, one {@link StoredWindows} per time group (one shared aggregator for all windows and
 * functions of the group) and one {@link CountWindow} per count group. Per key one event-time timer
 * in Flink's internal timer service, at the earliest window end - 1 of the key (or a cleanup time
 * once only windows within lateness are left), so keys that go quiet still fire and are dropped.
 * Records too late for every window go to the late side output and the {@code swagLateRecords}
 * counter; records with a bad key, time or value go to the rejected side output with the reason.
 *
 * <p><b>State.</b> A key's windows live in keyed state, written incrementally
 * ({@link StoredWindows}): per time group a {@code MapState<Long, byte[]>} ({@value #ENTRIES_STATE}
 * + group index) of slices (slice start to partial, when every function is mergeable) or chunks
 * (chunk id to the rows accepted between two checkpoints), and one small {@code ValueState<byte[]>}
 * ({@value #META_STATE}: per group the fired watermark, evicted time and next chunk id, then the count
 * windows). At a checkpoint each key changed since the last one writes its new slices or one chunk
 * and removes what was evicted: O(new data), never O(window), so RocksDB and ForSt incremental
 * checkpoints grow with the input rate, not the window.
 *
 * <p><b>Heap.</b> The aggregators are a cache over that state: at most {@code cacheMaxKeys} keys
 * (least recently used dropped first, with a second chance for a key a packed record used: see
 * {@link #cache}; after writing their changes to state); a key not in the cache
 * is rebuilt from its state, with one bulk insert, at its next record or timer. Restore and
 * rescaling therefore load nothing up front: state is ordinary keyed state (redistributed by key
 * group), timers are Flink's. The watermark is kept in union operator state (restored as the
 * minimum), so a record replayed after a restore is judged late exactly as before the failure.
 *
 * <p><b>Key context.</b> Flink does not set the current key before each record ({@link #hasKeyContext1}
 * is false): {@link #processElement} sets it for every record except a {@link PackedRecord} of a
 * key in the cache, whose insert reads no keyed state and sets the key only to register a timer.
 * Code that reads keyed state or registers a timer sets the key it works on; none relies on the key
 * a record, timer or step left behind.
 *
 * <p>What it runs: at {@code open()} the operator reads back its plan from aggregators made as
 * each key's are ({@link ExecutedPlan}: per group the algorithm built, its arity, slicing and slice
 * width, the range-query windows, and here whether the key's state holds slices) and publishes it
 * once, as the string gauge {@value #PLAN_METRIC} (JSON), the accumulator {@code swagPlan <operator
 * name>} (one JSON per subtask, in the job's result) and one INFO log line; nothing per record.
 */
public final class SwagWindowOperator extends AbstractStreamOperator<Row>
    implements OneInputStreamOperator<Object, Row>, Triggerable<Object, VoidNamespace> {
  private static final long serialVersionUID = 1L;
  static final String ENTRIES_STATE = "swag-entries-";
  static final String META_STATE = "swag-key-meta";
  private static final int META_VERSION = 2;
  private static final long GAUGE_PERIOD_NANOS = 100_000_000L;
  /** The entries gauge's walk over the cached keys takes at most 1 / this of the task's time between two walks. */
  private static final long GAUGE_WALK_SHARE = 100;
  static final String WATERMARK_STATE = "swag-watermark";
  /** The metric (a string gauge) and accumulator name prefix of the executed plan's read-back. */
  public static final String PLAN_METRIC = "swagPlan";
  private static final Logger LOG = LoggerFactory.getLogger(SwagWindowOperator.class);

  private final String planJson;
  private final String[] fieldNames;
  private final OutputTag<Row> lateTag;
  private final OnError onError;
  private final OutputTag<Row> rejectedTag;
  private final int cacheMaxKeys;
  /** Keyed by the value of the one key column ({@link SwagFlinkOptions.KeyLayout#VALUE}), else by a {@code Row}. */
  private final boolean valueKey;
  /** Due windows fire paced over the records after a watermark ({@link SwagFlinkOptions.Firing#PACED}), else at it. */
  private final boolean paced;

  private transient Layout layout;
  private transient List<WindowGroup> groups;
  private transient List<CountGroup> countGroups;
  private transient QueryGroups queryGroups;
  private transient QueryGroups.Memo acceptMemo; // this instance's (queryGroups may be shared)
  /** The time of the record being inserted: the timestamp of the count-window rows it emits. */
  private transient long insertTime;
  /** The cache of keys on the heap, least recently used first (a packed record's look-up leaves the order as it is). */
  private transient LinkedHashMap<Object, KeyState> states;
  /** The cached keys by their {@code long} value, for packed records ({@link #insertPacked}); null without packing. */
  private transient LongKeyIndex<KeyState> packedKeys;
  private transient List<KeyState> passedKeys; // cache(): the keys its eviction passed over
  private transient ArrayList<KeyState> dirty; // cached keys changed since the last checkpoint (KeyState.dirty set)
  private transient InternalTimerService<VoidNamespace> timers;
  private transient EntryStore[] entries; // per time group, the current key's entries
  private transient ValueState<byte[]> meta;
  private transient DataOutputSerializer metaOut;
  private transient ListState<Long> watermarkState;
  private transient long restoredWatermark;
  private transient boolean[] accepted;
  /** The one row array refilled for every record when no group keeps an inserted row ({@link WindowGroup#liftsRowsAtInsert}), else null. */
  private transient Object[] rowBuffer;
  /** {@link #scalarSlot(Layout, List, List)} of this operator's plan. */
  private transient int scalarSlot;
  /** Paced firing: the keys with windows due at {@link #held}, in turn. */
  private transient ArrayDeque<KeyState> due;
  /** Paced firing: the watermark not yet emitted, while {@link #due} is not empty; else null. */
  private transient Watermark held;
  private transient long deadline; // processing time (ms) at which the held watermark's due windows all fire
  private transient boolean deadlineArmed; // a processing-time timer will call onDeadline
  private transient long pace; // ms of event time per step
  private transient long recordsSinceMark;
  private transient int recordsSinceStep;
  private transient long lastMarkNanos;
  private transient boolean advancing; // the timers fire for the held watermark: it goes out after them
  /** Where the key, time and value columns are in the input's rows, when {@link #scalarSlot} is set; else null. */
  private transient PackedRecord.Columns packedColumns;
  private transient StreamRecord<Row> reuse;
  /** Per time group and window, and per count group, the result row refilled at each result (see {@link #emit}). */
  private transient Row[][] timeRows;
  private transient Row[] countRows;
  private transient Counter recordsIn;
  private transient Counter lateRecords;
  private transient Counter rejectedRecords;
  private transient Counter coldRecords;
  /** Per time group, the cold path of keys not on the heap; null unless every group stores slices and there are no count groups. */
  private transient ColdSlices[] cold;
  private transient byte[] emptyMeta; // the meta of a key that has only slices written by the cold path
  private transient boolean sawTimestamp;
  // the gauges' values, published by the task thread (the cache is access-ordered: another thread may not walk it)
  private transient volatile long keysGauge;
  private transient volatile long entriesGauge;
  private transient long gaugesAtNanos;
  private transient long gaugeWaitNanos; // from the last walk to the next: GAUGE_PERIOD_NANOS or more (see publishGauges)

  /** Per-key state: the groups' windows, the next timer registered. */
  private final class KeyState {
    final Object key;
    final Object[] keyValues;
    final StoredWindows[] time;
    final KeyWindows.WindowOutput[] outs;
    final CountWindow[] count;
    final CountWindow.Output[] countOuts;
    long timer = Long.MAX_VALUE; // the earliest timer registered (while queued: the one that fired)
    boolean dirty;
    /** In {@link #due}: windows up to the held watermark wait to fire. */
    boolean queued;
    /** While queued: every window with a fire watermark up to this one has fired. */
    long firedTo;
    /**
     * Used since the cache last passed over it (a packed record's insert, which finds the key in
     * {@link #packedKeys} and leaves the cache's access order as it is): the eviction's second chance.
     */
    boolean used;

    /** The watermark a record after {@code wm} inserts at: the key's fired one while queued (its windows wait). */
    long insertWatermark(long wm) {
      return queued ? firedTo : wm;
    }

    /** A key with no state. */
    KeyState(Object key) {
      this(key, null);
    }

    /** A key with the time groups {@code loaded} (from its state), or empty ones (null). */
    KeyState(Object key, StoredWindows[] loaded) {
      this.key = key;
      this.keyValues = layout.keyValues(key, valueKey);
      this.time = loaded != null ? loaded : new StoredWindows[groups.size()];
      this.outs = new KeyWindows.WindowOutput[groups.size()];
      for (int g = 0; g < time.length; g++) {
        if (loaded == null) {
          time[g] = new StoredWindows(groups.get(g), layout.timeSlot);
        }
        final int gi = g;
        outs[g] = new KeyWindows.WindowOutput() {
          @Override
          public void emit(int w, long start, long end, List<Object> results) {
            SwagWindowOperator.this.emit(keyValues, gi, w, start, end, results);
          }

          @Override
          public void emitOne(int w, long start, long end, Object result) {
            SwagWindowOperator.this.emitOne(keyValues, gi, w, start, end, result);
          }

          @Override
          public Object heldOne(int w) {
            return layout.heldOne(timeRows[gi][w], gi, w);
          }
        };
      }
      this.count = new CountWindow[countGroups.size()];
      this.countOuts = new CountWindow.Output[count.length];
      for (int c = 0; c < count.length; c++) {
        count[c] = countGroups.get(c).newKey(true);
        final int ci = c;
        countOuts[c] = (start, end, results) -> emitCount(keyValues, ci, start, end, results);
      }
    }

    boolean idle() {
      if (count.length > 0) {
        return false;
      }
      for (StoredWindows k : time) {
        if (!k.windows().isIdle()) {
          return false;
        }
      }
      return true;
    }
  }

  /** One time group's entries of the current key: a {@code MapState<Long, byte[]>}. */
  private static final class MapEntries implements EntryStore {
    private final MapState<Long, byte[]> map;

    MapEntries(MapState<Long, byte[]> map) {
      this.map = map;
    }

    @Override
    public byte[] get(long id) throws Exception {
      return map.get(id);
    }

    @Override
    public void put(long id, byte[] bytes) throws Exception {
      map.put(id, bytes);
    }

    @Override
    public void remove(long id) throws Exception {
      map.remove(id);
    }

    @Override
    public void clear() {
      map.clear();
    }

    @Override
    public void forEach(Visitor v) throws Exception {
      Iterable<Map.Entry<Long, byte[]>> all = map.entries();
      if (all == null) {
        return;
      }
      for (Map.Entry<Long, byte[]> e : all) {
        v.visit(e.getKey(), e.getValue());
      }
    }
  }

  SwagWindowOperator(String planJson, String[] fieldNames, OutputTag<Row> lateTag, OutputTag<Row> rejectedTag,
      int cacheMaxKeys, OnError onError, boolean valueKey) {
    this(planJson, fieldNames, lateTag, rejectedTag, cacheMaxKeys, onError, valueKey, true);
  }

  /** {@code paced}: fire due windows paced over the records after each watermark ({@link #fireStep}), else at it. */
  SwagWindowOperator(String planJson, String[] fieldNames, OutputTag<Row> lateTag, OutputTag<Row> rejectedTag,
      int cacheMaxKeys, OnError onError, boolean valueKey, boolean paced) {
    this.paced = paced;
    if (cacheMaxKeys < 1) {
      throw new SwagException(Kind.INVALID_QUERY, "cache_max_keys: " + cacheMaxKeys + " (must be >= 1)");
    }
    this.cacheMaxKeys = cacheMaxKeys;
    this.planJson = planJson;
    this.fieldNames = fieldNames.clone();
    this.lateTag = lateTag;
    this.rejectedTag = rejectedTag;
    this.onError = onError;
    this.valueKey = valueKey;
  }

  /**
   * The used-row slot of the value column when a record can go in as its time and value alone
   * ({@link #insertScalar}: one time group of one scalar function, {@link WindowGroup#scalarColumn}, one
   * key column and no count group), else -1.
   */
  static int scalarSlot(Layout layout, List<WindowGroup> groups, List<CountGroup> countGroups) {
    int sc = groups.size() == 1 && countGroups.isEmpty() ? groups.get(0).scalarColumn() : -1;
    return sc >= 0 && layout.timeSlot >= 0 && layout.keySlots.length == 1 && layout.valueSlots.length == 1
        && layout.valueSlots[0] == sc ? sc : -1;
  }

  private void setUpPlan() {
    if (layout != null) {
      return;
    }
    Plan plan = Plan.fromJson(planJson);
    layout = new Layout(plan, List.of(fieldNames));
    groups = WindowGroup.storedGroups(plan, layout.used, false);
    countGroups = CountGroup.countGroups(plan, layout.used);
    queryGroups = new QueryGroups(groups, countGroups);
    acceptMemo = queryGroups.newMemo();
    states = new LinkedHashMap<>(16, 0.75f, true);
    dirty = new ArrayList<>();
    metaOut = new DataOutputSerializer(64);
    accepted = new boolean[groups.size()];
    boolean lifted = countGroups.isEmpty();
    for (WindowGroup g : groups) {
      lifted &= g.liftsRowsAtInsert();
    }
    rowBuffer = lifted ? new Object[layout.used.size()] : null;
    scalarSlot = scalarSlot(layout, groups, countGroups);
    packedKeys = valueKey && scalarSlot >= 0 ? new LongKeyIndex<>() : null;
    passedKeys = new ArrayList<>();
    packedColumns = scalarSlot >= 0 ? PackedRecord.Columns.of(layout, scalarSlot) : null;
    reuse = new StreamRecord<>(null);
    timeRows = new Row[groups.size()][];
    for (int g = 0; g < timeRows.length; g++) {
      timeRows[g] = new Row[layout.timePos[g].length];
      for (int w = 0; w < timeRows[g].length; w++) {
        timeRows[g][w] = layout.emptyRow();
      }
    }
    countRows = new Row[countGroups.size()];
    for (int c = 0; c < countRows.length; c++) {
      countRows[c] = layout.emptyRow();
    }
    cold = countGroups.isEmpty() ? ColdSlices.of(groups) : null;
    if (cold != null) {
      try {
        DataOutputSerializer m = new DataOutputSerializer(64);
        m.writeInt(META_VERSION);
        StoredWindows.writeEmptyMetas(groups.size(), m);
        m.writeInt(0); // no count groups
        emptyMeta = m.getCopyOfBuffer();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    setUpPlan();
    var store = context.getKeyedStateStore();
    entries = new EntryStore[groups.size()];
    for (int g = 0; g < entries.length; g++) {
      entries[g] = new MapEntries(store.getMapState(new MapStateDescriptor<>(ENTRIES_STATE + g, Types.LONG,
          PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)));
    }
    meta = store.getState(new ValueStateDescriptor<>(META_STATE, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    watermarkState = context.getOperatorStateStore().getUnionListState(
        new ListStateDescriptor<>(WATERMARK_STATE, Types.LONG));
    restoredWatermark = Long.MIN_VALUE;
    if (context.isRestored()) {
      long min = Long.MAX_VALUE;
      boolean any = false;
      for (Long w : watermarkState.get()) {
        min = Math.min(min, w);
        any = true;
      }
      restoredWatermark = any ? min : Long.MIN_VALUE;
      // keys are rebuilt from their state at their next record or timer (Flink restored the timers)
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    setUpPlan();
    timers = getInternalTimerService("swag-timers", VoidNamespaceSerializer.INSTANCE, this);
    due = new ArrayDeque<>();
    lastMarkNanos = System.nanoTime();
    recordsIn = getMetricGroup().counter("swagRecordsIn");
    lateRecords = getMetricGroup().counter("swagLateRecords");
    rejectedRecords = getMetricGroup().counter("swagRejectedRecords");
    coldRecords = getMetricGroup().counter("swagColdRecords");
    publishExecutedPlan();
    getMetricGroup().gauge("swagKeys", () -> keysGauge);
    getMetricGroup().gauge("swagEntries", () -> entriesGauge);
  }

  /**
   * Publishes the gauges' values: the cached keys at every call, the entries (a walk over the cached
   * keys) when forced or once {@code gaugeWaitNanos} have passed since the last walk, which is
   * {@link #GAUGE_PERIOD_NANOS} or {@link #GAUGE_WALK_SHARE} times the last walk's duration, whichever
   * is longer (with many cached keys the walk stays a bounded share of the task's time).
   */
  private void publishGauges(boolean force) {
    keysGauge = states.size();
    long now = System.nanoTime();
    if (!force && now - gaugesAtNanos < gaugeWaitNanos) {
      return;
    }
    long n = 0;
    for (KeyState s : states.values()) {
      for (StoredWindows k : s.time) {
        n += k.windows().entries();
      }
      for (CountWindow c : s.count) {
        n += c.size();
      }
    }
    entriesGauge = n;
    gaugesAtNanos = System.nanoTime();
    gaugeWaitNanos = Math.max(GAUGE_PERIOD_NANOS, GAUGE_WALK_SHARE * (gaugesAtNanos - now));
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (paced) {
      paceWatermark(mark);
    } else {
      super.processWatermark(mark);
    }
    publishGauges(false);
  }

  // ---- paced firing ----
  // A key whose timer fires joins `due` instead of firing, and the watermark is held back (`held`)
  // until every due key has fired up to it. Every PACE_RECORDS records one due key, in turn, fires its
  // windows up to `pace` ms of event time further, a step sized so that the queue empties within about
  // 1 / PACE_MARGIN of the records of the last watermark interval. The firing then overlaps the
  // upstream tasks' work, instead of stopping them for one long burst per watermark (Flink's network
  // buffers hold a few milliseconds of records). A record of a due key inserts at the key's fired
  // watermark (`firedTo`), as if its windows had fired, unless its time is at or before the watermark
  // (its windows may be due): the key fires first. A checkpoint barrier, the next watermark, the end of
  // the input, the input going idle, the key leaving the cache, or a deadline (the last watermark
  // interval's processing time, 10 ms to 60 s) fire what is due at once. Results are the same rows as
  // at the watermark, in the same order per key; each comes out by the deadline, and before the
  // watermark that passes its window. A key is taken off the queue by a scan (fireKey): a record at or
  // behind the watermark, or the key leaving the cache, which takes the least recently used key without
  // a second chance (cache), near the queue's head.

  /** Records between two steps of the paced firing. */
  static final int PACE_RECORDS = 256;
  private static final double PACE_MARGIN = 1.25;
  /** Bounds of the deadline: the last watermark interval's processing time, within these. */
  static final long MIN_DEADLINE_MS = 10;
  static final long MAX_DEADLINE_MS = 60_000;

  private void paceWatermark(Watermark mark) throws Exception {
    fireDue();
    long records = Math.max(1, recordsSinceMark);
    recordsSinceMark = 0;
    long now = System.nanoTime();
    long intervalNanos = now - lastMarkNanos;
    lastMarkNanos = now;
    long from = timers.currentWatermark();
    held = mark; // the target of a due key that leaves the cache while the timers fire (fireKey)
    advancing = true;
    try {
      timeServiceManager.advanceWatermark(mark); // the due keys join the queue (onEventTime)
    } finally {
      advancing = false;
    }
    if (due.isEmpty()) {
      emitHeld();
      return;
    }
    if (from == Long.MIN_VALUE || mark.getTimestamp() == Long.MAX_VALUE) {
      fireDue(); // the first watermark, or the last: no interval to pace over
      return;
    }
    double step = ((double) mark.getTimestamp() - from) * due.size() * PACE_RECORDS / records * PACE_MARGIN;
    pace = step >= Long.MAX_VALUE / 4.0 ? Long.MAX_VALUE / 4 : Math.max(1, (long) step);
    recordsSinceStep = 0;
    long delayMs = Math.max(MIN_DEADLINE_MS, Math.min(intervalNanos / 1_000_000, MAX_DEADLINE_MS));
    deadline = getProcessingTimeService().getCurrentProcessingTime() + delayMs;
    if (!deadlineArmed) {
      deadlineArmed = true;
      getProcessingTimeService().registerTimer(deadline, this::onDeadline);
    }
  }

  /** The processing-time deadline of the held watermark: fires what is due if it is still held (re-armed for a later one). */
  private void onDeadline(long now) throws Exception {
    deadlineArmed = false;
    if (held == null) {
      return;
    }
    if (now >= deadline) {
      fireDue(); // the records stopped, or slowed, before the queue emptied
    } else {
      deadlineArmed = true;
      getProcessingTimeService().registerTimer(deadline, this::onDeadline);
    }
  }

  /**
   * An input going idle lets the tasks downstream move past this one's watermark (an idle channel
   * holds no one back), and an idle output drops watermarks: the held one, and its rows, go first.
   */
  @Override
  public void processWatermarkStatus(WatermarkStatus status) throws Exception {
    if (paced && status.isIdle() && due != null) {
      fireDue();
    }
    super.processWatermarkStatus(status);
  }

  /** Fires every due window at once and emits the held watermark. */
  private void fireDue() throws Exception {
    while (!due.isEmpty()) {
      fireStep(Long.MAX_VALUE);
    }
  }

  /**
   * One step of the paced firing: the queue's first key fires its windows up to {@code step} ms of
   * event time past {@link KeyState#firedTo} (at most to the held watermark), then goes to the end of
   * the queue, or leaves it having fired all its due windows. The held watermark goes out when the
   * queue is empty.
   */
  private void fireStep(long step) throws Exception {
    KeyState s = due.poll();
    long target = held.getTimestamp();
    long to = s.firedTo + step;
    if (to < s.firedTo || to >= target) {
      to = target; // (an overflow, or past the watermark)
    }
    fireTo(s, to);
    if (to == target) {
      s.queued = false;
      setCurrentKey(s.key);
      afterFire(s);
    } else {
      due.add(s);
    }
    if (due.isEmpty()) {
      emitHeld();
    }
  }

  /** Fires every due window of queued key {@code s}, whose key is the current key, and takes it off the queue. */
  private void fireKey(KeyState s) throws Exception {
    due.remove(s);
    fireTo(s, held.getTimestamp());
    s.queued = false;
    afterFire(s);
    if (due.isEmpty() && !advancing) {
      emitHeld();
    }
  }

  /** Fires every window of key {@code s} with a fire watermark up to {@code watermark}, in every group. */
  private void fireTo(KeyState s, long watermark) throws Exception {
    for (int g = 0; g < s.time.length; g++) {
      s.time[g].windows().fire(watermark, s.outs[g]);
    }
    s.firedTo = watermark;
  }

  private void emitHeld() {
    Watermark w = held;
    held = null;
    output.emitWatermark(w);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    if (paced && due != null) {
      fireDue(); // a checkpoint holds no due window: the timers that made them due have fired
    }
    super.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void finish() throws Exception {
    if (paced && due != null) {
      fireDue();
    }
    super.finish();
  }

  /** The read-back of what this operator runs, per group from an aggregator made as each key's is. */
  ExecutedPlan executedPlan() {
    setUpPlan();
    List<ExecutedPlan.Group> r = new ArrayList<>();
    for (WindowGroup g : groups) {
      r.add(g.executed());
    }
    for (CountGroup c : countGroups) {
      r.add(c.executed());
    }
    boolean sliced = false;
    for (WindowGroup g : groups) {
      sliced |= g.preaggregates();
    }
    return new ExecutedPlan(r, Map.of("name", "flink", "operator", "datastream", "state",
        sliced ? "slices" : "rows", "cache_max_keys", cacheMaxKeys,
        "key_layout", valueKey ? "value" : "row", "firing", paced ? "paced" : "watermark"));
  }

  /** Publishes the executed plan once: gauge, accumulator (one entry per subtask), INFO log line. */
  private void publishExecutedPlan() {
    ExecutedPlan executed = executedPlan();
    String json = executed.toJson();
    getMetricGroup().gauge(PLAN_METRIC, () -> json);
    ListAccumulator<String> acc = new ListAccumulator<>();
    acc.add(json);
    String name = getOperatorConfig().getOperatorName();
    getRuntimeContext().addAccumulator(PLAN_METRIC + " " + name, acc);
    LOG.info("swag operator '{}' subtask {}: {}", name, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        executed.describe());
  }

  private long watermark() {
    long w = timers.currentWatermark();
    return Math.max(w, restoredWatermark);
  }

  /**
   * False: Flink does not set the key per record; {@link #processElement} does (see the class
   * comment, "Key context"), and a packed record of a cached key goes in without it.
   */
  @Override
  public boolean hasKeyContext1() {
    return false;
  }

  @Override
  public void processElement(StreamRecord<Object> record) throws Exception {
    boolean packed = record.getValue() instanceof PackedRecord p && p.packed() && scalarSlot >= 0;
    if (!packed || !insertPacked(record, (PackedRecord) record.getValue())) {
      setKeyContextElement1(record);
      processRecord(record, packed);
    }
    if (held != null && ++recordsSinceStep >= PACE_RECORDS) {
      recordsSinceStep = 0;
      fireStep(pace);
    }
  }

  /**
   * A packed record, with no current key set, inserted by {@link #insertValue} when its key is in the
   * cache. Returns false, having done nothing, for a key to create, load or take the cold path: the
   * caller sets the key and {@link #processRecord} takes it.
   */
  private boolean insertPacked(StreamRecord<Object> record, PackedRecord p) throws Exception {
    checkTimestamp(record);
    KeyState s = packedKeys != null ? packedKeys.get(p.key) : null;
    if (!insertValue(record, s, p.time, p.value)) {
      return false;
    }
    if (s != null) {
      s.used = true; // found by its value: the cache's access order did not see it
    }
    recordsIn.inc();
    recordsSinceMark++;
    return true;
  }

  /**
   * A record, its key the current key; {@code packed}: a packed record {@link #insertPacked} declined,
   * which goes to the general path.
   */
  private void processRecord(StreamRecord<Object> record, boolean packed) throws Exception {
    recordsIn.inc();
    recordsSinceMark++;
    StreamRecord<Row> element = asRow(record);
    Row in = element.getValue();
    if (!packed && scalarSlot >= 0 && insertScalar(element, in)) {
      return;
    }
    Object[] row = rowBuffer != null ? layout.values(in, rowBuffer) : layout.values(in);
    Object key = getCurrentKey();
    String bad = layout.check(row);
    if (bad != null) {
      reject(element, bad);
      return;
    }
    checkTimestamp(element);
    long t = layout.time(row);
    long wm = watermark();
    int first = queryGroups.accept(t, wm, accepted, acceptMemo);
    if (queryGroups.late(first)) {
      late(element);
      return;
    }
    KeyState s = states.get(key);
    if (s == null && cold != null && states.size() >= cacheMaxKeys && insertCold(element, row, t, wm, first)) {
      return;
    }
    if (s == null) {
      s = load(key);
    }
    if (s != null && s.queued && t <= wm) {
      fireKey(s); // its due windows may hold t: they fire first, as at the watermark
      if (states.get(key) != s) {
        s = null; // nothing left in its windows: its state went with the firing
      }
    }
    boolean created = s == null;
    if (created) {
      s = new KeyState(key);
    }
    long keyWm = s.insertWatermark(wm); // t is in no due window
    try {
      queryGroups.check(row, t, accepted, first);
      if (first >= 0) {
        s.time[first].insert(t, row, keyWm, s.outs[first]); // checks its values before changing anything
      }
    } catch (IllegalArgumentException e) {
      reject(element, e.getMessage());
      return;
    }
    if (created) {
      cache(s);
    }
    for (int g = first + 1; g < accepted.length; g++) {
      if (accepted[g]) {
        s.time[g].insert(t, row, keyWm, s.outs[g]);
      }
    }
    insertTime = t;
    for (int c = 0; c < s.count.length; c++) {
      s.count[c].insert(t, row, s.countOuts[c]);
    }
    markDirty(s);
    schedule(s);
  }

  /**
   * The first record without an event-time timestamp fails the job (its time windows would never
   * fire) unless a record with one came before.
   */
  private void checkTimestamp(StreamRecord<?> element) {
    if (!element.hasTimestamp() && !groups.isEmpty() && !sawTimestamp) {
      throw new IllegalStateException("swag: the input stream has no event-time timestamps, so it has no watermarks "
          + "either and the time windows would never fire; assign a WatermarkStrategy (with a timestamp assigner) "
          + "to the input, e.g. stream.assignTimestampsAndWatermarks(WatermarkStrategy"
          + ".forBoundedOutOfOrderness(...).withTimestampAssigner(...)) (time column '" + layout.spec.time() + "')");
    }
    sawTimestamp = true;
  }

  /**
   * A record of a good key, a {@code Long} time and a {@code Double} value that is not NaN, of a key in
   * the cache, inserted by its time and value alone ({@link StoredWindows#insertDouble}): what the
   * general path does for it, with no row. Returns false, having done nothing the general path would
   * not do first, for any other record (a null or another type the row contract converts or rejects,
   * a key to create, load or take the cold path): the general path takes it.
   */
  private boolean insertScalar(StreamRecord<Row> element, Row in) throws Exception {
    boolean named = in.getFieldNames(false) != null;
    if (layout.field(in, named, layout.keySlots[0]) == null
        || !(layout.field(in, named, layout.timeSlot) instanceof Long time)
        || !(layout.field(in, named, scalarSlot) instanceof Double value) || value.isNaN()) {
      return false;
    }
    checkTimestamp(element);
    return insertValue(element, states.get(getCurrentKey()), time, value);
  }

  /**
   * {@link #insertScalar}'s insert of a record's time {@code t} and value (a key in the cache, and
   * late and rejected records sent to their outputs), from a row or a {@link PackedRecord}, whose
   * packing checked what {@link #insertScalar} checks. Returns false, having done nothing, for a key
   * to create, load or take the cold path ({@code s} null: not in the cache). Reads no keyed
   * state: the current key need not be {@code s}'s (it is set before a timer is registered).
   */
  private boolean insertValue(StreamRecord<?> element, KeyState s, long t, double value) throws Exception {
    long wm = watermark();
    int first = queryGroups.accept(t, wm, accepted, acceptMemo);
    if (!queryGroups.late(first)) {
      if (s == null || (s.queued && t <= wm)) {
        return false;
      }
      try {
        s.time[first].insertDouble(t, value, s.insertWatermark(wm), s.outs[first]);
      } catch (IllegalArgumentException e) {
        reject(asRow(element), e.getMessage());
        return true;
      }
      insertTime = t;
      markDirty(s);
      long next = nextTimer(s);
      if (next < s.timer) {
        setCurrentKey(s.key);
        register(s, next);
      }
      return true;
    }
    late(asRow(element));
    return true;
  }

  /** {@code record} holding its input row: a {@link PackedRecord}'s row, or the row it was packed from, put in its place. */
  @SuppressWarnings("unchecked")
  private StreamRecord<Row> asRow(StreamRecord<?> record) {
    if (record.getValue() instanceof PackedRecord p) {
      ((StreamRecord<Object>) record).replace(p.toRow(packedColumns));
    }
    return (StreamRecord<Row>) record;
  }

  /**
   * The cold path ({@link ColdSlices}) of a key not in the full cache: combines an in-time record into
   * its slice in each accepting group's state and registers the key's timer, without loading the key.
   * Returns false (nothing changed) for a record that updates a fired window: the caller loads the key.
   */
  private boolean insertCold(StreamRecord<Row> element, Object[] row, long t, long wm, int first) throws Exception {
    long fire = ColdSlices.fireTime(cold, accepted, first, t, wm);
    if (fire == Long.MIN_VALUE) {
      return false;
    }
    try {
      for (int g = first; g < accepted.length; g++) {
        if (accepted[g]) {
          groups.get(g).check(row, t);
        }
      }
    } catch (IllegalArgumentException e) {
      reject(element, e.getMessage());
      return true;
    }
    if (meta.value() == null) {
      meta.update(emptyMeta);
    }
    for (int g = first; g < accepted.length; g++) {
      if (accepted[g]) {
        cold[g].insert(t, row, entries[g]);
      }
    }
    timers.registerEventTimeTimer(VoidNamespace.INSTANCE, fire);
    coldRecords.inc();
    return true;
  }

  private void markDirty(KeyState s) {
    if (!s.dirty) {
      s.dirty = true;
      if (dirty.size() >= 2 * states.size() + 16) {
        dirty.removeIf(d -> !d.dirty); // keys written when they left the cache: the list stays O(cached keys)
      }
      dirty.add(s);
    }
  }

  /** Counts a record too late for every window and sends it to the late side output. */
  private void late(StreamRecord<Row> element) {
    lateRecords.inc();
    output.collect(lateTag, new StreamRecord<>(element.getValue(), element.getTimestamp()));
  }

  private void reject(StreamRecord<Row> element, String reason) {
    rejectedRecords.inc();
    onError.rejected(reason, element.getValue());
    output.collect(rejectedTag, new StreamRecord<>(Row.of(reason, element.getValue()), element.getTimestamp()));
  }

  /** The earliest fire watermark of key {@code s}'s pending windows, or {@code Long.MAX_VALUE}. */
  private static long nextTimer(KeyState s) {
    long next = Long.MAX_VALUE;
    for (StoredWindows k : s.time) {
      next = Math.min(next, k.windows().nextTimer());
    }
    return next;
  }

  /** Registers the key's next timer: its earliest window to fire, or the time its entries expire. */
  private void schedule(KeyState s) {
    long next = nextTimer(s);
    if (next < s.timer) {
      register(s, next);
    }
  }

  /** Registers key {@code s}'s timer at {@code next} (below its current one); the current key must be its key. */
  private void register(KeyState s, long next) {
    timers.registerEventTimeTimer(VoidNamespace.INSTANCE, next);
    s.timer = next;
  }

  @Override
  public void onEventTime(InternalTimer<Object, VoidNamespace> timer) throws Exception {
    Object key = timer.getKey();
    KeyState s = cached(key);
    if (s == null) {
      return;
    }
    if (paced) {
      if (!s.queued) {
        if (nextTimer(s) > held.getTimestamp()) { // a timer left from before an earlier one: nothing is due
          fireTo(s, held.getTimestamp()); // fires nothing, evicts as at the watermark
          afterFire(s);
          return;
        }
        s.queued = true;
        s.firedTo = timer.getTimestamp() - 1; // the key's earliest timer: nothing before it is due
        due.add(s);
      }
      return;
    }
    fireTo(s, timers.currentWatermark());
    afterFire(s);
  }

  /**
   * After a key fired every window due at the watermark: drops it (cache and state) if nothing is left
   * in its windows, else marks it dirty and schedules its next timer. The current key must be its key.
   */
  private void afterFire(KeyState s) throws Exception {
    Object key = s.key;
    s.timer = Long.MAX_VALUE;
    if (s.idle()) {
      states.remove(key);
      unindex(s);
      s.dirty = false; // its state is cleared here: nothing to write
      for (EntryStore e : entries) {
        e.clear();
      }
      meta.clear();
      return;
    }
    markDirty(s);
    schedule(s);
  }

  @Override
  public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) {}

  /**
   * Emits one result row: key columns, window, window_start, window_end, the aggregate columns. The
   * window's one {@code Row} is refilled at each result (every column it sets is set again, the other
   * windows' columns stay null): Flink copies a record handed to a chained operator unless object
   * reuse is enabled, and with object reuse an operator does not keep its input past its call.
   */
  private void emit(Object[] keyValues, int group, int window, long start, long end, List<Object> results) {
    Row r = timeRows[group][window];
    layout.fillTime(r, keyValues, group, window, start, end, results);
    output.collect(record(r, end - 1));
  }

  /** {@link #emit} of a group of one function, given its one result (no list). */
  private void emitOne(Object[] keyValues, int group, int window, long start, long end, Object result) {
    Row r = timeRows[group][window];
    layout.fillTimeOne(r, keyValues, group, window, start, end, result);
    output.collect(record(r, end - 1));
  }

  /**
   * The operator's one output record holding {@code r} at {@code timestamp}: its value is set only when
   * it holds another row (a chained operator may have replaced it), its timestamp always.
   */
  private StreamRecord<Row> record(Row r, long timestamp) {
    if (reuse.getValue() != r) {
      reuse.replace(r);
    }
    reuse.setTimestamp(timestamp);
    return reuse;
  }

  /** Emits one count-window row, timestamped with the record that caused it (its {@code Row} refilled as in {@link #emit}). */
  private void emitCount(Object[] keyValues, int countGroup, long start, long end, List<Object> results) {
    Row r = countRows[countGroup];
    layout.fillCount(r, keyValues, countGroup, start, end, results);
    output.collect(record(r, insertTime));
  }

  // ---- the key cache and its state ----

  /**
   * The current key's state: from the cache, else rebuilt from keyed state (and cached), else null
   * (a key with no state).
   */
  private KeyState cached(Object key) throws Exception {
    KeyState s = states.get(key);
    return s != null ? s : load(key);
  }

  /** The current key rebuilt from its keyed state and cached, or null (a key with no state). */
  private KeyState load(Object key) throws Exception {
    byte[] m = meta.value();
    if (m == null) {
      return null;
    }
    DataInputDeserializer in = new DataInputDeserializer(m);
    int version = in.readInt();
    if (version != META_VERSION) {
      throw new SwagFailure(Kind.STATE, "swag: key state of format " + version + ", this build reads format "
          + META_VERSION + "; restore with the swag version the checkpoint was taken with");
    }
    KeyState s = new KeyState(key, StoredWindows.loadAll(groups, layout.timeSlot, in, entries, "swag"));
    int nc = in.readInt();
    if (nc != s.count.length) {
      throw new SwagFailure(Kind.STATE, "swag: restored state has " + nc + " count groups, the plan " + s.count.length);
    }
    for (int c = 0; c < nc; c++) {
      readCount(s.count[c], in);
    }
    cache(s);
    return s;
  }

  /**
   * Puts a key into the cache; past {@code cacheMaxKeys} keys the least recently used ones leave it,
   * each writing its changes to state first (under its own key, then the current key is set back).
   * "Least recently used": the cache's access order (every look-up but {@link #insertPacked}'s), with a
   * second chance for a key {@link KeyState#used} since the eviction last passed over it: it goes to
   * the back with its mark cleared (second-chance, or clock, replacement over the access order).
   */
  private void cache(KeyState s) throws Exception {
    states.put(s.key, s);
    if (packedKeys != null && s.key instanceof Long k) {
      packedKeys.put(k, s);
    }
    if (states.size() <= cacheMaxKeys) {
      return;
    }
    Object current = getCurrentKey();
    List<KeyState> passed = passedKeys; // used keys passed over, out of the map until the end
    try {
      Iterator<KeyState> it = states.values().iterator();
      while (states.size() + passed.size() > cacheMaxKeys) {
        if (!it.hasNext()) { // every key left was used: the passed ones again, marks cleared, in their order
          putBack(passed);
          it = states.values().iterator();
        }
        KeyState old = it.next();
        it.remove();
        if (old.used || old == s) { // (s: the caller's key, never the one to go)
          old.used = false;
          passed.add(old);
          continue;
        }
        unindex(old);
        if (old.queued) {
          getKeyedStateBackend().setCurrentKey(old.key);
          fireKey(old); // its due windows fire before it leaves (states.remove in afterFire: already out)
        }
        if (old.dirty) {
          old.dirty = false;
          getKeyedStateBackend().setCurrentKey(old.key);
          write(old);
        }
      }
    } finally {
      putBack(passed); // (also when a firing or write throws: no key is left out of the cache)
    }
    states.get(s.key); // the caller's key to the back, behind the keys put back
    getKeyedStateBackend().setCurrentKey(current);
  }

  /** Puts the keys {@link #cache} passed over back into the cache, last in order, and clears the list. */
  private void putBack(List<KeyState> passed) {
    for (KeyState k : passed) {
      states.put(k.key, k);
    }
    passed.clear();
  }

  /** Takes key {@code s}, out of the cache, out of {@link #packedKeys}. */
  private void unindex(KeyState s) {
    if (packedKeys != null && s.key instanceof Long k && packedKeys.get(k) == s) {
      packedKeys.remove(k);
    }
  }

  // ---- checkpoints ----

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    watermarkState.update(List.of(watermark()));
    publishGauges(true);
    if (dirty.isEmpty()) {
      return;
    }
    Object current = getCurrentKey();
    for (KeyState s : dirty) {
      if (!s.dirty) {
        continue; // written when it left the cache, or dropped (its state cleared): a dirty key is cached
      }
      s.dirty = false;
      getKeyedStateBackend().setCurrentKey(s.key);
      write(s);
    }
    dirty.clear();
    if (current != null) {
      getKeyedStateBackend().setCurrentKey(current);
    }
  }

  /** Writes the current key's changes: each group's new entries and removals, then the meta. */
  private void write(KeyState s) throws Exception {
    for (int g = 0; g < s.time.length; g++) {
      s.time[g].flush(entries[g]);
    }
    metaOut.clear();
    metaOut.writeInt(META_VERSION);
    StoredWindows.writeMetas(s.time, metaOut);
    metaOut.writeInt(s.count.length);
    for (CountWindow c : s.count) {
      writeCount(c, metaOut);
    }
    meta.update(metaOut.getCopyOfBuffer());
  }

  /** A count window in the meta: the record count, then the window's rows (time, RowCodec bytes), oldest first. */
  private static void writeCount(CountWindow c, DataOutputSerializer out) throws java.io.IOException {
    out.writeLong(c.count());
    out.writeInt(c.size());
    try {
      c.forEachRow((t, r) -> {
        try {
          out.writeLong(t);
          byte[] b = RowCodec.encode(r);
          out.writeInt(b.length);
          out.write(b);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static void readCount(CountWindow c, DataInputDeserializer in) throws java.io.IOException {
    long count = in.readLong();
    int n = in.readInt();
    long[] ts = new long[n];
    Object[][] rows = new Object[n][];
    for (int i = 0; i < n; i++) {
      ts[i] = in.readLong();
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      rows[i] = RowCodec.decode(b).get(0);
    }
    c.restore(count, ts, rows, n);
  }
}

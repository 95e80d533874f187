package io.swag.flink.table;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.ColdSlices;
import io.swag.core.plan.EntryStore;
import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QueryGroups;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.ResultKind;
import io.swag.core.plan.OnError;
import io.swag.core.plan.RowContract;
import io.swag.core.plan.StoredWindows;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ArgumentTrait;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.annotation.StateHint;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ProcessTableFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.extraction.TypeInferenceExtractor;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code swag_window}: a process table function running the time windows of a query spec in SQL.
 *
 * <pre>{@code
 * SELECT * FROM swag_window(input => TABLE t PARTITION BY k, on_time => DESCRIPTOR(ts),
 *                           query => '{"windows":[{"kind":"time","size":60000,"slide":1000,
 *                                      "aggregates":[{"output":"mx","function":"max","column":"v"}]}]}')
 * }</pre>
 *
 * <p>The partition (PARTITION BY) is the key, {@code on_time} the event time (the query's
 * {@code key} and {@code time} fields are ignored); {@code query} is a constant. Output: the partition
 * columns, {@code window}, {@code window_start}, {@code window_end} (epoch ms), one column per
 * aggregate of the query typed by its result kind ({@link #outputType}: the planner reads the
 * constant query), {@code reason}, {@code record} and Flink's {@code rowtime}. Semantics as
 * the DataStream operator (docs/query-spec.md): windows fire when the watermark passes their end,
 * updated rows for records within the allowed lateness. A record too late for every window is not
 * dropped: it is emitted as a row with {@code window = 'late'} and {@code window_start = window_end = }
 * its time. Neither is a record with a null PARTITION BY column or a refused value (a NaN an
 * aggregate reads, a value a function refuses): a row with {@code window = 'rejected'}, its time, and
 * the reason ({@code reason}, null in the other rows; the reasons of {@link RowContract} and the
 * functions, as on every engine path). Late and rejected rows carry the input row as text in
 * {@code record} ({@link RowContract#describe}; null in window rows);
 * the job parameter {@value SwagOverFunction#ON_ERROR_PARAM}{@code = fail} makes it fail the job
 * instead. Counted by the metrics {@code swagLateRecords} and {@code swagRejectedRecords}. Count
 * windows are not supported here (use the DataStream API).
 *
 * <p>State, written through on every call (a process table function has no checkpoint hook), per
 * partition as the DataStream operator keeps a key ({@link StoredWindows}, groups made by
 * {@link WindowGroup#storedGroups}): slices (one entry per slice of the plan's gcd, rewritten when a
 * record lands in it) when every function is mergeable, else rows (one entry per record). Two state
 * entries: {@code meta} ({@link Meta}: a token, the next timer, each group's {@value
 * StoredWindows#META_BYTES} bytes of bookkeeping), and {@code entries}, a state-backed
 * {@code MapView<Long, byte[]>} holding every group's entries and the query ({@link #QUERY_ENTRY}) for a
 * timer that meets a cold cache. The aggregators live on the heap in a cache of this function instance
 * found by the token, at most {@value #CACHE_PARAM} partitions (job parameter, default {@value
 * #DEFAULT_CACHE_KEYS}), least recently used dropped; a partition not in it is rebuilt from its entries
 * with one bulk insert. State and heap are O(window / slice) per partition for sliced queries, like
 * Flink's HOP windows; a checkpoint costs what changed since the last one.
 *
 * <p>What it runs: when a query is compiled (its first row), the function reads back its plan from
 * aggregators made as each partition's are ({@link ExecutedPlan}) and publishes it as the string
 * gauge {@value #PLAN_METRIC} (JSON; empty before the first row) and one INFO log line; nothing per
 * record.
 */
@FunctionHint(output = @DataTypeHint("ROW<`window` STRING, window_start BIGINT, window_end BIGINT, reason STRING, "
    + "record STRING>")) // the extraction's placeholder: getTypeInference gives the query's own columns
public class SwagWindowFunction extends ProcessTableFunction<Row> {
  private static final long serialVersionUID = 1L;
  /** The metric (a string gauge) with the executed plan's read-back. */
  public static final String PLAN_METRIC = "swagPlan";
  /** The job parameter bounding the partitions whose aggregators stay on the heap, per task. */
  public static final String CACHE_PARAM = "swag.window.cache-max-keys";
  /** The default of {@value #CACHE_PARAM}. */
  public static final int DEFAULT_CACHE_KEYS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(SwagWindowFunction.class);
  private static final int META_VERSION = 1;
  /** The output position of the first aggregate (after window, window_start, window_end). */
  static final int AGGREGATES_AT = 3;
  /**
   * Entry ids: a group's id (a slice start or chunk id, within +-2^57) with the group number in bits
   * 58..62 ({@link #entryKey}); group 31 holds the query.
   */
  private static final int GROUP_SHIFT = 58;
  private static final long ID_LIMIT = 1L << 57;
  private static final int MAX_GROUPS = 31;
  /**
   * The state entries' time-to-live: none. The function clears a partition's state itself once its
   * windows are done; a TTL expiring some entries would corrupt its windows. Without an explicit
   * value Flink 2.3 gives a PTF's state a TTL of Long.MAX_VALUE ms when {@code table.exec.state.ttl}
   * is unset, and the TTL wrapper's incremental cleanup then copies whole map views on state
   * accesses (measured: most of the time of a 10,000-partition job).
   */
  static final String NO_TTL = "0 ms";
  /** The entry with the compiled query's text (columns, time column, query JSON). */
  static final long QUERY_ENTRY = (long) MAX_GROUPS << GROUP_SHIFT;

  /** A partition's small state: read and written whole on every call. */
  public static class Meta {
    /** The partition's heap windows in this instance's cache; 0: no state yet. */
    public long token;
    /** The timer registered last (Long.MAX_VALUE: none pending). */
    public long timer = Long.MAX_VALUE;
    /** Format version, group count, then each group's {@link StoredWindows#writeMeta}. */
    public byte[] groups;
  }

  /**
   * The type inference of the annotations, with the output type of the call's query (a constant):
   * {@link #outputType}.
   */
  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    TypeInference base = TypeInferenceExtractor.forProcessTableFunction(typeFactory, getClass());
    TypeInference.Builder b = TypeInference.newBuilder()
        .inputTypeStrategy(base.getInputTypeStrategy())
        .stateTypeStrategies(base.getStateTypeStrategies())
        .disableSystemArguments(base.disableSystemArguments())
        .outputTypeStrategy(call -> {
          String query = call.getArgumentValue(QUERY_ARGUMENT, String.class).orElseThrow(() -> new SwagException(
              Kind.INVALID_QUERY, "swag_window: argument 'query' must be a constant (the JSON query spec)"));
          return java.util.Optional.of(outputType(query));
        });
    base.getStaticArguments().ifPresent(b::staticArguments);
    return b.build();
  }

  /** The position of the argument {@code query} in a call. */
  private static final int QUERY_ARGUMENT = 1;

  /** The query's aggregates in spec order: the output columns after the window bounds. */
  static List<AggregateSpec> aggregates(QuerySpec spec) {
    List<AggregateSpec> r = new ArrayList<>();
    for (WindowSpec w : spec.windows()) {
      r.addAll(w.aggregates());
    }
    return r;
  }

  /**
   * The output row of a query: {@code window STRING, window_start BIGINT, window_end BIGINT} (epoch ms),
   * one column per aggregate typed by its {@link ResultKind} ({@code BIGINT} for LONG and TIME,
   * {@code DOUBLE}, {@code BOOLEAN}, {@code STRING} also for lists and structures: their JSON text),
   * {@code reason STRING}, {@code record STRING}.
   */
  static DataType outputType(String query) {
    QuerySpec spec = QuerySpec.fromJson(query);
    List<DataTypes.Field> f = new ArrayList<>();
    f.add(DataTypes.FIELD("window", DataTypes.STRING()));
    f.add(DataTypes.FIELD("window_start", DataTypes.BIGINT()));
    f.add(DataTypes.FIELD("window_end", DataTypes.BIGINT()));
    for (AggregateSpec a : aggregates(spec)) {
      f.add(DataTypes.FIELD(a.output(), switch (a.resultKind()) {
        case LONG, TIME -> DataTypes.BIGINT();
        case DOUBLE -> DataTypes.DOUBLE();
        case BOOLEAN -> DataTypes.BOOLEAN();
        case LIST, STRUCT, STRING -> DataTypes.STRING();
      }));
    }
    f.add(DataTypes.FIELD("reason", DataTypes.STRING()));
    f.add(DataTypes.FIELD("record", DataTypes.STRING()));
    return DataTypes.ROW(f);
  }

  /** Compiled query (shared by all partitions and instances), by query JSON and columns. */
  static final class Compiled {
    final String query;
    final List<String> columns;
    final String timeColumn;
    /** The used columns (time, aggregate inputs) and their index in the table's columns. */
    final List<String> used;
    final int[] usedIdx;
    final List<WindowGroup> groups;
    /** The per-record rules over {@link #groups}: acceptance, lateness, checks. */
    final QueryGroups rules;
    final String[][] names;
    /** [group][window][aggregate]: the output row position of each of the window's aggregates. */
    final int[][][] positions;
    /** Per output position, the aggregate's result kind (null for the other columns). */
    final ResultKind[] kinds;
    /** The output row's arity: window, window_start, window_end, the aggregates, reason, record. */
    final int arity;
    /** The read-back of what the partitions run, from aggregators made as theirs are. */
    final ExecutedPlan executed;
    /** {@link #QUERY_ENTRY}'s bytes. */
    final byte[] text;

    Compiled(String query, List<String> columns, String timeColumn) {
      this.query = query;
      this.columns = columns;
      this.timeColumn = timeColumn;
      Map<String, Object> m = new HashMap<>(QuerySpec.fromJson(query).toMap());
      m.put("key", List.of()); // the PARTITION BY is the key
      m.put("time", timeColumn); // on_time is the time
      QuerySpec spec = QuerySpec.fromMap(m);
      for (WindowSpec w : spec.windows()) {
        if (!w.isTime()) {
          throw new SwagException(Kind.INVALID_QUERY, "swag_window: window '" + w.name()
              + "' is a count window; swag_window runs time windows (count windows: the DataStream API)");
        }
        for (var a : w.aggregates()) {
          if (a.column() != null && !columns.contains(a.column())) {
            throw new SwagException(Kind.INVALID_INPUT, "swag_window: aggregate '" + a.output() + "' reads column '"
                + a.column() + "', which the input table lacks; its columns are " + columns);
          }
        }
      }
      Plan plan = Planner.plan(spec);
      this.used = io.swag.core.plan.LocalExecutor.usedColumns(spec);
      this.usedIdx = used.stream().mapToInt(columns::indexOf).toArray();
      this.groups = WindowGroup.storedGroups(plan, used, false);
      this.rules = new QueryGroups(groups, List.of());
      if (groups.size() > MAX_GROUPS) {
        throw new SwagException(Kind.INVALID_QUERY, "swag_window: the query has " + groups.size() + " window groups; at most "
            + MAX_GROUPS);
      }
      List<ExecutedPlan.Group> ex = new ArrayList<>();
      boolean sliced = false;
      for (WindowGroup wg : groups) {
        ex.add(wg.executed());
        sliced |= wg.preaggregates();
      }
      this.executed = new ExecutedPlan(ex, Map.of("name", "flink", "operator", "sql", "state",
          sliced ? "slices" : "rows"));
      List<AggregateSpec> aggs = aggregates(spec);
      List<String> outs = aggs.stream().map(AggregateSpec::output).toList();
      this.arity = AGGREGATES_AT + aggs.size() + 2;
      this.kinds = new ResultKind[arity];
      for (int j = 0; j < aggs.size(); j++) {
        kinds[AGGREGATES_AT + j] = aggs.get(j).resultKind();
      }
      this.names = new String[groups.size()][];
      this.positions = new int[groups.size()][][];
      for (int g = 0; g < groups.size(); g++) {
        WindowGroup wg = groups.get(g);
        names[g] = new String[wg.windowCount()];
        positions[g] = new int[wg.windowCount()][];
        for (int i = 0; i < wg.windowCount(); i++) {
          WindowSpec w = wg.window(i);
          names[g][i] = w.name();
          positions[g][i] = w.aggregates().stream().mapToInt(a -> AGGREGATES_AT + outs.indexOf(a.output())).toArray();
        }
      }
      try {
        DataOutputSerializer out = new DataOutputSerializer(256 + query.length());
        out.writeInt(columns.size());
        for (String c : columns) {
          out.writeUTF(c);
        }
        out.writeUTF(timeColumn);
        byte[] q = query.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(q.length);
        out.write(q);
        this.text = out.getCopyOfBuffer();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    /** The compiled query of {@link #text} bytes. */
    static Compiled of(byte[] text) throws IOException {
      DataInputDeserializer in = new DataInputDeserializer(text);
      int n = in.readInt();
      List<String> cols = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        cols.add(in.readUTF());
      }
      String time = in.readUTF();
      byte[] q = new byte[in.readInt()];
      in.readFully(q);
      return compiled(new String(q, java.nio.charset.StandardCharsets.UTF_8), List.copyOf(cols), time);
    }
  }

  private static final Map<String, Compiled> COMPILED = new ConcurrentHashMap<>();

  static Compiled compiled(String query, List<String> columns, String timeColumn) {
    return COMPILED.computeIfAbsent(columns + "\u0000" + timeColumn + "\u0000" + query,
        k -> new Compiled(query, columns, timeColumn));
  }

  /** One partition's windows on the heap: each time group's stored windows. */
  static final class Windows {
    final Compiled c;
    final StoredWindows[] time;

    Windows(Compiled c, StoredWindows[] time) {
      this.c = c;
      this.time = time;
    }
  }

  /** Group {@code g}'s entries of the current partition, in the partition's one map view. */
  private static final class GroupEntries implements EntryStore {
    MapView<Long, byte[]> view;
    final long tag;
    final int group;

    GroupEntries(int group) {
      this.group = group;
      this.tag = (long) group << GROUP_SHIFT;
    }

    @Override
    public byte[] get(long id) throws Exception {
      return view.get(entryKey(tag, id));
    }

    @Override
    public void put(long id, byte[] bytes) throws Exception {
      view.put(entryKey(tag, id), bytes);
    }

    @Override
    public void remove(long id) throws Exception {
      view.remove(entryKey(tag, id));
    }

    @Override
    public void clear() throws Exception {
      List<Long> mine = new ArrayList<>();
      for (Long k : view.keys()) {
        if (groupOf(k) == group) {
          mine.add(k);
        }
      }
      for (Long k : mine) {
        view.remove(k);
      }
    }

    @Override
    public void forEach(Visitor v) throws Exception {
      for (Map.Entry<Long, byte[]> e : view.entries()) {
        long k = e.getKey();
        if (groupOf(k) == group) {
          v.visit(k ^ tag, e.getValue());
        }
      }
    }
  }

  /** The map view key of group entry {@code id} ({@code tag}: the group in bits 58..62). */
  static long entryKey(long tag, long id) {
    if (id < -ID_LIMIT || id >= ID_LIMIT) {
      throw new IllegalArgumentException("swag_window: entry id " + id + " out of range (+-2^57)");
    }
    return id ^ tag;
  }

  /** The group of a map view key: bits 58..62 after undoing the id's sign extension. */
  static int groupOf(long key) {
    long sign = (key << 6) >> 63; // bit 57, the id's sign
    return (int) (((key ^ sign) >>> GROUP_SHIFT) & 0x1F);
  }

  private transient String lastQuery;
  private transient Compiled compiled;
  private transient KeyWindows.WindowOutput[] outs;
  private transient TokenCache<Windows> cache;
  private transient GroupEntries[] entries;
  private transient DataOutputSerializer metaOut;
  private transient boolean[] accepted;
  /** Per time group, the cold path of partitions not in the full cache; null unless every group stores slices. */
  private transient ColdSlices[] cold;
  private transient byte[] emptyMetas; // the meta of a partition that has only slices written by the cold path
  /** The executed plan of the compiled query as JSON, for the gauge (set where a query is compiled). */
  private transient volatile String executedJson;
  private transient org.apache.flink.metrics.Counter lateRecords;
  private transient org.apache.flink.metrics.Counter rejectedRecords;
  private transient boolean failOnError;
  /** The input's PARTITION BY columns (the key) and their names. */
  private transient int[] partitionKeys;
  private transient String[] partitionNames;

  @Override
  public void open(FunctionContext context) throws Exception {
    super.open(context);
    cache = new TokenCache<>(TokenCache.maxKeys(context, CACHE_PARAM, DEFAULT_CACHE_KEYS, "swag_window"));
    executedJson = "";
    context.getMetricGroup().gauge(PLAN_METRIC, () -> executedJson);
    lateRecords = context.getMetricGroup().counter("swagLateRecords");
    rejectedRecords = context.getMetricGroup().counter("swagRejectedRecords");
    failOnError = SwagOverFunction.failOnError(context, "swag_window");
  }

  /** Makes {@code c} the instance's query: its output callbacks, entry stores and plan gauge. */
  private void use(Compiled c) {
    if (c == compiled) {
      return;
    }
    compiled = c;
    int n = c.groups.size();
    outs = new KeyWindows.WindowOutput[n];
    entries = new GroupEntries[n];
    for (int g = 0; g < n; g++) {
      outs[g] = out(c, g);
      entries[g] = new GroupEntries(g);
    }
    accepted = new boolean[n];
    if (metaOut == null) {
      metaOut = new DataOutputSerializer(16 + n * StoredWindows.META_BYTES);
    }
    cold = ColdSlices.of(c.groups);
    if (cold != null) {
      try {
        DataOutputSerializer m = new DataOutputSerializer(16 + n * StoredWindows.META_BYTES);
        m.writeInt(META_VERSION);
        StoredWindows.writeEmptyMetas(n, m);
        emptyMetas = m.getCopyOfBuffer();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    if (cache == null) { // used without open (a test harness)
      cache = new TokenCache<>(DEFAULT_CACHE_KEYS);
      lateRecords = new org.apache.flink.metrics.SimpleCounter();
      rejectedRecords = new org.apache.flink.metrics.SimpleCounter();
    }
    executedJson = c.executed.toJson();
    LOG.info("swag_window: {}", c.executed.describe());
  }

  /** A rejected record at {@code t}: a {@code rejected} row with the reason, or (on_error = fail) the job fails. */
  private void reject(long t, String reason, String record) {
    rejectedRecords.inc();
    if (failOnError) {
      OnError.FAIL.rejected("swag_window: " + reason, record);
    }
    side(compiled, "rejected", t, reason, record);
  }

  /** The text of an input row (all its columns) for a late or rejected row ({@link RowContract#describe}). */
  private static String record(Compiled c, Row input) {
    boolean named = input.getFieldNames(false) != null;
    return RowContract.describe(c.columns, i -> named ? input.getField(c.columns.get(i)) : input.getField(i));
  }

  /**
   * Processes one input row of a partition: inserts it into the windows, emits the rows it causes, or a
   * late or rejected row, and sets the partition's timer.
   *
   * @param ctx the function's context
   * @param meta the partition's small state
   * @param state the partition's entries
   * @param input the input row
   * @param query the query spec as JSON, a constant
   * @throws Exception if the state backend fails
   */
  public void eval(Context ctx, @StateHint(ttl = NO_TTL) Meta meta,
      @StateHint(ttl = NO_TTL) MapView<Long, byte[]> state,
      @ArgumentHint(value = {ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME}, name = "input") Row input,
      @ArgumentHint(value = ArgumentTrait.SCALAR, name = "query") String query) throws Exception {
    if (query == null) {
      throw new SwagException(Kind.INVALID_QUERY, "swag_window: argument 'query' (the JSON query spec) is null");
    }
    if (compiled == null || !query.equals(lastQuery)) {
      var sem = ctx.tableSemanticsFor("input");
      List<String> columns = LogicalTypeChecks.getFieldNames(sem.dataType().getLogicalType());
      use(compiled(query, columns, columns.get(sem.timeColumn())));
      lastQuery = query;
      partitionKeys = sem.partitionByColumns();
      partitionNames = new String[partitionKeys.length];
      for (int i = 0; i < partitionKeys.length; i++) {
        partitionNames[i] = columns.get(partitionKeys[i]);
      }
    }
    Compiled c = compiled;
    TimeContext<Long> tc = ctx.timeContext(Long.class);
    long t = tc.time();
    for (int i = 0; i < partitionKeys.length; i++) { // the PARTITION BY columns are the key (RowContract's first check)
      boolean named = input.getFieldNames(false) != null;
      if ((named ? input.getField(partitionNames[i]) : input.getField(partitionKeys[i])) == null) {
        reject(t, RowContract.nullKey(partitionNames[i]), record(compiled, input));
        return;
      }
    }
    Long w = tc.currentWatermark();
    long wm = w == null ? Long.MIN_VALUE : w;
    int first = c.rules.accept(t, wm, accepted);
    if (c.rules.late(first)) {
      lateRecords.inc();
      side(c, "late", t, null, record(c, input));
      return;
    }
    Object[] row = new Object[c.used.size()];
    boolean named = input.getFieldNames(false) != null;
    for (int i = 0; i < row.length; i++) {
      int j = c.usedIdx[i];
      row[i] = io.swag.core.plan.RowContract.normalize(named ? input.getField(c.columns.get(j)) : input.getField(j));
    }
    row[0] = t; // the time column is the first used column (no key columns)
    try {
      for (int i = 1; i < row.length; i++) {
        if (RowContract.isNaN(row[i])) {
          throw new IllegalArgumentException(RowContract.nan(c.used.get(i)));
        }
      }
      c.rules.check(row, t, accepted, -1);
    } catch (IllegalArgumentException e) {
      reject(t, e.getMessage(), record(c, input));
      return;
    }
    boolean fresh = meta.token == 0;
    if (cold != null && cache.full() && (fresh || cache.get(meta.token) == null)
        && insertCold(meta, state, c, t, row, wm, first, tc)) {
      return;
    }
    if (fresh) {
      meta.token = cache.newToken();
      state.put(QUERY_ENTRY, c.text);
    }
    Windows p = windows(meta, state, c, fresh);
    for (int g = first; g < accepted.length; g++) {
      if (accepted[g]) {
        p.time[g].insert(t, row, wm, outs[g]);
      }
    }
    write(p, meta, state);
    schedule(p, meta, tc);
  }

  /**
   * The cold path ({@link ColdSlices}) of a partition not in the full cache: combines an in-time row
   * into its slice in each accepting group's entries and registers the partition's timer if it has
   * none as early, without loading the partition. Returns false (nothing changed) for a row that
   * updates a fired window: the caller loads the partition.
   */
  private boolean insertCold(Meta meta, MapView<Long, byte[]> state, Compiled c, long t, Object[] row, long wm,
      int first, TimeContext<Long> tc) throws Exception {
    long fire = ColdSlices.fireTime(cold, accepted, first, t, wm);
    if (fire == Long.MIN_VALUE) {
      return false;
    }
    if (meta.token == 0) {
      meta.token = cache.newToken();
      state.put(QUERY_ENTRY, c.text);
      meta.groups = emptyMetas;
    }
    for (int g = first; g < accepted.length; g++) {
      if (accepted[g]) {
        entries[g].view = state;
        cold[g].insert(t, row, entries[g]);
      }
    }
    if (fire < meta.timer) {
      tc.registerOnTime(fire);
      meta.timer = fire;
    }
    return true;
  }

  /**
   * Fires the partition's windows due at the timer's watermark and sets its next timer.
   *
   * @param ctx the timer's context
   * @param meta the partition's small state
   * @param state the partition's entries
   * @throws Exception if the state backend fails
   */
  public void onTimer(OnTimerContext ctx, Meta meta, MapView<Long, byte[]> state) throws Exception {
    if (meta.token == 0) {
      return; // a timer of a partition whose state was cleared
    }
    if (compiled == null) { // a restored partition's timer before any row reached this instance
      byte[] text = state.get(QUERY_ENTRY);
      if (text == null) {
        throw new IllegalStateException("swag_window: the partition's state lacks its query entry");
      }
      use(Compiled.of(text));
    }
    Windows p = windows(meta, state, compiled, false);
    TimeContext<Long> tc = ctx.timeContext(Long.class);
    Long w = tc.currentWatermark();
    Long timerTime = tc.time(); // the firing timer's time: the watermark has reached it
    long wm = Math.max(w == null ? Long.MIN_VALUE : w, timerTime == null ? Long.MIN_VALUE : timerTime);
    for (int g = 0; g < p.time.length; g++) {
      p.time[g].windows().fire(wm, outs[g]);
    }
    meta.timer = Long.MAX_VALUE;
    boolean idle = true;
    for (StoredWindows k : p.time) {
      idle &= k.windows().isIdle();
    }
    if (idle) {
      // state only: clearAll() (with the timers) loses other partitions' unnamed timers of the
      // same time in Flink 2.3; a stale timer of this partition finds no state and returns
      cache.remove(meta.token);
      ctx.clearAllState();
      return;
    }
    write(p, meta, state);
    schedule(p, meta, tc);
  }

  /** The partition's windows: cached, new ({@code fresh}), or rebuilt from its state. */
  private Windows windows(Meta meta, MapView<Long, byte[]> state, Compiled c, boolean fresh) throws Exception {
    Windows p = fresh ? null : cache.get(meta.token);
    if (p != null && p.c == c) {
      return p;
    }
    StoredWindows[] time = new StoredWindows[c.groups.size()];
    if (fresh || meta.groups == null) {
      for (int g = 0; g < time.length; g++) {
        time[g] = new StoredWindows(c.groups.get(g), 0);
      }
    } else {
      DataInputDeserializer in = new DataInputDeserializer(meta.groups);
      int version = in.readInt();
      if (version != META_VERSION) {
        throw new SwagFailure(Kind.STATE, "swag_window: partition state of format " + version + ", this build reads "
            + "format " + META_VERSION + "; restore with the swag version the checkpoint was taken with");
      }
      for (GroupEntries e : entries) {
        e.view = state;
      }
      time = StoredWindows.loadAll(c.groups, 0, in, entries, "swag_window");
    }
    p = new Windows(c, time);
    cache.put(meta.token, p);
    return p;
  }

  /** Writes the partition's changes through: each group's entries, then the meta. */
  private void write(Windows p, Meta meta, MapView<Long, byte[]> state) throws Exception {
    for (int g = 0; g < p.time.length; g++) {
      entries[g].view = state;
      p.time[g].flush(entries[g]);
    }
    metaOut.clear();
    metaOut.writeInt(META_VERSION);
    StoredWindows.writeMetas(p.time, metaOut);
    meta.groups = metaOut.getCopyOfBuffer();
  }

  private KeyWindows.WindowOutput out(Compiled c, int g) {
    WindowGroup wg = c.groups.get(g);
    return (window, start, end, results) -> {
      Object[] vals = wg.outputValues(window, results);
      Row r = new Row(c.arity);
      r.setField(0, c.names[g][window]);
      r.setField(1, start);
      r.setField(2, end);
      int[] pos = c.positions[g][window];
      for (int j = 0; j < vals.length; j++) {
        r.setField(pos[j], value(c.kinds[pos[j]], vals[j]));
      }
      collect(r);
    };
  }

  /** A result as its SQL column holds it ({@link #outputType}): lists and structures as JSON text. */
  private static Object value(ResultKind kind, Object v) {
    if (v == null) {
      return null;
    }
    return switch (kind) {
      case LONG, TIME -> ((Number) v).longValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case LIST, STRUCT, STRING -> ResultKind.text(v);
      case BOOLEAN -> v;
    };
  }

  /** A late or rejected record's row: its time as both bounds, no aggregates, the reason and the record. */
  private void side(Compiled c, String kind, long t, String reason, String record) {
    Row r = new Row(c.arity);
    r.setField(0, kind);
    r.setField(1, t);
    r.setField(2, t);
    r.setField(c.arity - 2, reason);
    r.setField(c.arity - 1, record);
    collect(r);
  }

  private static void schedule(Windows p, Meta meta, TimeContext<Long> tc) {
    long next = Long.MAX_VALUE;
    for (StoredWindows k : p.time) {
      next = Math.min(next, k.windows().nextTimer());
    }
    if (next != Long.MAX_VALUE && next < meta.timer) {
      tc.registerOnTime(next);
      meta.timer = next;
    }
  }
}

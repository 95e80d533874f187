package io.swag.flink.table;

import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.KeyWindowsIO;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ArgumentTrait;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.annotation.StateHint;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ProcessTableFunction;
import org.apache.flink.table.types.DataType;
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
 * {@code key} and {@code time} fields are ignored). Output: the partition columns, {@code window},
 * {@code window_start}, {@code window_end} (epoch ms), {@code aggregates} (a map from output name
 * to value, numeric functions only) and Flink's {@code rowtime}. Semantics as the DataStream
 * operator (docs/query-spec.md): windows fire when the watermark passes their end, updated rows for
 * records within the allowed lateness. A record too late for every window is not dropped: it is
 * emitted as a row with {@code window = 'late'} and {@code window_start = window_end = } its time.
 *
 * <p>State: per partition the {@link KeyWindows} on the heap in a RAW state field (no serialization
 * per record with the hashmap backend); its serializer writes the retained input rows as (time, encoded row)
 * ({@link io.swag.flink.KeyWindowsIO}) and restores by a bulk load. Count windows are not supported here (use the DataStream API).
 *
 * <p>What it runs: when a query is compiled (its first row), the function reads back its plan from
 * aggregators made as each partition's are ({@link ExecutedPlan}) and publishes it as the string
 * gauge {@value #PLAN_METRIC} (JSON; empty before the first row) and one INFO log line; nothing per
 * record.
 */
@FunctionHint(output = @DataTypeHint(
    "ROW<`window` STRING, window_start BIGINT, window_end BIGINT, aggregates MAP<STRING, DOUBLE>>"))
public class SwagWindowFunction extends ProcessTableFunction<Row> {
  private static final long serialVersionUID = 1L;
  /** The metric (a string gauge) with the executed plan's read-back. */
  public static final String PLAN_METRIC = "swagPlan";
  private static final Logger LOG = LoggerFactory.getLogger(SwagWindowFunction.class);

  /** The per-partition state: a RAW holder of the heap windows. */
  public static class SwagState {
    @DataTypeHint(value = "RAW", bridgedTo = Box.class, rawSerializer = BoxSerializer.class)
    public Box box;
  }

  /** Compiled query (shared by all partitions and by the serializer), by query JSON and columns. */
  static final class Compiled {
    final String query;
    final List<String> columns;
    final String timeColumn;
    /** The used columns (time, aggregate inputs) and their index in the table's columns. */
    final List<String> used;
    final int[] usedIdx;
    final List<WindowGroup> groups;
    final String[][] names;
    final String[][][] outputs;
    final long maxSize;
    final long lateness;
    /** The read-back of what the partitions run, from aggregators made as theirs are. */
    final ExecutedPlan executed;

    Compiled(String query, List<String> columns, String timeColumn) {
      this.query = query;
      this.columns = columns;
      this.timeColumn = timeColumn;
      Map<String, Object> m = new HashMap<>(QuerySpec.fromJson(query).toMap());
      m.put("key", List.of()); // the PARTITION BY is the key
      m.put("time", timeColumn); // on_time is the time
      QuerySpec spec = QuerySpec.fromMap(m);
      long ms = 1;
      for (WindowSpec w : spec.windows()) {
        if (!w.isTime()) {
          throw new IllegalArgumentException("swag_window: window '" + w.name()
              + "' is a count window; swag_window runs time windows (count windows: the DataStream API)");
        }
        ms = Math.max(ms, w.size());
        for (var a : w.aggregates()) {
          if (a.column() != null && !columns.contains(a.column())) {
            throw new IllegalArgumentException("swag_window: aggregate '" + a.output() + "' reads column '"
                + a.column() + "', which the input table lacks; its columns are " + columns);
          }
        }
      }
      this.maxSize = ms;
      this.lateness = spec.latenessMs();
      Plan plan = Planner.plan(spec);
      this.used = io.swag.core.plan.LocalExecutor.usedColumns(spec);
      this.usedIdx = used.stream().mapToInt(columns::indexOf).toArray();
      this.groups = WindowGroup.timeGroups(plan, used, false);
      List<ExecutedPlan.Group> ex = new ArrayList<>();
      for (WindowGroup wg : groups) {
        ex.add(wg.executed());
      }
      this.executed = new ExecutedPlan(ex, Map.of("name", "flink", "operator", "sql"));
      this.names = new String[groups.size()][];
      this.outputs = new String[groups.size()][][];
      for (int g = 0; g < groups.size(); g++) {
        WindowGroup wg = groups.get(g);
        names[g] = new String[wg.windowCount()];
        outputs[g] = new String[wg.windowCount()][];
        for (int i = 0; i < wg.windowCount(); i++) {
          WindowSpec w = wg.window(i);
          names[g][i] = w.name();
          List<String> o = new ArrayList<>();
          for (var a : w.aggregates()) {
            o.add(a.output());
          }
          outputs[g][i] = o.toArray(new String[0]);
        }
      }
    }
  }

  private static final Map<String, Compiled> COMPILED = new ConcurrentHashMap<>();

  static Compiled compiled(String query, List<String> columns, String timeColumn) {
    return COMPILED.computeIfAbsent(columns + "\u0000" + timeColumn + "\u0000" + query,
        k -> new Compiled(query, columns, timeColumn));
  }

  /** One partition's windows. */
  public static final class Box {
    final Compiled c;
    final KeyWindows[] time;
    long timer = Long.MAX_VALUE;

    Box(Compiled c) {
      this.c = c;
      this.time = new KeyWindows[c.groups.size()];
      for (int g = 0; g < time.length; g++) {
        time[g] = c.groups.get(g).newKey(true);
      }
    }
  }

  private transient String lastQuery;
  private transient List<String> lastColumns;
  private transient Compiled compiled;
  /** The executed plan of the compiled query as JSON, for the gauge (set where a query is compiled). */
  private transient volatile String executedJson;

  @Override
  public void open(FunctionContext context) throws Exception {
    super.open(context);
    executedJson = "";
    context.getMetricGroup().gauge(PLAN_METRIC, () -> executedJson);
  }

  public void eval(Context ctx, @StateHint SwagState state,
      @ArgumentHint(value = {ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME}, name = "input") Row input,
      @ArgumentHint(value = ArgumentTrait.SCALAR, name = "query") String query) {
    if (query == null) {
      throw new IllegalArgumentException("swag_window: argument 'query' (the JSON query spec) is null");
    }
    if (compiled == null || !query.equals(lastQuery)) {
      var sem = ctx.tableSemanticsFor("input");
      lastColumns = LogicalTypeChecks.getFieldNames(sem.dataType().getLogicalType());
      compiled = compiled(query, lastColumns, lastColumns.get(sem.timeColumn()));
      lastQuery = query;
      executedJson = compiled.executed.toJson();
      LOG.info("swag_window: {}", compiled.executed.describe());
    }
    Compiled c = compiled;
    TimeContext<Long> tc = ctx.timeContext(Long.class);
    long t = tc.time();
    Long w = tc.currentWatermark();
    long wm = w == null ? Long.MIN_VALUE : w;
    Object[] row = new Object[c.used.size()];
    boolean named = input.getFieldNames(false) != null;
    for (int i = 0; i < row.length; i++) {
      int j = c.usedIdx[i];
      row[i] = io.swag.flink.Layout.normalize(named ? input.getField(c.columns.get(j)) : input.getField(j));
    }
    row[0] = t; // the time column is the first used column (no key columns)
    if (state.box == null) {
      state.box = new Box(c);
    }
    Box b = state.box;
    int first = -1;
    boolean[] acc = new boolean[c.groups.size()];
    for (int g = 0; g < acc.length; g++) {
      acc[g] = c.groups.get(g).accepts(t, wm);
      if (acc[g] && first < 0) {
        first = g;
      }
    }
    if (first < 0) {
      collect(Row.of("late", t, t, Map.of()));
      return;
    }
    for (int g = first + 1; g < acc.length; g++) {
      if (acc[g]) {
        c.groups.get(g).check(row, t);
      }
    }
    for (int g = first; g < acc.length; g++) {
      if (acc[g]) {
        b.time[g].insert(t, row, wm, out(c, g));
      }
    }
    schedule(b, tc);
  }

  public void onTimer(OnTimerContext ctx, SwagState state) {
    Box b = state.box;
    if (b == null) {
      return;
    }
    TimeContext<Long> tc = ctx.timeContext(Long.class);
    Long w = tc.currentWatermark();
    Long timerTime = tc.time(); // the firing timer's time: the watermark has reached it
    long wm = Math.max(w == null ? Long.MIN_VALUE : w, timerTime == null ? Long.MIN_VALUE : timerTime);
    for (int g = 0; g < b.time.length; g++) {
      b.time[g].fire(wm, out(b.c, g));
    }
    b.timer = Long.MAX_VALUE;
    boolean idle = true;
    for (KeyWindows k : b.time) {
      idle &= k.isIdle();
    }
    if (idle) {
      // state only: clearAll() (with the timers) loses other partitions' unnamed timers of the
      // same time in Flink 2.3; a stale timer of this partition finds no state and returns
      ctx.clearAllState();
      return;
    }
    schedule(b, tc);
  }

  private KeyWindows.WindowOutput out(Compiled c, int g) {
    WindowGroup wg = c.groups.get(g);
    return (window, start, end, results) -> {
      Object[] vals = wg.outputValues(window, results);
      Map<String, Double> m = new HashMap<>();
      String[] names = c.outputs[g][window];
      for (int j = 0; j < vals.length; j++) {
        Object v = vals[j];
        if (v != null && !(v instanceof Number)) {
          throw new IllegalArgumentException("swag_window: aggregate '" + names[j] + "' gives " + v.getClass().getSimpleName()
              + ", not a number; swag_window returns numeric aggregates (use the DataStream API for others)");
        }
        m.put(names[j], v == null ? null : ((Number) v).doubleValue());
      }
      collect(Row.of(c.names[g][window], start, end, m));
    };
  }

  private static void schedule(Box b, TimeContext<Long> tc) {
    long next = Long.MAX_VALUE;
    for (KeyWindows k : b.time) {
      next = Math.min(next, k.nextTimer());
    }
    if (next != Long.MAX_VALUE && next < b.timer) {
      tc.registerOnTime(next);
      b.timer = next;
    }
  }

  /** Writes a partition's windows as the query JSON, columns and each group's entries. */
  public static final class BoxSerializer extends TypeSerializer<Box> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean isImmutableType() {
      return false;
    }

    @Override
    public TypeSerializer<Box> duplicate() {
      return this;
    }

    @Override
    public Box createInstance() {
      return null;
    }

    /** A deep copy (through the serialized form): used by copy-on-write snapshots of the heap backend. */
    @Override
    public Box copy(Box from) {
      if (from == null) {
        return null;
      }
      try {
        org.apache.flink.core.memory.DataOutputSerializer o = new org.apache.flink.core.memory.DataOutputSerializer(256);
        serialize(from, o);
        return deserialize(new org.apache.flink.core.memory.DataInputDeserializer(o.getSharedBuffer(), 0, o.length()));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public Box copy(Box from, Box reuse) {
      return copy(from);
    }

    @Override
    public int getLength() {
      return -1;
    }

    @Override
    public void serialize(Box b, DataOutputView out) throws IOException {
      out.writeUTF(b.c.query);
      out.writeInt(b.c.columns.size());
      for (String s : b.c.columns) {
        out.writeUTF(s);
      }
      out.writeUTF(b.c.timeColumn);
      for (int g = 0; g < b.time.length; g++) {
        KeyWindowsIO.write(b.time[g], out);
      }
    }

    @Override
    public Box deserialize(DataInputView in) throws IOException {
      String q = in.readUTF();
      int n = in.readInt();
      List<String> cols = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        cols.add(in.readUTF());
      }
      Box b = new Box(compiled(q, List.copyOf(cols), in.readUTF()));
      for (int g = 0; g < b.time.length; g++) {
        KeyWindowsIO.read(b.time[g], in);
      }
      return b;
    }

    @Override
    public Box deserialize(Box reuse, DataInputView in) throws IOException {
      return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
      serialize(deserialize(in), out);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof BoxSerializer;
    }

    @Override
    public int hashCode() {
      return BoxSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<Box> snapshotConfiguration() {
      return new Snapshot();
    }

    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Box> {
      public Snapshot() {
        super(BoxSerializer::new);
      }
    }
  }
}

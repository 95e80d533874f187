package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.LocalTimeTypeInfo;
import org.apache.flink.api.common.typeinfo.SqlTimeTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.types.Row;
import org.apache.flink.util.OutputTag;

/**
 * Entry point of the Flink DataStream connector.
 *
 * <pre>{@code
 * SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(rows, queryJson);   // rows: DataStream<Row> with named fields
 * DataStream<Row> late = out.getSideOutput(SwagWindows.lateTag(rows.getType()));  // records too late for every window
 * DataStream<Row> bad = out.getSideOutput(SwagWindows.rejectedTag(rows.getType())); // (reason, record)
 * }</pre>
 *
 * <p>Output rows ({@link #outputType}): the key columns, {@code window} (the window's name),
 * {@code window_start}, {@code window_end} (epoch ms; record counts for count windows), then one
 * column per aggregate of the query (null in the rows of other windows). Event time comes from the
 * query's {@code time} column; the watermark from the stream (assign a {@code WatermarkStrategy}).
 */
public final class SwagWindows {
  private SwagWindows() {}

  /** Id of the late side output (records too late for every window). */
  public static final String LATE_ID = "swag-late";
  /** Id of the rejected side output: rows (reason, record). */
  public static final String REJECTED_ID = "swag-rejected";

  /** Late records side output, as generic rows; prefer {@link #lateTag(TypeInformation)}. */
  public static final OutputTag<Row> LATE = new OutputTag<>(LATE_ID, new GenericTypeInfo<>(Row.class));

  /**
   * The late side output typed like the input.
   *
   * @param inputType the input's row type
   * @return the side output's tag
   */
  public static OutputTag<Row> lateTag(TypeInformation<Row> inputType) {
    return new OutputTag<>(LATE_ID, inputType);
  }

  /**
   * The rejected side output: (reason STRING, record input row).
   *
   * @param inputType the input's row type
   * @return the side output's tag
   */
  public static OutputTag<Row> rejectedTag(TypeInformation<Row> inputType) {
    return new OutputTag<>(REJECTED_ID, new RowTypeInfo(new TypeInformation<?>[] {Types.STRING, inputType},
        new String[] {"reason", "record"}));
  }

  /**
   * {@link #aggregate(DataStream, Plan, SwagFlinkOptions)} with the query spec (docs/query-spec.md)
   * or a plan as JSON. The input is a stream of named {@link Row}s with event-time timestamps and
   * watermarks; POJOs go in through a map to rows and come out with {@link #asPojos}:
   *
   * <pre>{@code
   * DataStream<Row> rows = trips.map(t -> Row.of(t.station, t.start, t.duration),
   *         Types.ROW_NAMED(new String[] {"station", "start", "duration"}, Types.LONG, Types.LONG, Types.DOUBLE))
   *     .assignTimestampsAndWatermarks(strategy);
   * SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(rows, queryJson);
   * DataStream<StationWindow> windows = SwagWindows.asPojos(out, StationWindow.class);
   * DataStream<Row> rejected = out.getSideOutput(SwagWindows.rejectedTag(rows.getType()));
   * DataStream<Row> late = SwagWindows.lateRecords(out, rows);
   * }</pre>
   *
   * A complete, tested job: {@code examples/flink-java} ({@code io.swag.examples.flink.FlinkJavaExample}).
   *
   * @param input the input stream of named rows
   * @param queryOrPlanJson the query spec or a plan, as JSON
   * @return the result stream
   */
  public static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, String queryOrPlanJson) {
    return aggregate(input, queryOrPlanJson, SwagFlinkOptions.defaults());
  }

  /**
   * {@link #aggregate(DataStream, Plan, SwagFlinkOptions)} with the query spec or a plan as JSON.
   *
   * @param input the input stream of named rows
   * @param queryOrPlanJson the query spec or a plan, as JSON
   * @param options the operator's options
   * @return the result stream
   */
  public static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, String queryOrPlanJson,
      SwagFlinkOptions options) {
    return aggregate(input, Plan.of(queryOrPlanJson), options);
  }

  /**
   * {@link #aggregate(DataStream, Plan, SwagFlinkOptions)} with the plan of {@code spec} and the
   * default options.
   *
   * @param input the input stream of named rows
   * @param spec the query
   * @return the result stream
   */
  public static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, QuerySpec spec) {
    return aggregate(input, Planner.plan(spec), SwagFlinkOptions.defaults());
  }

  /**
   * {@link #aggregate(DataStream, Plan, SwagFlinkOptions)} with the plan of {@code spec}.
   *
   * @param input the input stream of named rows
   * @param spec the query
   * @param options the operator's options
   * @return the result stream
   */
  public static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, QuerySpec spec,
      SwagFlinkOptions options) {
    return aggregate(input, Planner.plan(spec), options);
  }

  /**
   * Keys {@code input} by the query's key columns and applies the swag window operator executing
   * {@code plan}. Checks at job-building time that the query's columns exist with usable types.
   *
   * @param input the input stream of named rows
   * @param plan the plan
   * @param options the operator's options
   * @return the result stream
   */
  public static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, Plan plan, SwagFlinkOptions options) {
    return aggregate(input, plan, options, true);
  }

  static Plan planOf(String queryOrPlanJson) {
    return Plan.of(queryOrPlanJson);
  }

  /** {@code checkWatermarks}: reject a stream whose sources certainly emit no watermarks. */
  static SingleOutputStreamOperator<Row> aggregate(DataStream<Row> input, Plan plan, SwagFlinkOptions options,
      boolean checkWatermarks) {
    if (!(input.getType() instanceof RowTypeInfo rt)) {
      throw new SwagException(Kind.INVALID_INPUT, "input: expected a DataStream<Row> with named fields (RowTypeInfo), got "
          + input.getType() + "; e.g. env.fromData(rows, Types.ROW_NAMED(names, types))");
    }
    String[] names = rt.getFieldNames();
    plan = withInputTypes(plan, rt);
    QuerySpec spec = plan.spec();
    Layout layout = new Layout(plan, List.of(names)); // checks the columns exist
    if (layout.timeIdx >= 0) {
      TypeInformation<?> tt = rt.getTypeAt(layout.timeIdx);
      if (!isTimeType(tt)) {
        throw new SwagException(Kind.INVALID_INPUT, "time: column '" + spec.time() + "' has type " + tt
            + "; expected epoch ms (BIGINT/INT), Instant, LocalDateTime or Timestamp");
      }
    }
    if (checkWatermarks && layout.timeIdx >= 0 && hasTimeWindows(spec) && !mayHaveWatermarks(input.getTransformation(), new java.util.HashSet<>())) {
      throw new SwagException(Kind.INVALID_INPUT, "input: the stream has no watermarks (its sources use WatermarkStrategy"
          + ".noWatermarks() and no assignTimestampsAndWatermarks follows), so the time windows over '" + spec.time()
          + "' would never fire; assign a WatermarkStrategy with a timestamp assigner to the input");
    }
    Object nullKey = options.keyLayout() == SwagFlinkOptions.KeyLayout.VALUE ? nullKey(rt, layout.keyIdx, input) : null;
    PackedRecord.Columns packed = nullKey != null ? packing(plan, layout, rt) : null;
    KeyedStream<?, Object> keyed;
    if (packed != null) {
      SingleOutputStreamOperator<PackedRecord> p = input.map(new PackedRecord.Pack(packed))
          .returns(new PackedRecordType(rt)).name(options.operatorName() + "-pack").setParallelism(input.getParallelism());
      if (options.uid() != null) {
        p.uid(options.uid() + "-pack");
      }
      keyed = p.keyBy(new PackedRecord.Key(new ValueKey(layout.keyIdx[0], names, nullKey)), valueKeyType(rt, layout.keyIdx[0]));
    } else {
      keyed = nullKey != null
          ? input.keyBy(new ValueKey(layout.keyIdx[0], names, nullKey), valueKeyType(rt, layout.keyIdx[0]))
          : input.keyBy(new KeyExtractor(layout.keyIdx, names), keyType(rt, layout.keyIdx));
    }
    SwagWindowOperator op = new SwagWindowOperator(plan.toJson(), names, lateTag(rt), rejectedTag(rt),
        options.cacheMaxKeys(), options.onError(), nullKey != null, options.firing() == SwagFlinkOptions.Firing.PACED);
    @SuppressWarnings({"unchecked", "rawtypes"}) // the operator takes rows and packed records alike
    SingleOutputStreamOperator<Row> out = ((KeyedStream<Object, Object>) (KeyedStream) keyed)
        .transform(options.operatorName(), outputType(spec, rt), op);
    if (options.uid() != null) {
      out.uid(options.uid());
    }
    if (options.parallelism() > 0) {
      out.setParallelism(options.parallelism());
    }
    return out;
  }

  /**
   * Where the key, time and value columns are when the rows cross the {@code keyBy} as
   * {@link PackedRecord}s, else null: the rows are exactly a {@code BIGINT} key, a {@code BIGINT}
   * time and a {@code DOUBLE} value, and the operator inserts them by time and value alone
   * ({@link SwagWindowOperator#scalarSlot}).
   */
  static PackedRecord.Columns packing(Plan plan, Layout layout, RowTypeInfo rt) {
    if (rt.getArity() != 3 || layout.keyIdx.length != 1 || layout.timeIdx < 0) {
      return null;
    }
    int slot = SwagWindowOperator.scalarSlot(layout, io.swag.core.plan.WindowGroup.storedGroups(plan, layout.used, false),
        io.swag.core.plan.CountGroup.countGroups(plan, layout.used));
    if (slot < 0) {
      return null;
    }
    PackedRecord.Columns c = PackedRecord.Columns.of(layout, slot);
    boolean distinct = c.key != c.time && c.key != c.value && c.time != c.value;
    return distinct && rt.getTypeAt(c.key).equals(Types.LONG) && rt.getTypeAt(c.time).equals(Types.LONG)
        && rt.getTypeAt(c.value).equals(Types.DOUBLE) ? c : null;
  }

  private static boolean hasTimeWindows(QuerySpec spec) {
    for (WindowSpec w : spec.windows()) {
      if (w.isTime()) {
        return true;
      }
    }
    return false;
  }

  /**
   * False only when the stream certainly has no watermarks: every path up from it reaches a source
   * with {@code WatermarkStrategy.noWatermarks()} without passing a timestamp/watermark assigner.
   */
  static boolean mayHaveWatermarks(org.apache.flink.api.dag.Transformation<?> t,
      java.util.Set<org.apache.flink.api.dag.Transformation<?>> seen) {
    if (!seen.add(t)) {
      return true;
    }
    if (t instanceof org.apache.flink.streaming.api.transformations.TimestampsAndWatermarksTransformation) {
      return true;
    }
    if (t instanceof org.apache.flink.streaming.api.transformations.OneInputTransformation<?, ?> o
        && isTableWatermarkAssigner(o.getOperatorFactory())) {
      return true; // a Table's declared watermark (WATERMARK FOR ...), e.g. a stream from toDataStream
    }
    if (t instanceof org.apache.flink.streaming.api.transformations.SourceTransformation<?, ?, ?> s) {
      try {
        return !(s.getWatermarkStrategy().createWatermarkGenerator(null)
            instanceof org.apache.flink.api.common.eventtime.NoWatermarksGenerator);
      } catch (RuntimeException e) {
        return true;
      }
    }
    if (t instanceof org.apache.flink.streaming.api.transformations.LegacySourceTransformation) {
      return false; // a SourceFunction (e.g. PyFlink's from_collection): no watermark strategy
    }
    List<org.apache.flink.api.dag.Transformation<?>> inputs = t.getInputs();
    if (inputs.isEmpty()) {
      return true; // a source of another kind: may emit watermarks
    }
    for (org.apache.flink.api.dag.Transformation<?> i : inputs) {
      if (!mayHaveWatermarks(i, seen)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code f} makes one of the Table planner's watermark assigners (package {@value
   * #TABLE_WATERMARK_ASSIGNERS}), which generate watermarks from a declared watermark expression.
   */
  static boolean isTableWatermarkAssigner(org.apache.flink.streaming.api.operators.StreamOperatorFactory<?> f) {
    if (f == null) {
      return false;
    }
    Class<?> c = f instanceof org.apache.flink.streaming.api.operators.SimpleOperatorFactory<?> s
        && s.getOperator() != null ? s.getOperator().getClass() : f.getClass();
    return c.getName().startsWith(TABLE_WATERMARK_ASSIGNERS);
  }

  static final String TABLE_WATERMARK_ASSIGNERS = "org.apache.flink.table.runtime.operators.wmassigners.";

  private static boolean isTimeType(TypeInformation<?> t) {
    return t.equals(Types.LONG) || t.equals(Types.INT) || t.equals(Types.INSTANT) || t.equals(Types.LOCAL_DATE_TIME)
        || t.equals(Types.SQL_TIMESTAMP) || t.getTypeClass() == Instant.class || t.getTypeClass() == LocalDateTime.class;
  }

  /** The plan re-validated with the input's column types, so e.g. {@code max} of a STRING fails here. */
  private static Plan withInputTypes(Plan plan, RowTypeInfo rt) {
    Map<String, Object> m = new LinkedHashMap<>(plan.spec().toMap());
    @SuppressWarnings("unchecked")
    Map<String, Object> cols = new LinkedHashMap<>((Map<String, Object>) m.getOrDefault("columns", Map.of()));
    boolean changed = false;
    for (int i = 0; i < rt.getArity(); i++) {
      String type = specType(rt.getTypeAt(i));
      String name = rt.getFieldNames()[i];
      if (type != null && !cols.containsKey(name) && used(plan.spec(), name)) {
        cols.put(name, type);
        changed = true;
      }
    }
    if (!changed) {
      return plan;
    }
    m.put("columns", cols);
    QuerySpec typed = QuerySpec.fromMap(m); // throws naming the column if a function does not fit its type
    return new Plan(typed, plan.groups());
  }

  private static boolean used(QuerySpec spec, String column) {
    for (WindowSpec w : spec.windows()) {
      for (AggregateSpec a : w.aggregates()) {
        if (column.equals(a.column())) {
          return true;
        }
      }
    }
    return false;
  }

  private static String specType(TypeInformation<?> t) {
    if (t.equals(Types.DOUBLE) || t.equals(Types.FLOAT) || t.equals(Types.BIG_DEC)) {
      return "double";
    }
    if (t.equals(Types.LONG) || t.equals(Types.INT) || t.equals(Types.SHORT) || t.equals(Types.BYTE)) {
      return "long";
    }
    if (t.equals(Types.STRING)) {
      return "string";
    }
    if (t.equals(Types.BOOLEAN)) {
      return "boolean";
    }
    if (t instanceof LocalTimeTypeInfo || t instanceof SqlTimeTypeInfo || t.equals(Types.INSTANT)) {
      return "timestamp";
    }
    return null;
  }

  /**
   * The key of the rows whose one key column is null under {@link SwagFlinkOptions.KeyLayout#VALUE}
   * (the operator rejects them, so it only picks their subtask: Flink's partitioner takes no null
   * key): the default instance of the column's type; null when the query is keyed by a {@code Row}
   * (not one key column, or a column of a type other than a basic, SQL time or {@code java.time} one).
   */
  static Object nullKey(RowTypeInfo rt, int[] keyIdx, DataStream<Row> input) {
    if (keyIdx.length != 1) {
      return null;
    }
    TypeInformation<?> t = rt.getTypeAt(keyIdx[0]);
    if (!(t instanceof BasicTypeInfo || t instanceof SqlTimeTypeInfo || t instanceof LocalTimeTypeInfo)) {
      return null;
    }
    return t.createSerializer(input.getExecutionConfig().getSerializerConfig()).createInstance();
  }

  private static TypeInformation<Object> valueKeyType(RowTypeInfo rt, int keyIdx) {
    return rt.getTypeAt(keyIdx);
  }

  private static TypeInformation<Object> keyType(RowTypeInfo rt, int[] keyIdx) {
    TypeInformation<?> t;
    if (keyIdx.length == 0) {
      t = Types.INT;
    } else {
      TypeInformation<?>[] ts = new TypeInformation<?>[keyIdx.length];
      for (int i = 0; i < ts.length; i++) {
        ts[i] = rt.getTypeAt(keyIdx[i]);
      }
      t = new RowTypeInfo(ts);
    }
    @SuppressWarnings("unchecked")
    TypeInformation<Object> o = (TypeInformation<Object>) t;
    return o;
  }

  /**
   * The output row type of a query over input rows of type {@code rt}.
   *
   * @param spec the query
   * @param rt the input's row type
   * @return the output row type
   */
  public static RowTypeInfo outputType(QuerySpec spec, RowTypeInfo rt) {
    List<String> names = Layout.outputNames(spec);
    List<TypeInformation<?>> types = new ArrayList<>();
    for (String k : spec.key()) {
      types.add(rt.getTypeAt(rt.getFieldIndex(k)));
    }
    types.add(Types.STRING);
    types.add(Types.LONG);
    types.add(Types.LONG);
    for (WindowSpec w : spec.windows()) {
      for (AggregateSpec a : w.aggregates()) {
        types.add(resultType(a));
      }
    }
    return new RowTypeInfo(types.toArray(new TypeInformation<?>[0]), names.toArray(new String[0]));
  }

  /**
   * A swag result stream with its non-basic result columns (lists, sketches) as strings, so that
   * every column converts to a SQL or Python value (used by PyFlink and {@link SwagTables}).
   *
   * @param result a swag result stream
   * @return the stream with non-basic columns as strings
   */
  public static DataStream<Row> plainColumns(DataStream<Row> result) {
    return PlainColumns.apply(result);
  }

  /**
   * The result rows of {@link #aggregate} as POJOs of {@code type} (a public class with a public
   * no-argument constructor): each output column goes to the public field or setter named like it,
   * in snake_case or camelCase ({@code window_start} -> {@code windowStart}); columns without one are
   * left out (use boxed types: the aggregates of other windows are null); a public field matching no
   * column is an error, raised here.
   *
   * @param <T> the POJO type
   * @param result a swag result stream
   * @param type the POJO class
   * @return the stream of POJOs
   */
  public static <T> SingleOutputStreamOperator<T> asPojos(DataStream<Row> result, Class<T> type) {
    if (!(result.getType() instanceof RowTypeInfo rt)) {
      throw new SwagException(Kind.INVALID_INPUT, "result: expected the Row stream of SwagWindows.aggregate, got "
          + result.getType());
    }
    return result.map(new RowToPojo<>(type, rt.getFieldNames())).returns(TypeInformation.of(type));
  }

  /**
   * The late side output of a swag result stream, typed like {@code input}.
   *
   * @param result a swag result stream
   * @param input the input stream
   * @return the late records
   */
  public static DataStream<Row> lateRecords(SingleOutputStreamOperator<Row> result, DataStream<Row> input) {
    return result.getSideOutput(lateTag(input.getType()));
  }

  /**
   * The rejected records of {@code result} (from {@link #aggregate}): rows (reason, record), the
   * record as {@code input} typed it.
   *
   * @param result a swag result stream
   * @param input the input stream
   * @return the rejected records
   */
  public static DataStream<Row> rejectedRecords(SingleOutputStreamOperator<Row> result, DataStream<Row> input) {
    return result.getSideOutput(rejectedTag(input.getType()));
  }

  /** The Flink type of an aggregate's result ({@link io.swag.core.plan.ResultKind}: one kind per function). */
  static TypeInformation<?> resultType(AggregateSpec a) {
    return switch (a.resultKind()) {
      case DOUBLE -> BasicTypeInfo.DOUBLE_TYPE_INFO;
      case LONG, TIME -> BasicTypeInfo.LONG_TYPE_INFO;
      case BOOLEAN -> BasicTypeInfo.BOOLEAN_TYPE_INFO;
      case STRING -> BasicTypeInfo.STRING_TYPE_INFO;
      case LIST -> new GenericTypeInfo<>(List.class);
      case STRUCT -> new GenericTypeInfo<>(Object.class);
    };
  }

  /**
   * Flink key of a row with one key column under {@link SwagFlinkOptions.KeyLayout#VALUE}: the
   * column's value, or {@code nullKey} (the type's default instance) for a null one, which the
   * operator rejects without touching that key's state.
   */
  static final class ValueKey implements KeySelector<Row, Object>, Serializable {
    private static final long serialVersionUID = 1L;
    private final int keyIdx;
    private final String name;
    private final Object nullKey;

    ValueKey(int keyIdx, String[] names, Object nullKey) {
      this.keyIdx = keyIdx;
      this.name = names[keyIdx];
      this.nullKey = nullKey;
    }

    @Override
    public Object getKey(Row in) {
      Object v = in.getFieldNames(false) != null ? in.getField(name) : in.getField(keyIdx);
      return v != null ? v : nullKey;
    }
  }

  /** Flink key of a row: a Row of the key columns (nulls allowed: the operator rejects them), or 0 without key columns. */
  static final class KeyExtractor implements KeySelector<Row, Object>, Serializable {
    private static final long serialVersionUID = 1L;
    private final int[] keyIdx;
    private final String[] names;

    KeyExtractor(int[] keyIdx, String[] names) {
      this.keyIdx = keyIdx.clone();
      this.names = names.clone();
    }

    private Object field(Row in, int i) {
      return in.getFieldNames(false) != null ? in.getField(names[i]) : in.getField(i);
    }

    @Override
    public Object getKey(Row in) {
      if (keyIdx.length == 0) {
        return 0;
      }
      Row k = new Row(keyIdx.length);
      for (int i = 0; i < keyIdx.length; i++) {
        k.setField(i, field(in, keyIdx[i]));
      }
      return k;
    }
  }
}

package io.swag.spark;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.CountGroup;
import io.swag.core.plan.GroupKind;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.OnError;
import io.swag.core.plan.Plan;
import io.swag.core.plan.QueryGroups;
import io.swag.core.plan.ResultKind;
import io.swag.core.plan.RowContract;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The row layout of one swag query on Spark: the input columns the query reads (key columns, the
 * time, the aggregate inputs: {@link LocalExecutor#usedColumns}), their Spark types, and the output
 * schema: the key columns, {@code window} (name), {@code window_start}, {@code window_end}
 * (timestamps if the time column is a timestamp and the query has no count window, else longs: epoch
 * ms, or record counts for count windows), one column per aggregate ({@link #resultType}), and
 * {@code swag_kind}, {@code swag_record}, {@code swag_reason} (for late and rejected records), and
 * {@code swag_n}, the records the row stands for (for the observed metrics; dropped after them).
 */
final class Layout implements Serializable {
  private static final long serialVersionUID = 1L;
  static final String KIND = "swag_kind";
  static final String RECORD = "swag_record";
  static final String REASON = "swag_reason";
  /** How many records a row stands for (1, or a pre-aggregated slice's count for its late row). */
  static final String COUNT = "swag_n";
  /**
   * The rows of pre-aggregated slices ({@link SlicePreAggregator}, {@link #sliceSchema}): the key
   * columns, then these columns at these offsets after the keys; read them with the {@code slice*}
   * accessors, never by position.
   */
  static final String SLICE = "swag_slice";
  static final String SLICE_COUNT = "swag_count";
  static final String SLICE_PARTIAL = "swag_partial";
  private static final int SLICE_START_AT = 0;
  private static final int SLICE_COUNT_AT = 1;
  private static final int SLICE_PARTIAL_AT = 2;
  private static final int SLICE_RECORD_AT = 3;
  private static final int SLICE_REASON_AT = 4;

  final String planJson;
  private final OnError onError;
  final List<String> columns;
  final DataType[] types;
  final int keys;
  /** The time column's index in the input rows, or -1 (a query of count windows only). */
  final int timeIdx;
  /** The time column is a timestamp: time bounds and {@code argmin}/{@code argmax} are timestamps. */
  final boolean timestampTime;
  /** {@code window_start}/{@code window_end} are timestamps (a timestamp time column, no count window). */
  private final boolean timestampBounds;
  final StructType keySchema;
  final StructType inputSchema;
  /**
   * Every record's key columns equal its group key's values (Spark groups them as they are: integers,
   * booleans, strings of the binary collation; not floats, which it normalizes, nor collated strings),
   * and the time is not a key column: a record row may take its key values from the group key
   * ({@link #keyValues}), and the stored rows may leave them out.
   */
  final boolean keysFromGroup;
  final StructType outputSchema;
  /** The rows of {@link SlicePreAggregator}: key columns, slice start, record count, partial, record, reason. */
  final StructType sliceSchema;
  private final int kindIdx;
  /** Per time group and window, and per count group: the output column index of each aggregate. */
  private final int[][][] timeColumns;
  private final int[][] countColumns;
  /** The plan has one time group and no count group (what pre-aggregation and the slice path take). */
  final boolean singleTimeGroup;
  final DataType[] outTypes;

  Layout(Plan plan, StructType schema) {
    this(plan, schema, OnError.REJECT);
  }

  /** {@code onError}: what a rejected record does ({@link #recordRow} applies it, on the executors). */
  Layout(Plan plan, StructType schema, OnError onError) {
    this.onError = onError;
    this.planJson = plan.toJson();
    var spec = plan.spec();
    int timeGroups = 0;
    int countGroups = 0;
    for (var g : plan.groups()) {
      if (g.kind() == GroupKind.TIME) {
        timeGroups++;
      } else {
        countGroups++;
      }
    }
    if (spec.time() == null && timeGroups > 0) {
      throw new SwagException(Kind.INVALID_QUERY, "query.time: null (processing time) is not supported on Spark: a "
          + "micro-batch gives all its records one processing time, so windows shorter than the trigger interval "
          + "are meaningless and a replayed batch gets other times (its results change); add a column "
          + "current_timestamp() with a watermark and use it as the event time instead");
    }
    this.singleTimeGroup = timeGroups == 1 && countGroups == 0;
    this.columns = LocalExecutor.usedColumns(spec);
    this.types = new DataType[columns.size()];
    List<String> names = List.of(schema.fieldNames());
    for (int i = 0; i < columns.size(); i++) {
      String c = columns.get(i);
      if (!names.contains(c)) {
        throw RowContract.missingColumn(spec, c, names);
      }
      types[i] = schema.apply(c).dataType();
    }
    this.keys = spec.key().size();
    this.timeIdx = spec.time() == null ? -1 : columns.indexOf(spec.time());
    DataType tt = timeIdx < 0 ? DataTypes.LongType : types[timeIdx];
    this.timestampTime = tt.equals(DataTypes.TimestampType) || tt.equals(DataTypes.TimestampNTZType);
    if (!timestampTime && !isIntegral(tt)) {
      throw new SwagException(Kind.INVALID_INPUT, "time column '" + spec.time() + "' has type " + tt.simpleString()
          + "; expected a timestamp or an integer of epoch milliseconds");
    }
    this.timestampBounds = timestampTime && countGroups == 0;
    List<StructField> kf = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      kf.add(DataTypes.createStructField(columns.get(i), types[i], true));
    }
    this.keySchema = DataTypes.createStructType(kf);
    List<StructField> in = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      in.add(DataTypes.createStructField(columns.get(i), types[i], true));
    }
    this.inputSchema = DataTypes.createStructType(in);
    boolean keyless = keys > 0 && timeIdx >= keys;
    for (int i = 0; i < keys; i++) {
      keyless &= isIdentityKey(types[i]);
    }
    this.keysFromGroup = keyless;
    List<StructField> out = new ArrayList<>(kf);
    DataType wt = timestampBounds ? DataTypes.TimestampType : DataTypes.LongType;
    out.add(DataTypes.createStructField("window", DataTypes.StringType, true));
    out.add(DataTypes.createStructField("window_start", wt, true));
    out.add(DataTypes.createStructField("window_end", wt, true));
    int first = out.size();
    List<String> outputs = new ArrayList<>();
    for (WindowSpec ws : spec.windows()) {
      for (AggregateSpec a : ws.aggregates()) {
        out.add(DataTypes.createStructField(a.output(), resultType(a), true));
        outputs.add(a.output());
      }
    }
    List<int[][]> tc = new ArrayList<>();
    List<int[]> cc = new ArrayList<>();
    for (var g : plan.groups()) {
      int[][] cols = new int[g.windows().size()][];
      for (int w = 0; w < cols.length; w++) {
        List<AggregateSpec> aggs = spec.windows().get(g.windows().get(w)).aggregates();
        cols[w] = new int[aggs.size()];
        for (int j = 0; j < cols[w].length; j++) {
          cols[w][j] = first + outputs.indexOf(aggs.get(j).output());
        }
      }
      if (g.kind() == GroupKind.TIME) {
        tc.add(cols);
      } else {
        cc.add(cols[0]);
      }
    }
    this.timeColumns = tc.toArray(new int[0][][]);
    this.countColumns = cc.toArray(new int[0][]);
    out.add(DataTypes.createStructField(KIND, DataTypes.StringType, false));
    out.add(DataTypes.createStructField(RECORD, DataTypes.StringType, true));
    out.add(DataTypes.createStructField(REASON, DataTypes.StringType, true));
    out.add(DataTypes.createStructField(COUNT, DataTypes.LongType, false));
    this.outputSchema = DataTypes.createStructType(out);
    this.kindIdx = out.size() - 4;
    List<StructField> sl = new ArrayList<>(kf);
    sl.add(DataTypes.createStructField(SLICE, DataTypes.LongType, true));
    sl.add(DataTypes.createStructField(SLICE_COUNT, DataTypes.LongType, false));
    sl.add(DataTypes.createStructField(SLICE_PARTIAL, DataTypes.BinaryType, true));
    sl.add(DataTypes.createStructField(RECORD, DataTypes.StringType, true));
    sl.add(DataTypes.createStructField(REASON, DataTypes.StringType, true));
    this.sliceSchema = DataTypes.createStructType(sl);
    this.outTypes = new DataType[outputSchema.size()];
    for (int i = 0; i < outTypes.length; i++) {
      outTypes[i] = outputSchema.fields()[i].dataType();
    }
  }

  /**
   * Whether Spark's grouping keeps every value of this type as it is, so that a record's key column
   * equals its group key's value: integers, booleans and strings of the binary collation (floats are
   * normalized, collated strings group unequal values).
   */
  private static boolean isIdentityKey(DataType t) {
    return isIntegral(t) || t.equals(DataTypes.BooleanType) || t.equals(DataTypes.StringType)
        && ((org.apache.spark.sql.types.StringType) t).collationId() == 0;
  }

  private static boolean isIntegral(DataType t) {
    return t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.ShortType)
        || t.equals(DataTypes.ByteType);
  }

  /** The Spark type of an aggregate's result: its {@link io.swag.core.plan.ResultKind}, mapped. */
  private DataType resultType(AggregateSpec a) {
    return switch (a.resultKind()) {
      case LONG -> DataTypes.LongType;
      case DOUBLE -> DataTypes.DoubleType;
      case TIME -> timestampTime ? DataTypes.TimestampType : DataTypes.LongType;
      case LIST -> DataTypes.createArrayType(elementType(types[columns.indexOf(a.column())]), true);
      case BOOLEAN -> DataTypes.BooleanType;
      case STRING, STRUCT -> DataTypes.StringType; // a structure as its JSON text
    };
  }

  private static DataType elementType(DataType in) {
    if (in.equals(DataTypes.StringType) || in.equals(DataTypes.BooleanType)) {
      return in;
    }
    return DataTypes.DoubleType;
  }

  /**
   * The swag form of a cell: {@link RowContract#normalize} (numbers as Long/Double, timestamps as
   * epoch ms), and any other Spark value (an array, a struct, a date) as its text.
   */
  static Object toSwag(Object v) {
    Object n = RowContract.normalize(v);
    return RowContract.isNormal(n) ? n : n.toString();
  }

  private Object bound(long v) {
    return timestampBounds ? new Timestamp(v) : (Object) v;
  }

  /** An output row for window {@code w} of time group {@code group} ({@code g}). */
  Row windowRow(Row key, int group, WindowGroup g, int w, long start, long end, List<Object> results) {
    return resultRow(key, g.window(w).name(), start, end, g.outputValues(w, results), timeColumns[group][w]);
  }

  /** An output row of count group {@code group} ({@code g}). */
  Row countRow(Row key, int group, CountGroup g, long start, long end, List<Object> results) {
    return resultRow(key, g.window().name(), start, end, g.outputValues(results), countColumns[group]);
  }

  private Row resultRow(Row key, String window, long start, long end, Object[] vals, int[] cols) {
    Object[] r = new Object[outTypes.length];
    for (int i = 0; i < keys; i++) {
      r[i] = key.get(i);
    }
    r[keys] = window;
    r[keys + 1] = bound(start);
    r[keys + 2] = bound(end);
    for (int j = 0; j < vals.length; j++) {
      int c = cols[j];
      r[c] = toSpark(vals[j], outTypes[c]);
    }
    r[kindIdx] = "window";
    r[kindIdx + 3] = 1L;
    return RowFactory.create(r);
  }

  /**
   * The input row {@code in} converted and checked by {@link #convertValues}; a rejected record instead
   * becomes a {@code rejected} output row of {@code key} in {@code out}, and the result is null.
   * The functions' checks of its values are the caller's ({@link io.swag.core.plan.QueryGroups#check}).
   */
  Object[] convertOrReject(Row key, Row in, List<Row> out) {
    return convertOrReject(key, null, in, out);
  }

  /**
   * {@link #convertOrReject(Row, Row, List)}; with {@code keyValues} (the key's swag values,
   * {@link #keyValues}; only if {@link #keysFromGroup}) the row's key columns are those values (the same
   * objects for every record of the key), its other columns converted from {@code in}.
   */
  Object[] convertOrReject(Row key, Object[] keyValues, Row in, List<Row> out) {
    Object[] row = new Object[columns.size()];
    String bad;
    if (keyValues == null) {
      bad = convertValues(in, row);
    } else {
      System.arraycopy(keyValues, 0, row, 0, keys);
      bad = convertValues(in, row, keys);
    }
    if (bad != null) {
      out.add(recordRow(key, "rejected", in, bad));
      return null;
    }
    return row;
  }

  /** The swag values of a group key's columns ({@link #toSwag}), for {@link #convertOrReject}. */
  Object[] keyValues(Row key) {
    Object[] k = new Object[keys];
    for (int i = 0; i < keys; i++) {
      k[i] = toSwag(key.get(i));
    }
    return k;
  }

  /** The epoch ms of a row that passed {@link #convertValues} (0 without a time column). */
  long time(Object[] row) {
    return timeIdx < 0 ? 0L : (Long) row[timeIdx];
  }

  /**
   * Converts the input row {@code in} into {@code out} (swag values, the time as epoch ms) and checks
   * it ({@link RowContract}): returns why the record is rejected (null or unparsable time, a NaN
   * value), naming the column and value, or null if it is good. Neither the functions' checks of the
   * values nor lateness are applied here.
   */
  String convertValues(Row in, Object[] out) {
    return convertValues(in, out, 0);
  }

  /** {@link #convertValues(Row, Object[])} of the columns from {@code from} on (the time column among them). */
  private String convertValues(Row in, Object[] out, int from) {
    for (int i = from; i < out.length; i++) {
      if (i != timeIdx) {
        out[i] = toSwag(in.get(i));
      }
    }
    if (timeIdx >= 0) {
      Object tv = in.get(timeIdx);
      Long t = RowContract.parseTime(toSwag(tv));
      if (t == null) {
        return RowContract.badTime(columns.get(timeIdx), tv);
      }
      out[timeIdx] = t;
    }
    for (int i = keys; i < out.length; i++) {
      if (i != timeIdx && RowContract.isNaN(out[i])) {
        return RowContract.nan(columns.get(i));
      }
    }
    return null;
  }

  /** The reason a record of {@code key} is rejected for its key (a null key column), or null. */
  String nullKey(Row key) {
    for (int i = 0; i < keys; i++) {
      if (key.isNullAt(i)) {
        return RowContract.nullKey(columns.get(i));
      }
    }
    return null;
  }

  /** A row reporting a late or rejected record. */
  Row recordRow(Row key, String kind, Row input, String reason) {
    return recordRow(key, kind, describe(input), reason, 1L);
  }

  /**
   * A row reporting {@code n} late or rejected records ({@code record}: their text, if one); a
   * rejected one under {@code on_error = fail} fails the task instead ({@link OnError}).
   */
  Row recordRow(Row key, String kind, String record, String reason, long n) {
    if (kind.equals("rejected")) {
      onError.rejected(reason, record);
    }
    Object[] r = new Object[outTypes.length];
    for (int i = 0; i < keys && key != null; i++) {
      r[i] = key.get(i);
    }
    r[kindIdx] = kind;
    r[kindIdx + 1] = record;
    r[kindIdx + 2] = reason;
    r[kindIdx + 3] = n;
    return RowFactory.create(r);
  }

  String describe(Row input) {
    return RowContract.describe(columns, input::get);
  }

  private Object toSpark(Object v, DataType t) {
    if (v == null) {
      return null;
    }
    if (t.equals(DataTypes.DoubleType)) {
      return v instanceof Number n ? n.doubleValue() : null;
    }
    if (t.equals(DataTypes.LongType)) {
      return v instanceof Number n ? n.longValue() : null;
    }
    if (t.equals(DataTypes.TimestampType)) {
      return v instanceof Number n ? new Timestamp(n.longValue()) : null;
    }
    if (t.equals(DataTypes.BooleanType)) {
      return v instanceof Boolean ? v : null;
    }
    if (t instanceof ArrayType at) {
      List<?> l = (List<?>) v;
      Object[] a = new Object[l.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = toSpark(l.get(i), at.elementType());
      }
      return scala.jdk.javaapi.CollectionConverters.asScala(java.util.Arrays.asList(a)).toSeq();
    }
    if (t instanceof DecimalType) {
      return new BigDecimal(v.toString());
    }
    return ResultKind.text(v); // a structure as its JSON text
  }

  /**
   * The plan's groups for this layout; {@code preaggregated}: for slices pre-aggregated before the
   * shuffle (only with {@link #singleTimeGroup}: the aggregator then holds one entry per slice
   * already, no slicing of its own).
   */
  QueryGroups groups(boolean finalOnly, boolean preaggregated) {
    Plan p = plan();
    if (preaggregated) {
      if (!singleTimeGroup) {
        throw new IllegalStateException("pre-aggregated slices need a plan of one time group");
      }
      p = p.withGroup(0, p.groups().get(0).withSlicing(false));
    }
    return QueryGroups.of(p, columns, finalOnly);
  }

  /** The only time group of a {@link #singleTimeGroup} plan (the pre-aggregation path). */
  WindowGroup group(boolean finalOnly, boolean preaggregated) {
    return groups(finalOnly, preaggregated).time().get(0);
  }

  // ---- the slice rows of SlicePreAggregator (sliceSchema) ----

  long sliceStart(Row r) {
    return r.getLong(keys + SLICE_START_AT);
  }

  long sliceCount(Row r) {
    return r.getLong(keys + SLICE_COUNT_AT);
  }

  byte[] slicePartial(Row r) {
    return (byte[]) r.get(keys + SLICE_PARTIAL_AT);
  }

  /** Whether the slice row is a record the map side rejected ({@link #sliceRecord}, {@link #sliceReason}). */
  boolean sliceRejected(Row r) {
    return !r.isNullAt(keys + SLICE_REASON_AT);
  }

  String sliceRecord(Row r) {
    return r.getString(keys + SLICE_RECORD_AT);
  }

  String sliceReason(Row r) {
    return r.getString(keys + SLICE_REASON_AT);
  }

  /** A slice row: key values, slice start, record count, partial. */
  Object[] sliceRow(Object[] keyValues, long start, long count, byte[] partial) {
    Object[] r = new Object[keys + 5];
    System.arraycopy(keyValues, 0, r, 0, keys);
    r[keys + SLICE_START_AT] = start;
    r[keys + SLICE_COUNT_AT] = count;
    r[keys + SLICE_PARTIAL_AT] = partial;
    return r;
  }

  /** A slice row for a record the map side rejected: its text and the reason. */
  Object[] rejectedSliceRow(Object[] keyValues, String record, String reason) {
    Object[] r = new Object[keys + 5];
    System.arraycopy(keyValues, 0, r, 0, keys);
    r[keys + SLICE_COUNT_AT] = 1L;
    r[keys + SLICE_RECORD_AT] = record;
    r[keys + SLICE_REASON_AT] = reason;
    return r;
  }

  /** The plan, rebuilt from its JSON on an executor. */
  Plan plan() {
    return Plan.fromJson(planJson);
  }
}

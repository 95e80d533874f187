package io.swag.spark;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.RowContract;
import io.swag.core.plan.Plan;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
 * (timestamps if the time column is a timestamp, else epoch ms), one column per aggregate, and
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
  /** Columns of pre-aggregated slice rows ({@link SlicePreAggregator}), after the key columns. */
  static final String SLICE = "swag_slice";
  static final String SLICE_COUNT = "swag_count";
  static final String SLICE_PARTIAL = "swag_partial";

  final String planJson;
  final List<String> columns;
  final DataType[] types;
  final int keys;
  final int timeIdx;
  final boolean timestampTime;
  final StructType keySchema;
  final StructType inputSchema;
  final StructType outputSchema;
  /** The rows of {@link SlicePreAggregator}: key columns, slice start, record count, partial, record, reason. */
  final StructType sliceSchema;
  private final int kindIdx;
  /** Per group window: the output column index of each of its aggregates. */
  final int[][] aggColumns;
  final DataType[] outTypes;

  Layout(Plan plan, StructType schema) {
    this.planJson = plan.toJson();
    var spec = plan.spec();
    if (spec.time() == null) {
      throw new SwagException(Kind.INVALID_QUERY, "query.time: the Spark connector needs an event-time column "
          + "(processing-time and count windows are not supported on Spark yet)");
    }
    for (var g : plan.groups()) {
      if (!g.kind().equals("time")) {
        throw new SwagException(Kind.INVALID_QUERY, "query.windows: count windows are not supported by the Spark connector yet");
      }
    }
    if (plan.groups().size() != 1) {
      throw new SwagException(Kind.INVALID_QUERY, "query.windows: expected one group of time windows, the plan has "
          + plan.groups().size());
    }
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
    this.timeIdx = columns.indexOf(spec.time());
    if (timeIdx < keys) {
      throw new SwagException(Kind.INVALID_QUERY, "query.time: '" + spec.time() + "' is also a key column");
    }
    DataType tt = types[timeIdx];
    this.timestampTime = tt.equals(DataTypes.TimestampType) || tt.equals(DataTypes.TimestampNTZType);
    if (!timestampTime && !isIntegral(tt)) {
      throw new SwagException(Kind.INVALID_INPUT, "time column '" + spec.time() + "' has type " + tt.simpleString()
          + "; expected a timestamp or an integer of epoch milliseconds");
    }
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
    List<StructField> out = new ArrayList<>(kf);
    DataType wt = timestampTime ? DataTypes.TimestampType : DataTypes.LongType;
    out.add(DataTypes.createStructField("window", DataTypes.StringType, true));
    out.add(DataTypes.createStructField("window_start", wt, true));
    out.add(DataTypes.createStructField("window_end", wt, true));
    WindowGroup group = WindowGroup.timeGroups(plan, columns, true).get(0);
    this.aggColumns = new int[group.windowCount()][];
    List<DataType> aggTypes = new ArrayList<>();
    int col = out.size();
    List<String> seen = new ArrayList<>();
    for (int w = 0; w < group.windowCount(); w++) {
      WindowSpec ws = group.window(w);
      aggColumns[w] = new int[ws.aggregates().size()];
      for (int j = 0; j < ws.aggregates().size(); j++) {
        AggregateSpec a = ws.aggregates().get(j);
        int at = seen.indexOf(a.output());
        if (at < 0) {
          DataType t = resultType(a);
          out.add(DataTypes.createStructField(a.output(), t, true));
          aggTypes.add(t);
          seen.add(a.output());
          at = seen.size() - 1;
        }
        aggColumns[w][j] = col + at;
      }
    }
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

  private static boolean isIntegral(DataType t) {
    return t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.ShortType)
        || t.equals(DataTypes.ByteType);
  }

  private DataType resultType(AggregateSpec a) {
    String f = a.function();
    DataType in = a.column() == null ? DataTypes.NullType : types[columns.indexOf(a.column())];
    return switch (f) {
      case "count" -> DataTypes.LongType;
      case "argmin", "argmax" -> timestampTime ? DataTypes.TimestampType : DataTypes.LongType;
      case "collect" -> DataTypes.createArrayType(elementType(in), true);
      case "first", "last", "min", "max", "sum", "mean", "avg", "geomean", "stddev", "variance", "hll",
          "quantile", "median" -> DataTypes.DoubleType;
      case "kll" -> a.options().containsKey("rank") ? DataTypes.DoubleType : DataTypes.StringType;
      case io.swag.core.fn.UserFunctions.FUNCTION -> switch (a.create().resultType()) {
        case DOUBLE -> DataTypes.DoubleType;
        case LONG -> DataTypes.LongType;
        case BOOLEAN -> DataTypes.BooleanType;
        case STRING -> DataTypes.StringType;
      };
      default -> DataTypes.StringType; // m4, mincount, maxcount, bloom, countmin: their text form
    };
  }

  private static DataType elementType(DataType in) {
    if (in.equals(DataTypes.StringType) || in.equals(DataTypes.BooleanType)) {
      return in;
    }
    return DataTypes.DoubleType;
  }

  /** The swag form of a cell: numbers as Long/Double, timestamps as epoch ms, strings as they are. */
  static Object toSwag(Object v) {
    if (v == null || v instanceof Double || v instanceof Long || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (v instanceof Timestamp t) {
      return t.getTime();
    }
    if (v instanceof Instant i) {
      return i.toEpochMilli();
    }
    if (v instanceof LocalDateTime l) {
      return l.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    return v.toString();
  }

  /** Epoch ms of the time cell, or null if null / not a time. */
  Long time(Object v) {
    return v == null ? null : RowContract.parseTime(toSwag(v));
  }

  Object sparkTime(long ms) {
    return timestampTime ? new Timestamp(ms) : (Object) ms;
  }

  /** An output row for one window. */
  Row windowRow(Row key, WindowGroup g, int w, long start, long end, List<Object> results) {
    Object[] r = new Object[outTypes.length];
    for (int i = 0; i < keys; i++) {
      r[i] = key.get(i);
    }
    r[keys] = g.window(w).name();
    r[keys + 1] = sparkTime(start);
    r[keys + 2] = sparkTime(end);
    Object[] vals = g.outputValues(w, results);
    for (int j = 0; j < vals.length; j++) {
      int c = aggColumns[w][j];
      r[c] = toSpark(vals[j], outTypes[c]);
    }
    r[kindIdx] = "window";
    r[kindIdx + 3] = 1L;
    return RowFactory.create(r);
  }

  /**
   * The input row {@code in} converted and checked by {@link #convert}; a rejected record instead
   * becomes a {@code rejected} output row of {@code key} in {@code out}, and the result is null.
   * Shared by the streaming processor and the batch back-fill.
   */
  Object[] convertOrReject(Row key, Row in, WindowGroup group, List<Row> out) {
    Object[] row = new Object[columns.size()];
    String bad = convert(in, row, group);
    if (bad != null) {
      out.add(recordRow(key, "rejected", in, bad));
      return null;
    }
    return row;
  }

  /**
   * Converts the input row {@code in} into {@code out} (swag values, the time as epoch ms) and
   * checks it: returns why the record is rejected (null or unparsable time, a NaN value, a value a
   * function refuses), naming the column and value, or null if it is good. Lateness is not checked
   * here (streaming only).
   */
  String convert(Row in, Object[] out, WindowGroup group) {
    String bad = convertValues(in, out);
    if (bad != null) {
      return bad;
    }
    try {
      group.check(out, (Long) out[timeIdx]);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return null;
  }

  /**
   * {@link #convert} without asking the functions whether they accept the values: for a caller
   * that lifts the row right away and treats an {@link IllegalArgumentException} of the lift as
   * the rejection ({@link SlicePreAggregator}), so that a record is lifted once, not twice.
   */
  String convertValues(Row in, Object[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = toSwag(in.get(i));
    }
    Object tv = in.get(timeIdx);
    Long t = time(tv);
    if (t == null) {
      return RowContract.badTime(columns.get(timeIdx), tv);
    }
    out[timeIdx] = t;
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

  /** A row reporting {@code n} late or rejected records ({@code record}: their text, if one). */
  Row recordRow(Row key, String kind, String record, String reason, long n) {
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
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      Object v = input.get(i);
      b.append('"').append(columns.get(i)).append("\": ");
      b.append(v instanceof String || v instanceof Timestamp || v instanceof Instant ? "\"" + v + "\"" : String.valueOf(v));
    }
    return b.append('}').toString();
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
    return v.toString();
  }

  /**
   * The query's window group; {@code preaggregated}: for slices pre-aggregated before the shuffle
   * (the aggregator then holds one entry per slice already: no slicing of its own).
   */
  WindowGroup group(boolean finalOnly, boolean preaggregated) {
    Plan p = plan();
    if (preaggregated) {
      p = p.withGroup(0, p.groups().get(0).withSlicing(false));
    }
    return WindowGroup.timeGroups(p, columns, finalOnly).get(0);
  }

  /** The plan, rebuilt from its JSON on an executor. */
  Plan plan() {
    return Plan.fromJson(planJson);
  }
}

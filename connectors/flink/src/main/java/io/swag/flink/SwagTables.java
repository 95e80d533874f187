package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;

/**
 * Table API front-end (also behind PyFlink's {@code swag.flink.aggregate_table}): runs a query on a
 * {@link Table} through the DataStream operator and returns the result as a Table (columns of
 * {@link SwagWindows#outputType}, non-basic results as strings, plus a {@code rowtime} attribute =
 * window_end - 1 with the input's watermarks).
 */
public final class SwagTables {
  private SwagTables() {}

  /**
   * Runs a query on a table with the default options
   * ({@link #aggregate(StreamTableEnvironment, Table, String, SwagFlinkOptions)}).
   *
   * @param tEnv the table environment of {@code table}
   * @param table the input table
   * @param queryOrPlanJson the query spec or a plan, as JSON
   * @return the result table
   */
  public static Table aggregate(StreamTableEnvironment tEnv, Table table, String queryOrPlanJson) {
    return aggregate(tEnv, table, queryOrPlanJson, SwagFlinkOptions.defaults());
  }

  /**
   * Runs a query on a table: the result of {@link #aggregateWithSides}, without the late and rejected
   * records.
   *
   * @param tEnv the table environment of {@code table}
   * @param table the input table
   * @param queryOrPlanJson the query spec or a plan, as JSON
   * @param options the operator's options
   * @return the result table
   */
  public static Table aggregate(StreamTableEnvironment tEnv, Table table, String queryOrPlanJson,
      SwagFlinkOptions options) {
    return aggregateWithSides(tEnv, table, queryOrPlanJson, options)[0];
  }

  /**
   * {@link #aggregate} and what it did not aggregate, as three tables: the result; the late records
   * (the input's columns); the rejected records ({@code reason}, then the input's columns; the reason
   * column is {@code swag_reason} if the input has a column {@code reason}).
   *
   * @param tEnv the table environment of {@code table}
   * @param table the input table
   * @param queryOrPlanJson the query spec or a plan, as JSON
   * @param options the operator's options
   * @return the result, late and rejected tables, in that order
   */
  public static Table[] aggregateWithSides(StreamTableEnvironment tEnv, Table table, String queryOrPlanJson,
      SwagFlinkOptions options) {
    io.swag.flink.table.PlannerThreads.ensureMetadataProvider(tEnv); // it runs the planner (toDataStream)
    ResolvedSchema schema = table.getResolvedSchema();
    List<Column> cols = schema.getColumns();
    String[] names = new String[cols.size()];
    TypeInformation<?>[] types = new TypeInformation<?>[cols.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = cols.get(i).getName();
      types[i] = typeOf(names[i], cols.get(i).getDataType().getLogicalType());
    }
    RowTypeInfo rt = new RowTypeInfo(types, names);
    io.swag.core.plan.Plan plan = SwagWindows.planOf(queryOrPlanJson);
    String time = plan.spec().time();
    if (time != null) {
      if (!List.of(names).contains(time)) {
        throw io.swag.core.plan.RowContract.missingColumn(plan.spec(), time, List.of(names));
      }
      boolean watermarked = schema.getWatermarkSpecs().stream().anyMatch(w -> w.getRowtimeAttribute().equals(time));
      if (!watermarked) {
        throw new SwagException(Kind.INVALID_INPUT, "time: the table declares no watermark on column '" + time
            + "' (its watermarks: " + schema.getWatermarkSpecs() + "); declare one (WATERMARK FOR " + time
            + " AS ...) so that the windows fire");
      }
    }
    DataStream<Row> rows = tEnv.toDataStream(table).map(new Positional(names)).returns(rt).name("swag-input");
    var result = SwagWindows.aggregate(rows, plan, options, false);
    DataStream<Row> out = PlainColumns.apply(result);
    Table main = tEnv.fromDataStream(out, Schema.newBuilder()
        .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
        .watermark("rowtime", "SOURCE_WATERMARK()")
        .build());
    // the side tables keep the input's SQL types (a rowtime column as a plain timestamp)
    Schema.Builder lateSchema = Schema.newBuilder();
    Schema.Builder rejectedSchema = Schema.newBuilder();
    String reason = List.of(names).contains("reason") ? "swag_reason" : "reason";
    rejectedSchema.column(reason, org.apache.flink.table.api.DataTypes.STRING());
    for (Column col : cols) {
      var type = org.apache.flink.table.types.utils.DataTypeUtils.removeTimeAttribute(col.getDataType());
      lateSchema.column(col.getName(), type);
      rejectedSchema.column(col.getName(), type);
    }
    Table late = tEnv.fromDataStream(SwagWindows.lateRecords(result, rows), lateSchema.build());
    TypeInformation<?>[] flatTypes = new TypeInformation<?>[names.length + 1];
    String[] flatNames = new String[names.length + 1];
    flatTypes[0] = Types.STRING;
    flatNames[0] = reason;
    System.arraycopy(types, 0, flatTypes, 1, names.length);
    System.arraycopy(names, 0, flatNames, 1, names.length);
    DataStream<Row> rejected = SwagWindows.rejectedRecords(result, rows).map(new Flatten(names.length))
        .returns(new RowTypeInfo(flatTypes, flatNames)).name("swag-rejected-rows");
    return new Table[] {main, late, tEnv.fromDataStream(rejected, rejectedSchema.build())};
  }

  /** A rejected row (reason, record) to (reason, the record's fields...). */
  static final class Flatten implements org.apache.flink.api.common.functions.MapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final int fields;

    Flatten(int fields) {
      this.fields = fields;
    }

    @Override
    public Row map(Row r) {
      Row o = new Row(fields + 1);
      o.setField(0, r.getField(0));
      Row rec = (Row) r.getField(1);
      for (int i = 0; i < fields; i++) {
        o.setField(i + 1, rec.getField(i));
      }
      return o;
    }
  }

  static TypeInformation<?> typeOf(String column, LogicalType t) {
    return switch (t.getTypeRoot()) {
      case BIGINT -> Types.LONG;
      case INTEGER -> Types.INT;
      case SMALLINT -> Types.SHORT;
      case TINYINT -> Types.BYTE;
      case DOUBLE -> Types.DOUBLE;
      case FLOAT -> Types.FLOAT;
      case CHAR, VARCHAR -> Types.STRING;
      case BOOLEAN -> Types.BOOLEAN;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> Types.INSTANT;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> Types.LOCAL_DATE_TIME;
      case DECIMAL -> Types.BIG_DEC;
      default -> throw new SwagException(Kind.INVALID_INPUT, "column '" + column + "' has type " + t
          + ", which swag does not read; cast it to DOUBLE, BIGINT, STRING, BOOLEAN or a TIMESTAMP");
    };
  }

  /** Table rows (possibly name-based) to position-based rows of the schema's columns. */
  static final class Positional implements org.apache.flink.api.common.functions.MapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final String[] names;

    Positional(String[] names) {
      this.names = names;
    }

    @Override
    public Row map(Row r) {
      Row o = new Row(names.length);
      boolean named = r.getFieldNames(false) != null;
      for (int i = 0; i < names.length; i++) {
        o.setField(i, named ? r.getField(names[i]) : r.getField(i));
      }
      return o;
    }
  }
}

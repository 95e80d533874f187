package io.swag.spark.bench;

import static org.apache.spark.sql.functions.col;

import java.util.Collections;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The ceiling of swag's streaming pipeline on Spark (bench_spark's engine {@code noop}): the same
 * plan as {@code SwagSpark.aggregate} without pre-aggregation (the used columns, the time column
 * re-created without its watermark metadata, {@code groupBy(key).as(row encoders)
 * .transformWithState(EventTime, Append)}), with a processor that reads every input row and emits
 * nothing. Not part of the connector: bench_spark loads it from a jar of these test classes.
 */
public final class NoOpPipeline {
  private NoOpPipeline() {}

  /** {@code df}: a stream of (key, time, value) with a watermark on {@code time}. */
  public static Dataset<Row> noop(Dataset<Row> df, String key, String time, String value) {
    Dataset<Row> in = df.select(col(key), functions.timestamp_millis(functions.unix_millis(col(time))).alias(time),
        col(value));
    StructType keySchema = new StructType().add(key, in.schema().apply(key).dataType());
    StructType out = new StructType().add("n", DataTypes.LongType);
    return in.groupBy(new Column[] {col(key)}).as(Encoders.row(keySchema), Encoders.row(in.schema()))
        .transformWithState(new NoOp(), TimeMode.EventTime(), OutputMode.Append(), Encoders.row(out));
  }

  /** Reads the rows, keeps no state, emits nothing. */
  static final class NoOp extends StatefulProcessor<Row, Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {}

    @Override
    public scala.collection.Iterator<Row> handleInputRows(Row key, scala.collection.Iterator<Row> rows, TimerValues tv) {
      while (rows.hasNext()) {
        rows.next();
      }
      return CollectionConverters.asScala(Collections.<Row>emptyIterator());
    }
  }
}

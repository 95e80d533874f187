package io.swag.examples.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.to_timestamp;

import io.swag.spark.SwagSpark;
import java.nio.file.Path;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;

/**
 * swag from a Java Spark application, without Python: per Citi Bike start station, sliding windows
 * of 1 hour every 15 minutes over trip start times with the longest trip, the mean trip, the first
 * trip's duration (in event-time order) and the number of trips.
 *
 * <ol>
 *   <li>{@link #session}: a local SparkSession with the RocksDB state store provider
 *       ({@code transformWithState} needs it; {@link SwagSpark#ROCKSDB}) and UTC.
 *   <li>{@link #backfill}: {@link SwagSpark#aggregate} on a static DataFrame (history back-fill).
 *   <li>{@link #stream}: the same query on a Structured Streaming DataFrame (CSV files as they
 *       arrive, a watermark on the time column), {@code late = keep}: late and rejected trips come
 *       back as rows with {@code swag_kind} and {@code swag_reason}, and are counted in the
 *       observed metrics {@code swag} of each micro-batch.
 * </ol>
 * Run: {@code java --add-opens ... -cp swag-core-all.jar:swag-spark.jar:this.jar:$PYSPARK/jars/*
 * io.swag.examples.spark.SparkJavaExample <dir of Citi Bike CSV files> <output dir>}; the Java
 * options Spark needs on Java 17 are those of {@code org.apache.spark.launcher.JavaModuleOptions}.
 * Outputs JSON lines: {@code <output>/backfill} and {@code <output>/stream}.
 */
public final class SparkJavaExample {
  private SparkJavaExample() {}

  /** The query: the JSON spec of docs/query-spec.md. */
  public static final String QUERY = "{\"key\": [\"station\"], \"time\": \"start\", \"windows\": [{\"size\": 3600000,"
      + " \"slide\": 900000, \"aggregates\": ["
      + "{\"output\": \"longest\", \"function\": \"max\", \"column\": \"duration\"},"
      + "{\"output\": \"mean\", \"function\": \"mean\", \"column\": \"duration\"},"
      + "{\"output\": \"first\", \"function\": \"first\", \"column\": \"duration\"},"
      + "{\"output\": \"trips\", \"function\": \"count\", \"column\": null}]}]}";

  /** The columns of a Citi Bike trip file (2016), in file order. */
  public static final String CITIBIKE_SCHEMA = "`Trip Duration` STRING, `Start Time` STRING, `Stop Time` STRING,"
      + " `Start Station ID` STRING, `Start Station Name` STRING, `Start Station Latitude` STRING,"
      + " `Start Station Longitude` STRING, `End Station ID` STRING, `End Station Name` STRING,"
      + " `End Station Latitude` STRING, `End Station Longitude` STRING, `Bike ID` STRING, `User Type` STRING,"
      + " `Birth Year` STRING, `Gender` STRING";

  /**
   * A Spark session with the RocksDB state store provider that swag's streaming operator needs.
   *
   * @param master the Spark master URL
   * @return the session
   */
  public static SparkSession session(String master) {
    return SparkSession.builder().appName("swag-java-example").master(master)
        .config(SwagSpark.PROVIDER_CONF, SwagSpark.ROCKSDB)
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }

  /** The columns the query reads: station (long), start (timestamp, UTC), duration (seconds, double). */
  static Dataset<Row> trips(Dataset<Row> citibike) {
    return citibike.select(col("Start Station ID").cast("long").as("station"),
        to_timestamp(col("Start Time")).as("start"), col("Trip Duration").cast("double").as("duration"));
  }

  /**
   * The query over every trip file of {@code dir} at once (nothing is late in a back-fill).
   *
   * @param spark the session
   * @param dir the directory of trip files
   * @return the windows, late and rejected trips
   */
  public static Dataset<Row> backfill(SparkSession spark, String dir) {
    Dataset<Row> in = spark.read().schema(CITIBIKE_SCHEMA).option("header", "true").csv(dir);
    return SwagSpark.aggregate(trips(in), QUERY, "{\"late\": \"keep\"}");
  }

  /**
   * The query over the trip files of {@code dir} as a stream, one file per micro-batch, watermark 10
   * minutes.
   *
   * @param spark the session
   * @param dir the directory of trip files
   * @return the streaming windows, late and rejected trips
   */
  public static Dataset<Row> stream(SparkSession spark, String dir) {
    Dataset<Row> in = spark.readStream().schema(CITIBIKE_SCHEMA).option("header", "true")
        .option("maxFilesPerTrigger", "1").csv(dir);
    return SwagSpark.aggregate(trips(in).withWatermark("start", "10 minutes"), QUERY, "{\"late\": \"keep\"}");
  }

  /**
   * Runs {@link #stream} over the files there now, to JSON lines in {@code out}; returns the query.
   *
   * @param spark the session
   * @param dir the directory of trip files
   * @param out the output directory
   * @return the finished query
   * @throws TimeoutException if the query cannot start
   * @throws StreamingQueryException if the query fails
   */
  public static StreamingQuery runStream(SparkSession spark, String dir, Path out)
      throws TimeoutException, StreamingQueryException {
    StreamingQuery q = stream(spark, dir).writeStream().format("json").outputMode("append")
        .option("checkpointLocation", out.resolve("checkpoint").toString())
        .trigger(Trigger.AvailableNow()).start(out.resolve("stream").toString());
    q.awaitTermination();
    return q;
  }

  /**
   * Runs the back-fill, then the stream, over a directory of trip files, and prints what they produced.
   *
   * @param args the directory of trip files ({@code tests/data} by default) and the output directory
   * @throws Exception if a query fails
   */
  public static void main(String[] args) throws Exception {
    String dir = args.length > 0 ? args[0] : "tests/data";
    Path out = Path.of(args.length > 1 ? args[1] : "swag-java-example-out");
    SparkSession spark = session("local[2]");
    spark.sparkContext().setLogLevel("WARN");
    try {
      Dataset<Row> history = backfill(spark, dir);
      history.write().mode("overwrite").json(out.resolve("backfill").toString());
      Dataset<Row> windows = spark.read().json(out.resolve("backfill").toString()).filter("swag_kind = 'window'");
      windows.orderBy("station", "window_start").show(5, false);
      System.out.println("back-fill: " + windows.count() + " windows");
      StreamingQuery q = runStream(spark, dir, out);
      for (var p : q.recentProgress()) {
        if (!p.observedMetrics().isEmpty()) {
          System.out.println("batch " + p.batchId() + ": " + p.observedMetrics().get("swag"));
        }
      }
      System.out.println("stream: " + spark.read().json(out.resolve("stream").toString()).count() + " rows");
    } finally {
      spark.stop();
    }
  }
}

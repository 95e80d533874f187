package io.swag.examples.flink;

import io.swag.flink.SwagWindows;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * swag from a Java Flink job: per Citi Bike start station, sliding windows of 1 hour every 15
 * minutes over trip start times with the longest trip, the mean trip, the first trip's duration
 * (in event-time order) and the number of trips; late and rejected trips on side outputs.
 *
 * <ol>
 *   <li>Trips are POJOs ({@link Trip}); {@link #toRows} maps them to named {@link Row}s, the input
 *       type of {@link SwagWindows#aggregate(DataStream, String)}.
 *   <li>A {@link WatermarkStrategy} with bounded out-of-orderness gives the event times.
 *   <li>{@link SwagWindows#asPojos} turns the window rows into {@link StationWindow} POJOs;
 *       {@link SwagWindows#rejectedTag} and {@link SwagWindows#lateRecords} give the records that
 *       were refused (with a reason) or too late for every window.
 * </ol>
 * Run: {@code java -cp <flink lib jars>:swag-flink-all.jar:this.jar io.swag.examples.flink.FlinkJavaExample [trips.csv.gz]}
 * (the Citi Bike sample of the repository by default).
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
public final class FlinkJavaExample {
  private FlinkJavaExample() {}

  /** The query: the JSON spec of docs/query-spec.md. */
  public static final String QUERY = "{\"key\": [\"station\"], \"time\": \"start\", \"windows\": [{\"size\": 3600000,"
      + " \"slide\": 900000, \"aggregates\": ["
      + "{\"output\": \"longest\", \"function\": \"max\", \"column\": \"duration\"},"
      + "{\"output\": \"mean\", \"function\": \"mean\", \"column\": \"duration\"},"
      + "{\"output\": \"first\", \"function\": \"first\", \"column\": \"duration\"},"
      + "{\"output\": \"trips\", \"function\": \"count\", \"column\": null}]}]}";

  /** One trip: start station id, start time (epoch ms, null if unknown), duration in seconds. */
  public static class Trip {
    /** Start station id. */
    public Long station;
    /** Start time (epoch ms), null if unknown. */
    public Long start;
    /** Duration in seconds. */
    public double duration;

    /** An empty trip, for Flink's POJO serializer. */
    public Trip() {}

    /**
     * A trip.
     *
     * @param station the start station id
     * @param start the start time (epoch ms), or null
     * @param duration the duration in seconds
     */
    public Trip(Long station, Long start, double duration) {
      this.station = station;
      this.start = start;
      this.duration = duration;
    }
  }

  /** One output window of one station. */
  public static class StationWindow {
    /** Start station id. */
    public Long station;
    /** The window's name. */
    public String window;
    /** The window's start (epoch ms). */
    public long windowStart;
    /** The window's end (epoch ms). */
    public long windowEnd;
    /** The longest trip's duration in seconds. */
    public Double longest;
    /** The mean trip duration in seconds. */
    public Double mean;
    /** The first trip's duration in seconds, in event-time order. */
    public Double first;
    /** The number of trips. */
    public Long trips;

    @Override
    public String toString() {
      return "station " + station + " [" + windowStart + ", " + windowEnd + "): longest " + longest + " s, mean "
          + mean + " s, first " + first + " s, " + trips + " trips";
    }
  }

  /** The results: window POJOs, rejected records (reason, record), late records. */
  public record Results(List<StationWindow> windows, List<Row> rejected, List<Row> late) {}

  static final TypeInformation<Row> ROW = Types.ROW_NAMED(new String[] {"station", "start", "duration"},
      Types.LONG, Types.LONG, Types.DOUBLE);

  /**
   * Trips as the named rows swag reads.
   *
   * @param trips the trips
   * @return the trips as rows
   */
  public static SingleOutputStreamOperator<Row> toRows(DataStream<Trip> trips) {
    return trips.map(t -> Row.of(t.station, t.start, t.duration), ROW);
  }

  /**
   * Runs the job over {@code trips} (in arrival order) with watermarks {@code outOfOrder} behind the
   * latest start.
   *
   * @param env the execution environment
   * @param trips the trips
   * @param outOfOrder how far the watermark stays behind the latest start
   * @return the windows, rejected and late records
   * @throws Exception if the job fails
   */
  public static Results run(StreamExecutionEnvironment env, List<Trip> trips, Duration outOfOrder) throws Exception {
    DataStream<Row> rows = toRows(env.fromData(trips).setParallelism(1)).setParallelism(1)
        .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forGenerator(ctx -> new BehindLatest(outOfOrder.toMillis()))
            .withTimestampAssigner((r, previous) -> r.getField(1) == null ? Long.MIN_VALUE : (Long) r.getField(1)))
        .setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(rows, QUERY);
    DataStream<StationWindow> windows = SwagWindows.asPojos(out, StationWindow.class);
    DataStream<Row> rejected = out.getSideOutput(SwagWindows.rejectedTag(ROW));
    DataStream<Row> late = SwagWindows.lateRecords(out, rows);
    // one job, three results: tag them and collect the union
    DataStream<Object[]> all = windows.map(w -> new Object[] {"window", w}, Types.GENERIC(Object[].class))
        .union(rejected.map(r -> new Object[] {"rejected", r}, Types.GENERIC(Object[].class)),
            late.map(r -> new Object[] {"late", r}, Types.GENERIC(Object[].class)));
    List<StationWindow> w = new ArrayList<>();
    List<Row> rej = new ArrayList<>();
    List<Row> lt = new ArrayList<>();
    try (CloseableIterator<Object[]> it = all.executeAndCollect("swag flink java example")) {
      while (it.hasNext()) {
        Object[] x = it.next();
        switch ((String) x[0]) {
          case "window" -> w.add((StationWindow) x[1]);
          case "rejected" -> rej.add((Row) x[1]);
          default -> lt.add((Row) x[1]);
        }
      }
    }
    return new Results(w, rej, lt);
  }

  /**
   * Watermarks {@code delay} ms behind the latest start time, emitted with every record (Flink's
   * {@code forBoundedOutOfOrderness} emits them periodically; per record keeps the example's
   * late records deterministic).
   */
  static final class BehindLatest implements WatermarkGenerator<Row> {
    private final long delay;
    private long latest = Long.MIN_VALUE;

    BehindLatest(long delay) {
      this.delay = delay;
    }

    @Override
    public void onEvent(Row event, long timestamp, WatermarkOutput output) {
      if (timestamp != Long.MIN_VALUE && timestamp > latest) {
        latest = timestamp;
        output.emitWatermark(new Watermark(latest - delay - 1));
      }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
  }

  private static final DateTimeFormatter CITIBIKE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /**
   * The trips of a Citi Bike CSV (gzip): duration, start time (UTC) and start station of each line,
   * in file order; an empty or unparsable start time is kept as null (swag rejects it).
   *
   * @param csvGz the gzip CSV file
   * @return the trips
   * @throws IOException if the file cannot be read
   */
  public static List<Trip> readTrips(Path csvGz) throws IOException {
    List<Trip> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(csvGz)),
        StandardCharsets.UTF_8))) {
      r.readLine(); // header
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.split(",", 5); // duration, start, stop, station id, the rest
        Long start;
        try {
          start = LocalDateTime.parse(f[1].replace("\"", ""), CITIBIKE).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (RuntimeException e) {
          start = null;
        }
        out.add(new Trip(Long.parseLong(f[3].replace("\"", "")), start, Double.parseDouble(f[0].replace("\"", ""))));
      }
    }
    return out;
  }

  /**
   * Runs the job over a trip file and prints the first windows and the late and rejected trips.
   *
   * @param args the trip file ({@code tests/data/citibike-sample.csv.gz} by default)
   * @throws Exception if the job fails
   */
  public static void main(String[] args) throws Exception {
    Path csv = Path.of(args.length > 0 ? args[0] : "tests/data/citibike-sample.csv.gz");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    Results r = run(env, readTrips(csv), Duration.ofMinutes(10));
    r.windows().stream().limit(10).forEach(System.out::println);
    System.out.println(r.windows().size() + " windows, " + r.late().size() + " late trips, " + r.rejected().size()
        + " rejected trips");
    r.rejected().forEach(x -> System.out.println("rejected: " + x));
  }
}

package io.swag.flink.bench;

import io.swag.flink.table.SwagFunctions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

/**
 * Throughput (rows/s once the frames are full) of a Flink SQL OVER aggregate,
 * {@code MAX(v) OVER w} (built-in) against {@code swag_max(v) OVER w}, with
 * {@code w = (PARTITION BY k ORDER BY rt ROWS BETWEEN N PRECEDING AND CURRENT ROW)}, for frames
 * N = 100, 10,000 and 100,000 on the hashmap and RocksDB state backends.
 *
 * <p>Job: a generator source (parallelism 1, no rate limit) of rows (k, ts, v): 4 keys round-robin,
 * 100 rows per millisecond timestamp (25 per key), v pseudo-random in [0, 1000); monotonous
 * watermarks; the OVER aggregate; a sink that counts rows and notes the time at the row where every
 * key's frame is full (plus a warm-up margin) and at the end of input. rows/s = rows after that
 * point / the time between the two. Everything at parallelism 1, one job per (frame, backend,
 * engine), one warm-up job per engine first.
 *
 * <p>Arguments: {@code full} (the sizes above) or {@code smoke} (frames 100 and 1,000, tiny inputs:
 * checks that every job runs, its figures mean nothing); output CSV path (default
 * {@code target/bench-over.csv}). Command: docs/benchmarks-flink.md. Not a unit test: a main class in
 * the test sources so that it sees the test-scope Flink runtime and state backends.
 */
public final class OverBench {
  static final int KEYS = 4;
  static final int ROWS_PER_TS = 100;
  static final RowTypeInfo TYPE = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v"},
      Types.LONG, Types.LONG, Types.DOUBLE);

  private OverBench() {}

  /** First time (ms): Flink's OVER operators drop rows at time 0 as late. */
  static final long T0 = 1_700_000_000_000L;

  /** Row i: key i % 4, time T0 + i / 100 ms, value pseudo-random in [0, 1000). */
  static final class Gen implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row map(Long i) {
      long h = i * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
      return Row.of(i % KEYS, T0 + i / ROWS_PER_TS, (double) Math.floorMod(h >>> 7, 1000));
    }
  }

  /** Counts rows; notes the time of row {@link #warm} and of the end of input (one writer: parallelism 1). */
  static final class Meter implements Sink<Row> {
    private static final long serialVersionUID = 1L;
    static volatile long warm;
    static volatile long count;
    static volatile long t0;
    static volatile long t1;

    static void reset(long warmRows) {
      warm = warmRows;
      count = 0;
      t0 = 0;
      t1 = 0;
    }

    @Override
    public SinkWriter<Row> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        private long n;

        @Override
        public void write(Row element, Context ctx) {
          if (++n == warm) {
            t0 = System.nanoTime();
          }
        }

        @Override
        public void flush(boolean endOfInput) {
          if (endOfInput) {
            t1 = System.nanoTime();
            count = n;
          }
        }

        @Override
        public void close() {}
      };
    }
  }

  /** rows/s after the first {@code warm} output rows, of {@code warm + measure} rows. */
  static double run(String backend, boolean swag, long frame, long warm, long measure) throws Exception {
    Configuration c = new Configuration();
    c.setString("state.backend.type", backend);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
    env.setParallelism(1);
    env.getConfig().enableObjectReuse();
    long total = warm + measure;
    DataStream<Row> src = env.fromSource(new DataGeneratorSource<>(new Gen(), total, RateLimiterStrategy.noOp(), TYPE),
        WatermarkStrategy.<Row>forMonotonousTimestamps().withTimestampAssigner((r, p) -> (Long) r.getField(1)), "gen");
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    SwagFunctions.register(t);
    t.createTemporaryView("t", t.fromDataStream(src, Schema.newBuilder()
        .column("k", "BIGINT").column("ts", "BIGINT").column("v", "DOUBLE")
        .columnByMetadata("rt", DataTypes.TIMESTAMP_LTZ(3), "rowtime").watermark("rt", "SOURCE_WATERMARK()").build()));
    String agg = swag ? "swag_max(v)" : "MAX(v)";
    t.toDataStream(t.sqlQuery("SELECT k, " + agg + " OVER (PARTITION BY k ORDER BY rt ROWS BETWEEN " + frame
        + " PRECEDING AND CURRENT ROW) FROM t")).sinkTo(new Meter());
    Meter.reset(warm);
    env.execute("over " + backend + " " + (swag ? "swag" : "builtin") + " " + frame);
    if (Meter.count != total || Meter.t0 == 0 || Meter.t1 <= Meter.t0) {
      throw new IllegalStateException("the sink saw " + Meter.count + " of " + total + " rows");
    }
    return measure * 1e9 / (Meter.t1 - Meter.t0);
  }

  /**
   * Runs the benchmark and writes its CSV.
   *
   * @param args the mode ({@code full} or {@code smoke}) and the CSV path
   * @throws Exception if a job fails
   */
  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "full";
    if (!mode.equals("full") && !mode.equals("smoke")) {
      throw new IllegalArgumentException("mode: full or smoke, got " + mode);
    }
    boolean smoke = mode.equals("smoke");
    String outPath = args.length > 1 ? args[1] : "target/bench-over.csv";
    long[] frames = smoke ? new long[] {100, 1_000} : new long[] {100, 10_000, 100_000};
    PrintStream o = System.out;
    List<String> lines = new ArrayList<>();
    lines.add("benchmark,frame,backend,engine,rows_measured,rows_per_s");
    // warm-up (JIT, mini cluster start)
    run("hashmap", true, 100, 5_000, smoke ? 5_000 : 100_000);
    run("hashmap", false, 100, 5_000, smoke ? 5_000 : 100_000);
    for (String backend : new String[] {"hashmap", "rocksdb"}) {
      for (long frame : frames) {
        // every key's frame full, plus a margin for the JIT and the first flips of DABA Lite
        long warm = KEYS * (frame + 1) + (smoke ? 1_000 : 20_000);
        long measure = smoke ? 5_000 : backend.equals("hashmap") ? 1_000_000 : 200_000;
        for (boolean swag : new boolean[] {true, false}) {
          double rps = run(backend, swag, frame, warm, measure);
          String l = String.format(Locale.ROOT, "over_rows_max,%d,%s,%s,%d,%.0f", frame, backend,
              swag ? "swag" : "builtin", measure, rps);
          lines.add(l);
          o.println(l);
        }
      }
    }
    Files.write(Path.of(outPath), lines);
    o.println("wrote " + outPath);
  }
}

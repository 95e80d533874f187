package io.swag.cluster;

import io.swag.flink.SwagFlinkOptions;
import io.swag.flink.SwagWindows;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
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
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The Flink job of the cluster tests (tests/cluster): a seeded, replayable text source (row i is a
 * pure function of i, so a restore from a checkpoint or savepoint replays identical lines), parsed
 * into rows (k, ts, v, id, wm) with nulls for unparsable fields, punctuated watermarks from the
 * {@code wm} column, the swag operator (uid "swag"), and an at-least-once file sink (one file per
 * subtask attempt, flushed at every checkpoint) that writes the windows, the late records (LATE) and
 * the rejected records (REJ). File names start with their creation time (ms), so reading them in name
 * order reads every key's rows in emission order (a window's row is updated by records within the
 * lateness: the last row of a (key, window) is its final value).
 *
 * <p>Arguments ({@code --name value}): {@code out} (directory), {@code n} (records; 0 = unbounded),
 * {@code rate} (records/s), {@code bad} (every {@code bad}-th record is broken: null key, unparsable
 * time, NaN value, or far beyond the lateness; 0 = none), {@code local} (run in a local mini cluster
 * with this parallelism), {@code checkpoint-dir}, {@code interval} (checkpoint interval, ms),
 * {@code block} (records per generated element, default 1: see {@link Gen}),
 * {@code soak} (any value: window lines start with "@wall-ms", and out/marks.txt gets the wall time at
 * which every 1000th record was parsed, for the latency of the soak run).
 */
public final class ClusterJob {
  static final long BASE = 1_700_000_000_000L;
  static final int STEP = 2;        // ms of event time per record
  static final int DISORDER = 100;  // ms
  static final int DELAY = 200;     // watermark delay, ms
  static final int KEYS = 8;
  static final long SEED = 42;

  static final RowTypeInfo TYPE = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v", "id", "wm"},
      Types.STRING, Types.LONG, Types.DOUBLE, Types.LONG, Types.LONG);

  public static String query() {
    return "{\"version\":1,\"key\":[\"k\"],\"time\":\"ts\",\"lateness_ms\":150,\"windows\":[{\"name\":\"w\","
        + "\"kind\":\"time\",\"size\":800,\"slide\":100,\"aggregates\":["
        + "{\"output\":\"mx\",\"function\":\"max\",\"column\":\"v\"},{\"output\":\"n\",\"function\":\"count\"},"
        + "{\"output\":\"s\",\"function\":\"sum\",\"column\":\"v\"}]}]}";
  }

  /** Record {@code i} as a text line "id,k,ts,v,wm" (broken fields when {@code bad} says so). */
  public static String line(long i, int bad) {
    SplittableRandom r = new SplittableRandom(SEED * 1_000_003L + i);
    long base = BASE + i * STEP;
    long t = base - r.nextInt(DISORDER + 1);
    if (r.nextInt(100) < 3) {
      t = base - r.nextInt(15 * DELAY + 1); // stragglers: some within the lateness, some too late
    }
    long wm = BASE + (i / 4) * 4 * STEP - DELAY;
    String k = "k" + r.nextInt(KEYS);
    String ts = Long.toString(t);
    String v = Integer.toString(r.nextInt(64));
    if (bad > 0 && i % bad == bad - 1) {
      switch ((int) ((i / bad) % 4)) {
        case 0 -> k = "";                       // null key
        case 1 -> ts = "12:xx";                 // unparsable time
        case 2 -> v = "NaN";                    // NaN value
        default -> ts = Long.toString(t - 3_600_000L); // an hour beyond the lateness
      }
    }
    return i + "," + k + "," + ts + "," + v + "," + wm;
  }

  /** A line as a row; unparsable or empty fields become nulls (the swag operator rejects them). */
  public static Row parse(String line) {
    String[] f = line.split(",", -1);
    return Row.of(f[1].isEmpty() ? null : f[1], parseLong(f[2]), parseDouble(f[3]), Long.parseLong(f[0]),
        Long.parseLong(f[4]));
  }

  static Long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Double parseDouble(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Element {@code j}: the lines of records {@code j * block .. j * block + block - 1} (below
   * {@code n}), joined by newlines. Blocks of lines let the rate-limited source reach high rates:
   * its limiter then acquires once per block, not once per record.
   */
  static final class Gen implements GeneratorFunction<Long, String> {
    private static final long serialVersionUID = 1L;
    private final int bad;
    private final int block;
    private final long n;

    Gen(int bad, int block, long n) {
      this.bad = bad;
      this.block = block;
      this.n = n;
    }

    @Override
    public String map(Long j) {
      if (block == 1) {
        return line(j, bad);
      }
      StringBuilder b = new StringBuilder(40 * block);
      long end = Math.min((j + 1) * block, n);
      for (long i = j * block; i < end; i++) {
        if (b.length() > 0) {
          b.append('\n');
        }
        b.append(line(i, bad));
      }
      return b.toString();
    }
  }

  /** The rows of a block of lines (see {@link Gen}). */
  static final class Parse implements FlatMapFunction<String, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(String lines, Collector<Row> out) {
      int from = 0;
      while (true) {
        int nl = lines.indexOf('\n', from);
        out.collect(parse(nl < 0 ? lines.substring(from) : lines.substring(from, nl)));
        if (nl < 0) {
          return;
        }
        from = nl + 1;
      }
    }
  }

  /**
   * Parses, and appends "id wall-ms" of every 1000th record to {@code <out>/marks.txt} (the time a
   * record entered the pipeline, for the soak's record-to-window latency).
   */
  static final class StartMark implements FlatMapFunction<String, Row> {
    private static final long serialVersionUID = 1L;
    private final String out;

    StartMark(String out) {
      this.out = out;
    }

    @Override
    public void flatMap(String lines, Collector<Row> collector) throws IOException {
      new Parse().flatMap(lines, new Collector<>() {
        @Override
        public void collect(Row r) {
          long id = (Long) r.getField(3);
          if (id % 1000 == 0) {
            try {
              Files.createDirectories(Paths.get(out));
              Files.writeString(Paths.get(out, "marks.txt"), id + " " + System.currentTimeMillis() + "\n",
                  StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
          collector.collect(r);
        }

        @Override
        public void close() {}
      });
    }
  }

  /** Watermarks from the {@code wm} column (so records and watermarks interleave the same on every run). */
  static final class Punctuated implements WatermarkGenerator<Row> {
    private long last = Long.MIN_VALUE;

    @Override
    public void onEvent(Row event, long timestamp, WatermarkOutput output) {
      long w = (Long) event.getField(4);
      if (w > last) {
        last = w;
        output.emitWatermark(new Watermark(w));
      }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
  }

  /** An output line: fields tab-separated, doubles to 10 significant digits. */
  static String format(String prefix, Row r) {
    StringBuilder b = new StringBuilder(prefix);
    for (int i = 0; i < r.getArity(); i++) {
      Object v = r.getField(i);
      b.append(i == 0 && prefix.isEmpty() ? "" : "\t")
          .append(v instanceof Double d ? String.format(Locale.ROOT, "%.10g", d) : String.valueOf(v));
    }
    return b.toString();
  }

  /**
   * At-least-once file sink: each subtask attempt appends to its own file, flushed at every
   * checkpoint and at the end, so everything before the last completed checkpoint is on disk and a
   * restore may only repeat (identical) lines written after it.
   */
  static final class FileLines implements Sink<String> {
    private static final long serialVersionUID = 1L;
    private final String dir;
    private final boolean wall;

    FileLines(String dir, boolean wall) {
      this.dir = dir;
      this.wall = wall;
    }

    @Override
    public SinkWriter<String> createWriter(WriterInitContext context) throws IOException {
      int sub = context.getTaskInfo().getIndexOfThisSubtask();
      int attempt = context.getTaskInfo().getAttemptNumber();
      Path p = Paths.get(dir, String.format(Locale.ROOT, "part-%015d-%d-%d-%s.txt", System.currentTimeMillis(), sub,
          attempt, UUID.randomUUID()));
      Files.createDirectories(p.getParent());
      BufferedWriter w = Files.newBufferedWriter(p, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
      return new SinkWriter<>() {
        @Override
        public void write(String element, Context ctx) throws IOException {
          if (wall) {
            w.write("@" + System.currentTimeMillis() + "\t");
          }
          w.write(element);
          w.write('\n');
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
          w.flush();
        }

        @Override
        public void close() throws IOException {
          w.close();
        }
      };
    }
  }

  static Map<String, String> args(String[] a) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < a.length; i += 2) {
      m.put(a[i].replaceFirst("^--", ""), a[i + 1]);
    }
    return m;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> a = args(argv);
    String out = a.get("out");
    long n = Long.parseLong(a.getOrDefault("n", "20000"));
    int rate = Integer.parseInt(a.getOrDefault("rate", "5000"));
    int bad = Integer.parseInt(a.getOrDefault("bad", "0"));
    int block = Integer.parseInt(a.getOrDefault("block", "1"));
    if (block < 1) {
      throw new IllegalArgumentException("--block: " + block + " is not a positive number of records");
    }
    int local = Integer.parseInt(a.getOrDefault("local", "0"));
    boolean soak = a.containsKey("soak");
    StreamExecutionEnvironment env;
    if (local > 0) {
      Configuration conf = new Configuration();
      if (a.containsKey("checkpoint-dir")) {
        conf.setString("execution.checkpointing.dir", a.get("checkpoint-dir"));
      }
      conf.setString("execution.checkpointing.interval", a.getOrDefault("interval", "500") + "ms");
      env = StreamExecutionEnvironment.createLocalEnvironment(local, conf);
    } else {
      env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.enableCheckpointing(Long.parseLong(a.getOrDefault("interval", "500")));
    }
    long elements = n <= 0 ? Long.MAX_VALUE : (n + block - 1) / block;
    DataGeneratorSource<String> src = new DataGeneratorSource<>(new Gen(bad, block, n <= 0 ? Long.MAX_VALUE : n),
        elements, RateLimiterStrategy.perSecond((double) rate / block), Types.STRING);
    DataStream<Row> in = env.fromSource(src, WatermarkStrategy.noWatermarks(), "lines").uid("lines").setParallelism(1)
        .flatMap(soak ? new StartMark(out) : new Parse()).returns(TYPE).uid("parse").setParallelism(1)
        .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forGenerator(ctx -> new Punctuated())
            .withTimestampAssigner((row, prev) -> row.getField(1) == null ? Long.MIN_VALUE : (Long) row.getField(1)))
        .uid("watermarks").setParallelism(1);
    SingleOutputStreamOperator<Row> res = SwagWindows.aggregate(in, query(), SwagFlinkOptions.defaults().withUid("swag"));
    DataStream<String> lines = res.map(r -> format("", r)).returns(Types.STRING).uid("fmt")
        .union(res.getSideOutput(SwagWindows.lateTag(TYPE)).map(r -> format("LATE", r)).returns(Types.STRING).uid("fmt-late"),
            res.getSideOutput(SwagWindows.rejectedTag(TYPE)).map(r -> "REJ\t" + r.getField(0) + "\t"
                + ((Row) r.getField(1)).getField(3)).returns(Types.STRING).uid("fmt-rej"));
    lines.sinkTo(new FileLines(out, soak)).uid("sink");
    env.execute("swag-cluster-job");
  }
}

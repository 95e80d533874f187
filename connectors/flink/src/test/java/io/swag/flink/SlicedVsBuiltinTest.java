package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sliced query (600/100, {@code max} and {@code sum}: every function mergeable, so the operator
 * keeps slices, not records) against a naive oracle and Flink's built-in sliding windows with the
 * same allowed lateness, on seeded streams whose stragglers fall before the first window that fires,
 * within the lateness and beyond it. The oracle replays the input in arrival order with the
 * punctuated watermarks and recomputes each window from the records the lateness contract
 * (docs/query-spec.md) accepts: one row when the watermark reaches {@code end - 1}, one updated row
 * at once for each record accepted after that (a window first created by such a record included).
 * Compared per key and window, every row in emission order, and the late records. With a key cache
 * smaller than the 5 keys, in-time records of keys not on the heap take the cold path
 * ({@code ColdSlices}).
 */
class SlicedVsBuiltinTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final long SIZE = 600, SLIDE = 100;

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}, cache {3} keys")
  @CsvSource({"1, 0, 0, 1000", "2, 150, 0, 1000", "3, 150, 200, 1000", "4, 0, 600, 1000", "5, 150, 1000, 1000",
      "6, 150, 0, 2", "7, 150, 200, 2", "8, 0, 1000, 1"})
  void slicedEqualsOracleAndBuiltin(long seed, int disorder, long lateness, int cacheKeys) throws Exception {
    List<Row> input = TestStreams.generate(seed, 5000, 5, 6, disorder, 200);
    QuerySpec spec = QuerySpec.builder().key("k").time("ts").latenessMs(lateness)
        .window(WindowSpec.time(SIZE, SLIDE).name("w")
            .aggregate("mx", "max", "v").aggregate("s", "sum", "v"))
        .build();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().enableObjectReuse(); // the operator may refill one row: the sink keeps copies
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String run = "sliced-" + seed + "-" + disorder + "-" + lateness + "-" + cacheKeys;
    SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(in, spec, SwagFlinkOptions.defaults().withCacheMaxKeys(cacheKeys));
    swag.map(Row::copy, swag.getType()).sinkTo(new StaticSink<>(run + "-swag"));
    swag.getSideOutput(SwagWindows.lateTag(TestStreams.type())).sinkTo(new StaticSink<>(run + "-swag-late"));
    OutputTag<Row> late = new OutputTag<>("late", TestStreams.type());
    SingleOutputStreamOperator<Row> b = in.keyBy(r -> (String) r.getField(0), Types.STRING)
        .window(SlidingEventTimeWindows.of(Duration.ofMillis(SIZE), Duration.ofMillis(SLIDE)))
        .allowedLateness(Duration.ofMillis(lateness))
        .sideOutputLateData(late)
        .aggregate(new MaxSum(), new EmitMaxSum());
    b.sinkTo(new StaticSink<>(run + "-builtin"));
    b.getSideOutput(late).sinkTo(new StaticSink<>(run + "-builtin-late"));
    env.execute("sliced swag vs built-in " + run);

    List<Row> swagRows = new ArrayList<>();
    for (Row r : StaticSink.<Row>get(run + "-swag")) {
      swagRows.add(Row.of(r.getField(0), r.getField(2), r.getField(3), r.getField(4), r.getField(5)));
    }
    Oracle oracle = new Oracle(input, lateness);
    Map<String, List<Row>> expected = byKeyAndWindow(oracle.rows);
    Map<String, List<Row>> builtin = byKeyAndWindow(StaticSink.get(run + "-builtin"));
    Map<String, List<Row>> actual = byKeyAndWindow(swagRows);
    assertEquals(expected, builtin, "built-in vs oracle");
    assertEquals(diff(expected, actual), List.of(), "swag vs oracle (" + expected.size() + " windows)");
    assertEquals(oracle.late, ids(StaticSink.get(run + "-swag-late")), "swag late records");
    assertTrue(expected.size() > 200, "few windows: " + expected.size());
  }

  /** The windows whose rows differ, as "key@start-end: expected vs actual". */
  private static List<String> diff(Map<String, List<Row>> expected, Map<String, List<Row>> actual) {
    List<String> out = new ArrayList<>();
    Set<String> all = new java.util.TreeSet<>(expected.keySet());
    all.addAll(actual.keySet());
    for (String k : all) {
      List<Row> e = expected.get(k), a = actual.get(k);
      if (e == null || !e.equals(a)) {
        out.add(k + ": " + e + " vs " + a);
      }
    }
    return out;
  }

  /**
   * The contract replayed naively: records in arrival order, the watermark seen by record {@code i}
   * is the largest {@code wm} of the records before it; a record counts in window {@code [s, s +
   * SIZE)} iff {@code s + SIZE - 1 + lateness > watermark}; a window fires (one row from all its
   * counted records) when the watermark reaches {@code end - 1}, or at the end of the input; a record
   * counted in a window whose end - 1 the watermark already reached emits an updated row at once.
   */
  static final class Oracle {
    final List<Row> rows = new ArrayList<>();
    final Set<Long> late = new HashSet<>();
    /** per key, per window start: the counted (v) values. */
    private final Map<String, TreeMap<Long, List<Double>>> windows = new HashMap<>();

    Oracle(List<Row> input, long lateness) {
      long wm = Long.MIN_VALUE;
      for (Row r : input) {
        String k = (String) r.getField(0);
        long t = (Long) r.getField(1);
        double v = (Double) r.getField(2);
        boolean used = false;
        for (long s = Math.floorDiv(t, SLIDE) * SLIDE; s > t - SIZE; s -= SLIDE) {
          long last = s + SIZE - 1;
          if (last + lateness <= wm) {
            continue;
          }
          used = true;
          List<Double> vs = windows.computeIfAbsent(k, x -> new TreeMap<>()).computeIfAbsent(s, x -> new ArrayList<>());
          vs.add(v);
          if (last <= wm) {
            rows.add(row(k, s, vs));
          }
        }
        if (!used) {
          late.add((Long) r.getField(3));
        }
        long next = (Long) r.getField(4);
        if (next > wm) {
          fire(wm, next);
          wm = next;
        }
      }
      fire(wm, Long.MAX_VALUE);
    }

    private void fire(long from, long to) {
      for (Map.Entry<String, TreeMap<Long, List<Double>>> e : windows.entrySet()) {
        for (Map.Entry<Long, List<Double>> w : e.getValue().entrySet()) {
          long last = w.getKey() + SIZE - 1;
          if (last > from && last <= to) {
            rows.add(row(e.getKey(), w.getKey(), w.getValue()));
          }
        }
      }
    }

    private static Row row(String k, long s, List<Double> vs) {
      double max = Double.NEGATIVE_INFINITY, sum = 0;
      for (double v : vs) {
        max = Math.max(max, v);
        sum += v;
      }
      return Row.of(k, s, s + SIZE, max, sum);
    }
  }

  static final class MaxSum implements AggregateFunction<Row, double[], double[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public double[] createAccumulator() {
      return new double[] {Double.NEGATIVE_INFINITY, 0};
    }

    @Override
    public double[] add(Row r, double[] a) {
      double v = (Double) r.getField(2);
      return new double[] {Math.max(a[0], v), a[1] + v};
    }

    @Override
    public double[] getResult(double[] a) {
      return a;
    }

    @Override
    public double[] merge(double[] a, double[] b) {
      return new double[] {Math.max(a[0], b[0]), a[1] + b[1]};
    }
  }

  static final class EmitMaxSum extends ProcessWindowFunction<double[], Row, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(String key, Context ctx, Iterable<double[]> in, Collector<Row> out) {
      double[] a = in.iterator().next();
      out.collect(Row.of(key, ctx.window().getStart(), ctx.window().getEnd(), a[0], a[1]));
    }
  }

  private static Set<Long> ids(List<Row> rows) {
    Set<Long> s = new HashSet<>();
    for (Row r : rows) {
      s.add((Long) r.getField(3));
    }
    return s;
  }

  private static Map<String, List<Row>> byKeyAndWindow(List<Row> rows) {
    Map<String, List<Row>> m = new TreeMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.getField(0) + "@" + r.getField(1) + "-" + r.getField(2), x -> new ArrayList<>()).add(r);
    }
    return m;
  }
}

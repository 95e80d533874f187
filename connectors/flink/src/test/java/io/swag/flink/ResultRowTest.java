package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The window's refilled result row ({@code Layout.fillBounds}, {@code fillTimeOne}) carries each
 * result's key, window name, start, end and value, against a recompute of every window from the
 * input: a query of one function ({@code last} or {@code max} alone: one result object per answer,
 * reused while the answer's bits repeat) in tumbling windows (each start is the previous window's
 * end) and sliding ones, on slices of 1 ms (the in-order FIFO) and wider, four keys interleaved, values in runs with -0.0 and 0.0 (distinct results
 * of {@code last} with equal {@code ==}), in order. Object reuse is on and the chained map after
 * the operator overwrites every column of its input row after copying it (a {@code MapFunction} may
 * modify its input under object reuse): the next result must not depend on what the row held.
 */
class ResultRowTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  private static final double[] VALUES = {-0.0, 0.0, 1.0, 2.0, -3.5};

  @Test
  void resultRowsEqualRecompute() throws Exception {
    List<Row> input = generate(21, 4000);
    long[][] windows = {{1, 1}, {4, 1}, {5, 5}, {6, 2}}; // {size, slide}: of 1 ms slices (the FIFO), then wider slices (the tree)
    String[] fns = {"last", "max"};
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.getConfig().enableObjectReuse();
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).assignTimestampsAndWatermarks(TestStreams.watermarks());
    List<String> names = new ArrayList<>();
    for (long[] w : windows) {
      for (String fn : fns) {
        String name = "rows-" + fn + "-" + w[0] + "-" + w[1];
        names.add(name);
        QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
            .window(WindowSpec.time(w[0], w[1]).name("w" + w[0]).aggregate("r", fn, "v")).build();
        SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(in, q);
        swag.map(new CopyThenOverwrite(), swag.getType()).sinkTo(new StaticSink<>(name));
      }
    }
    env.execute("swag result rows");
    int i = 0;
    for (long[] w : windows) {
      for (String fn : fns) {
        List<String> want = recompute(input, fn, "w" + w[0], w[0], w[1]);
        List<String> got = new ArrayList<>();
        for (Row r : StaticSink.<Row>get(names.get(i++))) {
          assertTrue(r.getField(2) instanceof Long && r.getField(3) instanceof Long, "bounds are Longs: " + r);
          got.add(describe(r.getField(0), r.getField(1), (Long) r.getField(2), (Long) r.getField(3), (Double) r.getField(4)));
        }
        Collections.sort(got);
        assertEquals(want, got, fn + " in windows " + w[0] + "/" + w[1]);
        assertTrue(want.size() > 500, "few windows: " + want.size());
      }
    }
  }

  /** Copies its input, then overwrites every column of the input row (allowed under object reuse). */
  static final class CopyThenOverwrite implements MapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row map(Row r) {
      Row copy = Row.copy(r);
      long end = (Long) r.getField(3);
      r.setField(0, "other");
      r.setField(1, "other");
      r.setField(2, end + 1);
      r.setField(3, end + 5); // a Long that a later window may start at: its value, not its place, matters
      r.setField(4, 42.0);
      return copy;
    }
  }

  /** In-order rows (k STRING, ts, v, id, wm) over four keys, values in runs, a watermark 1 ms behind the last time. */
  private static List<Row> generate(long seed, int n) {
    Random rnd = new Random(seed);
    List<Row> rows = new ArrayList<>();
    long t = 1_000;
    double v = 0;
    for (int i = 0; i < n; i++) {
      t += 1 + rnd.nextInt(2); // distinct times: a key keeps its in-order FIFO in windows of 1 ms slices
      if (rnd.nextInt(3) == 0) {
        v = VALUES[rnd.nextInt(VALUES.length)];
      }
      rows.add(Row.of("k" + rnd.nextInt(4), t, v, (long) i, t - 1));
    }
    return rows;
  }

  /** Every non-empty window of every key: its last value in arrival order, or its max (one zero, 0.0). */
  private static List<String> recompute(List<Row> input, String fn, String name, long size, long slide) {
    List<String> out = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      String key = "k" + k;
      List<Row> rows = new ArrayList<>();
      for (Row r : input) {
        if (r.getField(0).equals(key)) {
          rows.add(r);
        }
      }
      long lastT = (Long) rows.get(rows.size() - 1).getField(1);
      long firstStart = Math.floorDiv((Long) rows.get(0).getField(1) - size + 1, slide) * slide;
      for (long st = firstStart; st <= lastT; st += slide) {
        Double res = null;
        for (Row r : rows) {
          long t = (Long) r.getField(1);
          if (t < st || t >= st + size) {
            continue;
          }
          double x = (Double) r.getField(2);
          res = fn.equals("last") ? x : res == null || x > res ? x + 0.0 : res;
        }
        if (res != null) {
          out.add(describe(key, name, st, st + size, res));
        }
      }
    }
    Collections.sort(out);
    return out;
  }

  private static String describe(Object key, Object name, long start, long end, Double value) {
    return key + "|" + name + "|" + start + "|" + end + "|" + (value == null ? "null" : Long.toHexString(Double.doubleToRawLongBits(value)));
  }
}

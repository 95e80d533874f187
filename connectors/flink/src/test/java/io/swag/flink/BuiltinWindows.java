package io.swag.flink;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The baseline for the differential tests: Flink's built-in window aggregation of max(v), sum(v),
 * count(*), stddev(v) (sample) and collect(id) in event-time order (ties in arrival order), as
 * swag's {@code collect} orders them.
 */
final class BuiltinWindows {
  private BuiltinWindows() {}

  static final class Acc implements Serializable {
    private static final long serialVersionUID = 1L;
    double max = Double.NEGATIVE_INFINITY;
    double sum;
    long count;
    /** (time, id) of each row, in arrival order. */
    List<long[]> ids = new ArrayList<>();
    List<Double> values = new ArrayList<>();
  }

  static final class Agg implements AggregateFunction<Row, Acc, Acc> {
    private static final long serialVersionUID = 1L;

    @Override
    public Acc createAccumulator() {
      return new Acc();
    }

    @Override
    public Acc add(Row r, Acc a) {
      double v = (Double) r.getField(2);
      a.max = Math.max(a.max, v);
      a.sum += v;
      a.count++;
      a.values.add(v);
      a.ids.add(new long[] {(Long) r.getField(1), (Long) r.getField(3)});
      return a;
    }

    @Override
    public Acc getResult(Acc a) {
      return a;
    }

    @Override
    public Acc merge(Acc a, Acc b) {
      throw new UnsupportedOperationException();
    }
  }

  /** Rows (k, window_start, window_end, max, sum, count, stddev, ids) like swag's output. */
  static final class Emit extends ProcessWindowFunction<Acc, Row, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(String key, Context ctx, Iterable<Acc> in, Collector<Row> out) {
      Acc a = in.iterator().next();
      List<long[]> ids = new ArrayList<>(a.ids);
      ids.sort(Comparator.comparingLong((long[] x) -> x[0])); // stable: ties keep arrival order
      List<Long> idList = new ArrayList<>();
      for (long[] x : ids) {
        idList.add(x[1]);
      }
      double mean = a.sum / a.count;
      double m2 = 0;
      for (double v : a.values) {
        m2 += (v - mean) * (v - mean);
      }
      Double sd = a.count < 2 ? null : Math.sqrt(m2 / (a.count - 1));
      out.collect(Row.of(key, ctx.window().getStart(), ctx.window().getEnd(), a.max, a.sum, a.count, sd,
          idList.toString()));
    }
  }
}

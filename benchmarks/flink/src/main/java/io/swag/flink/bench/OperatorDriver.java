package io.swag.flink.bench;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.SwagWindows;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;

/**
 * The swag operator alone in one thread: {@link FlinkBench}'s input (16 keys, one record per key and
 * slide of 16 ms, {@code max(v)} in order, window = window/slide x 16 ms) fed to the operator in
 * Flink's {@code KeyedOneInputStreamOperatorTestHarness}, its output replaced by a sink that counts
 * and drops, a watermark every 400,000 records (about the benchmark job's 200 ms) or every given number. Prints per round
 * of 2,000,000 records the thread's CPU ns per record, of which in the watermarks (firing), and
 * allocated bytes per record (the driver's own input {@code Row}, boxes and {@code StreamRecord}
 * included). Arguments: window/slide, rounds, optionally the records between two watermarks. No network,
 * source thread or sink: the operator's own cost, with less spread than a job on a shared machine.
 */
public final class OperatorDriver {
  private OperatorDriver() {}

  /** The operator's output: counts and drops. */
  static final class CountingSink implements org.apache.flink.streaming.api.operators.Output<StreamRecord<Row>> {
    long records;

    @Override
    public void emitWatermark(org.apache.flink.streaming.api.watermark.Watermark w) {}

    @Override
    public void emitWatermarkStatus(org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus s) {}

    @Override
    public <X> void collect(org.apache.flink.util.OutputTag<X> tag, StreamRecord<X> r) {
      records++;
    }

    @Override
    public void emitLatencyMarker(org.apache.flink.streaming.runtime.streamrecord.LatencyMarker m) {}

    @Override
    public void emitRecordAttributes(org.apache.flink.streaming.runtime.streamrecord.RecordAttributes a) {}

    @Override
    public void emitWatermark(org.apache.flink.runtime.event.WatermarkEvent e) {}

    @Override
    public void collect(StreamRecord<Row> r) {
      records++;
    }

    @Override
    public void close() {}
  }

  /**
   * Runs the driver.
   *
   * @param a window/slide, rounds, optionally the records between two watermarks (default 400,000)
   * @throws Exception if the operator fails
   */
  @SuppressWarnings("unchecked")
  public static void main(String[] a) throws Exception {
    long ratio = Long.parseLong(a[0]);
    int rounds = Integer.parseInt(a[1]);
    long n = 2_000_000;
    long every = a.length > 2 ? Long.parseLong(a[2]) : 400_000;
    RowTypeInfo type = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v"}, Types.LONG, Types.LONG, Types.DOUBLE);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataStream<Row> src = env.fromData(List.of(Row.of(0L, 0L, 0.0)), type)
        .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forMonotonousTimestamps().withTimestampAssigner((r, p) -> (Long) r.getField(1)));
    QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
        .window(WindowSpec.time(ratio * 16, 16).aggregate("mx", "max", "v")).build();
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(src, q);
    OneInputTransformation<Row, Row> tr = (OneInputTransformation<Row, Row>) out.getTransformation();
    org.apache.flink.streaming.api.operators.OneInputStreamOperator<Row, Row> op = (org.apache.flink.streaming.api.operators.OneInputStreamOperator<Row, Row>) ((SimpleOperatorFactory<?>) tr.getOperatorFactory()).getOperator();
    KeyedOneInputStreamOperatorTestHarness<Object, Row, Row> h = new KeyedOneInputStreamOperatorTestHarness<>(op,
        (KeySelector<Row, Object>) tr.getStateKeySelector(), (TypeInformation<Object>) tr.getStateKeyType());
    h.getExecutionConfig().enableObjectReuse();
    h.setup(out.getType().createSerializer(new SerializerConfigImpl()));
    h.open();
    java.lang.reflect.Field f = org.apache.flink.streaming.api.operators.AbstractStreamOperator.class.getDeclaredField("output");
    f.setAccessible(true);
    f.set(op, new CountingSink()); // a sink that keeps nothing: the operator's own work only
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long i = 0;
    StringBuilder sb = new StringBuilder();
    for (int round = 0; round < rounds; round++) {
      long a0 = ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(Thread.currentThread().getId());
      long c0 = mx.getCurrentThreadCpuTime();
      long fire = 0;
      for (long j = 0; j < n; j++, i++) {
        long x = i * 0x9E3779B97F4A7C15L;
        x ^= x >>> 29;
        Row r = Row.of(i % 16, i, (double) Math.floorMod(x >>> 7, 1000));
        h.processElement(new StreamRecord<>(r, i));
        if (i % every == every - 1) {
          long f0 = mx.getCurrentThreadCpuTime();
          h.processWatermark(i - 1);
          fire += mx.getCurrentThreadCpuTime() - f0;
          h.getOutput().clear();
        }
      }
      long c1 = mx.getCurrentThreadCpuTime();
      long a1 = ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(Thread.currentThread().getId());
      sb.append(String.format(java.util.Locale.ROOT, " %.0f ns (%.0f firing)/%.1f B", (c1 - c0) / (double) n,
          fire / (double) n, (a1 - a0) / (double) n));
    }
    System.out.println("ratio " + ratio + ":" + sb);
    h.close();
  }
}

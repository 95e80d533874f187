package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.OnError;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Paced firing ({@link SwagFlinkOptions.Firing#PACED}, the default) gives the rows, late records and
 * rejected records of firing at the watermark, per key and window in emission order: one scalar
 * function (records by time and value alone), a generic product, two window groups, in order and out
 * of order, with and without allowed lateness, with a two-key cache (due keys leave it while their
 * windows wait), as rows or as packed records, with a watermark every 1,500 records (so that steps
 * run between watermarks). Downstream, without lateness, no row arrives behind the watermark: the
 * watermark waits for the paced rows. In the operator alone: rows due at a watermark come out with the
 * records that follow it, the watermark after the last of them; without more records, at the
 * processing-time deadline; a checkpoint barrier or an idle input fires them all first.
 */
@SuppressWarnings("try") // the harness's close() is declared to throw InterruptedException
class PacedFiringTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static QuerySpec query(String shape, long lateness) {
    QuerySpec.Builder b = QuerySpec.builder().key("k").time("ts").latenessMs(lateness);
    return switch (shape) {
      case "scalar", "packed" -> b.window(WindowSpec.time(600, 100).name("w").aggregate("x", "max", "v")).build();
      case "product" -> b.window(WindowSpec.time(600, 100).name("w").aggregate("f", "first", "v")
          .aggregate("n", "count", null)).build();
      default -> b.window(WindowSpec.time(600, 100).name("w").aggregate("l", "last", "v"))
          .window(WindowSpec.time(250, 50).name("u").aggregate("s", "sum", "v")).build();
    };
  }

  @ParameterizedTest(name = "seed {0}, {1}, disorder {2}, lateness {3}, cache {4}")
  @CsvSource({"31, scalar, 0, 0, 100000", "32, scalar, 150, 400, 2", "33, product, 150, 0, 100000",
      "34, product, 150, 400, 2", "35, groups, 0, 0, 2", "36, groups, 150, 400, 100000",
      "37, packed, 0, 0, 100000", "38, packed, 150, 400, 2"})
  void pacedRowsEqualRowsAtTheWatermark(long seed, String shape, int disorder, long lateness, int cacheKeys)
      throws Exception {
    List<Row> generated = TestStreams.generate(seed, 12_000, 5, 6, disorder, 200);
    List<Row> in = new ArrayList<>(); // a watermark every 1,500 rows: about 750 records per subtask between two
    for (int i = 0; i < generated.size(); i++) {
      Row r = generated.get(i);
      in.add(Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3), generated.get(i - i % 1500).getField(4)));
    }
    QuerySpec q = query(shape, lateness);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().enableObjectReuse();
    DataStream<Row> marked = env.fromData(in, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    org.apache.flink.api.java.typeutils.RowTypeInfo type = shape.equals("packed") ? PackedRecordTest.PACKABLE : TestStreams.TYPE;
    DataStream<Row> source = !shape.equals("packed") ? marked
        : marked.map(r -> Row.of(Long.parseLong(((String) r.getField(0)).substring(1)), r.getField(1), r.getField(2)), type)
            .setParallelism(1);
    String run = "paced-" + seed + "-" + shape + "-" + disorder + "-" + lateness + "-" + cacheKeys;
    for (String firing : new String[] {"paced", "watermark"}) {
      SwagFlinkOptions options = SwagFlinkOptions.defaults().withCacheMaxKeys(cacheKeys).withFiring(firing);
      SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(source, q, options);
      swag.map(Row::copy, swag.getType()).sinkTo(new StaticSink<>(run + firing));
      swag.process(new BehindWatermark(), Types.STRING).sinkTo(new StaticSink<>(run + firing + "-behind"));
      assertEquals(shape.equals("packed"), swag.getTransformation().getInputs().get(0).getOutputType()
          instanceof PackedRecordType, "packed records");
      swag.getSideOutput(SwagWindows.lateTag(type)).map(Row::toString, Types.STRING)
          .sinkTo(new StaticSink<>(run + firing + "-late"));
      swag.getSideOutput(SwagWindows.rejectedTag(type)).map(Row::toString, Types.STRING)
          .sinkTo(new StaticSink<>(run + firing + "-rejected"));
    }
    env.execute("swag paced firing " + run);

    Map<String, List<String>> paced = byWindow(StaticSink.get(run + "paced"));
    assertEquals(byWindow(StaticSink.get(run + "watermark")), paced, "per key and window, the rows in emission order");
    assertTrue(paced.size() > 200, "few windows: " + paced.size());
    assertEquals(sorted(StaticSink.get(run + "watermark-late")), sorted(StaticSink.get(run + "paced-late")), "late");
    assertEquals(sorted(StaticSink.get(run + "watermark-rejected")), sorted(StaticSink.get(run + "paced-rejected")),
        "rejected");
    assertFalse(StaticSink.<String>get(run + "paced-late").isEmpty(), "the input should have late records");
    for (String firing : new String[] {"paced", "watermark"}) {
      List<String> behind = StaticSink.get(run + firing + "-behind");
      if (lateness == 0) { // (with lateness a late record can also open a window, behind the watermark)
        assertEquals(List.of(), behind, firing + ": rows behind the watermark downstream");
      }
    }
  }

  /**
   * Each result row whose timestamp (its window's end - 1) is at or behind the watermark it arrives
   * under ("update": not the window's first row).
   */
  static final class BehindWatermark extends ProcessFunction<Row, String> {
    private static final long serialVersionUID = 1L;
    private final java.util.Set<String> seen = new java.util.HashSet<>();

    @Override
    public void processElement(Row r, Context ctx, Collector<String> out) {
      String w = r.getField(0) + "@" + r.getField(1) + "@" + r.getField(2);
      boolean update = !seen.add(w);
      if (ctx.timestamp() <= ctx.timerService().currentWatermark()) {
        out.collect((update ? "update " : "") + w + " at " + ctx.timerService().currentWatermark());
      }
    }
  }

  private static List<String> sorted(List<?> l) {
    List<String> s = new ArrayList<>();
    for (Object o : l) {
      s.add(String.valueOf(o));
    }
    s.sort(null);
    return s;
  }

  /** Per key and window, its rows (all columns) in emission order. */
  private static Map<String, List<String>> byWindow(List<Row> rows) {
    Map<String, List<String>> m = new TreeMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.getField(0) + "@" + r.getField(1) + "@" + r.getField(2), x -> new ArrayList<>())
          .add(r.toString());
    }
    return m;
  }

  static KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> harness(boolean paced) throws Exception {
    QuerySpec q = query("scalar", 0);
    String[] names = TestStreams.TYPE.getFieldNames();
    SwagWindowOperator op = new SwagWindowOperator(Planner.plan(q).toJson(), names,
        SwagWindows.lateTag(TestStreams.type()), SwagWindows.rejectedTag(TestStreams.type()), 100, OnError.REJECT,
        true, paced);
    SwagWindows.ValueKey keys = new SwagWindows.ValueKey(0, names, "");
    KeySelector<Object, Object> rowKeys = r -> keys.getKey((Row) r);
    @SuppressWarnings("unchecked")
    TypeInformation<Object> keyType = (TypeInformation<Object>) (TypeInformation<?>) Types.STRING;
    var h = new KeyedOneInputStreamOperatorTestHarness<>(op, rowKeys, keyType);
    h.setup(SwagWindows.outputType(q, TestStreams.TYPE).createSerializer(new SerializerConfigImpl()));
    h.open();
    return h;
  }

  /** Rows of keys a and b, one every ms of [from, to). */
  private static void feed(KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> h, long from, long to)
      throws Exception {
    for (long t = from; t < to; t++) {
      Row r = Row.of(t % 2 == 0 ? "a" : "b", t, (double) (t % 97), t, 0L);
      h.processElement(r, t);
    }
  }

  /** The output so far: "row ..." and "watermark ..." in order. */
  private static List<String> output(KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> h) {
    List<String> out = new ArrayList<>();
    for (Object o : h.getOutput()) {
      if (o instanceof Watermark w) {
        out.add("watermark " + w.getTimestamp());
      } else if (o instanceof StreamRecord<?> r && r.getValue() instanceof Row row) {
        out.add("row " + row);
      }
    }
    return out;
  }

  @Test
  void dueRowsComeWithTheFollowingRecordsAndTheWatermarkAfterThem() throws Exception {
    List<String> atWatermark;
    try (var h = harness(false)) {
      feed(h, 0, 10_000);
      h.processWatermark(new Watermark(1_000));
      feed(h, 10_000, 20_000);
      int first = output(h).size();
      h.processWatermark(new Watermark(15_000));
      atWatermark = output(h).subList(first, output(h).size());
    }
    assertEquals("watermark 15000", atWatermark.get(atWatermark.size() - 1));
    assertTrue(atWatermark.size() > 200, "rows due at the watermark: " + atWatermark.size());
    try (var h = harness(true)) {
      feed(h, 0, 10_000);
      h.processWatermark(new Watermark(1_000)); // the first watermark fires at once: no interval to pace over
      feed(h, 10_000, 20_000);
      int first = output(h).size();
      h.processWatermark(new Watermark(15_000));
      assertEquals(first, output(h).size(), "nothing more before the next records");
      feed(h, 20_000, 20_000 + 2 * SwagWindowOperator.PACE_RECORDS);
      int paced = output(h).size();
      assertTrue(paced > first, "a step with the records that follow");
      assertFalse(output(h).contains("watermark 15000"), "the watermark waits for the due rows");
      feed(h, 20_512, 120_000);
      List<String> out = output(h);
      int mark = out.indexOf("watermark 15000");
      assertTrue(mark > 0, "the watermark once every due row is out");
      List<String> rows = new ArrayList<>(out.subList(first, mark));
      rows.removeIf(s -> s.startsWith("watermark"));
      List<String> want = new ArrayList<>(atWatermark);
      want.removeIf(s -> s.startsWith("watermark"));
      for (String key : new String[] {"a", "b"}) {
        assertEquals(want.stream().filter(r -> r.startsWith("row +I[" + key + ",")).toList(),
            rows.stream().filter(r -> r.startsWith("row +I[" + key + ",")).toList(),
            "key " + key + ": the rows at the watermark, in the same order, before it");
      }
      assertEquals(want.size(), rows.size(), "no other rows");
      assertTrue(out.subList(mark, out.size()).stream().noneMatch(s -> s.startsWith("row")),
          "no row after the watermark: nothing is due past it yet");
    }
  }

  @Test
  void anIdleInputFiresTheDueRowsAndTheWatermarkBeforeTheStatus() throws Exception {
    try (var h = harness(true)) {
      feed(h, 0, 10_000);
      h.processWatermark(new Watermark(1_000));
      feed(h, 10_000, 20_000);
      h.processWatermark(new Watermark(15_000));
      int held = output(h).size();
      h.processWatermarkStatus(org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus.IDLE);
      List<String> out = new ArrayList<>();
      for (Object o : h.getOutput()) {
        out.add(o instanceof Watermark w ? "watermark " + w.getTimestamp()
            : o instanceof org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus st ? "status " + st
            : "row");
      }
      assertTrue(out.size() > held + 100, "the due rows before the status");
      assertEquals(List.of("watermark 15000", "status WatermarkStatus(IDLE)"), out.subList(out.size() - 2, out.size()));
    }
  }

  @Test
  void withoutRecordsTheDeadlineFiresAndABarrierFiresFirst() throws Exception {
    try (var h = harness(true)) {
      feed(h, 0, 20_000);
      h.processWatermark(new Watermark(1_000));
      h.processWatermark(new Watermark(8_000));
      int before = output(h).size();
      h.setProcessingTime(h.getProcessingTime() + 60_001); // past any deadline
      List<String> out = output(h);
      assertTrue(out.size() > before + 100, "the due rows at the deadline");
      assertEquals("watermark 8000", out.get(out.size() - 1));

      h.processWatermark(new Watermark(15_000));
      int held = output(h).size();
      h.prepareSnapshotPreBarrier(1);
      out = output(h);
      assertTrue(out.size() > held + 100, "the due rows before the barrier");
      assertEquals("watermark 15000", out.get(out.size() - 1));
    }
  }
}

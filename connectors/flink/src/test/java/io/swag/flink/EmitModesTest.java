package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Differential against swag-core's engine-free {@link LocalExecutor} (the reference semantics of
 * docs/query-spec.md) on seeded out-of-order rows with punctuated watermarks: the Flink operator's
 * result rows and late records equal the executor's, for {@code per_record} emission (every
 * accepted record emits its windows at once) and for {@code window_end} with a time and a count
 * window, with and without allowed lateness.
 */
class EmitModesTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static QuerySpec query(String emit, long lateness, boolean count) {
    QuerySpec.Builder b = QuerySpec.builder().key("k").time("ts").emit(emit).order("out_of_order").latenessMs(lateness)
        .window(WindowSpec.time(500, 100).name("t").aggregate("mx", "max", "v").aggregate("n", "count", null)
            .aggregate("sd", "stddev", "v").aggregate("ids", "collect", "id"));
    if (count) { // a count window takes every record: then nothing is late
      b.window(WindowSpec.count(20, 5).name("c").aggregate("cmn", "min", "v").aggregate("cs", "sum", "v"));
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}, lateness {1}, count window {2}")
  @CsvSource({"per_record, 0, false", "per_record, 300, true", "window_end, 300, false", "window_end, 0, true"})
  void operatorEqualsTheLocalExecutor(String emit, long lateness, boolean count) throws Exception {
    List<Row> input = TestStreams.generate(11 + lateness, 3000, 5, 6, 120, 150);
    QuerySpec spec = query(emit, lateness, count);

    // reference: the rows in order, each followed by its watermark
    LocalExecutor ex = new LocalExecutor(Planner.plan(spec));
    List<String> want = new ArrayList<>();
    List<String> wantLate = new ArrayList<>();
    for (Row r : input) {
      Map<String, Object> m = new LinkedHashMap<>();
      String[] f = TestStreams.TYPE.getFieldNames();
      for (int i = 0; i < f.length; i++) {
        m.put(f[i], r.getField(i));
      }
      ex.process(m);
      ex.advanceWatermark((Long) r.getField(4));
    }
    ex.finish();
    for (Map<String, Object> m : ex.takeRows()) {
      want.add(format(m::get, (String) m.get("window")));
    }
    for (Map<String, Object> m : ex.takeLate()) {
      wantLate.add("LATE " + m.get("id"));
    }
    assertEquals(0, ex.rejectedCount());

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(input, TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String run = "emit-" + emit + "-" + lateness + "-" + count;
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, spec);
    out.sinkTo(new StaticSink<>(run));
    out.getSideOutput(SwagWindows.lateTag(TestStreams.type())).sinkTo(new StaticSink<>(run + "-late"));
    env.execute(run);

    List<String> got = new ArrayList<>();
    List<String> names = List.of(SwagWindows.outputType(spec, TestStreams.TYPE).getFieldNames());
    for (Row r : StaticSink.<Row>get(run)) {
      got.add(format(c -> r.getField(names.indexOf(c)), (String) r.getField(names.indexOf("window"))));
    }
    List<String> gotLate = new ArrayList<>();
    for (Row r : StaticSink.<Row>get(run + "-late")) {
      gotLate.add("LATE " + r.getField(3));
    }
    Collections.sort(want);
    Collections.sort(got);
    Collections.sort(wantLate);
    Collections.sort(gotLate);
    assertTrue(want.size() > (emit.equals("per_record") ? 2500 : 400), "rows: " + want.size());
    assertEquals(want.size(), got.size(), "result rows");
    assertEquals(want, got);
    assertEquals(wantLate, gotLate, "late records");
    if (count) {
      assertTrue(wantLate.isEmpty(), "a count window takes every record: nothing is late, got " + wantLate.size());
      long countRows = want.stream().filter(s -> s.split(", ")[1].equals("c")).count();
      assertTrue(countRows > 100 && countRows < want.size(), "rows of the count window: " + countRows);
    } else {
      assertTrue(!wantLate.isEmpty(), "the input should have late records");
    }
  }

  static final Map<String, List<String>> COLUMNS = Map.of(
      "t", List.of("k", "window", "window_start", "window_end", "mx", "n", "sd", "ids"),
      "c", List.of("k", "window", "window_start", "window_end", "cmn", "cs"));

  /** A row's columns of its window as text: doubles to 10 significant digits, NaN as null. */
  static String format(java.util.function.Function<String, Object> get, String window) {
    StringBuilder b = new StringBuilder();
    for (String c : COLUMNS.get(window)) {
      Object v = get.apply(c);
      if (v instanceof Double d && d.isNaN()) {
        v = null;
      }
      b.append(b.length() == 0 ? "" : ", ")
          .append(v instanceof Double d ? String.format(Locale.ROOT, "%.10g", d) : String.valueOf(v));
    }
    return b.toString();
  }
}

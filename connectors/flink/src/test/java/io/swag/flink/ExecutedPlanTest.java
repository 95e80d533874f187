package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.ExplainedPlan;
import io.swag.core.plan.Plan;
import io.swag.core.plan.PlanCases;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import io.swag.flink.table.SwagFunctions;
import io.swag.flink.table.SwagWindowFunction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Flink operators run the plan that {@link Plan#explain()} prints. Per query shape (in order,
 * unknown order, out of order with its tree arity, windows sharing one tree, sliced, count windows)
 * a mini-cluster job runs the DataStream operator; its read-back of the executed plan (the
 * {@code swagPlan} gauge of every subtask, read from an in-memory metric reporter, and the
 * {@code swagPlan <operator>} accumulator of the job result) is checked against the explain text
 * ({@link ExplainedPlan}). The SQL function {@code swag_window} publishes its read-back as the same
 * gauge.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class ExecutedPlanTest {
  static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
      .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** Rows (k, ts, v, id, wm) over 3 keys and 200 s of event time, the watermark 1 s behind; in order or a little shuffled. */
  static List<Row> rows(boolean inOrder) {
    Random r = new Random(3);
    List<Row> out = new ArrayList<>();
    long t = 1_000_000;
    for (int i = 0; i < 600; i++) {
      t += r.nextInt(600);
      long ts = inOrder ? t : t - r.nextInt(200);
      out.add(Row.of("k" + r.nextInt(3), ts, (double) r.nextInt(50), (long) i, t - 1000));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.swag.core.plan.PlanCases#queries")
  void operatorRunsTheExplainedPlan(String name, QuerySpec spec, String rule) throws Exception {
    ExplainedPlan explained = ExplainedPlan.parse(Planner.plan(spec).explain());
    PlanCases.assertExercises(explained, rule);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(rows(!spec.order().equals("out_of_order")), TestStreams.TYPE).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String op = "swag-plan-" + name;
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, spec, SwagFlinkOptions.defaults().withOperatorName(op));
    out.sinkTo(new StaticSink<>(op));
    JobExecutionResult result = env.execute(op);
    assertTrue(StaticSink.get(op).size() > 10, "the query emitted rows");

    List<OperatorMetricGroup> groups = REPORTER.findOperatorMetricGroups(result.getJobID(), op);
    assertEquals(2, groups.size(), "one metric group per subtask");
    List<String> gauges = new ArrayList<>();
    for (OperatorMetricGroup g : groups) {
      Metric m = REPORTER.getMetricsByGroup(g).get(SwagWindowOperator.PLAN_METRIC);
      gauges.add((String) ((Gauge<?>) m).getValue());
    }
    List<String> accumulated = result.getAccumulatorResult(SwagWindowOperator.PLAN_METRIC + " " + op);
    assertTrue(accumulated != null && accumulated.size() == 2, "one accumulator entry per subtask: "
        + result.getAllAccumulatorResults());
    assertEquals(gauges.stream().sorted().toList(), accumulated.stream().sorted().toList());
    boolean stored = explained.groups().stream().anyMatch(ExplainedPlan.Group::storedSlices);
    for (String json : gauges) {
      ExecutedPlan executed = ExecutedPlan.fromJson(json);
      explained.assertExecutedWithStoredSlices(executed);
      assertEquals(Map.of("name", "flink", "operator", "datastream", "state", stored ? "slices" : "rows",
          "cache_max_keys", (long) SwagFlinkOptions.DEFAULT_CACHE_MAX_KEYS, "key_layout", "value", "firing", "paced"),
          executed.engine());
    }
  }

  @Test
  void sqlFunctionPublishesItsExecutedPlan() throws Exception {
    QuerySpec spec = PlanCases.query("out_of_order").window(WindowSpec.time(60_000, 20_000).name("m1").aggregate("mx", "max", "v"))
        .window(WindowSpec.time(120_000, 20_000).name("m2").aggregate("s", "sum", "v")).build();
    ExplainedPlan explained = ExplainedPlan.parse(Planner.plan(spec).explain());
    PlanCases.assertExercises(explained, "sliced");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    SwagFunctions.register(tEnv);
    List<Row> rows = new ArrayList<>();
    for (Row r : rows(true)) {
      rows.add(Row.of(r.getField(0), Instant.ofEpochMilli((Long) r.getField(1)), r.getField(2)));
    }
    tEnv.createTemporaryView("t", tEnv.fromDataStream(env.fromData(rows, new RowTypeInfo(
            new TypeInformation<?>[] {Types.STRING, Types.INSTANT, Types.DOUBLE}, new String[] {"k", "ts", "v"})),
        Schema.newBuilder().column("k", "STRING").column("ts", "TIMESTAMP_LTZ(3)").column("v", "DOUBLE")
            .watermark("ts", "ts - INTERVAL '1' SECOND").build()));
    TableResult res = tEnv.executeSql("SELECT * FROM swag_window(input => TABLE t PARTITION BY k, "
        + "on_time => DESCRIPTOR(ts), query => '" + spec.toJson() + "')");
    int n = 0;
    try (CloseableIterator<Row> it = res.collect()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    assertTrue(n > 10, "the query emitted rows: " + n);
    Map<String, Metric> found = REPORTER.findMetrics(res.getJobClient().orElseThrow().getJobID(),
        SwagWindowFunction.PLAN_METRIC);
    List<String> values = new ArrayList<>();
    for (Map.Entry<String, Metric> e : found.entrySet()) {
      if (e.getKey().endsWith("." + SwagWindowFunction.PLAN_METRIC)) {
        values.add((String) ((Gauge<?>) e.getValue()).getValue());
      }
    }
    assertEquals(1, values.size(), "one swag_window subtask: " + found.keySet());
    ExecutedPlan executed = ExecutedPlan.fromJson(values.get(0));
    explained.assertExecutedWithStoredSlices(executed);
    assertEquals("sql", executed.engine().get("operator"));
    assertEquals(explained.groups().get(0).storedSlices() ? "slices" : "rows", executed.engine().get("state"));
  }
}

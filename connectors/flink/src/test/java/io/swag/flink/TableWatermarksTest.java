package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream converted from a Table whose watermark is declared in its schema ({@code toDataStream})
 * carries the planner's watermarks: {@link SwagWindows#aggregate} takes it (its watermark check
 * sees the planner's assigner), and records far behind the watermark go to the late output. The
 * planner's assigner emits a watermark as soon as it is more than the auto-watermark interval
 * (200 ms of event time) ahead of the last one, so here the late records are late whatever the
 * timing: they are seconds behind.
 */
class TableWatermarksTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final RowTypeInfo TYPE = new RowTypeInfo(new TypeInformation<?>[] {Types.STRING, Types.LONG, Types.DOUBLE},
      new String[] {"k", "ts", "v"});
  static final long BASE = 1_000_000;

  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").window(WindowSpec.time(500, 100).name("w")
        .aggregate("mx", "max", "v").aggregate("n", "count", null)).build();
  }

  /** The table's rows (k, ts, v, rt) back as a positional {@code DataStream<Row>} of {@link #TYPE}. */
  static final class Positional implements MapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row map(Row r) {
      return Row.of(r.getField(0), r.getField(1), r.getField(2));
    }
  }

  /** Row i of a list, from a source without watermarks (as PyFlink's {@code from_collection}). */
  static final class Rows implements GeneratorFunction<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final ArrayList<Row> rows;

    Rows(List<Row> rows) {
      this.rows = new ArrayList<>(rows);
    }

    @Override
    public Row map(Long i) {
      return rows.get(i.intValue());
    }
  }

  static DataStream<Row> fromTable(StreamExecutionEnvironment env, List<Row> rows, boolean watermark) {
    StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
    Schema.Builder schema = Schema.newBuilder().column("k", "STRING").column("ts", "BIGINT").column("v", "DOUBLE")
        .columnByExpression("rt", "TO_TIMESTAMP_LTZ(ts, 3)");
    if (watermark) {
      schema.watermark("rt", "rt - INTERVAL '0.001' SECOND");
    }
    DataStream<Row> in = env.fromSource(new DataGeneratorSource<>(new Rows(rows), rows.size(), TYPE),
        WatermarkStrategy.noWatermarks(), "rows");
    // (rt, the rowtime attribute, stays in the table: toDataStream makes it the records' timestamp)
    Table t = tEnv.fromDataStream(in, schema.build());
    return tEnv.toDataStream(t).map(new Positional()).returns(TYPE);
  }

  @Test
  void aStreamFromATableWithAWatermarkIsAcceptedAndHasLateRecords() throws Exception {
    Random r = new Random(4);
    List<Row> rows = new ArrayList<>();
    long t = BASE;
    for (int i = 0; i < 400; i++) {
      t += r.nextInt(40);
      rows.add(Row.of("k" + r.nextInt(3), t, (double) r.nextInt(100)));
    }
    // seconds behind the watermark: late for every window that contains them
    rows.add(200, Row.of("k0", BASE + 10, 1.0));
    rows.add(Row.of("k1", BASE + 20, 2.0));
    rows.add(Row.of("k2", BASE + 2_000, 3.0));
    List<String> wantLate = List.of("k0," + (BASE + 10), "k1," + (BASE + 20), "k2," + (BASE + 2_000));

    // reference: the watermark as the table declares it (max time - 1 ms), advanced after every row
    LocalExecutor ex = new LocalExecutor(Planner.plan(query()));
    long max = Long.MIN_VALUE;
    for (Row row : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("k", row.getField(0));
      m.put("ts", row.getField(1));
      m.put("v", row.getField(2));
      ex.process(m);
      max = Math.max(max, (Long) row.getField(1));
      ex.advanceWatermark(max - 1);
    }
    ex.finish();
    List<String> want = new ArrayList<>();
    for (Map<String, Object> m : ex.takeRows()) {
      want.add(m.get("k") + "," + m.get("window_start") + "," + m.get("window_end") + "," + m.get("mx") + ","
          + m.get("n"));
    }
    List<String> refLate = new ArrayList<>();
    for (Map<String, Object> m : ex.takeLate()) {
      refLate.add(m.get("k") + "," + m.get("ts"));
    }
    assertEquals(wantLate, refLate, "the reference finds exactly the inserted records late");

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(fromTable(env, rows, true), query());
    out.sinkTo(new StaticSink<>("table-wm"));
    out.getSideOutput(SwagWindows.lateTag(TYPE)).sinkTo(new StaticSink<>("table-wm-late"));
    env.execute("table watermarks");

    List<String> got = new ArrayList<>();
    for (Row row : StaticSink.<Row>get("table-wm")) {
      got.add(row.getField(0) + "," + row.getField(2) + "," + row.getField(3) + "," + row.getField(4) + ","
          + row.getField(5));
    }
    List<String> late = new ArrayList<>();
    for (Row row : StaticSink.<Row>get("table-wm-late")) {
      late.add(row.getField(0) + "," + row.getField(1));
    }
    Collections.sort(want);
    Collections.sort(got);
    Collections.sort(late);
    assertEquals(wantLate, late, "late records");
    assertTrue(want.size() > 100, "rows: " + want.size());
    assertEquals(want, got);
  }

  @Test
  void aStreamFromATableWithoutAWatermarkIsStillRefused() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    List<Row> rows = List.of(Row.of("a", BASE, 1.0), Row.of("a", BASE + 5, 2.0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SwagWindows.aggregate(fromTable(env, rows, false), query()));
    assertTrue(e.getMessage().contains("no watermarks"), e.getMessage());
  }
}

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The key layouts ({@link SwagFlinkOptions.KeyLayout}): a query with one key column keyed by the
 * column's value ({@code value}, the default) gives exactly the output of the same query keyed by a
 * {@code Row} ({@code row}) on a seeded trace with order-sensitive functions, with and without a
 * failure and restore; rows whose one key column is null are rejected with the same reason and
 * counted in {@code swagRejectedRecords} under both, including when the value layout's stand-in for
 * a null key (the type's default: 0 for a BIGINT) is also a real key, whose windows they leave
 * untouched. A savepoint restores only with the layout it was taken with: {@code KeySavepointTest}.
 */
class KeyLayoutTest {
  static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
      .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  static final RowTypeInfo LONG_KEYS = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v", "id", "wm"},
      Types.LONG, Types.LONG, Types.DOUBLE, Types.LONG, Types.LONG);

  /** Order-sensitive functions (first, collect, argmax) and a mergeable one, with lateness. */
  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(100)
        .window(WindowSpec.time(400, 100).name("w").aggregate("f", "first", "v").aggregate("ids", "collect", "id")
            .aggregate("am", "argmax", "v").aggregate("mx", "max", "v"))
        .window(WindowSpec.count(20, 5).name("c").aggregate("cf", "first", "v").aggregate("cn", "count", null))
        .build();
  }

  /** The seeded rows with a BIGINT key ("k3" becomes 3), so that key 0 is a real key. */
  static List<Row> longKeys(List<Row> rows) {
    List<Row> r = new ArrayList<>();
    for (Row x : rows) {
      r.add(Row.of(Long.parseLong(((String) x.getField(0)).substring(1)), x.getField(1), x.getField(2), x.getField(3),
          x.getField(4)));
    }
    return r;
  }

  /** What a job gave: its sorted output, the rejected records' reasons by id, the operator's counters. */
  record Run(List<String> out, Map<Long, String> rejected, long rejectedCount, long recordsIn) {}

  static Run run(List<Row> input, RowTypeInfo type, String layout, String name) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    DataStream<Row> in = env.fromData(input, type).setParallelism(1)
        .assignTimestampsAndWatermarks(RejectedTest.watermarks()).setParallelism(1);
    String op = "swag-keys-" + name;
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, query(),
        SwagFlinkOptions.defaults().withOperatorName(op).withKeyLayout(layout));
    out.sinkTo(new StaticSink<>(name));
    SwagWindows.rejectedRecords(out, in).sinkTo(new StaticSink<>(name + "-rejected"));
    JobExecutionResult result = env.execute(name);
    List<String> rows = new ArrayList<>();
    for (Row r : StaticSink.<Row>get(name)) {
      rows.add(RestoreTest.format(r));
    }
    Collections.sort(rows);
    Map<Long, String> reasons = new TreeMap<>();
    for (Row r : StaticSink.<Row>get(name + "-rejected")) {
      reasons.put((Long) ((Row) r.getField(1)).getField(3), (String) r.getField(0));
    }
    long rejected = 0;
    long recordsIn = 0;
    List<OperatorMetricGroup> groups = REPORTER.findOperatorMetricGroups(result.getJobID(), op);
    assertEquals(2, groups.size(), "two swag subtasks");
    for (OperatorMetricGroup g : groups) {
      rejected += ((Counter) REPORTER.getMetricsByGroup(g).get("swagRejectedRecords")).getCount();
      recordsIn += ((Counter) REPORTER.getMetricsByGroup(g).get("swagRecordsIn")).getCount();
    }
    return new Run(rows, reasons, rejected, recordsIn);
  }

  /** {@code good} with three rows of a null key (ids 9001-9003) inserted among them. */
  static List<Row> withNullKeys(List<Row> good) {
    List<Row> bad = new ArrayList<>(good);
    for (int i = 0; i < 3; i++) {
      int at = 100 + 150 * i;
      Row near = good.get(at);
      bad.add(at, Row.of(null, near.getField(1), 63.0, 9001L + i, near.getField(4)));
    }
    return bad;
  }

  @ParameterizedTest
  @ValueSource(strings = {"string", "bigint"})
  void nullKeysAreRejectedAndCountedAndTheLayoutsAgree(String keyType) throws Exception {
    List<Row> good = TestStreams.generate(31, 600, 4, 6, 0, 50);
    RowTypeInfo type = TestStreams.TYPE;
    if (keyType.equals("bigint")) {
      good = longKeys(good);
      type = LONG_KEYS;
    }
    List<Row> bad = withNullKeys(good);
    List<String> want = null;
    for (String layout : List.of("row", "value")) {
      String name = "keys-" + keyType + "-" + layout;
      Run clean = run(good, type, layout, name + "-clean");
      assertTrue(clean.out().size() > 100, "windows: " + clean.out().size());
      assertTrue(clean.rejected().isEmpty() && clean.rejectedCount() == 0, "nothing rejected: " + clean.rejected());
      if (want == null) {
        want = clean.out();
      }
      assertEquals(want, clean.out(), "the " + layout + " layout's output is the row layout's");
      Run r = run(bad, type, layout, name + "-bad");
      assertEquals(List.of(9001L, 9002L, 9003L), List.copyOf(r.rejected().keySet()), layout + ": " + r.rejected());
      for (String reason : r.rejected().values()) {
        assertEquals("key column 'k' is null", reason);
      }
      assertEquals(3, r.rejectedCount(), layout + ": swagRejectedRecords");
      assertEquals(bad.size(), r.recordsIn(), layout + ": swagRecordsIn");
      assertEquals(want, r.out(), layout + ": the other rows' windows (key 0 among them)");
    }
  }

  /** The value layout restores from its checkpoints like the row layout (rocksdb: the key serialized in every access). */
  @ParameterizedTest
  @ValueSource(strings = {"value", "row"})
  void bothLayoutsRestoreToTheFailureFreeOutput(String layout, @TempDir Path dir) throws Exception {
    List<String> want = RestoreTest.expected(dir);
    List<String> got = RestoreTest.run("rocksdb", true, dir.resolve(layout), RestoreTest.query(),
        SwagFlinkOptions.defaults().withUid("swag").withKeyLayout(layout));
    assertEquals(want, got);
  }

  @Test
  void onlyOneBasicKeyColumnIsKeyedByItsValue() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataStream<Row> in = env.fromData(List.of(Row.of("a", 1L, 1.0, 1L, 1L)), TestStreams.TYPE);
    assertEquals("", SwagWindows.nullKey(TestStreams.TYPE, new int[] {0}, in));
    assertEquals(0L, SwagWindows.nullKey(LONG_KEYS, new int[] {0}, in));
    assertNull(SwagWindows.nullKey(TestStreams.TYPE, new int[] {0, 3}, in), "two key columns: a Row key");
    assertNull(SwagWindows.nullKey(TestStreams.TYPE, new int[0], in), "no key column");
    RowTypeInfo listKey = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k"}, Types.LIST(Types.LONG));
    assertNull(SwagWindows.nullKey(listKey, new int[] {0}, in), "a list key: a Row key");
    assertEquals(SwagFlinkOptions.KeyLayout.VALUE, SwagFlinkOptions.defaults().keyLayout());
    assertEquals(SwagFlinkOptions.KeyLayout.ROW, SwagFlinkOptions.defaults().withKeyLayout("row").keyLayout());
    io.swag.core.SwagException e = assertThrows(io.swag.core.SwagException.class,
        () -> SwagFlinkOptions.defaults().withKeyLayout("tuple"));
    assertEquals("[SWAG_INVALID_QUERY] key_layout: expected 'value' or 'row', got 'tuple'", e.getMessage());
    e = assertThrows(io.swag.core.SwagException.class, () -> SwagFlinkOptions.defaults().withFiring("Paced"));
    assertEquals("[SWAG_INVALID_QUERY] firing: expected 'paced' or 'watermark', got 'Paced'", e.getMessage());
    assertEquals(SwagFlinkOptions.KeyLayout.ROW, SwagFlinkOptions.KeyLayout.parse("row"));
    assertEquals(SwagFlinkOptions.Firing.WATERMARK, SwagFlinkOptions.Firing.parse("watermark"));
  }
}

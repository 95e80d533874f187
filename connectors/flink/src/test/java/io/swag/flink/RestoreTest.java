package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Restore: a job whose input fails once after a completed checkpoint (so the swag operator restores
 * its trees from keyed state and the source replays) ends with exactly the output of a failure-free
 * run, for the hashmap, rocksdb and forst state backends. Output through the checkpointed collect
 * sink (exactly-once), compared as a sorted multiset of rows plus the late records.
 */
@SuppressWarnings("try") // Flink's CloseableIterator.close() is declared to throw InterruptedException
class RestoreTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final int N = 4000;

  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(150)
        .window(WindowSpec.time(800, 100).name("w").aggregate("mx", "max", "v").aggregate("n", "count", null)
            .aggregate("sd", "stddev", "v").aggregate("ids", "collect", "id"))
        .window(WindowSpec.count(50, 10).name("c").aggregate("cmx", "max", "v").aggregate("csum", "sum", "v"))
        .build();
  }

  /** Row i of the seeded input (regenerated in the source, so a replay yields the same rows). */
  /** The seeded input, regenerated in the source, so a replay yields the same rows. */
  static Replay gen() {
    return new Replay(() -> TestStreams.generate(99, N, 5, 6, 150, 200));
  }


  static List<String> run(String backend, boolean fail, Path dir) throws Exception {
    return run(backend, fail, dir, query(), SwagFlinkOptions.defaults().withUid("swag"));
  }

  /** Runs {@code query} over the seeded input on {@code backend}, failing once if asked; sorted output. */
  static List<String> run(String backend, boolean fail, Path dir, QuerySpec query, SwagFlinkOptions options)
      throws Exception {
    StreamExecutionEnvironment env = FailOnce.env(backend, dir, Map.of());
    DataStream<Row> in = FailOnce.source(env, gen(), N, TestStreams.TYPE, fail)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, query, options);
    DataStream<String> all = out.map(RestoreTest::format).returns(Types.STRING)
        .union(out.getSideOutput(SwagWindows.lateTag(TestStreams.type())).map(r -> "LATE " + r.getField(3))
            .returns(Types.STRING));
    List<String> res = new ArrayList<>();
    try (CloseableIterator<String> it = all.executeAndCollect("restore " + backend + (fail ? " with failure" : ""))) {
      it.forEachRemaining(res::add);
    }
    if (fail) {
      assertTrue(FailOnce.failed(), "the failure was injected");
    }
    Collections.sort(res);
    return res;
  }

  /** A row as text, doubles to 10 significant digits (a restored tree may combine in another order). */
  static String format(Row r) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < r.getArity(); i++) {
      Object v = r.getField(i);
      b.append(i == 0 ? "" : ", ").append(v instanceof Double d ? String.format(java.util.Locale.ROOT, "%.10g", d) : v);
    }
    return b.toString();
  }

  private static List<String> expected;

  static synchronized List<String> expected(Path dir) throws Exception {
    if (expected == null) {
      expected = run("hashmap", false, dir.resolve("clean"));
    }
    return expected;
  }

  @ParameterizedTest
  @ValueSource(strings = {"hashmap", "rocksdb", "forst"})
  void failureAndRestoreGiveTheFailureFreeOutput(String backend, @TempDir Path dir) throws Exception {
    List<String> want = expected(dir);
    assertTrue(want.size() > 500, "output rows: " + want.size());
    // (no late records: the count window takes every record, docs/query-spec.md)
    List<String> got = run(backend, true, dir.resolve(backend));
    assertEquals(want.size(), got.size(), "rows after restore (" + backend + ")");
    assertEquals(want, got);
  }
}

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator's keyed state layouts ({@link io.swag.core.plan.StoredWindows}) through real state
 * backends: a query of mergeable functions (sum, max, mean, hll, median by kll: stored as slices)
 * and one with order-sensitive functions (first, collect, argmax: stored as chunks of rows), each on
 * hashmap, rocksdb and forst, with lateness (late records updating fired windows, and records too
 * late) over the seeded straggler stream of {@link RestoreTest}:
 * <ul>
 *   <li>a failure after a checkpoint and a restore (each key rebuilt from its slices or chunks at its
 *       next record or timer) gives exactly the output of a failure-free run;</li>
 *   <li>a key cache of one key (every switch of key writes the old key's changes to state and
 *       rebuilds the new one from it) gives exactly the output of an unbounded cache, with a failure.</li>
 * </ul>
 * The same for a user's mergeable function (examples/udaf TopK), kept as slices like a built-in.
 * The reference is one failure-free run on hashmap with the default cache.
 */
class StateLayoutTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static QuerySpec sliced() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(150)
        .window(WindowSpec.time(800, 100).name("w").aggregate("mx", "max", "v").aggregate("n", "count", null)
            .aggregate("s", "sum", "v").aggregate("avg", "mean", "v").aggregate("u", "hll", "id")
            .aggregate("med", "median", "v"))
        .window(WindowSpec.time(300, 100).name("short").aggregate("mx_short", "max", "v"))
        .build();
  }

  static QuerySpec rows() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(150)
        .window(WindowSpec.time(800, 100).name("w").aggregate("f", "first", "v").aggregate("ids", "collect", "id")
            .aggregate("am", "argmax", "v").aggregate("mx", "max", "v"))
        .build();
  }

  /** A user's mergeable function (examples/udaf TopK: commutative, with a byte form): slices too. */
  static QuerySpec udaf() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(150)
        .window(WindowSpec.time(800, 100).name("w").aggregate("top", "udaf", "v",
            Map.of("class", UdafTest.TOPK, "k", 3)).aggregate("mx", "max", "v"))
        .build();
  }

  static Stream<Arguments> cases() {
    return Stream.of("hashmap", "rocksdb", "forst")
        .flatMap(b -> Stream.of(Arguments.of(b, "slices"), Arguments.of(b, "rows"), Arguments.of(b, "udaf")));
  }

  private static final Map<String, List<String>> EXPECTED = new HashMap<>();

  static synchronized List<String> expected(String layout, Path dir) throws Exception {
    if (!EXPECTED.containsKey(layout)) {
      List<String> r = RestoreTest.run("hashmap", false, dir.resolve("clean-" + layout), query(layout),
          SwagFlinkOptions.defaults().withUid("swag"));
      assertTrue(r.size() > 500, "output rows: " + r.size());
      assertTrue(r.stream().anyMatch(s -> s.startsWith("LATE ")), "the stream makes records too late");
      EXPECTED.put(layout, r);
    }
    return EXPECTED.get(layout);
  }

  static QuerySpec query(String layout) {
    return switch (layout) {
      case "slices" -> sliced();
      case "udaf" -> udaf();
      default -> rows();
    };
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void restoreFromStoredStateGivesTheFailureFreeOutput(String backend, String layout, @TempDir Path dir)
      throws Exception {
    List<String> want = expected(layout, dir);
    List<String> got = RestoreTest.run(backend, true, dir.resolve(backend), query(layout),
        SwagFlinkOptions.defaults().withUid("swag"));
    assertEquals(want.size(), got.size(), "rows after restore (" + backend + ", " + layout + ")");
    assertEquals(want, got);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aOneKeyCacheGivesTheOutputOfAnUnboundedOne(String backend, String layout, @TempDir Path dir) throws Exception {
    List<String> want = expected(layout, dir);
    List<String> got = RestoreTest.run(backend, true, dir.resolve(backend), query(layout),
        SwagFlinkOptions.defaults().withUid("swag").withCacheMaxKeys(1));
    assertEquals(want, got, "cache of one key (" + backend + ", " + layout + ")");
  }

  @Test
  void theExecutedPlanSaysWhatTheStateHolds() {
    for (String layout : List.of("slices", "rows", "udaf")) {
      Plan plan = Planner.plan(query(layout));
      SwagWindowOperator op = new SwagWindowOperator(plan.toJson(), TestStreams.TYPE.getFieldNames(), null, null, 7,
          io.swag.core.plan.OnError.REJECT, true);
      ExecutedPlan e = op.executedPlan();
      assertEquals(layout.equals("rows") ? "rows" : "slices", e.engine().get("state"), e.toJson());
      assertEquals(7, ((Number) e.engine().get("cache_max_keys")).intValue());
    }
  }
}

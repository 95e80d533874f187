package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
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

/**
 * The operator's metrics, read from an in-memory metric reporter of the mini cluster: while the job
 * runs, {@code swagKeys} reaches the number of keys and {@code swagEntries} stays bounded by the
 * window + lateness (bulk eviction) and is refreshed (it takes several values); at the end {@code swagRecordsIn} is the input size and
 * {@code swagLateRecords} the number of rows in the late side output (> 0), with nothing rejected.
 * With a cache smaller than the key count, {@code swagColdRecords} counts the records that went
 * into their key's stored slices without loading the key.
 */
class MetricsTest {
  static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
      .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  static final int N = 3000;
  static final int KEYS = 5;



  /** What a run saw: the gauges' largest values while running, the metrics and late rows at the end. */
  record Run(long maxKeys, long maxEntries, Set<Long> entriesSeen, Map<String, Metric> metrics, List<Row> late) {}

  static Run run(String name, int cacheMaxKeys) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    DataStream<Row> in = env.fromSource(new DataGeneratorSource<>(new Replay(() -> TestStreams.generate(21, N, KEYS, 6, 120, 150)), N, RateLimiterStrategy.perSecond(1500),
            TestStreams.TYPE), WatermarkStrategy.noWatermarks(), "gen")
        .assignTimestampsAndWatermarks(TestStreams.watermarks());
    QuerySpec q = QuerySpec.builder().key("k").time("ts").latenessMs(100)
        .window(WindowSpec.time(600, 100).aggregate("mx", "max", "v").aggregate("n", "count", null)).build();
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, q,
        SwagFlinkOptions.defaults().withOperatorName("swag-metrics").withCacheMaxKeys(cacheMaxKeys));
    out.sinkTo(new StaticSink<>(name + "-out"));
    out.getSideOutput(SwagWindows.lateTag(TestStreams.type())).sinkTo(new StaticSink<>(name + "-late"));
    JobClient job = env.executeAsync(name);
    JobID id = job.getJobID();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long maxKeys = 0;
    long maxEntries = 0;
    Set<Long> entriesSeen = new HashSet<>();
    while (!job.getJobStatus().get().isTerminalState() && System.nanoTime() < deadline) {
      Map<String, Metric> m = metrics(id);
      if (m.containsKey("swagKeys") && m.containsKey("swagEntries")) { // registered one after the other
        maxKeys = Math.max(maxKeys, ((Number) ((Gauge<?>) m.get("swagKeys")).getValue()).longValue());
        long entries = ((Number) ((Gauge<?>) m.get("swagEntries")).getValue()).longValue();
        maxEntries = Math.max(maxEntries, entries);
        entriesSeen.add(entries);
      }
      Thread.sleep(25);
    }
    job.getJobExecutionResult().get(60, TimeUnit.SECONDS);
    return new Run(maxKeys, maxEntries, entriesSeen, metrics(id), StaticSink.get(name + "-late"));
  }

  @Test
  void recordsLateKeysAndEntries() throws Exception {
    Run r = run("metrics", 100);
    // while running: all keys held, entries bounded
    assertEquals(KEYS, r.maxKeys(), "swagKeys while running");
    assertTrue(r.maxEntries() > 0 && r.maxEntries() < N / 4,
        "swagEntries while running (bounded by eviction): " + r.maxEntries());
    assertTrue(r.entriesSeen().size() >= 3, "swagEntries refreshed while running: " + r.entriesSeen());

    Map<String, Metric> m = r.metrics();
    List<Row> late = r.late();
    assertTrue(!late.isEmpty(), "the input has late records");
    assertEquals(N, ((Counter) m.get("swagRecordsIn")).getCount(), "swagRecordsIn");
    assertEquals(late.size(), ((Counter) m.get("swagLateRecords")).getCount(), "swagLateRecords");
    assertEquals(0, ((Counter) m.get("swagRejectedRecords")).getCount(), "swagRejectedRecords");
    assertEquals(0, ((Counter) m.get("swagColdRecords")).getCount(), "every key fits the cache: no cold path");
    Set<Long> ids = new HashSet<>();
    for (Row row : late) {
      ids.add((Long) row.getField(3));
    }
    assertEquals(late.size(), ids.size(), "each late record once");
  }

  /** A cache of 2 of the 5 keys: at most 2 on the heap; in-time records of the others go to their stored slices. */
  @Test
  void aSmallCacheSendsRecordsOfOtherKeysToTheColdPath() throws Exception {
    Run r = run("metrics-cold", 2);
    assertTrue(r.maxKeys() >= 1 && r.maxKeys() <= 2, "swagKeys while running: " + r.maxKeys());
    long cold = ((Counter) r.metrics().get("swagColdRecords")).getCount();
    long late = ((Counter) r.metrics().get("swagLateRecords")).getCount();
    assertEquals(N, ((Counter) r.metrics().get("swagRecordsIn")).getCount(), "swagRecordsIn");
    assertEquals(r.late().size(), late, "swagLateRecords");
    assertTrue(cold > N / 10 && cold < N - late, "records on the cold path: " + cold);
  }

  private static Map<String, Metric> metrics(JobID id) {
    List<OperatorMetricGroup> groups = REPORTER.findOperatorMetricGroups(id, "swag-metrics");
    if (groups.isEmpty()) {
      return Map.of();
    }
    assertEquals(1, groups.size(), "one swag operator subtask");
    return REPORTER.getMetricsByGroup(groups.get(0));
  }
}

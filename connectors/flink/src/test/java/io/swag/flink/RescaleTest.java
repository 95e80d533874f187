package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rescaling: the job runs at swag parallelism 2, is stopped with a savepoint after about a third of
 * its input, resumed from it at parallelism 3, stopped with a savepoint again after two thirds, and
 * finished at parallelism 1. The union of the three runs' output (windows and late records) equals
 * the output of one uninterrupted run (hashmap), for the hashmap, rocksdb and forst state backends
 * (canonical savepoints; native for forst, which takes no others): the per-key trees are redistributed by key group and rebuilt
 * from keyed state, and the timers and the watermark follow.
 */
class RescaleTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final AtomicLong SEEN = new AtomicLong();
  private static List<String> clean; // the uninterrupted run's sorted output

  /** Counts the records that reached the swag operator's input (across the three runs). */
  static final class Count implements MapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row map(Row r) {
      SEEN.incrementAndGet();
      return r;
    }
  }

  /** Builds the job at swag parallelism {@code p}, restoring from {@code savepoint} if not null. */
  static JobClient start(String backend, int p, String savepoint, String sink) throws Exception {
    Configuration conf = new Configuration();
    conf.setString("state.backend.type", backend);
    if (savepoint != null) {
      conf.setString("execution.state-recovery.path", savepoint);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(p);
    env.setMaxParallelism(64);
    DataStream<Row> in = env.fromSource(new DataGeneratorSource<>(RestoreTest.gen(), RestoreTest.N,
            RateLimiterStrategy.perSecond(2000), TestStreams.TYPE), WatermarkStrategy.noWatermarks(), "gen")
        .uid("gen").setParallelism(1)
        .map(new Count()).returns(TestStreams.TYPE).uid("count").setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).uid("wm").setParallelism(1);
    SingleOutputStreamOperator<Row> out = SwagWindows.aggregate(in, RestoreTest.query(),
        SwagFlinkOptions.defaults().withUid("swag"));
    out.map(RestoreTest::format).returns(Types.STRING).uid("fmt")
        .union(out.getSideOutput(SwagWindows.lateTag(TestStreams.type())).map(r -> "LATE " + r.getField(3))
            .returns(Types.STRING).uid("fmt-late"))
        .sinkTo(new StaticSink<>(sink)).uid("sink");
    return env.executeAsync("rescale " + backend + " p=" + p);
  }

  static String stopAfter(JobClient job, long records, Path dir, String backend) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (SEEN.get() < records) {
      assertTrue(System.nanoTime() < deadline, "input did not reach " + records + " records: " + SEEN.get());
      Thread.sleep(20);
    }
    // ForSt (Flink 2.3) takes native savepoints only
    SavepointFormatType format = backend.equals("forst") ? SavepointFormatType.NATIVE : SavepointFormatType.CANONICAL;
    return job.stopWithSavepoint(false, dir.toUri().toString(), format).get(60, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"hashmap", "rocksdb", "forst"})
  void rescaledFromSavepointsGivesTheUninterruptedOutput(String backend, @TempDir Path dir) throws Exception {
    if (clean == null) {
      SEEN.set(0);
      start("hashmap", 2, null, "rescale-clean").getJobExecutionResult().get(120, TimeUnit.SECONDS);
      clean = new ArrayList<>(StaticSink.<String>get("rescale-clean"));
      Collections.sort(clean);
    }
    List<String> want = clean;
    assertTrue(want.size() > 500, "output rows: " + want.size());

    SEEN.set(0);
    String sp1 = stopAfter(start(backend, 2, null, "rescale-a-" + backend), RestoreTest.N / 3, dir.resolve("sp1"), backend);
    long afterFirst = SEEN.get();
    String sp2 = stopAfter(start(backend, 3, sp1, "rescale-b-" + backend), 2L * RestoreTest.N / 3, dir.resolve("sp2"), backend);
    start(backend, 1, sp2, "rescale-c-" + backend).getJobExecutionResult().get(120, TimeUnit.SECONDS);
    assertTrue(afterFirst < RestoreTest.N && SEEN.get() == RestoreTest.N,
        "each record read once across the runs: " + afterFirst + ", " + SEEN.get());

    List<String> a = StaticSink.get("rescale-a-" + backend);
    List<String> b = StaticSink.get("rescale-b-" + backend);
    List<String> c = StaticSink.get("rescale-c-" + backend);
    assertTrue(!a.isEmpty() && !b.isEmpty() && !c.isEmpty(), "every run emits: " + a.size() + ", " + b.size() + ", "
        + c.size());
    List<String> got = new ArrayList<>(a);
    got.addAll(b);
    got.addAll(c);
    Collections.sort(got);
    assertEquals(want.size(), got.size(), "rows after rescaling 2 -> 3 -> 1 (" + backend + ")");
    assertEquals(want, got);
  }
}

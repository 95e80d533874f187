package io.swag.flink;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;

/**
 * A pass-through map (parallelism 1) that throws once, on the first row after a checkpoint
 * completed past a quarter of the {@code n} input rows and past a third of them, so that the job
 * restores from a checkpoint in mid-input. {@link #arm} before each job; {@link #failed} after it.
 */
public final class FailOnce extends RichMapFunction<Row, Row> implements CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static final AtomicBoolean CHECKPOINTED = new AtomicBoolean();
  private final int n;
  private long seen;

  public FailOnce(int n) {
    this.n = n;
  }

  /** Resets the flags for the next job: it fails once if {@code fail}. */
  public static void arm(boolean fail) {
    FAILED.set(!fail);
    CHECKPOINTED.set(false);
  }

  /**
   * A job environment that restores from its checkpoints: {@code backend}, a checkpoint every 100 ms
   * into {@code dir}, two restarts 50 ms apart, parallelism 2, the job parameters {@code params}.
   */
  public static StreamExecutionEnvironment env(String backend, Path dir, Map<String, String> params) {
    Configuration conf = new Configuration();
    conf.setString("state.backend.type", backend);
    conf.setString("execution.checkpointing.dir", dir.toUri().toString());
    conf.setString("execution.checkpointing.interval", "100ms");
    conf.setString("restart-strategy.type", "fixed-delay");
    conf.setString("restart-strategy.fixed-delay.attempts", "2");
    conf.setString("restart-strategy.fixed-delay.delay", "50ms");
    if (!params.isEmpty()) {
      conf.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, params);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    return env;
  }

  /**
   * The {@code n} rows of {@code rows} at 2,000 per second (parallelism 1, no watermarks) through a
   * FailOnce, armed to fail once if {@code fail}.
   */
  public static DataStream<Row> source(StreamExecutionEnvironment env, Replay rows, int n, RowTypeInfo type,
      boolean fail) {
    arm(fail);
    return env.fromSource(new DataGeneratorSource<>(rows, n, RateLimiterStrategy.perSecond(2000), type),
            WatermarkStrategy.noWatermarks(), "gen").setParallelism(1)
        .map(new FailOnce(n)).returns(type).setParallelism(1);
  }

  /** Whether the failure was thrown (or, for an unarmed job, not asked for). */
  public static boolean failed() {
    return FAILED.get();
  }

  @Override
  public void open(OpenContext ctx) {
    seen = 0;
  }

  @Override
  public Row map(Row r) throws InterruptedException {
    seen++;
    if (seen > n / 3 && !FAILED.get() && !CHECKPOINTED.get()) {
      // a loaded machine completes checkpoints slowly: hold the input back (between rows, so that
      // barriers pass) until one completes, rather than reach the end without the failure
      Thread.sleep(5);
    }
    if (seen > n / 3 && CHECKPOINTED.get() && FAILED.compareAndSet(false, true)) {
      throw new RuntimeException("injected failure (test)");
    }
    return r;
  }

  @Override
  public void notifyCheckpointComplete(long id) {
    if (seen > n / 4) {
      CHECKPOINTED.set(true);
    }
  }
}

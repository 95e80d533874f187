package io.swag.bench;

import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Planner rule "slice iff emit is window_end, the group uses a tree and gcd &gt;= 1000 ms"
 * ({@link Planner#MIN_SLICE_MS}), through the engine-free {@link io.swag.core.plan.LocalExecutor}:
 * one sliding window of 1 h with slide {@code slideMs} ({@code functions} of v, by default {@code max} and
 * {@code sum}, per key,
 * order {@code out_of_order}, so a {@code bfiba} tree), slicing forced {@code on} or {@code off} with
 * {@link io.swag.core.plan.GroupPlan#withSlicing}, over {@link ExecutorStream} (4 keys, 50 records/s
 * per key, random delays, watermark = max time - 2 s). One op = one record (including the window
 * rows it causes). Setup first streams 61 min of data so the window is full.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx8g", "-XX:+UseParallelGC"})
public class PlannerSlicingBench {
  static final int BATCH = 256;

  /** The window's slide in ms. */
  @Param({"100", "1000", "10000", "60000", "600000"})
  public long slideMs;

  /** Slicing forced {@code on} or {@code off}. */
  @Param({"on", "off"})
  public String slicing;

  /** The aggregates, '+'-separated: cheap ({@code max+sum}) or an expensive sketch ({@code kll}, {@code bloom}). */
  @Param({"max+sum"})
  public String functions;

  /** The number of keys. */
  @Param({"4"})
  public int keys;

  /** Records per second per key. */
  @Param({"50"})
  public int ratePerKey;

  private ExecutorStream stream;

  /** Builds the stream and the executor, and streams 61 min of data so the window is full. */
  @Setup(Level.Trial)
  public void setUp() {
    QuerySpec spec = QuerySpec.fromJson(PlannerSharingBench.spec(List.of(3_600_000L), slideMs, List.of(functions.split("\\+"))));
    Plan plan = Planner.plan(spec);
    boolean on = switch (slicing) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("slicing must be on or off, got " + slicing);
    };
    plan = plan.withGroup(0, plan.groups().get(0).withSlicing(on));
    stream = new ExecutorStream(plan, keys, ratePerKey);
    while (stream.streamMs() < 3_660_000L) {
      stream.feed(BATCH, null);
    }
  }

  /**
   * Processes a batch of records, one op each.
   *
   * @param bh consumes the rows it causes
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void record(Blackhole bh) {
    stream.feed(BATCH, bh);
  }
}

package io.swag.bench;

import io.swag.core.plan.GroupKind;
import io.swag.core.plan.GroupPlan;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import java.util.ArrayList;
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
 * Planner rule "all time windows of a query share one tree per key" (docs/query-spec.md "Plan"),
 * through the engine-free {@link io.swag.core.plan.LocalExecutor}: {@code k} sliding windows of
 * 64 min x i / k for i = 1 .. k (k = 4: 16, 32, 48, 64 min), slide 10 s, each with {@code max(v)} and {@code sum(v)}, per
 * key, order {@code out_of_order}, emit {@code window_end}, over {@link ExecutorStream} (4 keys,
 * 50 records/s per key, random delays).
 *
 * <ul>
 *   <li>{@code shared}: the planner's plan: one group, one {@code bfiba} tree per key, the largest
 *       window bounds eviction, the others are range queries;
 *   <li>{@code separate}: one group per window (each planned as a single-window query, so the same
 *       algorithm and arity), i.e. one tree per window and key. The plan API has no switch for this;
 *       the groups are built with the public {@link GroupPlan} constructor.
 * </ul>
 * {@code slicing}: {@code plan} (the planner's choice: on here, gcd 10 s) or {@code off}. One op =
 * one record (including the window rows it causes). Setup first streams 64 min of data so the
 * largest window is full.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx8g", "-XX:+UseParallelGC"})
public class PlannerSharingBench {
  static final int BATCH = 256;
  static final long MINUTE = 60_000;

  /** {@code shared} (the planner's plan) or {@code separate} (one group per window). */
  @Param({"shared", "separate"})
  public String sharing;

  /** The number of windows. */
  @Param({"2", "4", "8", "16"})
  public int k;

  /** {@code plan} (the planner's choice) or {@code off}. */
  @Param({"plan", "off"})
  public String slicing;

  /** The number of keys. */
  @Param({"4"})
  public int keys;

  /** Records per second per key. */
  @Param({"50"})
  public int ratePerKey;

  private ExecutorStream stream;

  static String spec(List<Long> sizes, long slide) {
    return spec(sizes, slide, List.of("max", "sum"));
  }

  /** Windows of {@code sizes}, each with one aggregate of v per function ({@code max0}, {@code sum0}, ...). */
  static String spec(List<Long> sizes, long slide, List<String> functions) {
    StringBuilder w = new StringBuilder();
    for (int j = 0; j < sizes.size(); j++) {
      w.append(j == 0 ? "" : ",").append("{\"kind\":\"time\",\"size\":").append(sizes.get(j)).append(",\"slide\":")
          .append(slide).append(",\"aggregates\":[");
      for (int f = 0; f < functions.size(); f++) {
        String fn = functions.get(f);
        w.append(f == 0 ? "" : ",").append("{\"output\":\"").append(fn).append(j).append("\",\"function\":\"")
            .append(fn).append("\",\"column\":\"v\"}");
      }
      w.append("]}");
    }
    return "{\"version\":1,\"key\":[\"k\"],\"time\":\"t\",\"lateness_ms\":0,\"order\":\"out_of_order\","
        + "\"emit\":\"window_end\",\"windows\":[" + w + "]}";
  }

  /** The plan with one group per window, each as the planner plans that window alone. */
  static Plan separate(QuerySpec spec, List<Long> sizes, long slide) {
    List<GroupPlan> groups = new ArrayList<>();
    for (int j = 0; j < sizes.size(); j++) {
      String one = spec(List.of(sizes.get(j)), slide).replace("\"max0\"", "\"max" + j + "\"")
          .replace("\"sum0\"", "\"sum" + j + "\"");
      GroupPlan g = Planner.plan(QuerySpec.fromJson(one)).groups().get(0);
      groups.add(new GroupPlan(GroupKind.TIME, List.of(j), g.algorithm(), g.minArity(), g.sliceMs(), g.slicing(), g.storedSlices(),
          g.product(), g.members(), j, List.of(), g.reasons()));
    }
    return new Plan(spec, groups);
  }

  /** Builds the stream and the executor, and streams 64 min of data so the largest window is full. */
  @Setup(Level.Trial)
  public void setUp() {
    List<Long> sizes = new ArrayList<>();
    for (int i = k; i >= 1; i--) {
      sizes.add(64 * MINUTE * i / k);
    }
    long slide = 10_000;
    QuerySpec spec = QuerySpec.fromJson(spec(sizes, slide));
    Plan plan = switch (sharing) {
      case "shared" -> Planner.plan(spec);
      case "separate" -> separate(spec, sizes, slide);
      default -> throw new IllegalArgumentException("sharing must be shared or separate, got " + sharing);
    };
    if (slicing.equals("off")) {
      for (int g = 0; g < plan.groups().size(); g++) {
        plan = plan.withGroup(g, plan.groups().get(g).withSlicing(false));
      }
    } else if (!slicing.equals("plan")) {
      throw new IllegalArgumentException("slicing must be plan or off, got " + slicing);
    }
    stream = new ExecutorStream(plan, keys, ratePerKey);
    while (stream.streamMs() < 64 * MINUTE + 60_000) {
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

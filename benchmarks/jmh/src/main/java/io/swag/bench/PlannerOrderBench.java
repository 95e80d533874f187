package io.swag.bench;

import io.swag.core.Algorithm;
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
 * Planner rules for the ordering hint, through the engine-free executor: one sliding window (1 h,
 * slide 1 min, max and sum of v) over an in-order or an out-of-order {@link ExecutorStream}. The
 * query's hint is {@code in_order} (planner: daba_lite), {@code unknown} (planner: adaptive, starts
 * in order and bulk-loads into FiBA at the first out-of-order record) or {@code out_of_order}
 * (planner: bfiba); {@code forced} replaces the planned algorithm, e.g. with {@code bfiba8} to
 * compare the planner's choice against FiBA on the same stream. {@code slicing=off} (default) turns
 * slicing off in every plan (the out_of_order plan would slice at this 1 min slide), so that only the
 * algorithm differs; {@code planned} keeps the planner's choice. One op = one record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx8g", "-XX:+UseParallelGC"})
public class PlannerOrderBench {
  static final int BATCH = 256;

  /** in_order or out_of_order: how the stream really arrives. */
  @Param({"in_order", "out_of_order"})
  public String stream;

  /** The query's ordering hint. */
  @Param({"in_order", "unknown", "out_of_order"})
  public String hint;

  /** The aggregates, '+'-separated: cheap ({@code max+sum}) or expensive ({@code bloom}, {@code kll}). */
  @Param({"max+sum"})
  public String functions;

  /** "off" (isolates the ordering rule) or "planned" (as the planner decides). */
  @Param({"off"})
  public String slicing;

  /** "planned", or an algorithm name forced into the plan. */
  @Param({"planned"})
  public String forced;

  private ExecutorStream s;
  private String algorithm;

  /** Builds the stream and the executor of the query's plan. */
  @Setup(Level.Trial)
  public void setUp() {
    String json = PlannerSharingBench.spec(List.of(3_600_000L), 60_000L, List.of(functions.split("\\+"))).replace("\"order\":\"out_of_order\"",
        "\"order\":\"" + hint + "\"");
    Plan plan = Planner.plan(QuerySpec.fromJson(json));
    if (!forced.equals("planned")) {
      String digits = forced.replaceAll("[^0-9]", "");
      int arity = digits.isEmpty() ? plan.groups().get(0).minArity() : Integer.parseInt(digits);
      plan = plan.withGroup(0, plan.groups().get(0).withAlgorithm(Algorithm.parse(forced), arity));
      if (!plan.groups().get(0).isTree()) { // an in-order algorithm cannot be sliced (a slice is replaced in place)
        plan = plan.withGroup(0, plan.groups().get(0).withSlicing(false));
      }
    }
    // slicing off in every plan: this benchmark isolates the ordering rule (PlannerSlicingBench measures slicing)
    if (slicing.equals("off")) {
      plan = plan.withGroup(0, plan.groups().get(0).withSlicing(false));
    }
    algorithm = plan.groups().get(0).algorithm().id();
    s = new ExecutorStream(plan, 4, 50, stream.equals("out_of_order"));
    while (s.streamMs() < 3_660_000L) {
      s.feed(BATCH, null);
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
    s.feed(BATCH, bh);
  }
}

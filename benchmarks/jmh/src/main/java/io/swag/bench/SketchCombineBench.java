package io.swag.bench;

import io.swag.core.fn.Hll;
import io.swag.core.fn.Kll;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One combine of two sketch partials, as a tree node's repair or a range query does it: {@code hll}
 * (lgK 12) and {@code kll} (k 200) over {@code distinct} values each, so small sizes keep hll in its
 * sparse (list/set) modes and large ones put it in HLL mode (4 KB of registers). One op = one
 * combine, which returns a new partial (partials are immutable).
 *
 * <p>Run: {@code java -jar benchmarks/jmh/target/benchmarks.jar SketchCombineBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g"})
public class SketchCombineBench {
  /** Distinct values in each sketch. */
  @Param({"16", "10000"})
  public int distinct;

  private final Hll hll = new Hll(12);
  private final Kll kll = new Kll(200, 0.95);
  private HllSketch h1;
  private HllSketch h2;
  private KllDoublesSketch k1;
  private KllDoublesSketch k2;

  /** Builds the two sketches of each kind. */
  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(5);
    h1 = hll.identity();
    h2 = hll.identity();
    k1 = kll.identity();
    k2 = kll.identity();
    for (int i = 0; i < distinct; i++) {
      h1 = hll.combine(h1, hll.lift((long) r.nextInt(), 0));
      h2 = hll.combine(h2, hll.lift((long) r.nextInt(), 0));
      k1 = kll.combine(k1, kll.lift(r.nextDouble(), 0));
      k2 = kll.combine(k2, kll.lift(r.nextDouble(), 0));
    }
  }

  /**
   * Combines two hll sketches.
   *
   * @return the combined sketch
   */
  @Benchmark
  public HllSketch hllCombine() {
    return hll.combine(h1, h2);
  }

  /**
   * Combines two kll sketches.
   *
   * @return the combined sketch
   */
  @Benchmark
  public KllDoublesSketch kllCombine() {
    return kll.combine(k1, k2);
  }
}

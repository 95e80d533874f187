package io.swag.bench;

import io.swag.core.TimedAggregator;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.lang.invoke.VarHandle;
import java.util.SplittableRandom;
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
 * The FiBA paper's out-of-order distance experiment (VLDB 2019, Section 5.1.1, Fig. 11): a window
 * of {@code n = 2^logN} entries, pre-populated with {@code n - d} low and {@code d} high times; each
 * round evicts the oldest entry, inserts the next low time (so exactly {@code d} entries are
 * younger: out-of-order distance d) and queries. One op = one round. d = 0 is the FIFO case, d = n
 * the degenerate LIFO case. {@code -p fence=true} adds a full fence per round, as the C++
 * reference's driver does ({@code benchmarks/jmh/vs_cpp.py}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx8g", "-XX:+UseParallelGC"})
public class OutOfOrderBench {
  static final int BATCH = 1024;
  static final int TABLE = 1 << 16;
  static final long HIGH = 1L << 62;

  /** The tree algorithm. */
  @Param({"bclassic4", "nbfiba4", "bfiba4"})
  public String algorithm;

  /** The aggregate function. */
  @Param({"sum"})
  public String function;

  /** The log2 of the window size n. */
  @Param({"22"})
  public int logN;

  /** Out-of-order distance: how many entries are younger than each inserted one. */
  @Param({"0", "1024", "1048576"})
  public int distance;

  /** A full memory fence at the start of each round (the C++ reference's seq_cst fence). */
  @Param({"false"})
  public boolean fence;

  private TimedAggregator w;
  private final double[] values = new double[TABLE];
  private long nextLow;
  private int k;

  /**
   * Builds the tree and fills its window with {@code d} high and then {@code n - d} low times, in the
   * order of the C++ reference's {@code ooo_benchmark} (the high entries are never evicted, so where
   * the fill leaves them stays part of the steady state).
   */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < TABLE; i++) {
      values[i] = 1 + r.nextInt(1_000_000);
    }
    w = Trees.create(algorithm, Functions.byName(function));
    int n = 1 << logN;
    if (distance > n) {
      throw new IllegalArgumentException("distance " + distance + " > window " + n);
    }
    for (int i = 0; i < distance; i++) { // the high times first, then the low ones, as the C++ driver fills
      w.insert(HIGH + i, values[k++ & (TABLE - 1)]);
    }
    for (int i = 0; i < n - distance; i++) {
      w.insert(nextLow++, values[k++ & (TABLE - 1)]);
    }
  }

  /**
   * A batch of rounds, one op each: evict, insert, query.
   *
   * @param bh consumes the query's result
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void round(Blackhole bh) {
    TimedAggregator w = this.w;
    double[] v = values;
    boolean f = fence;
    for (int i = 0; i < BATCH; i++) {
      if (f) {
        VarHandle.fullFence();
      }
      w.evict(w.oldestTime());
      w.insert(nextLow++, v[k++ & (TABLE - 1)]);
      bh.consume(w.queryDouble());
    }
  }
}

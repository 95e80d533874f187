package io.swag.bench;

import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
import java.lang.invoke.VarHandle;
import java.util.Map;
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
 * The papers' static-window throughput experiment: a window of {@code n} values, then rounds of
 * evict + insert + query. One op = one round. Values come from a pre-generated table so the
 * benchmark measures the aggregator, not the random generator.
 *
 * <p>Run: {@code java -jar benchmarks/jmh/target/benchmarks.jar FifoRoundBench -p algorithm=daba_lite -p
 * function=sum -p logN=22}. {@code -p fence=true} adds a full fence per round, as the C++
 * reference's driver does ({@code benchmarks/jmh/vs_cpp.py}); {@code bloomBits}/{@code bloomHashes} size
 * the {@code bloom} function (the C++ reference's filter: 4096 bits, 4 hashes).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx14g", "-XX:+UseParallelGC"})
public class FifoRoundBench {
  static final int BATCH = 1024;
  static final int TABLE = 1 << 16;

  /** The in-order algorithm. */
  @Param({"two_stacks", "two_stacks_lite", "daba", "daba_lite", "flatfit", "flatfat", "soe"})
  public String algorithm;

  /** The aggregate function. */
  @Param({"sum", "geomean", "bloom"})
  public String function;

  /** log2 of the window size. */
  @Param({"22"})
  public int logN;

  /** A full memory fence at the start of each round (the C++ reference's seq_cst fence). */
  @Param({"false"})
  public boolean fence;

  /** Bits of the {@code bloom} filter (the library's default). */
  @Param({"16384"})
  public int bloomBits;

  /** Hash probes of the {@code bloom} filter (the library's default). */
  @Param({"3"})
  public int bloomHashes;

  private FifoBase w;
  private final double[] values = new double[TABLE];
  private int next;

  /** Builds the aggregator and fills its window. */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < TABLE; i++) {
      values[i] = 1 + r.nextInt(1_000_000);
    }
    w = function.equals("bloom")
        ? Swag.fifo(algorithm, function, Map.of("bits", bloomBits, "hashes", bloomHashes))
        : Swag.fifo(algorithm, function);
    int n = 1 << logN;
    for (int i = 0; i < n; i++) {
      w.insert(values[next++ & (TABLE - 1)]);
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
    FifoBase w = this.w;
    double[] v = values;
    int k = next;
    boolean f = fence;
    for (int i = 0; i < BATCH; i++) {
      if (f) {
        VarHandle.fullFence();
      }
      w.evict();
      w.insert(v[k++ & (TABLE - 1)]);
      bh.consume(w.queryDouble());
    }
    next = k;
  }
}

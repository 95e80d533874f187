package io.swag.bench;

import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
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
 * Evict + insert + query rounds across window sizes 2^0 .. 2^22 (the papers' window-size sweep).
 * Worst-case O(1) algorithms stay flat; the cache-miss cost appears once the window leaves the
 * caches.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+UseParallelGC"})
public class WindowSizeBench {
  static final int BATCH = 1024;
  static final int TABLE = 1 << 16;

  @Param({"daba_lite"})
  public String algorithm;

  @Param({"sum"})
  public String function;

  @Param({"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18",
      "19", "20", "21", "22"})
  public int logN;

  private FifoBase w;
  private final double[] values = new double[TABLE];
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(2);
    for (int i = 0; i < TABLE; i++) {
      values[i] = 1 + r.nextInt(1_000_000);
    }
    w = Swag.fifo(algorithm, function);
    for (int i = 0; i < (1 << logN); i++) {
      w.insert(values[next++ & (TABLE - 1)]);
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void round(Blackhole bh) {
    FifoBase w = this.w;
    double[] v = values;
    int k = next;
    for (int i = 0; i < BATCH; i++) {
      w.evict();
      w.insert(v[k++ & (TABLE - 1)]);
      bh.consume(w.queryDouble());
    }
    next = k;
  }
}

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
 * Window sharing (FiBA paper, VLDB 2019, Section 5.1.3): {@code k} windows of {@code n, n/2, ...,
 * n/2^(k-1)} entries ({@code n = 2^logN}) over one stream, with out-of-order distance {@code d}.
 *
 * <ul>
 *   <li>{@code twin}: one tree per window ({@code k} trees of {@code algorithm}); each record is
 *       inserted into all of them, each evicts its own oldest entry and each is queried whole;
 *   <li>{@code shared}: one tree sized by the largest window; one insert, one evict, one whole
 *       query for the largest window and {@code k - 1} range queries {@code query(from, MAX)} for
 *       the smaller ones.
 * </ul>
 *
 * <p>The stream is {@link OutOfOrderBench}'s adversarial generator: every window holds its
 * {@code size - d} newest "low" times plus the same {@code d} "high" times, so each insert of the
 * next low time has exactly {@code d} younger entries in every tree. One op = one record (insert +
 * evictions + {@code k} queries), so the two modes are directly comparable. {@code -p fence=true}
 * adds a full fence per record, as the C++ reference's driver does ({@code benchmarks/jmh/vs_cpp.py}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx12g", "-XX:+UseParallelGC"})
public class WindowSharingBench {
  static final int BATCH = 1024;
  static final int TABLE = 1 << 16;
  static final long HIGH = 1L << 62;

  /** {@code twin} (one tree per window) or {@code shared} (one tree, range queries). */
  @Param({"twin", "shared"})
  public String mode;

  /** The number of windows. */
  @Param({"2", "4", "8"})
  public int k;

  /** The aggregate function. */
  @Param({"sum"})
  public String function;

  /** log2 of the largest window (bloom: use a smaller one, e.g. 16). */
  @Param({"20"})
  public int logN;

  /** The out-of-order distance d. */
  @Param({"0", "1024"})
  public int distance;

  /** The tree algorithm. */
  @Param({"bfiba4"})
  public String algorithm;

  /** A full memory fence at the start of each record (the C++ reference's seq_cst fence). */
  @Param({"false"})
  public boolean fence;

  private TimedAggregator[] trees;
  /** Number of low entries of each window (its size minus d). */
  private long[] lows;
  private TimedAggregator shared;
  private final double[] values = new double[TABLE];
  private long nextLow;
  private int v;

  /** Builds the trees and fills the windows. */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < TABLE; i++) {
      values[i] = 1 + r.nextInt(1_000_000);
    }
    int n = 1 << logN;
    lows = new long[k];
    for (int j = 0; j < k; j++) {
      long size = n >> j;
      if (size <= distance) {
        throw new IllegalArgumentException("window " + j + " of " + size + " entries <= distance " + distance);
      }
      lows[j] = size - distance;
    }
    int nt = mode.equals("twin") ? k : mode.equals("shared") ? 1 : -1;
    if (nt < 0) {
      throw new IllegalArgumentException("mode must be twin or shared, got " + mode);
    }
    trees = new TimedAggregator[nt];
    for (int j = 0; j < nt; j++) {
      trees[j] = Trees.create(algorithm, Functions.byName(function));
    }
    // low times 0 .. n-d-1; tree j holds the newest lows[j] of them, plus the d high times
    long first = n - distance;
    for (long t = 0; t < first; t++) {
      double x = values[v++ & (TABLE - 1)];
      for (int j = 0; j < nt; j++) {
        if (t >= first - lows[j]) {
          trees[j].insert(t, x);
        }
      }
    }
    for (int i = 0; i < distance; i++) {
      double x = values[v++ & (TABLE - 1)];
      for (int j = 0; j < nt; j++) {
        trees[j].insert(HIGH + i, x);
      }
    }
    nextLow = first;
    shared = trees[0];
    for (int j = 0; j < nt; j++) {
      if (trees[j].size() != lows[j] + distance) {
        throw new IllegalStateException("tree " + j + " holds " + trees[j].size());
      }
    }
  }

  /**
   * Processes a batch of records, one op each: per record insert, evictions and the windows' queries.
   *
   * @param bh consumes the queries' results
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void record(Blackhole bh) {
    if (trees.length == 1) {
      sharedRounds(bh);
      return;
    }
    TimedAggregator[] ts = trees;
    double[] vs = values;
    int kk = ts.length;
    boolean f = fence;
    for (int i = 0; i < BATCH; i++) {
      if (f) {
        VarHandle.fullFence();
      }
      long t = nextLow++;
      double x = vs[v++ & (TABLE - 1)];
      for (int j = 0; j < kk; j++) {
        TimedAggregator w = ts[j];
        w.evict(w.oldestTime());
        w.insert(t, x);
        bh.consume(w.queryDouble());
      }
    }
  }

  private void sharedRounds(Blackhole bh) {
    TimedAggregator w = shared;
    double[] vs = values;
    long[] lw = lows;
    int kk = lw.length;
    boolean f = fence;
    for (int i = 0; i < BATCH; i++) {
      if (f) {
        VarHandle.fullFence();
      }
      long t = nextLow++;
      w.evict(w.oldestTime());
      w.insert(t, vs[v++ & (TABLE - 1)]);
      bh.consume(w.queryDouble());
      for (int j = 1; j < kk; j++) {
        bh.consume(w.queryDouble(t - lw[j] + 1, Long.MAX_VALUE));
      }
    }
  }
}

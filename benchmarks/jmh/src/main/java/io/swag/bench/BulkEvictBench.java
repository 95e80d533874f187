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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The bulk paper's experiment (VLDB 2023, Section 7): a window of {@code n = 2^logN} entries; each
 * op evicts the {@code m} oldest entries with one {@code bulkEvict}, inserts {@code m} new ones in
 * time order with one {@code bulkInsert}, and queries. Reported per op (= m evictions + m inserts).
 * {@code nbfiba4} runs both bulk calls as loops of single operations: the baseline.
 *
 * <p>{@link #evictInsertsQuery} is the C++ reference's {@code bulk_evict_benchmark} loop instead: one
 * {@code bulkEvict} of the m oldest entries, then m single in-order inserts (each after a full fence
 * when {@code fence} is true, as the C++ driver fences each insert), then one query. Items per op = m.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx8g", "-XX:+UseParallelGC"})
public class BulkEvictBench {
  /** The tree algorithm. */
  @Param({"nbfiba4", "bfiba4"})
  public String algorithm;

  /** The aggregate function. */
  @Param({"sum"})
  public String function;

  /** The log2 of the window size n. */
  @Param({"20"})
  public int logN;

  /** Entries evicted and inserted per op. */
  @Param({"1", "64", "4096"})
  public int m;

  /**
   * A full memory fence before each single insert of {@link #evictInsertsQuery} and before the
   * {@code bulkInsert} of {@link #evictInsertQuery}, where the C++ drivers fence.
   */
  @Param({"false"})
  public boolean fence;

  private TimedAggregator w;
  private long[] times;
  private double[] values;
  private long next;

  /** Builds the tree and fills its window. */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(4);
    w = Trees.create(algorithm, Functions.byName(function));
    times = new long[m];
    values = new double[m];
    for (int i = 0; i < m; i++) {
      values[i] = 1 + r.nextInt(1000);
    }
    for (int i = 0; i < (1 << logN); i++) {
      w.insert(next++, values[i % m]);
    }
  }

  /**
   * One bulk evict, one bulk insert, one query.
   *
   * @param bh consumes the query's result
   */
  @Benchmark
  public void evictInsertQuery(Blackhole bh) {
    w.bulkEvict(w.oldestTime() + m - 1);
    for (int i = 0; i < m; i++) {
      times[i] = next++;
    }
    if (fence) {
      VarHandle.fullFence();
    }
    w.bulkInsert(times, values, 0, m);
    bh.consume(w.queryDouble());
  }

  /**
   * One bulk evict, m single inserts, one query.
   *
   * @param bh consumes the query's result
   */
  @Benchmark
  public void evictInsertsQuery(Blackhole bh) {
    TimedAggregator w = this.w;
    double[] v = values;
    int mm = m;
    boolean f = fence;
    long t = next;
    w.bulkEvict(w.oldestTime() + mm - 1);
    for (int i = 0; i < mm; i++) {
      if (f) {
        VarHandle.fullFence();
      }
      w.insert(t++, v[i]);
    }
    next = t;
    bh.consume(w.queryDouble());
  }
}

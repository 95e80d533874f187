package io.swag.bench;

import io.swag.core.Algorithm;
import io.swag.core.Swag;
import io.swag.core.TimedAggregator;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Per-operation latency (not a JMH benchmark: JMH's SampleTime mode times a random subset of the
 * invocations, which misses a spike that happens once every n rounds, such as Two-Stacks' flip).
 * Every round is timed: one {@link System#nanoTime()} per round into a preallocated {@code long[]},
 * then the percentiles are computed from the sorted array.
 *
 * <p>A round is {@link OutOfOrderBench}'s for the trees (evict the oldest, insert the next low time at
 * out-of-order distance d, query) and {@link FifoRoundBench}'s for the in-order algorithms (evict,
 * insert, query). After the window is filled, {@code warmup} untimed rounds let the JIT compile the
 * round, then {@code rounds} timed rounds run. Prints one JSON object (one line) on stdout.
 *
 * <p>Run (one configuration per JVM):
 * <pre>
 * java -Xms4g -Xmx16g -XX:+UseParallelGC -cp benchmarks/jmh/target/benchmarks.jar io.swag.bench.LatencyBench \
 *     algorithm=bfiba4 function=sum logN=22 distance=1048576 rounds=4194304 warmup=1048576
 * </pre>
 */
public final class LatencyBench {
  static final int TABLE = 1 << 16;
  static final long HIGH = 1L << 62;

  private LatencyBench() {}

  /**
   * Times every round and prints the percentiles.
   *
   * @param args not used
   */
  public static void main(String[] args) {
    String algorithm = "bfiba4";
    String function = "sum";
    int logN = 22;
    int distance = 0;
    int rounds = 1 << 22;
    int warmup = 1 << 20;
    for (String a : args) {
      String[] kv = a.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("expected key=value, got " + a);
      }
      switch (kv[0]) {
        case "algorithm" -> algorithm = kv[1];
        case "function" -> function = kv[1];
        case "logN" -> logN = Integer.parseInt(kv[1]);
        case "distance" -> distance = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + kv[0]);
      }
    }
    double[] values = new double[TABLE];
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < TABLE; i++) {
      values[i] = 1 + r.nextInt(1_000_000);
    }
    int n = 1 << logN;
    long[] lat = new long[rounds];
    Round round;
    boolean fifo = Algorithm.parse(algorithm).isFifo();
    if (fifo) {
      if (distance != 0) {
        throw new IllegalArgumentException("in-order algorithm " + algorithm + " needs distance=0");
      }
      round = new FifoRound(Swag.fifo(algorithm, function), values, n);
    } else {
      round = new TreeRound(Trees.create(algorithm, Functions.byName(function)), values, n, distance);
    }
    double sink = 0;
    long[] wl = new long[Math.max(1, warmup / 16)];
    for (int i = 0; i < 16; i++) { // several calls, so that run() itself is compiled, not only OSR
      sink += run(round, wl, wl.length);
    }
    long t0 = System.nanoTime();
    sink += run(round, lat, rounds);
    long total = System.nanoTime() - t0;
    long overhead = timerOverhead();
    long[] sorted = lat.clone();
    Arrays.sort(sorted);
    double mean = 0;
    for (long x : lat) {
      mean += x;
    }
    mean /= rounds;
    // where the 10 slowest rounds happened (round index), to see periodic spikes
    StringBuilder worst = new StringBuilder();
    long cut = sorted[Math.max(0, rounds - 10)];
    int found = 0;
    for (int i = 0; i < rounds && found < 10; i++) {
      if (lat[i] >= cut) {
        worst.append(found == 0 ? "" : ",").append(i);
        found++;
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "{\"algorithm\":\"%s\",\"function\":\"%s\",\"logN\":%d,\"distance\":%d,"
        + "\"rounds\":%d,\"warmup\":%d,\"rounds_per_s\":%.1f,\"mean_ns\":%.1f,\"timer_overhead_ns\":%d",
        algorithm, function, logN, distance, rounds, warmup, rounds / (total / 1e9), mean, overhead));
    double[] ps = {50, 90, 99, 99.9, 99.99, 99.999};
    String[] names = {"p50", "p90", "p99", "p99.9", "p99.99", "p99.999"};
    for (int i = 0; i < ps.length; i++) {
      int at = (int) Math.min(rounds - 1, Math.ceil(ps[i] / 100.0 * rounds) - 1);
      sb.append(",\"").append(names[i]).append("_ns\":").append(sorted[Math.max(0, at)]);
    }
    sb.append(",\"max_ns\":").append(sorted[rounds - 1]);
    sb.append(",\"worst_rounds\":[").append(worst).append("]");
    sb.append(",\"sink\":").append(sink == 42.4242 ? 1 : 0).append('}');
    System.out.println(sb);
  }

  /** Median cost of two back-to-back nanoTime calls. */
  private static long timerOverhead() {
    long[] d = new long[1 << 16];
    for (int i = 0; i < d.length; i++) {
      long a = System.nanoTime();
      d[i] = System.nanoTime() - a;
    }
    Arrays.sort(d);
    return d[d.length / 2];
  }

  private static double run(Round round, long[] lat, int rounds) {
    double sink = 0;
    long prev = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      sink += round.round();
      long now = System.nanoTime();
      lat[i] = now - prev;
      prev = now;
    }
    return sink;
  }

  private interface Round {
    double round();
  }

  private static final class FifoRound implements Round {
    final FifoBase w;
    final double[] values;
    int k;

    FifoRound(FifoBase w, double[] values, int n) {
      this.w = w;
      this.values = values;
      for (int i = 0; i < n; i++) {
        w.insert(values[k++ & (TABLE - 1)]);
      }
    }

    @Override
    public double round() {
      w.evict();
      w.insert(values[k++ & (TABLE - 1)]);
      return w.queryDouble();
    }
  }

  private static final class TreeRound implements Round {
    final TimedAggregator w;
    final double[] values;
    long nextLow;
    int k;

    TreeRound(TimedAggregator w, double[] values, int n, int distance) {
      this.w = w;
      this.values = values;
      if (distance > n) {
        throw new IllegalArgumentException("distance " + distance + " > window " + n);
      }
      for (int i = 0; i < n - distance; i++) {
        w.insert(nextLow++, values[k++ & (TABLE - 1)]);
      }
      for (int i = 0; i < distance; i++) {
        w.insert(HIGH + i, values[k++ & (TABLE - 1)]);
      }
    }

    @Override
    public double round() {
      w.evict(w.oldestTime());
      w.insert(nextLow++, values[k++ & (TABLE - 1)]);
      return w.queryDouble();
    }
  }
}

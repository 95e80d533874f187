package io.swag.bench;

import io.swag.core.Algorithm;
import io.swag.core.Swag;
import io.swag.core.TimedAggregator;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * Live-heap growth per entry of one aggregator filled in order with {@code 2^logN} entries (values
 * {@code 1 + i % 101}, the C++ reference's stream): the heap used after full GCs, minus the same
 * before the fill, divided by the entry count. A plain main, not a JMH benchmark; {@code
 * benchmarks/jmh/vs_cpp.py} sets it beside the C++ drivers' peak RSS per entry.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.swag.bench.MemoryPerEntry ALGORITHM FUNCTION LOGN};
 * prints {@code bytes_per_entry X}.
 */
public final class MemoryPerEntry {
  private MemoryPerEntry() {}

  static long heapUsed() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  /**
   * Fills one aggregator and prints the heap growth per entry.
   *
   * @param args the algorithm, the function and the log2 of the entry count
   */
  public static void main(String[] args) {
    String algorithm = args.length > 0 ? args[0] : "daba_lite";
    String function = args.length > 1 ? args[1] : "sum";
    int lg = args.length > 2 ? Integer.parseInt(args[2]) : 22;
    int n = 1 << lg;
    long before = heapUsed();
    Object kept;
    long size;
    if (Algorithm.parse(algorithm).isFifo()) {
      FifoBase w = Swag.fifo(algorithm, function);
      for (int i = 0; i < n; i++) {
        w.insert(1 + (i % 101));
      }
      size = w.size();
      kept = w;
    } else {
      TimedAggregator w = Trees.create(algorithm, Functions.byName(function));
      for (int i = 0; i < n; i++) {
        w.insert(i, 1 + (i % 101));
      }
      size = w.size();
      kept = w;
    }
    long after = heapUsed();
    Reference.reachabilityFence(kept);
    System.out.printf(Locale.ROOT, "algorithm %s function %s n %d size %d%n", algorithm, function, n, size);
    System.out.printf(Locale.ROOT, "bytes_per_entry %.2f%n", (after - before) / (double) n);
  }
}

package io.swag.core.ooo;

import io.swag.core.fn.Functions;
import java.util.SplittableRandom;

/**
 * Bytes per entry of the tree variants with long times and {@code sum} (one double per partial):
 * from the node pool's array sizes (including free capacity; and the part in the node ids handed out
 * so far, without the pool's growth slack) and from the heap after GC.
 * Usage: {@code MemoryReport [log2 n]} (default 22).
 */
public final class MemoryReport {
  private MemoryReport() {}

  /** Fills a tree with {@code n} entries: in order, or (ooo) with random out-of-order distances. */
  static BTreeCore fill(String algorithm, int n, boolean ooo, long seed) {
    BTreeCore t = (BTreeCore) Trees.create(algorithm, Functions.byName("sum"));
    SplittableRandom r = new SplittableRandom(seed);
    long now = 0;
    for (int i = 0; i < n; i++) {
      now += 1_000;
      long time = ooo ? now - 1_000L * r.nextInt(1 + i) + 1 + r.nextInt(998) : now;
      t.insert(time, (double) (i & 1023));
    }
    return t;
  }

  /** Slides a full window of {@code n}: evict the oldest, insert a new youngest, {@code rounds} times. */
  static void slide(BTreeCore t, int rounds) {
    long now = t.youngestTime();
    for (int i = 0; i < rounds; i++) {
      t.evict(t.oldestTime());
      now += 1_000;
      t.insert(now, 1.0);
    }
  }

  static long heapUsed() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  public static void main(String[] args) {
    int lg = args.length > 0 ? Integer.parseInt(args[0]) : 22;
    int n = 1 << lg;
    for (String a : new String[] {"bclassic2", "bclassic4", "fiba2", "fiba4", "bfiba4", "fiba8"}) {
      for (boolean ooo : new boolean[] {false, true}) {
        long before = heapUsed();
        BTreeCore t = fill(a, n, ooo, 1);
        slide(t, n / 4);
        long after = heapUsed();
        double arrays = t.allocatedBytes(1) / (double) t.size();
        System.out.printf("%-10s %-9s n=2^%d size=%d arrays %.1f B/entry (%.1f in nodes handed out), heap %.1f B/entry,"
            + " height %d%n", a, ooo ? "ooo" : "in-order", lg, t.size(), arrays, arrays * t.nodeHigh / t.nodeCap,
            (after - before) / (double) t.size(), t.height());
        t = null;
      }
    }
  }
}

package io.swag.core.ooo;

import io.swag.core.fn.Functions;

/**
 * Rough wall-clock comparison of {@code bulkInsert} (bfiba4) against the loop of single inserts
 * (fiba4) with {@code sum}: a window of n (times 2i) gets a bulk of m sorted records, in order or
 * interleaved over the youngest 4m entries, then is cut back by {@code bulkEvict}; only the insert
 * is timed. Usage: {@code BulkInsertTiming [log2 n] [log2 m]...} (defaults 20; 10 14).
 */
public final class BulkInsertTiming {
  private BulkInsertTiming() {}

  static double nsPerRecord(String algorithm, int n, int m, boolean inOrder, int rounds) {
    BTreeCore t = (BTreeCore) Trees.create(algorithm, Functions.byName("sum"));
    long[] ts = new long[Math.max(n, m)];
    double[] vs = new double[ts.length];
    for (int i = 0; i < n; i++) {
      ts[i] = 2L * i;
      vs[i] = i % 7;
    }
    t.bulkInsert(ts, vs, 0, n);
    long youngest = 2L * (n - 1);
    long elapsed = 0;
    for (int r = 0; r < rounds; r++) {
      long d = 4L * m;
      for (int i = 0; i < m; i++) {
        ts[i] = inOrder ? youngest + 2 + 2L * i : youngest - 2 * d + 2 * ((i * d) / m) + 1;
        vs[i] = i % 5;
      }
      long t0 = System.nanoTime();
      t.bulkInsert(ts, vs, 0, m);
      elapsed += System.nanoTime() - t0;
      youngest = Math.max(youngest, ts[m - 1]);
      // cut back to about n entries (the oldest region holds even times only)
      int excess = t.size() - n;
      if (excess > 0) {
        t.bulkEvict(t.oldestTime() + 2L * (excess - 1));
      }
    }
    return elapsed / (double) rounds / m;
  }

  public static void main(String[] args) {
    int lgN = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int[] lgMs = args.length > 1 ? new int[args.length - 1] : new int[] {10, 14};
    for (int i = 1; i < args.length; i++) {
      lgMs[i - 1] = Integer.parseInt(args[i]);
    }
    int n = 1 << lgN;
    for (int lgM : lgMs) {
      int m = 1 << lgM;
      int rounds = Math.max(8, Math.min(200, (1 << 22) / m));
      for (boolean inOrder : new boolean[] {true, false}) {
        for (int rep = 0; rep < 3; rep++) { // warm-up, then report the last
          double b = nsPerRecord("bfiba4", n, m, inOrder, rounds);
          double s = nsPerRecord("fiba4", n, m, inOrder, rounds);
          if (rep == 2) {
            System.out.printf("n=2^%d m=2^%d %-11s bulkInsert bfiba4 %.1f ns/record, fiba4 single inserts %.1f ns/record (%.2fx)%n",
                lgN, lgM, inOrder ? "in order" : "d=4m", b, s, s / b);
          }
        }
      }
    }
  }
}

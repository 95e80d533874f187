package io.swag.core.plan;

/**
 * The stable order of a batch by time, on primitive arrays (no boxing, no comparator object): the
 * permutation {@code p} with {@code ts[p[0]] <= ts[p[1]] <= ...}, equal times in index order.
 *
 * <p>Cost: O(n) when {@code ts} is already non-decreasing (the common case of an in-order batch),
 * else O(n log n) (a bottom-up merge sort over runs of 32 sorted by insertion), with two
 * {@code int[n]} arrays.
 */
public final class TimeOrder {
  private static final int RUN = 32;

  private TimeOrder() {}

  /**
   * The stable permutation sorting {@code ts[0..n)}.
   *
   * @param ts the times
   * @param n the number of times
   * @return the permutation
   */
  public static int[] of(long[] ts, int n) {
    int[] a = new int[n];
    boolean sorted = true;
    for (int i = 0; i < n; i++) {
      a[i] = i;
      if (i > 0 && ts[i] < ts[i - 1]) {
        sorted = false;
      }
    }
    if (sorted) {
      return a;
    }
    for (int lo = 0; lo < n; lo += RUN) {
      int hi = Math.min(n, lo + RUN);
      for (int i = lo + 1; i < hi; i++) {
        int x = a[i];
        long t = ts[x];
        int j = i - 1;
        while (j >= lo && ts[a[j]] > t) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = x;
      }
    }
    int[] b = new int[n];
    for (int w = RUN; w < n; w *= 2) {
      for (int lo = 0; lo < n; lo += 2 * w) {
        int mid = Math.min(n, lo + w);
        int hi = Math.min(n, lo + 2 * w);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
          b[k++] = ts[a[j]] < ts[a[i]] ? a[j++] : a[i++];
        }
        while (i < mid) {
          b[k++] = a[i++];
        }
        while (j < hi) {
          b[k++] = a[j++];
        }
      }
      int[] s = a;
      a = b;
      b = s;
    }
    return a;
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TimeOrder} equals a boxed stable sort (the one it replaced) on seeded random batches. */
class TimeOrderTest {
  static int[] reference(long[] ts, int n) {
    Integer[] o = new Integer[n];
    for (int i = 0; i < n; i++) {
      o[i] = i;
    }
    Arrays.sort(o, (a, b) -> Long.compare(ts[a], ts[b])); // stable (TimSort)
    return Arrays.stream(o).mapToInt(Integer::intValue).toArray();
  }

  @Test
  void equalsStableBoxedSort() {
    Random r = new Random(11);
    int[] sizes = {0, 1, 2, 31, 32, 33, 63, 64, 65, 100, 1000, 4097};
    for (int n : sizes) {
      for (int trial = 0; trial < 20; trial++) {
        long[] ts = new long[n + 3]; // longer than n: only the first n count
        int kind = trial % 4;
        for (int i = 0; i < ts.length; i++) {
          ts[i] = switch (kind) {
            case 0 -> r.nextInt(5); // many equal times
            case 1 -> i - r.nextInt(50); // nearly in order
            case 2 -> ts.length - i; // descending
            default -> r.nextLong();
          };
        }
        assertArrayEquals(reference(ts, n), TimeOrder.of(ts, n), "n=" + n + " kind=" + kind);
      }
    }
  }
}

package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link AlignedStart} against the formula it remembers, {@code t - floorMod(t - offset, period)}
 * (and, for offset 0, {@code floorDiv(t, period) * period}, the slice start), on seeded random
 * sequences: in-order walks with steps below, at and above the period (the remembered answers), jumps
 * back and far ahead, and times, offsets and periods at the edges of a {@code long}.
 */
class AlignedStartTest {

  private static long formula(long t, long period, long offset) {
    return t - Math.floorMod(t - offset, period);
  }

  @Test
  void equalsTheFormulaOnRandomWalks() {
    long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1L << 60,
        -(1L << 60), (1L << 60) - 1, -(1L << 60) + 1, 1L << 61, 1L << 62, -(1L << 62)};
    for (long seed = 0; seed < 200; seed++) {
      Random rnd = new Random(seed);
      long period = switch (rnd.nextInt(5)) {
        case 0 -> 1 + rnd.nextInt(3);
        case 1 -> 1 + rnd.nextInt(100);
        case 2 -> 16;
        case 3 -> 1L << (40 + rnd.nextInt(23)); // up to 2^62, beyond the remembered range
        default -> 1 + (rnd.nextLong() >>> 1);
      };
      long offset = switch (rnd.nextInt(4)) {
        case 0 -> 0;
        case 1 -> rnd.nextInt(1000) - 500;
        case 2 -> edges[rnd.nextInt(edges.length)];
        default -> rnd.nextLong();
      };
      AlignedStart a = new AlignedStart(period, offset);
      long t = rnd.nextBoolean() ? rnd.nextInt(10_000) - 5_000 : edges[rnd.nextInt(edges.length)];
      for (int i = 0; i < 2_000; i++) {
        int op = rnd.nextInt(20);
        if (op == 0) {
          t = edges[rnd.nextInt(edges.length)] + rnd.nextInt(7) - 3;
        } else if (op == 1) {
          t -= rnd.nextInt(3 * (int) Math.min(period, 1000) + 1); // back
        } else if (op == 2) {
          t = rnd.nextLong();
        } else {
          long step = switch (rnd.nextInt(4)) {
            case 0 -> 0;
            case 1 -> Math.min(period, 1L << 40) - 1;
            case 2 -> Math.min(period, 1L << 40);
            default -> rnd.nextInt(2 * (int) Math.min(period, 1000) + 2);
          };
          t += step; // wraps at the edges too: the formula's answer wraps the same way
        }
        assertEquals(formula(t, period, offset), a.floor(t),
            "t " + t + " period " + period + " offset " + offset + " seed " + seed + " op " + i);
        if (offset == 0) {
          assertEquals(Math.floorDiv(t, period) * period, a.floor(t), "slice start of " + t + " seed " + seed);
        }
      }
    }
  }
}

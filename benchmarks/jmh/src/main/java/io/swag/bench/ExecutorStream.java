package io.swag.bench;

import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Plan;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A synthetic keyed, out-of-order stream for the planner benchmarks, fed to a {@link LocalExecutor}
 * through its fast path ({@code process(Object[])}, columns {@code k, t, v}).
 *
 * <p>{@code keys} keys (a random key per record), {@code ratePerKey} records per
 * second per key on average: the arrival clock advances by {@code 1000 / (keys * ratePerKey)} ms per
 * record; the event time is the arrival clock minus a random delay (exponential, mean
 * {@link #MEAN_DELAY_MS}), so about half of the records are out of order. The watermark is the
 * largest event time seen minus {@link #WATERMARK_DELAY_MS}, advanced every {@link #WM_EVERY}
 * records; the few records delayed by more than that are late (counted by the executor). Rows, late
 * records are drained after every batch. The row arrays are fresh per record (the executor keeps
 * them while their slice or entry lives).
 */
final class ExecutorStream {
  static final int TABLE = 1 << 16;
  static final long MEAN_DELAY_MS = 500;
  static final long WATERMARK_DELAY_MS = 2000;
  static final int WM_EVERY = 32;

  final LocalExecutor ex;
  private final Long[] keys;
  private final int[] keyIdx = new int[TABLE];
  private final long[] delay = new long[TABLE];
  private final Double[] values = new Double[TABLE];
  private final double stepMs;
  private long count;
  private long maxTime = Long.MIN_VALUE;
  long emitted;

  ExecutorStream(Plan plan, int keys, int ratePerKey) {
    this(plan, keys, ratePerKey, true);
  }

  /** {@code outOfOrder = false}: no delays, every key's records arrive in event-time order. */
  ExecutorStream(Plan plan, int keys, int ratePerKey, boolean outOfOrder) {
    ex = new LocalExecutor(plan, List.of("k", "t", "v"));
    this.keys = new Long[keys];
    for (int i = 0; i < keys; i++) {
      this.keys[i] = (long) i;
    }
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < TABLE; i++) {
      keyIdx[i] = r.nextInt(keys);
      delay[i] = outOfOrder ? (long) (-MEAN_DELAY_MS * Math.log(1 - r.nextDouble())) : 0;
      values[i] = (double) (1 + r.nextInt(100_000));
    }
    stepMs = 1000.0 / ((double) keys * ratePerKey);
  }

  /** Feeds {@code records} records (and the watermark), drains the output. */
  void feed(int records, Blackhole bh) {
    for (int b = 0; b < records; b++) {
      int j = (int) (count & (TABLE - 1));
      long t = (long) (count * stepMs) - delay[j];
      count++;
      ex.process(new Object[] {keys[keyIdx[j]], t, values[j]});
      if (t > maxTime) {
        maxTime = t;
      }
      if ((count & (WM_EVERY - 1)) == 0) {
        ex.advanceWatermark(maxTime - WATERMARK_DELAY_MS);
      }
    }
    int rows = ex.takeRows().size();
    emitted += rows;
    if (bh != null) {
      bh.consume(rows);
      bh.consume(ex.takeLate().size());
    } else {
      ex.takeLate();
    }
  }

  /** Stream time covered so far, ms. */
  long streamMs() {
    return (long) (count * stepMs);
  }
}

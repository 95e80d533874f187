package io.swag.flink;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.types.Row;

/**
 * A pass-through map (parallelism 1) that throws once, on the first row after a checkpoint
 * completed past a quarter of the {@code n} input rows and past a third of them, so that the job
 * restores from a checkpoint in mid-input. {@link #arm} before each job; {@link #failed} after it.
 */
public final class FailOnce extends RichMapFunction<Row, Row> implements CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static final AtomicBoolean CHECKPOINTED = new AtomicBoolean();
  private final int n;
  private long seen;

  public FailOnce(int n) {
    this.n = n;
  }

  /** Resets the flags for the next job: it fails once if {@code fail}. */
  public static void arm(boolean fail) {
    FAILED.set(!fail);
    CHECKPOINTED.set(false);
  }

  /** Whether the failure was thrown (or, for an unarmed job, not asked for). */
  public static boolean failed() {
    return FAILED.get();
  }

  @Override
  public void open(OpenContext ctx) {
    seen = 0;
  }

  @Override
  public Row map(Row r) {
    seen++;
    if (seen > n / 3 && CHECKPOINTED.get() && FAILED.compareAndSet(false, true)) {
      throw new RuntimeException("injected failure (test)");
    }
    return r;
  }

  @Override
  public void notifyCheckpointComplete(long id) {
    if (seen > n / 4) {
      CHECKPOINTED.set(true);
    }
  }
}

package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A count window: per key a FIFO aggregator (the plan's in-order algorithm) over the key's last
 * {@code size} records in arrival order; each record is inserted (lift argument: its time), the
 * oldest evicted beyond {@code size}. Emits a row every {@code slide} records of the key
 * ({@code window_end}) or at every record ({@code per_record}), with {@code window_start} = number
 * of records before the window and {@code window_end} = the key's record count. O(1) worst case per
 * record with DABA Lite. Count windows never make a record late.
 */
final class CountGroupExecutor extends GroupExecutor {
  private final Map<Object, State> states = new HashMap<>();
  private final WindowSpec w;

  private static final class State {
    final FifoBase fifo;
    long count;

    State(FifoBase fifo) {
      this.fifo = fifo;
    }
  }

  CountGroupExecutor(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex, List<Map<String, Object>> out) {
    super(spec, plan, columnIndex, out);
    this.w = windows[0];
    if (!Swag.FIFO_ALGORITHMS.contains(plan.algorithm())) {
      throw new SwagException(Kind.INVALID_QUERY, "count window '" + w.name() + "': algorithm '" + plan.algorithm()
          + "' is not an in-order algorithm (" + Swag.FIFO_ALGORITHMS + ")");
    }
  }

  /** A key's FIFO aggregator of the plan's in-order algorithm. */
  private FifoBase newFifo() {
    return Swag.fifo(plan.algorithm(), fn);
  }

  @Override
  ExecutedPlan.Group executed() {
    return ExecutedPlan.Group.ofCount(spec, plan.windows().get(0), newFifo());
  }

  @Override
  boolean accepts(long t) {
    return true;
  }

  @Override
  void process(Object key, Object[] keyValues, long t, Object[] row) {
    State s = states.get(key);
    if (s == null) {
      s = new State(newFifo());
      states.put(key, s);
    }
    s.fifo.insertArg((Object) row, t);
    s.count++;
    if (s.fifo.size() > w.size()) {
      s.fifo.evict();
    }
    if (spec.perRecord() || s.count % w.slide() == 0) {
      emit(keyValues, 0, s.count - s.fifo.size(), s.count, s.fifo.query());
    }
  }

  @Override
  void advance(long watermark) {}
}

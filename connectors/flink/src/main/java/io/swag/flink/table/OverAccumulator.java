package io.swag.flink.table;

import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fn.Functions;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.annotation.DataTypeHint;

/**
 * Accumulator of the {@link SwagOverFunction}s: the rows of the OVER frame in arrival order, held
 * by an in-order (FIFO) aggregator, DABA Lite, so accumulating and retracting the oldest row cost
 * O(1) worst case whatever the function. The raw values are kept too (a ring, for checking which
 * row a retraction refers to, and for the serializer, which rebuilds the aggregator).
 *
 * <p>Flink's bounded OVER operators retract exactly the rows that fell out of the frame, which are
 * the oldest ones, but a RANGE frame retracts them in map order; a retracted value that is not the
 * oldest is parked in a multiset until it is, so the result is exact either way (equal values are
 * interchangeable).
 */
@DataTypeHint(value = "RAW", bridgedTo = OverAccumulator.class, rawSerializer = OverAccumulatorSerializer.class)
public final class OverAccumulator {
  static final String ALGORITHM = "daba_lite";

  final String function;
  /** Quantile rank, NaN when the function has none. */
  double rank = Double.NaN;
  FifoBase fifo;
  final ArrayDeque<Object> values = new ArrayDeque<>();
  private Map<Object, int[]> pending;
  private int pendingCount;
  private long seq;

  public OverAccumulator(String function) {
    this.function = function;
  }

  void ensure(double rank) {
    if (fifo == null) {
      this.rank = rank;
      fifo = Double.isNaN(rank)
          ? Swag.fifo(ALGORITHM, Functions.byName(function))
          : Swag.fifo(ALGORITHM, Functions.byName(function, Map.of("rank", rank)));
    }
  }

  void add(Object v) {
    ensure(rank);
    fifo.insertArg(v, seq++); // throws (IllegalArgumentException) before changing anything
    values.addLast(v);
  }

  void retract(Object v) {
    if (values.isEmpty()) {
      throw new IllegalStateException("swag " + function + ": retract of " + v + " from an empty OVER frame");
    }
    if (pendingCount == 0 && v.equals(values.peekFirst())) {
      values.pollFirst();
      fifo.evict();
      return;
    }
    if (pending == null) {
      pending = new HashMap<>();
    }
    pending.computeIfAbsent(v, k -> new int[1])[0]++;
    pendingCount++;
    while (pendingCount > 0 && !values.isEmpty()) {
      int[] c = pending.get(values.peekFirst());
      if (c == null) {
        break;
      }
      if (--c[0] == 0) {
        pending.remove(values.peekFirst());
      }
      pendingCount--;
      values.pollFirst();
      fifo.evict();
    }
  }

  Object query() {
    return fifo == null || values.isEmpty() ? null : fifo.query();
  }

  /** A deep copy (rebuilds the aggregator from the values). */
  OverAccumulator copy() {
    OverAccumulator c = new OverAccumulator(function);
    c.rank = rank;
    if (fifo != null) {
      c.ensure(rank);
      for (Object v : values) {
        c.add(v);
      }
    }
    if (pending != null) {
      for (Map.Entry<Object, int[]> e : pending.entrySet()) {
        for (int i = 0; i < e.getValue()[0]; i++) {
          c.retract(e.getKey());
        }
      }
    }
    return c;
  }

  void copyPendingFrom(OverAccumulator o) {
    pending = o.pending;
    pendingCount = o.pendingCount;
    seq = 0;
  }

  Map<Object, int[]> pending() {
    return pending;
  }
}

package io.swag.flink.table;

import java.util.Map;
import org.apache.flink.table.api.dataview.MapView;

/**
 * Accumulator of the {@link SwagOverFunction}s: one key's OVER frame as Flink state. The frame's
 * values are a {@link MapView} from a sequence number to the value, {@code [head, tail)} the
 * sequence numbers in the frame. Flink backs the view by a {@code MapState} of the key (the OVER
 * operators use state-backed data views), so a row costs one put and a retraction one remove,
 * whatever the frame: nothing is written in proportion to the frame.
 *
 * <p>The aggregation itself lives on the heap, in the function's cache of {@link OverFrame}s, found
 * by {@link #token}; a key whose frame is not cached (first row after a restore, or dropped by the
 * bounded cache) rebuilds it from the view once.
 *
 * <p>Invariants: {@code head <= tail}; the view holds exactly the keys {@code head .. tail - 1};
 * {@link #token} is a random non-zero number drawn when the accumulator is created; {@code pending}
 * is null or a multiset, by {@link String#valueOf} (equal exactly when the values are), of values
 * retracted before the oldest value of the frame was (a RANGE frame retracts in map order; equal
 * values are interchangeable).
 */
public abstract class OverAccumulator {
  /** Identifies the key's frame in the function's cache. */
  public long token;
  /** Sequence number of the oldest value in the frame. */
  public long head;
  /** Sequence number the next value gets. */
  public long tail;
  /** Quantile rank, NaN when the function has none. */
  public double rank = Double.NaN;
  /** Retractions waiting for the oldest value (rare; null when none). */
  public Map<String, Integer> pending;

  abstract MapView<Long, ?> view();

  abstract Object value(long seq) throws Exception;

  abstract void putValue(long seq, Object v) throws Exception;

  /** Frame of DOUBLE values. */
  public static final class OfDouble extends OverAccumulator {
    /** The frame's values by sequence number, in state. */
    public MapView<Long, Double> values = new MapView<>();

    @Override
    MapView<Long, ?> view() {
      return values;
    }

    @Override
    Object value(long seq) throws Exception {
      return values.get(seq);
    }

    @Override
    void putValue(long seq, Object v) throws Exception {
      values.put(seq, (Double) v);
    }
  }

  /**
   * Frame of distinct-count keys: strings, or longs written in decimal ({@link #longs}) and read
   * back as longs, so that the sketch hashes what the user gave.
   */
  public static final class OfKey extends OverAccumulator {
    /** The frame's keys by sequence number, in state. */
    public MapView<Long, String> values = new MapView<>();
    /** Whether the values are BIGINTs (else strings). */
    public boolean longs;

    @Override
    MapView<Long, ?> view() {
      return values;
    }

    @Override
    Object value(long seq) throws Exception {
      String s = values.get(seq);
      return s == null ? null : longs ? (Object) Long.parseLong(s) : s;
    }

    @Override
    void putValue(long seq, Object v) throws Exception {
      values.put(seq, v.toString());
    }
  }
}

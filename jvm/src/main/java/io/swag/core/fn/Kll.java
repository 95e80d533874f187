package io.swag.core.fn;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * Quantiles with a DataSketches KLL sketch ({@code k} default 200: about 1.3% rank error). Mergeable,
 * commutative in distribution (merges are randomized), not invertible. With option {@code rank}
 * the result is the quantile at that rank (a double, NaN when empty); without, a
 * {@link Kll.Quantiles} object. Byte form: the sketch's own serialization, so slices can be
 * pre-aggregated before a shuffle (a merge of read pieces is equal in distribution, like every merge).
 */
public final class Kll implements AggregateFunction<Object, KllDoublesSketch, Object>, ByteForm<KllDoublesSketch> {
  private final int k;
  private final double rank;
  private final KllDoublesSketch empty;

  /** A quantile summary of the window. */
  public static final class Quantiles implements Structured {
    private final KllDoublesSketch s;

    Quantiles(KllDoublesSketch s) {
      this.s = s;
    }

    /**
     * The quantile at a rank.
     *
     * @param rank the rank, in 0..1
     * @return the quantile, or NaN when empty
     */
    public double quantile(double rank) {
      return s.isEmpty() ? Double.NaN : s.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE);
    }

    /**
     * The number of values summarized.
     *
     * @return the number of values
     */
    public long n() {
      return s.getN();
    }

    @Override
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("n", n());
      if (!s.isEmpty()) {
        m.put("min", s.getMinItem());
        m.put("p50", quantile(0.5));
        m.put("p90", quantile(0.9));
        m.put("p95", quantile(0.95));
        m.put("p99", quantile(0.99));
        m.put("max", s.getMaxItem());
      }
      return m;
    }

    /** {@link #toMap()} as text: n, min, p50, p90, p95, p99, max. */
    @Override
    public String toString() {
      return toMap().toString();
    }
  }

  /**
   * A KLL sketch function.
   *
   * @param k the sketch's size parameter, in 8..65535
   * @param rank the rank of the quantile to return, or NaN for a {@link Kll.Quantiles} result
   */
  public Kll(int k, double rank) {
    if (k < 8 || k > 65535) {
      throw new SwagException(Kind.INVALID_OPTION, "kll option 'k' must be in 8..65535, got " + k);
    }
    if (!Double.isNaN(rank) && !(rank >= 0 && rank <= 1)) {
      throw new SwagException(Kind.INVALID_OPTION, "kll option 'rank' must be in [0, 1], got " + rank);
    }
    this.k = k;
    this.rank = rank;
    this.empty = KllDoublesSketch.newHeapInstance(k);
  }

  @Override
  public String name() {
    return "kll";
  }

  @Override
  public KllDoublesSketch identity() {
    return empty;
  }

  @Override
  public KllDoublesSketch lift(Object value, long arg) {
    KllDoublesSketch s = KllDoublesSketch.newHeapInstance(k);
    s.update(io.swag.core.Inputs.toDouble("kll", value));
    return s;
  }

  @Override
  public KllDoublesSketch combine(KllDoublesSketch older, KllDoublesSketch newer) {
    if (newer.isEmpty()) {
      return older;
    }
    if (older.isEmpty()) {
      return newer;
    }
    KllDoublesSketch r = KllDoublesSketch.newHeapInstance(k);
    r.merge(older);
    r.merge(newer);
    return r;
  }

  @Override
  public Object lower(KllDoublesSketch partial) {
    Quantiles q = new Quantiles(partial);
    return Double.isNaN(rank) ? q : (Object) q.quantile(rank);
  }

  @Override
  public int byteSize(KllDoublesSketch partial) {
    return partial.getSerializedSizeBytes();
  }

  @Override
  public void write(KllDoublesSketch partial, ByteBuffer out) {
    out.put(partial.toByteArray());
  }

  @Override
  public KllDoublesSketch read(ByteBuffer in, int length) {
    KllDoublesSketch s = KllDoublesSketch.heapify(Memory.wrap(ByteForm.take(in, length)));
    if (s.getK() != k) {
      throw new IllegalArgumentException("kll: a partial with k " + s.getK() + " for a function with k " + k);
    }
    return s;
  }

  @Override
  public boolean isCommutative() {
    return true;
  }

  @Override
  public int combineCost() {
    return 1000;
  }
}

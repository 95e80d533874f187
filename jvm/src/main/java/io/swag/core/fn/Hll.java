package io.swag.core.fn;

import io.swag.core.AggregateFunction;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/**
 * Distinct count with a DataSketches HyperLogLog sketch ({@code lgK} default 12: about 1.6%
 * relative standard error). Commutative, idempotent, not invertible. Partials are immutable
 * sketches; combine unions into a new one. Result: the estimate as a double.
 */
public final class Hll implements AggregateFunction<Object, HllSketch, Double> {
  private final int lgK;
  private final HllSketch empty;

  public Hll(int lgK) {
    if (lgK < 4 || lgK > 21) {
      throw new IllegalArgumentException("hll option 'lgK' must be in 4..21, got " + lgK);
    }
    this.lgK = lgK;
    this.empty = new HllSketch(lgK, TgtHllType.HLL_8);
  }

  @Override
  public String name() {
    return "hll";
  }

  @Override
  public HllSketch identity() {
    return empty;
  }

  @Override
  public HllSketch lift(Object value, long arg) {
    HllSketch s = new HllSketch(lgK, TgtHllType.HLL_8);
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      s.update(Hashing.hashLong(((Number) value).longValue()));
    } else if (value instanceof Number) {
      double d = io.swag.core.Inputs.toDouble("hll", value);
      s.update(Hashing.hashDouble(d));
    } else {
      s.update(Hashing.hashObject("hll", value));
    }
    return s;
  }

  @Override
  public HllSketch combine(HllSketch older, HllSketch newer) {
    if (newer.isEmpty()) {
      return older;
    }
    if (older.isEmpty()) {
      return newer;
    }
    Union u = new Union(lgK);
    u.update(older);
    u.update(newer);
    return u.getResult(TgtHllType.HLL_8);
  }

  @Override
  public Double lower(HllSketch partial) {
    return partial.getEstimate();
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

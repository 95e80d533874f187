package io.swag.core.fn;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import java.nio.ByteBuffer;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/**
 * Distinct count with a DataSketches HyperLogLog sketch ({@code lgK} default 12: about 1.6%
 * relative standard error). Commutative, idempotent, not invertible. Partials are immutable
 * sketches; combine unions into a new one. Result: the sketch's composite estimate as a double, a
 * function of its registers (coupons while small) alone, so a window's result is the same to the
 * last bit whatever the order and grouping of its unions: tree shape, algorithm, a rebuild after a
 * restart, pre-aggregation ({@code getEstimate()} would switch to the HIP estimator for a sketch
 * that saw no union, and differ by up to a few 0.1%). Byte form: the
 * sketch's compact serialization ({@code HLL_8}: at most {@code 2^lgK + 40} bytes), so slices can be
 * pre-aggregated before a shuffle; a union of read pieces has the same registers in any order.
 */
public final class Hll implements AggregateFunction<Object, HllSketch, Double>, ByteForm<HllSketch> {
  private final int lgK;
  private final HllSketch empty;

  /**
   * An HLL sketch function of {@code 2^lgK} registers.
   *
   * @param lgK the log2 of the number of registers, in 4..21
   */
  public Hll(int lgK) {
    if (lgK < 4 || lgK > 21) {
      throw new SwagException(Kind.INVALID_OPTION, "hll option 'lgK' must be in 4..21, got " + lgK);
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
    return partial.getCompositeEstimate();
  }

  @Override
  public int byteSize(HllSketch partial) {
    return partial.getCompactSerializationBytes();
  }

  @Override
  public void write(HllSketch partial, ByteBuffer out) {
    out.put(partial.toCompactByteArray());
  }

  @Override
  public HllSketch read(ByteBuffer in, int length) {
    HllSketch s = HllSketch.heapify(ByteForm.take(in, length));
    if (s.getLgConfigK() != lgK) {
      throw new IllegalArgumentException("hll: a partial with lgK " + s.getLgConfigK() + " for a function with lgK " + lgK);
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

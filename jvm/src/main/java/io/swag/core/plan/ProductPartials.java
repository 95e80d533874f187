package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The {@link Partials} of a {@link ProductFunction}: k sub-stores, one per sub-function (each the
 * sub-function's own {@code newPartials()}, so {@code double[]}/{@code long[]} for numeric
 * functions), resized together; slot s of the product is slot s of every sub-store. Every slot
 * operation is the sub-operation on each sub-store: O(sum of the sub-widths).
 *
 * <p>Each sub-store has one extra hidden slot (index {@code capacity()}) used as scratch when a
 * {@link ProductFunction.Batch} (a slice) is lifted: lift the first record into the target, then
 * lift each next record into the scratch slot and combine it in, in order.
 */
public final class ProductPartials extends Partials {
  private final ProductFunction fn;
  private final Partials[] subs;
  private int slots;

  /**
   * An empty store of {@code fn}'s partials: one sub-store per function.
   *
   * @param fn the product function
   */
  public ProductPartials(ProductFunction fn) {
    this.fn = fn;
    List<AggregateFunction<?, ?, ?>> fs = fn.functions();
    this.subs = new Partials[fs.size()];
    for (int i = 0; i < subs.length; i++) {
      subs[i] = fs.get(i).newPartials();
      subs[i].resize(1); // the scratch slot
    }
  }

  /**
   * The sub-store of function {@code i}.
   *
   * @param i the function's index
   * @return the sub-store
   */
  public Partials sub(int i) {
    return subs[i];
  }

  @Override
  public int capacity() {
    return slots;
  }

  @Override
  public void resize(int n) {
    int old = slots;
    for (Partials s : subs) {
      s.resize(n + 1);
      if (n > old) {
        s.setIdentity(old); // the old scratch slot becomes an ordinary (fresh) slot
      }
    }
    slots = n;
  }

  @Override
  public void combine(int dst, int older, int newer) {
    for (Partials s : subs) {
      s.combine(dst, older, newer);
    }
  }

  @Override
  public void copy(int dst, int src) {
    for (Partials s : subs) {
      s.copy(dst, src);
    }
  }

  @Override
  public void setIdentity(int dst) {
    for (Partials s : subs) {
      s.setIdentity(dst);
    }
  }

  @Override
  public void release(int dst) {
    for (Partials s : subs) {
      s.release(dst);
    }
  }

  @Override
  public void inverse(int dst, int whole, int older) {
    for (Partials s : subs) {
      s.inverse(dst, whole, older);
    }
  }

  @Override
  public void liftDouble(int dst, double value, long arg) {
    throw new IllegalArgumentException("function '" + fn.name() + "' takes a row or an Object[] of "
        + subs.length + " inputs, got the number " + value);
  }

  @Override
  public void liftLong(int dst, long value, long arg) {
    throw new IllegalArgumentException("function '" + fn.name() + "' takes a row or an Object[] of "
        + subs.length + " inputs, got the number " + value);
  }

  @Override
  public void liftObject(int dst, Object value, long arg) {
    if (value instanceof ProductFunction.At a) {
      value = a.row;
      arg = a.time;
    } else if (value instanceof ProductFunction.Batch b) {
      liftBatch(dst, b);
      return;
    }
    if (value instanceof ProductFunction.Lifted l) {
      java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(l.bytes);
      try {
        read(dst, in);
      } catch (java.nio.BufferUnderflowException e) {
        throw l.cutShort(fn.name(), e);
      }
      l.checkConsumed(fn.name(), in);
      return;
    }
    if (!(value instanceof Object[])) {
      throw new IllegalArgumentException("function '" + fn.name() + "' takes a row or an Object[] of "
          + subs.length + " inputs, got " + io.swag.core.Inputs.describe(value));
    }
    for (int i = 0; i < subs.length; i++) {
      liftSub(subs[i], dst, fn.input(value, i), arg);
    }
  }

  private static void liftSub(Partials s, int dst, Object v, long arg) {
    if (v instanceof Double || v instanceof Float) {
      s.liftDouble(dst, ((Number) v).doubleValue(), arg);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      s.liftLong(dst, ((Number) v).longValue(), arg);
    } else {
      s.liftObject(dst, v, arg);
    }
  }

  /** The records of a slice, combined in order; O(records * sum of sub-widths). */
  private void liftBatch(int dst, ProductFunction.Batch b) {
    int scratch = slots;
    for (int i = 0; i < subs.length; i++) {
      Partials s = subs[i];
      if (b.size() == 0) {
        s.setIdentity(dst);
        continue;
      }
      liftSub(s, dst, fn.input(b.values.get(0), i), b.times[0]);
      for (int j = 1; j < b.size(); j++) {
        liftSub(s, scratch, fn.input(b.values.get(j), i), b.times[j]);
        s.combine(dst, dst, scratch);
      }
      s.release(scratch);
    }
  }

  /** The sum of the sub-stores' sizes, or {@code -1} if one has no byte form. */
  @Override
  public int serializedSize() {
    int n = 0;
    for (Partials s : subs) {
      int b = s.serializedSize();
      if (b < 0) {
        return -1;
      }
      n += b;
    }
    return n;
  }

  /** Whether every sub-store has a byte form (fixed or varying). */
  @Override
  public boolean hasByteForm() {
    for (Partials s : subs) {
      if (!s.hasByteForm()) {
        return false;
      }
    }
    return true;
  }

  /** The sum of the sub-partials' sizes in {@code slot[src]}, or {@code -1} if one has no byte form. */
  @Override
  public int serializedSize(int src) {
    int n = 0;
    for (Partials s : subs) {
      int b = s.serializedSize(src);
      if (b < 0) {
        return -1;
      }
      n += b;
    }
    return n;
  }

  /** The sub-partials of {@code slot[src]}, one after another. */
  @Override
  public void write(int src, java.nio.ByteBuffer out) {
    for (Partials s : subs) {
      s.write(src, out);
    }
  }

  @Override
  public void read(int dst, java.nio.ByteBuffer in) {
    for (Partials s : subs) {
      s.read(dst, in);
    }
  }

  /**
   * {@code slot[src]} in the byte form, as a new {@link ProductFunction.Lifted}.
   *
   * @param src the slot
   * @return the partial's bytes
   */
  public ProductFunction.Lifted lifted(int src) {
    int n = serializedSize(src);
    if (n < 0) {
      throw new UnsupportedOperationException("function '" + fn.name() + "' has no byte form of its partials");
    }
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n);
    write(src, b);
    return new ProductFunction.Lifted(b.array());
  }

  /** The k results as an unmodifiable list. */
  @Override
  public Object lower(int src) {
    Object[] r = new Object[subs.length];
    for (int i = 0; i < subs.length; i++) {
      r[i] = subs[i].lower(src);
    }
    return Collections.unmodifiableList(Arrays.asList(r));
  }

  /** The raw partials: an {@code Object[]} of the k sub-partials. */
  @Override
  public Object partial(int src) {
    Object[] r = new Object[subs.length];
    for (int i = 0; i < subs.length; i++) {
      r[i] = subs[i].partial(src);
    }
    return r;
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return fn;
  }
}

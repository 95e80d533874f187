package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The product of k aggregate functions as one function, so that one aggregator (one tree) serves
 * all aggregates of a query: partial = the k sub-partials, combine = component-wise, result = the
 * list of the k results.
 *
 * <p>Input: with {@code columns == null} an {@code Object[]} of k inputs, one per function; with
 * column indices, a row {@code Object[]} from which function i reads {@code row[columns[i]]}
 * ({@code -1}: null, e.g. {@code count} of records). A {@link Batch} input lifts a whole slice of
 * records (their combination in order, each lifted with its own time).
 *
 * <p>Commutative/invertible iff every sub-function is; {@link #combineCost()} is the sum of the
 * sub-costs (one product combine does k combines). {@link #newPartials()} returns a
 * {@link ProductPartials} whose sub-stores are the sub-functions' own stores, so numeric
 * sub-functions stay primitive. The generic form boxes ({@code Object[]} partials). The plan's
 * aggregators are built on {@link #aggregated()}: for a product of one one-double function its typed
 * form ({@link ScalarProduct}, same inputs, partials, byte form and results), else the product.
 */
public final class ProductFunction implements AggregateFunction<Object, Object[], List<Object>> {
  private final List<AggregateFunction<?, ?, ?>> fns;
  private final int[] columns;
  private final AggregateFunction<?, ?, ?> aggregated;

  /** A slice of records lifted as one input: their inputs and times, in time order (ties: arrival order). */
  public static final class Batch {
    final List<Object> values;
    final long[] times;

    /**
     * {@code times} must have at least {@code values.size()} entries.
     *
     * @param values the records' inputs, in time order
     * @param times the records' times
     */
    public Batch(List<Object> values, long[] times) {
      this.values = values;
      this.times = times;
    }

    /**
     * The number of records in the batch.
     *
     * @return the record count
     */
    public int size() {
      return values.size();
    }
  }

  /**
   * A row lifted with another lift argument than the time it is inserted at: a record pre-aggregated
   * into its slice is inserted at the slice start but lifted with its own time (so time-reading
   * functions see the record's). Mutable and reused by its owner, one record at a time: an
   * aggregator lifts its input at once and keeps only the partial, so no object is made per record.
   */
  public static final class At {
    Object row;
    long time;

    /**
     * Sets the row and its own time; returns this.
     *
     * @param row the row
     * @param time the row's own time, its lift argument
     * @return this
     */
    public At set(Object row, long time) {
      this.row = row;
      this.time = time;
      return this;
    }
  }

  /**
   * A partial aggregate of the product in the byte form of {@link ProductPartials#write} (e.g. a
   * slice pre-aggregated on another machine), inserted as one input: lifting it reads it back.
   */
  public static final class Lifted {
    final byte[] bytes;

    /**
     * A partial in the byte form of {@link ProductPartials#write}.
     *
     * @param bytes the partial's bytes
     */
    public Lifted(byte[] bytes) {
      this.bytes = bytes;
    }

    /**
     * The partial's bytes.
     *
     * @return the bytes, not copied
     */
    public byte[] bytes() {
      return bytes;
    }

    /** The error of a partial whose bytes end before its byte form does, naming {@code function}. */
    IllegalArgumentException cutShort(String function, RuntimeException cause) {
      return new IllegalArgumentException("function '" + function + "': a partial of " + bytes.length
          + " bytes is cut short", cause);
    }

    /** Refuses bytes left over after the partial's byte form was read from {@code in}. */
    void checkConsumed(String function, java.nio.ByteBuffer in) {
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("function '" + function + "': a partial of " + bytes.length
            + " bytes has " + in.remaining() + " bytes left over");
      }
    }
  }

  /**
   * Whether records may be pre-aggregated apart and their partials merged later in any order with
   * the same result: every function is commutative and has a byte form of its partials (primitive
   * partials, or a sketch that implements {@link io.swag.core.ByteForm}). For a randomized sketch
   * (kll) "the same result" holds in distribution, as for its merges inside one tree.
   *
   * @return true if records may be pre-aggregated apart
   */
  public boolean isMergeable() {
    return isCommutative() && newPartials().hasByteForm();
  }

  /**
   * Inputs are {@code Object[]} of k values, one per function.
   *
   * @param fns the functions, one per input value
   */
  public ProductFunction(List<? extends AggregateFunction<?, ?, ?>> fns) {
    this(fns, null);
  }

  /**
   * Inputs are rows; function i reads {@code row[columns[i]]} ({@code -1}: null).
   *
   * @param fns the functions
   * @param columns the row index each function reads, or null for {@code Object[]} inputs of one value
   *     per function
   */
  public ProductFunction(List<? extends AggregateFunction<?, ?, ?>> fns, int[] columns) {
    if (fns.isEmpty()) {
      throw new IllegalArgumentException("a product of no functions");
    }
    if (columns != null && columns.length != fns.size()) {
      throw new IllegalArgumentException("columns: " + columns.length + " indices for " + fns.size() + " functions");
    }
    this.fns = List.copyOf(fns);
    this.columns = columns == null ? null : columns.clone();
    this.aggregated = fns.size() == 1 && fns.get(0) instanceof io.swag.core.fn.ScalarDoubleFunction
        ? new ScalarProduct(this) : this;
  }

  /**
   * The function the plan's aggregators are built on, with this product's inputs, partials, byte form
   * and results: for a product of one {@link io.swag.core.fn.ScalarDoubleFunction} its typed form
   * ({@link ScalarProduct}: the partial is one {@code double} on the aggregator's own store), else
   * this product.
   *
   * @return the function to build aggregators on
   */
  public AggregateFunction<?, ?, ?> aggregated() {
    return aggregated;
  }

  /**
   * The number of functions.
   *
   * @return the arity
   */
  public int arity() {
    return fns.size();
  }

  /**
   * The functions of the product, in order.
   *
   * @return the functions
   */
  public List<AggregateFunction<?, ?, ?>> functions() {
    return fns;
  }

  /** The row position function {@code i} reads ({@code i} without column indices), or -1 for none. */
  int column(int i) {
    return columns == null ? i : columns[i];
  }

  /** The input of function {@code i} in an input of the product. */
  Object input(Object value, int i) {
    Object[] row = (Object[]) value;
    if (columns == null) {
      return row[i];
    }
    int c = columns[i];
    return c < 0 ? null : row[c];
  }

  @Override
  public String name() {
    List<String> n = new ArrayList<>();
    for (AggregateFunction<?, ?, ?> f : fns) {
      n.add(f.name());
    }
    return "product(" + String.join(",", n) + ")";
  }

  @Override
  public Object[] identity() {
    Object[] r = new Object[fns.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = fns.get(i).identity();
    }
    return r;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Override
  public Object[] lift(Object value, long arg) {
    if (value instanceof At a) {
      return lift(a.row, a.time);
    }
    if (value instanceof Batch b) {
      Object[] acc = identity();
      for (int j = 0; j < b.size(); j++) {
        acc = combine(acc, lift(b.values.get(j), b.times[j]));
      }
      return acc;
    }
    Object[] r = new Object[fns.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = ((AggregateFunction) fns.get(i)).lift(input(value, i), arg);
    }
    return r;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Override
  public Object[] combine(Object[] older, Object[] newer) {
    Object[] r = new Object[fns.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = ((AggregateFunction) fns.get(i)).combine(older[i], newer[i]);
    }
    return r;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Override
  public List<Object> lower(Object[] partial) {
    Object[] r = new Object[fns.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = ((AggregateFunction) fns.get(i)).lower(partial[i]);
    }
    return Collections.unmodifiableList(Arrays.asList(r));
  }

  @Override
  public boolean isCommutative() {
    return fns.stream().allMatch(AggregateFunction::isCommutative);
  }

  @Override
  public boolean isInvertible() {
    return fns.stream().allMatch(AggregateFunction::isInvertible);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  @Override
  public Object[] inverse(Object[] whole, Object[] older) {
    Object[] r = new Object[fns.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = ((AggregateFunction) fns.get(i)).inverse(whole[i], older[i]);
    }
    return r;
  }

  @Override
  public int combineCost() {
    int c = 0;
    for (AggregateFunction<?, ?, ?> f : fns) {
      c += f.combineCost();
    }
    return c;
  }

  @Override
  public Partials newPartials() {
    return new ProductPartials(this);
  }

  @Override
  public String toString() {
    return name();
  }
}

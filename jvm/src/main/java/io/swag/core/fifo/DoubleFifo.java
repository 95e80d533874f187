package io.swag.core.fifo;

import io.swag.core.fn.ScalarDoubleFunction;

/**
 * The in-order aggregators of a {@link ScalarDoubleFunction} (one double per partial), each on a
 * {@code double[]} it owns: the typed twins of the {@link PartialsFifo} classes, as DataSketches keeps
 * {@code DoublesSketch} beside {@code ItemsSketch}. Same algorithms, same pointer rules, same
 * combines in the same order (so the same results to the bit, and the same combine counts); what
 * differs is only where partials live: values in local variables and {@code double} fields instead
 * of store slots, the function's value methods ({@link ScalarDoubleFunction#combineValues}) instead
 * of kernels on offsets, and a query that returns its partial instead of writing a result slot.
 *
 * <p>The ring: position {@code p} (an {@code int} compared only for equality, so it may wrap) is
 * element {@code p & mask} of {@link #deque}, {@link #stride} doubles per element; the ring doubles
 * when full and halves when a quarter full (resizing moves partials, never combines them).
 *
 * <p>A function whose partial is a count and one double, the count being the number of values
 * ({@link io.swag.core.fn.Mean}), runs here too, on the double alone ({@link
 * io.swag.core.fn.Mean#summands()}): in an in-order window that count is the window's size, which the
 * query passes to the function's lower ({@link ScalarDoubleFunction#lowerDoubleValue(double, long)}).
 *
 * <p>An insert lifts (and checks) the value before the algorithm's {@link #push} touches anything,
 * so a value the function rejects leaves the aggregator unchanged.
 */
public abstract class DoubleFifo extends FifoBase {
  /** The function's value form ({@code ⊗} of the papers). */
  protected final ScalarDoubleFunction op;
  /** The ring of partials, {@link #stride} per element. */
  protected double[] deque;
  /** Doubles per ring element. */
  protected final int stride;
  /** Ring capacity in elements (a power of two). */
  protected int cap;
  /** {@code cap - 1}, for ring positions modulo the capacity. */
  protected int mask;

  /**
   * For subclasses with a ring of elements of {@code stride} doubles.
   *
   * @param name the algorithm's name
   * @param op the function
   * @param stride doubles per ring element
   */
  protected DoubleFifo(String name, ScalarDoubleFunction op, int stride) {
    super(name, op.windowFunction());
    this.op = op;
    this.stride = stride;
    this.cap = MIN_CAPACITY;
    this.mask = cap - 1;
    this.deque = new double[cap * stride];
  }

  /**
   * Appends the lifted value {@code x} as the youngest element.
   *
   * @param x the partial of the new element
   */
  protected abstract void push(double x);

  /**
   * The window's partial aggregate (the identity when empty).
   *
   * @return the window's partial
   */
  protected abstract double aggregate();

  @Override
  public final void insertArg(double value, long arg) {
    push(op.liftValue(op.checkInput(value), arg));
  }

  @Override
  public final void insertArg(long value, long arg) {
    push(op.liftValue((double) value, arg)); // no check: a long converts to a number, never NaN
  }

  @Override
  protected final void insertObject(Object value, long arg) {
    push(op.liftObjectValue(value, arg));
  }

  /**
   * Appends {@code x}, a partial of the function lifted and checked already (as {@link #insertArg}
   * lifts a value), as the youngest element: for a caller that keeps its entries' partials.
   *
   * @param x the partial
   */
  public final void pushPartial(double x) {
    push(x);
  }

  /**
   * The window's partial as {@link #query()} lowers it (the identity when empty): a caller that wants
   * the function's result without the object {@link #query()} makes for it (a product's list).
   *
   * @return the window's partial
   */
  public final double partial() {
    return aggregate();
  }

  @Override
  public final double queryDouble() {
    return op.lowerDoubleValue(aggregate(), size());
  }

  @Override
  public final Object query() {
    return op.lowerValue(aggregate(), size());
  }

  /**
   * The window's partial, as the generic classes give it: a {@code double[1]}, or the
   * {@code {count, partial}} of a function whose partial leaves out the count
   * ({@link ScalarDoubleFunction#windowPartial}).
   */
  @Override
  public final Object queryPartial() {
    return op.windowPartial(aggregate(), size());
  }

  @Override
  public int allocatedPartials() {
    return cap * stride;
  }

  // ---- ring helpers ----

  /**
   * Grows the ring if {@code count} elements fill it; live positions are {@code [front, front+count)}.
   *
   * @param front the position of the oldest element
   * @param count the number of elements
   */
  protected final void growIfFull(int front, int count) {
    if (count < cap) {
      return;
    }
    if (cap >= (1 << 29) / stride) {
      throw new IllegalStateException("window too large for algorithm '" + algorithm() + "': " + count + " elements");
    }
    relocate(front, count, cap * 2);
  }

  /**
   * Halves the ring when a quarter full.
   *
   * @param front the position of the oldest element
   * @param count the number of elements
   */
  protected final void shrinkIfSparse(int front, int count) {
    if (cap > MIN_CAPACITY && count <= cap / 4) {
      relocate(front, count, cap / 2);
    }
  }

  /**
   * Moves the live elements into a ring of {@code newCap} elements (hook: subclasses with arrays
   * indexed like the ring move them too, see {@link #relocated}).
   */
  private void relocate(int front, int count, int newCap) {
    int oldCap = cap;
    int oldMask = mask;
    int newMask = newCap - 1;
    double[] from = deque;
    double[] to = new double[newCap * stride];
    for (int i = 0; i < count; i++) {
      int pos = front + i;
      System.arraycopy(from, (pos & oldMask) * stride, to, (pos & newMask) * stride, stride);
    }
    deque = to;
    cap = newCap;
    mask = newMask;
    relocated(front, count, oldCap);
  }

  /**
   * Called after the ring moved to {@link #cap} elements from {@code oldCap}; live positions are
   * {@code [front, front+count)}. Nothing by default.
   *
   * @param front the position of the oldest element
   * @param count the number of elements
   * @param oldCap the previous capacity
   */
  protected void relocated(int front, int count, int oldCap) {}
}

package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.TimedAggregator;
import io.swag.core.fifo.DoubleFifo;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.TimedFifo;
import java.util.NoSuchElementException;

/**
 * A timed aggregator that starts in order with a FIFO algorithm (DABA Lite: worst-case O(1) per
 * record) and switches, once and for good, to a FiBA tree by one {@code bulkInsert} of its entries
 * (O(n)) at the first operation an in-order aggregator cannot do: an insert older than the
 * youngest entry, an exact evict that is not of the oldest time, or a range query that is not
 * answerable as described below.
 *
 * <p>In FIFO mode it keeps the raw entries (time, input) in a ring, in time order, so that it can
 * bulk-load the tree; the FIFO holds a contiguous run of them: entries older than that run were
 * passed by a previous query, younger ones are pending (not yet needed). A range query
 * {@code [from, to]} moves pending entries {@code <= to} into the FIFO and evicts FIFO entries
 * {@code < from} (they stay in the ring until {@link #bulkEvict}), then answers with the FIFO's
 * whole-window query; this works while queries move forward (non-decreasing from and to), as the
 * queries of one sliding window over in-order data do. Amortized O(1) per entry in FIFO mode.
 * Pending inputs are checked when inserted ({@link InputCheck}), so a bad value fails at once.
 *
 * <p>For a product of one scalar double function ({@link ScalarProduct}) the ring keeps each entry's
 * partial, lifted (and so checked) once when inserted, in a {@code double[]} instead of its input: no
 * object is kept per entry (an engine may reuse the holder it inserts, {@link #keepsInputs()}), and
 * the FIFO, the tree bulk-loaded at the switch and {@link #entryBytes} take the partials as they are.
 * On an algorithm with a typed twin ({@link DoubleFifo}) the FIFO is moved by ring position: the
 * ring's times decide which entries enter and leave it, the partials go in as they are
 * ({@link DoubleFifo#pushPartial}) and leave by its plain evict, with no time ring of its own (the
 * {@link TimedFifo} a FIFO of inputs runs behind) and no holder, check or lift per entry moved.
 */
public final class AdaptiveAggregator implements TimedAggregator {
  private final Algorithm fifoAlgorithm;
  private final Algorithm treeAlgorithm;
  private final ProductFunction fn;
  private final InputCheck check;
  private FifoBase inOrder; // the in-order aggregator, null once switched
  private TimedFifo fifo; // inOrder with its times, when the FIFO is moved by time (typedFifo == null); else null
  private DoubleFifo typedFifo; // inOrder when typed (sp != null), moved by ring position; else null
  // a typed FIFO of a function whose combine returns one of its operands (ScalarProduct.selectsOperand): queryOne
  // answers a range of one entry from the ring while the FIFO is empty
  private final boolean oneFromRing;
  private TimedAggregator tree;
  // raw entries [front, end) of a power-of-two ring; [fifoFront, fifoEnd) are in the FIFO
  private long[] times = new long[16];
  private Object[] values; // the raw inputs (generic form), or null
  private double[] parts; // the lifted partials (typed form, sp != null), or null
  private final ScalarProduct sp;
  private final ScalarProduct.Partial holder;
  private int front;
  private int end;
  private long youngest; // t(end - 1) while the ring is not empty (the append path's check reads no old entry)
  private int fifoFront;
  private int fifoEnd;
  private Runnable switchListener; // called once, before the switch discards the ring (listeners in the order set)
  private long fired; // runs fireRun fired

  /**
   * A position in the ring for {@link #ceilingTime(long, RingCursor)}: the entry of its last answer
   * and the target it answered (every entry before it is older than that target).
   */
  static final class RingCursor {
    private int pos;
    private long target;
    private boolean set;

    /** Forgets the position: the next look-up searches the whole ring. */
    void reset() {
      set = false;
    }
  }

  /**
   * {@code fifoAlgorithm}: an in-order algorithm name ({@code daba_lite}, {@code soe}, ...);
   * {@code treeAlgorithm}: e.g. {@code bfiba4}.
   *
   * @param fifoAlgorithm the in-order algorithm's name
   * @param treeAlgorithm the tree's algorithm name
   * @param fn the product function
   */
  public AdaptiveAggregator(String fifoAlgorithm, String treeAlgorithm, ProductFunction fn) {
    this(Algorithm.parse(fifoAlgorithm), Algorithm.parse(treeAlgorithm), fn);
  }

  /**
   * {@code fifoAlgorithm}: an in-order algorithm; {@code treeAlgorithm}: a tree, e.g.
   * {@link Algorithm#BFIBA4}.
   *
   * @param fifoAlgorithm the in-order algorithm
   * @param treeAlgorithm the tree's algorithm
   * @param fn the product function
   */
  public AdaptiveAggregator(Algorithm fifoAlgorithm, Algorithm treeAlgorithm, ProductFunction fn) {
    this.fifoAlgorithm = fifoAlgorithm;
    this.treeAlgorithm = treeAlgorithm;
    this.fn = fn;
    this.check = new InputCheck(fn);
    if (!treeAlgorithm.isTree()) {
      throw new IllegalArgumentException("adaptive: treeAlgorithm '" + treeAlgorithm + "' is not a tree; trees: "
          + Algorithm.TREE_NAMES);
    }
    this.inOrder = fifoAlgorithm.newFifo(fn.aggregated());
    this.sp = fn.aggregated() instanceof ScalarProduct s ? s : null;
    this.typedFifo = sp != null && inOrder instanceof DoubleFifo d ? d : null;
    this.fifo = typedFifo == null ? new TimedFifo(inOrder) : null;
    this.oneFromRing = typedFifo != null && sp.selectsOperand();
    this.holder = sp != null ? new ScalarProduct.Partial() : null;
    if (sp != null) {
      parts = new double[16];
    } else {
      values = new Object[16];
    }
  }

  /**
   * Whether the entries waiting in the ring are the inputs themselves (so a caller must not reuse an
   * input object it inserted), rather than their lifted partials.
   *
   * @return true if inputs are kept
   */
  boolean keepsInputs() {
    return sp == null;
  }

  /**
   * Whether this aggregator has switched to the tree.
   *
   * @return true once switched
   */
  public boolean switched() {
    return tree != null;
  }

  private int mask() {
    return times.length - 1;
  }

  private long t(int i) {
    return times[i & mask()];
  }

  /** The tree this aggregator works with once switched (O(1); nothing is inserted). */
  private TimedAggregator newTree() {
    return treeAlgorithm.newTree(fn.aggregated());
  }

  /**
   * The tree: the one in use once switched, else a new empty one made exactly as the switch makes
   * it (for a read-back of what this aggregator runs, {@link ExecutedPlan}).
   *
   * @return the tree
   */
  public TimedAggregator tree() {
    return tree != null ? tree : newTree();
  }

  /**
   * The in-order aggregator holding the entries until the switch, or null once switched.
   *
   * @return the in-order aggregator, or null
   */
  public FifoBase fifo() {
    return inOrder;
  }

  /**
   * Moves every entry into a new tree with one bulk insert, O(n); nothing if switched already.
   * Besides the aggregator's own triggers, an engine that combines records into slices switches a key
   * at its first record that shares a slice ({@link StoredWindows}): the tree then holds one entry per
   * slice where the FIFO would keep one per record.
   */
  public void switchToTree() {
    if (tree != null) {
      return;
    }
    if (switchListener != null) {
      switchListener.run(); // the ring is still whole
    }
    TimedAggregator t = newTree();
    int n = end - front;
    long[] ts = new long[n];
    Object[] vs = new Object[n];
    for (int i = 0; i < n; i++) {
      ts[i] = t(front + i);
      vs[i] = sp != null ? new ScalarProduct.Partial().set(parts[(front + i) & mask()]) : values[(front + i) & mask()];
    }
    t.bulkInsert(ts, vs, 0, n);
    tree = t;
    inOrder = null;
    fifo = null;
    typedFifo = null;
    times = null;
    values = null;
    parts = null;
  }

  /**
   * Adds what runs once, at the switch to the tree, before the ring is discarded (a caller that
   * reads the ring's times, {@link #forEachTime}, copies them there); listeners run in the order
   * they were added.
   *
   * @param listener the listener
   */
  void setSwitchListener(Runnable listener) {
    Runnable before = switchListener;
    this.switchListener = before == null ? listener : () -> {
      before.run();
      listener.run();
    };
  }

  /**
   * Visits the ring's entry times, oldest first; before the switch only.
   *
   * @param c receives each time
   */
  void forEachTime(java.util.function.LongConsumer c) {
    for (int i = front; i != end; i++) {
      c.accept(t(i));
    }
  }

  /**
   * Visits the ring's entry times {@code >= from}, oldest first; before the switch only. O(log n + visited).
   *
   * @param from the smallest time visited
   * @param c receives each time
   */
  void forEachTimeFrom(long from, java.util.function.LongConsumer c) {
    if (end == front || t(end - 1) < from) {
      return;
    }
    for (int i = ceilingIndex(front, from); i != end; i++) {
      c.accept(t(i));
    }
  }

  /**
   * The number of ring entries with time {@code >= from}; before the switch only. O(log n).
   *
   * @param from the smallest time counted
   * @return the count
   */
  int countFrom(long from) {
    return end == front || t(end - 1) < from ? 0 : end - ceilingIndex(front, from);
  }

  /**
   * {@link #bulkEvict(long)} that first passes each evicted entry's time, oldest first, to
   * {@code evicted} (if not null); before the switch only.
   *
   * @param time the bound
   * @param evicted receives each evicted time, or null
   * @return the number of entries evicted
   */
  int bulkEvict(long time, java.util.function.LongConsumer evicted) {
    if (evicted != null) {
      for (int i = front; i != end && t(i) <= time; i++) {
        evicted.accept(t(i));
      }
    }
    return bulkEvict(time);
  }

  /**
   * {@link #ceilingTime(long)} from cursor {@code c}'s last answer when {@code t} is at least its
   * last target (else a binary search of the ring); leaves {@code c} at the answer. O(1) when the
   * answer is the cursor's entry or the next. Before the switch only (entries are appended at the
   * young end and evicted at the old one, so a cursor stays valid).
   *
   * @param t the target
   * @param c the cursor
   * @return the smallest entry time {@code >= t}, or {@code Long.MAX_VALUE}
   */
  long ceilingTime(long t, RingCursor c) {
    if (end == front || t(end - 1) < t) {
      c.set = false;
      return Long.MAX_VALUE;
    }
    int p;
    if (!c.set || t < c.target) {
      p = ceilingIndex(front, t);
    } else {
      p = c.pos - front < 0 ? front : c.pos; // an evicted answer: every entry left is after it
      if (t(p) < t) {
        p = p + 1 != end && t(p + 1) >= t ? p + 1 : ceilingIndex(p + 1, t);
      }
    }
    c.pos = p;
    c.target = t;
    c.set = true;
    return t(p);
  }

  /** The first ring position from {@code from} with time {@code >= t} (one exists). */
  private int ceilingIndex(int from, long t) {
    int lo = 0;
    int hi = end - from;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (t(from + mid) < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return from + lo;
  }

  @Override
  public void insert(long time, double value) {
    insert(time, (Object) value);
  }

  @Override
  public void insert(long time, long value) {
    insert(time, (Object) value);
  }

  @Override
  public void insert(long time, Object value) {
    if (tree == null && end != front && time < youngest) {
      check.check(value, time);
      switchToTree();
    }
    if (tree != null) {
      tree.insert(time, value);
      return;
    }
    if (sp != null) {
      double x = sp.liftObjectValue(value, time); // the check: a refused value throws here
      if (end - front == times.length) {
        grow();
      }
      parts[end & mask()] = x;
    } else {
      check.check(value, time);
      if (end - front == times.length) {
        grow();
      }
      values[end & mask()] = value;
    }
    times[end & mask()] = time;
    youngest = time;
    end++;
  }

  /**
   * Doubles the ring (it is full): positions keep their entries, so each array is copied in at most
   * two runs, from {@code front} to the end of the old array and from its start to {@code end}.
   */
  private void grow() {
    int old = times.length;
    int n = old * 2;
    long[] t2 = new long[n];
    Object[] v2 = sp == null ? new Object[n] : null;
    double[] p2 = sp != null ? new double[n] : null;
    int from = front & (old - 1); // position front is slot from of the old ring, slot front & (n - 1) of the new
    int first = old - from; // entries from slot from to the end of the old array; the rest wrap to slot 0
    int to1 = front & (n - 1);
    int to2 = (front + first) & (n - 1);
    System.arraycopy(times, from, t2, to1, first);
    System.arraycopy(times, 0, t2, to2, old - first);
    if (sp != null) {
      System.arraycopy(parts, from, p2, to1, first);
      System.arraycopy(parts, 0, p2, to2, old - first);
    } else {
      System.arraycopy(values, from, v2, to1, first);
      System.arraycopy(values, 0, v2, to2, old - first);
    }
    times = t2;
    values = v2;
    parts = p2;
  }

  @Override
  public boolean evict(long time) {
    if (tree == null) {
      if (end == front || time < t(front) || time > t(end - 1)) {
        return false;
      }
      if (time == t(front)) {
        bulkEvict(time);
        return true;
      }
      switchToTree();
    }
    return tree.evict(time);
  }

  @Override
  public int bulkEvict(long time) {
    if (tree != null) {
      return tree.bulkEvict(time);
    }
    int n = 0;
    while (end != front && t(front) <= time) {
      if (values != null) {
        values[front & mask()] = null;
      }
      front++;
      n++;
    }
    if (typedFifo != null) {
      while (fifoFront != fifoEnd && fifoFront - front < 0) {
        typedFifo.evict();
        fifoFront++;
      }
    } else {
      fifo.evictUpTo(time);
    }
    if (fifoFront - front < 0) {
      fifoFront = front;
    }
    if (fifoEnd - front < 0) {
      fifoEnd = front;
    }
    return n;
  }

  /**
   * Inserts a sorted batch: one record at a time while the ring holds the entries; once a record
   * switches this aggregator to the tree (it is older than the ring's youngest entry), the rest of
   * the batch goes to the tree's {@code bulkInsert} in one call.
   */
  @Override
  public void bulkInsert(long[] ts, double[] vs, int from, int len) {
    int end = from + len;
    for (int i = from; i < end; i++) {
      if (tree != null) {
        tree.bulkInsert(ts, vs, i, end - i);
        return;
      }
      insert(ts[i], vs[i]);
    }
  }

  /** {@link #bulkInsert(long[], double[], int, int)} for any values the function accepts. */
  @Override
  public void bulkInsert(long[] ts, Object[] vs, int from, int len) {
    int end = from + len;
    for (int i = from; i < end; i++) {
      if (tree != null) {
        tree.bulkInsert(ts, vs, i, end - i);
        return;
      }
      insert(ts[i], vs[i]);
    }
  }

  @Override
  public Object query() {
    return query(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Override
  public double queryDouble() {
    return toDouble(query());
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Object query(long from, long to) {
    if (from > to) {
      AggregateFunction f = fn;
      return f.lower(f.identity());
    }
    if (tree == null && !fifoCanAnswer(from, to)) {
      switchToTree();
    }
    if (tree != null) {
      return tree.query(from, to);
    }
    moveFifo(from, to);
    return inOrder.query();
  }

  /** Moves the FIFO to hold exactly the entries of {@code [from, to]} ({@link #fifoCanAnswer} holds). */
  private void moveFifo(long from, long to) {
    if (typedFifo != null) {
      moveTyped(from, to);
      return;
    }
    while (fifoEnd != end && t(fifoEnd) <= to) {
      fifo.insert(t(fifoEnd), entry(fifoEnd)); // lifted at once: the holder is reused
      fifoEnd++;
    }
    if (from != Long.MIN_VALUE) {
      fifoFront += fifo.evictUpTo(from - 1);
    }
  }

  /**
   * {@link #moveFifo} on the typed FIFO, by ring position: pushes the partials of the pending entries
   * {@code <= to}, then evicts the FIFO's oldest entries while their ring times are {@code < from}
   * (the FIFO holds ring positions {@code [fifoFront, fifoEnd)}, oldest first).
   */
  private void moveTyped(long from, long to) {
    DoubleFifo q = typedFifo;
    int m = mask();
    long[] ts = times;
    int e = fifoEnd;
    while (e != end && ts[e & m] <= to) {
      q.pushPartial(parts[e & m]);
      e++;
    }
    fifoEnd = e;
    int f = fifoFront;
    while (f != e && ts[f & m] < from) {
      q.evict();
      f++;
    }
    fifoFront = f;
  }

  /**
   * Whether the product has one function ({@link ScalarProduct}), so that {@link #queryOne} answers.
   *
   * @return true for a product of one scalar double function
   */
  boolean answersOne() {
    return sp != null;
  }

  /**
   * The only element of {@link #query(long, long)}'s list, for a product of one function
   * ({@link #answersOne}): in FIFO mode on a typed in-order algorithm, the function's result of the
   * FIFO's partial, with no list made; otherwise the list's element. For a function whose combine
   * returns one of its operands ({@link ScalarProduct#selectsOperand}: max, min, first, last), with the
   * FIFO empty, a range holding exactly one entry (a window of one slice) is answered from that
   * entry's partial in the ring, and the entry stays pending: no push and evict per such window. The
   * result is the FIFO's to the bit: the FIFO's aggregate of a sequence is then one of its partials
   * (the same one however the algorithm brackets the combines), here the only one; and a later range
   * gets the same one from a FIFO that skipped this push and evict.
   *
   * @param from the range's first time
   * @param to the range's last time
   * @return the function's result
   */
  Object queryOne(long from, long to) {
    return queryOne(from, to, null);
  }

  /**
   * {@link #queryOne(long, long)}, returning {@code held} when it is the result already
   * ({@link ScalarProduct#lowerOne(double, Object)}: a {@code Double} with the answer's bits, for a
   * function whose results are its partials): an engine passes the result it holds for the window,
   * and gets no new box while the window's answer repeats.
   *
   * @param from the range's first time
   * @param to the range's last time
   * @param held the result the caller holds for the window, or null
   * @return the function's result
   */
  Object queryOne(long from, long to, Object held) {
    if (runs(from, to)) {
      return answerTyped(from, to, held);
    }
    return ((java.util.List<?>) query(from, to)).get(0);
  }

  /** {@link #queryOne} of a range the typed FIFO can answer ({@link #runs}). */
  private Object answerTyped(long from, long to, Object held) {
    if (oneFromRing && fifoEnd == fifoFront) {
      int j = passOlderThan(from);
      if (j != end && t(j) <= to && (j + 1 == end || t(j + 1) > to)) {
        return sp.lowerOne(parts[j & mask()], held); // the FIFO's aggregate of this one entry, to the bit
      }
    }
    moveTyped(from, to);
    return sp.lowerOne(typedFifo.partial(), held);
  }

  /**
   * Whether {@link #fireRun} can start at the window {@code [from, to]}: the typed ring in FIFO mode
   * and a FIFO that can answer the range ({@link #queryOne} answers it the same way then).
   *
   * @param from the first window's first time
   * @param to the first window's last time
   * @return true if a run can start there
   */
  boolean runs(long from, long to) {
    return typedFifo != null && from <= to && fifoCanAnswer(from, to);
  }

  /**
   * Emits the due windows of one window spec, in order, from the typed ring: what {@link KeyWindows}
   * does window by window with {@link #queryOne(long, long, Object)} and
   * {@link #ceilingTime(long, RingCursor)}, in one loop. Each window's result comes from the same FIFO
   * moves as {@code queryOne}'s ({@link #answerTyped}), so it is the same to the bit; after each window
   * the next start is the first start after it whose window holds an entry. The windows of a run only
   * move forward, so a FIFO that can answer the first ({@link #runs}) can answer every later one.
   *
   * <p>Before each window is emitted, {@code next[window]} holds its fire watermark, and afterwards the
   * next one's ({@code Long.MAX_VALUE}: none, no entry left after it, or a fire watermark that
   * saturates): if {@code out} throws, the key is left as the window-by-window path leaves it, that
   * window still pending. {@code out} must not insert into this key or fire it.
   *
   * <p>Needs {@link #runs} for the first window and strictly increasing ring times (the ring serves as
   * the key's time log). Leaves {@code c} at the last next-window look-up.
   *
   * @param w the window spec
   * @param delay the group's fire delay ({@link WindowGroup#fireDelay})
   * @param watermark the watermark, at least {@code next[window]}
   * @param window the window's index in its group (for {@code out} and {@code next})
   * @param next the group's next fire watermarks, per window
   * @param out receives each window's row
   * @param c the window's ring cursor
   */
  void fireRun(WindowSpec w, long delay, long watermark, int window, long[] next, KeyWindows.WindowOutput out,
      RingCursor c) {
    fired++;
    long size = w.size();
    long fire = next[window];
    while (true) {
      long st = fire - delay - size + 1;
      out.emitOne(window, st, st + size, answerTyped(st, st + size - 1, out.heldOne(window)));
      long ns = st + w.slide(); // the next window's start if its window holds an entry
      long t = ceilingTime(ns, c);
      if (t == Long.MAX_VALUE) {
        next[window] = Long.MAX_VALUE;
        return;
      }
      long d = t - ns; // >= 0 unless it overflows
      long start = d >= 0 && d < size ? ns : Math.max(ns, w.firstStart(t));
      fire = WindowGroup.satAdd(start + size - 1, delay);
      next[window] = fire;
      if (fire == Long.MAX_VALUE || fire > watermark) {
        return;
      }
    }
  }

  /**
   * The runs {@link #fireRun} has fired (for tests: that a key's windows took the run).
   *
   * @return the number of runs
   */
  long firedRuns() {
    return fired;
  }

  /**
   * The FIFO's ring positions, {@code {fifoFront, fifoEnd}} (for tests).
   *
   * @return the FIFO's first and end positions
   */
  int[] fifoPositions() {
    return new int[] {fifoFront, fifoEnd};
  }

  /**
   * With the FIFO empty: passes the pending entries older than {@code from} without moving them
   * through the FIFO, which {@link #moveFifo} would push and then evict, leaving it empty (for a
   * function that selects an operand; see {@link #queryOne}); returns the first pending entry, still
   * pending.
   */
  private int passOlderThan(long from) {
    int j = fifoEnd;
    while (j != end && t(j) < from) {
      j++;
    }
    fifoFront = j;
    fifoEnd = j;
    return j;
  }

  /** The ring's entry {@code i} as an input: the raw input, or its partial in the reused holder. */
  private Object entry(int i) {
    return sp != null ? holder.set(parts[i & mask()]) : values[i & mask()];
  }

  /** The FIFO holds exactly the entries of [from, to] after moving forward. */
  private boolean fifoCanAnswer(long from, long to) {
    if (fifoFront != front && t(fifoFront - 1) >= from) {
      return false; // entries >= from were passed by an earlier query
    }
    return fifoEnd == fifoFront || t(fifoEnd - 1) <= to; // no FIFO entry beyond to
  }

  @Override
  public double queryDouble(long from, long to) {
    return toDouble(query(from, to));
  }

  private static double toDouble(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  @Override
  public long oldestTime() {
    if (tree != null) {
      return tree.oldestTime();
    }
    if (end == front) {
      throw new NoSuchElementException("oldestTime() of an empty window");
    }
    return t(front);
  }

  @Override
  public long youngestTime() {
    if (tree != null) {
      return tree.youngestTime();
    }
    if (end == front) {
      throw new NoSuchElementException("youngestTime() of an empty window");
    }
    return youngest;
  }

  @Override
  public long ceilingTime(long t) {
    return tree != null ? tree.ceilingTime(t) : TimedFifo.ceiling(times, front, end, t);
  }

  @Override
  public int size() {
    return tree != null ? tree.size() : end - front;
  }

  /**
   * The combined partial of the entries at exactly {@code time}, in byte form (null if none): from
   * the tree once switched, else lifted and combined from the raw entries in the ring (at flush
   * time, O(entries at that time + log n)).
   */
  @Override
  public byte[] entryBytes(long time) {
    if (tree != null) {
      return tree.entryBytes(time);
    }
    int lo = front;
    int hi = end;
    while (lo < hi) { // the first entry with time >= time (the ring is in time order)
      int mid = lo + ((hi - lo) >>> 1);
      if (t(mid) < time) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo == end || t(lo) != time) {
      return null;
    }
    io.swag.core.Partials p = fn.aggregated().newPartials();
    p.resize(2);
    p.liftObject(0, entry(lo), time);
    for (int i = lo + 1; i < end && t(i) == time; i++) {
      p.liftObject(1, entry(i), time);
      p.combine(0, 0, 1);
      p.release(1);
    }
    int n = p.serializedSize(0);
    if (n < 0) {
      throw new UnsupportedOperationException("function '" + fn.name() + "' has no byte form of its partials");
    }
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n);
    p.write(0, b);
    return b.array();
  }

  @Override
  public String algorithm() {
    return tree != null ? "adaptive(" + fifoAlgorithm + " -> " + tree.algorithm() + ")" : "adaptive(" + fifoAlgorithm
        + ", then " + treeAlgorithm + ")";
  }

  @Override
  public AggregateFunction<?, ?, ?> function() {
    return fn;
  }
}

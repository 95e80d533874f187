package io.swag.core.plan;

import io.swag.core.fifo.FifoBase;
import java.util.List;

/**
 * The count window of one key in one {@link CountGroup}: a FIFO aggregator of the group's in-order
 * algorithm over the key's last {@code size} records (O(1) per record worst case with DABA Lite), and
 * the key's record count. With {@code retainRows} it also keeps the window's rows and times in a
 * ring, so that an engine can write them to its state ({@link #forEachRow}) and rebuild the window
 * on restore ({@link #restore}).
 *
 * <p>Invariants: {@code fifo.size() == min(count, size)}; with rows retained, the ring holds exactly
 * the FIFO's records, oldest first. Not thread-safe.
 */
public final class CountWindow {
  /** Receives an output row: window start and end (record counts) and the product's results. */
  public interface Output {
    /**
     * Receives one output row.
     *
     * @param start the window's start, a record count
     * @param end the window's end, a record count
     * @param results the product's results
     */
    void emit(long start, long end, List<Object> results);
  }

  private final CountGroup g;
  private final long size;
  private final long slide;
  private final FifoBase fifo;
  private final boolean retainRows;
  private long[] times;
  private Object[] rows;
  private int head; // ring index of the oldest retained row
  private int held; // rows in the ring
  private long count;

  CountWindow(CountGroup g, boolean retainRows) {
    this.g = g;
    this.size = g.window().size();
    this.slide = g.window().slide();
    this.fifo = g.newFifo();
    this.retainRows = retainRows;
    if (retainRows) {
      int c = (int) Math.min(size, 16);
      times = new long[c];
      rows = new Object[c];
    }
  }

  /**
   * Adds a record (its values {@linkplain CountGroup#check checked}); emits the row it causes, if
   * any: every {@code slide} records, or every record with {@code per_record}.
   *
   * @param t the record's time
   * @param row the record
   * @param out receives the emitted row
   */
  public void insert(long t, Object[] row, Output out) {
    add(t, row);
    if (g.perRecord || count % slide == 0) {
      @SuppressWarnings("unchecked")
      List<Object> res = (List<Object>) fifo.query();
      out.emit(count - fifo.size(), count, res);
    }
  }

  private void add(long t, Object[] row) {
    fifo.insertArg((Object) row, t);
    count++;
    if (retainRows) {
      if (held == rows.length) {
        grow();
      }
      int at = (head + held) % rows.length;
      times[at] = t;
      rows[at] = row;
      held++;
    }
    if (fifo.size() > size) {
      fifo.evict();
      if (retainRows) {
        rows[head] = null;
        head = (head + 1) % rows.length;
        held--;
      }
    }
  }

  /** Doubles the ring (up to {@code size + 1}: the window and the record about to push one out). */
  private void grow() {
    int c = (int) Math.min(Math.max(16L, 2L * rows.length), size + 1);
    long[] nt = new long[c];
    Object[] nr = new Object[c];
    for (int i = 0; i < held; i++) {
      int from = (head + i) % rows.length;
      nt[i] = times[from];
      nr[i] = rows[from];
    }
    times = nt;
    rows = nr;
    head = 0;
  }

  /**
   * The key's record count (every record ever inserted, not only the window's).
   *
   * @return the key's record count
   */
  public long count() {
    return count;
  }

  /**
   * Records in the window.
   *
   * @return the number of records in the window
   */
  public int size() {
    return fifo.size();
  }

  /**
   * Visits the window's retained rows, oldest first.
   *
   * @param v the visitor
   */
  public void forEachRow(KeyWindows.RowVisitor v) {
    if (!retainRows) {
      throw new IllegalStateException("this count window keeps no rows");
    }
    for (int i = 0; i < held; i++) {
      int at = (head + i) % rows.length;
      v.visit(times[at], (Object[]) rows[at]);
    }
  }

  /**
   * Rebuilds a fresh window: {@code rows[i]} at {@code ts[i]} are the key's last records, oldest first
   * (more than {@code size} are fine: the older ones pass through), {@code count} the key's record
   * count. Emits nothing.
   *
   * @param count the key's record count
   * @param ts the records' times
   * @param rows the records
   * @param n the number of records
   */
  public void restore(long count, long[] ts, Object[][] rows, int n) {
    if (this.count != 0 || fifo.size() != 0) {
      throw new IllegalStateException("restore into a count window that has records");
    }
    if (n > count) {
      throw new IllegalArgumentException("restore: " + n + " rows for a record count of " + count);
    }
    for (int i = 0; i < n; i++) {
      add(ts[i], rows[i]);
    }
    this.count = count;
  }
}

package io.swag.core.plan;

import java.util.function.LongConsumer;

/**
 * The record times of one key (and, optionally, its retained rows) in time order, equal times in
 * arrival order: what {@link KeyWindows} keeps for engines that mirror evictions in their state
 * store or write the rows at checkpoint time.
 *
 * <p>Layout: a list of blocks of at most {@value #CAP} entries, each block a slice {@code [lo, hi)}
 * of a {@code long[]} of times (and an {@code Object[]} of rows), blocks ordered by time. No
 * per-record object: an entry is one {@code long} and one reference in arrays shared by
 * {@value #CAP} entries (a {@code TreeMap} entry with a boxed key and a bucket cost about 100 bytes
 * and an allocation per record).
 *
 * <p>Cost: adding at or after the youngest time (in-order data) is O(1) amortized; adding an older
 * time is O(log n) to find its block plus at most {@value #CAP} moves in the block (and, once per
 * {@value #CAP}/2 such adds at worst, a split that moves O(n / {@value #CAP}) block references);
 * {@link #evict} is O(evicted) plus O(1) per emptied block; {@link #ceiling} is O(log n); the
 * youngest time is O(1). {@link #ceiling(long, Cursor)} answers a rising sequence of targets from
 * where the last answer was: O(1) when the answer is that entry or the next, else O(log {@value #CAP}) plus
 * O(1) per block passed; an add before the youngest time (which moves entries) sends the next look-up
 * of every cursor back to {@link #ceiling}.
 *
 * <p>Invariants (checked by {@link #checkInvariants}): every block non-empty; times non-decreasing
 * within and across blocks; {@code size} equals the sum of the blocks' lengths; slots outside a
 * block's slice hold no row reference. Blocks are numbered from the first block ever made: block
 * {@code b} of the list is block {@code dropped + b}. A {@linkplain Cursor cursor} whose stamp equals
 * {@code moves} names an entry (or an evicted one) every entry before which is older than its target.
 */
final class TimeLog {
  static final int CAP = 256;

  private final boolean keepRows;
  private long[][] times = new long[4][];
  private Object[][] rows;
  private int[] lo = new int[4];
  private int[] hi = new int[4];
  private int nb;
  private long size;
  private long[] spareTimes;
  private Object[] spareRows;
  private long dropped; // blocks dropped from the front since the log was made
  private long moves; // adds that moved entries (before the youngest time)

  /**
   * A position in the log for {@link #ceiling(long, Cursor)}: the entry of its last answer, with
   * the target it answered and the {@code moves} count it was found at (-1: none).
   */
  static final class Cursor {
    private long block;
    private int pos;
    private long target;
    private long stamp = -1;

    /** Forgets the position: the next look-up searches the whole log. */
    void reset() {
      stamp = -1;
    }
  }

  TimeLog(boolean keepRows) {
    this.keepRows = keepRows;
    this.rows = keepRows ? new Object[4][] : null;
  }

  /** Receives entries oldest first. */
  interface Visitor {
    void visit(long time, Object row);
  }

  long size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The youngest time; the log must not be empty. */
  long last() {
    return times[nb - 1][hi[nb - 1] - 1];
  }

  /** Adds time {@code t} (no row) unless it is there already: a log of distinct times. */
  void addDistinct(long t) {
    if (nb > 0 && (t == last() || (t < last() && ceiling(t) == t))) {
      return;
    }
    add(t, null);
  }

  /** Adds an entry after all entries with time {@code <= t}. */
  void add(long t, Object row) {
    if (nb == 0 || t >= last()) {
      int b = nb - 1;
      if (b < 0 || hi[b] == CAP) {
        b = insertBlock(nb);
      }
      set(b, hi[b]++, t, row);
      size++;
      return;
    }
    moves++;
    int b = blockFor(t);
    int p = upper(times[b], lo[b], hi[b], t);
    if (hi[b] == CAP && lo[b] == 0) {
      split(b);
      if (p > hi[b]) {
        p -= hi[b];
        b++;
      }
    }
    insertAt(b, p, t, row);
    size++;
  }

  /** Inserts at slot {@code p} of block {@code b}, which has room on one side. */
  private void insertAt(int b, int p, long t, Object row) {
    long[] ts = times[b];
    if (hi[b] < CAP) {
      System.arraycopy(ts, p, ts, p + 1, hi[b] - p);
      if (keepRows) {
        System.arraycopy(rows[b], p, rows[b], p + 1, hi[b] - p);
      }
      hi[b]++;
      set(b, p, t, row);
    } else {
      System.arraycopy(ts, lo[b], ts, lo[b] - 1, p - lo[b]);
      if (keepRows) {
        System.arraycopy(rows[b], lo[b], rows[b], lo[b] - 1, p - lo[b]);
      }
      lo[b]--;
      set(b, p - 1, t, row);
    }
  }

  private void set(int b, int i, long t, Object row) {
    times[b][i] = t;
    if (keepRows) {
      rows[b][i] = row;
    }
  }

  /** Splits full block {@code b} into its lower half (stays) and upper half (a new block b + 1). */
  private void split(int b) {
    int half = CAP / 2;
    int nw = insertBlock(b + 1);
    System.arraycopy(times[b], half, times[nw], 0, CAP - half);
    if (keepRows) {
      System.arraycopy(rows[b], half, rows[nw], 0, CAP - half);
      java.util.Arrays.fill(rows[b], half, CAP, null);
    }
    hi[nw] = CAP - half;
    hi[b] = half;
  }

  /** Makes an empty block at index {@code at} (shifting later ones); returns {@code at}. */
  private int insertBlock(int at) {
    if (nb == times.length) {
      int n = 2 * nb;
      times = java.util.Arrays.copyOf(times, n);
      lo = java.util.Arrays.copyOf(lo, n);
      hi = java.util.Arrays.copyOf(hi, n);
      if (keepRows) {
        rows = java.util.Arrays.copyOf(rows, n);
      }
    }
    System.arraycopy(times, at, times, at + 1, nb - at);
    System.arraycopy(lo, at, lo, at + 1, nb - at);
    System.arraycopy(hi, at, hi, at + 1, nb - at);
    if (keepRows) {
      System.arraycopy(rows, at, rows, at + 1, nb - at);
    }
    if (spareTimes != null) {
      times[at] = spareTimes;
      spareTimes = null;
      if (keepRows) {
        rows[at] = spareRows;
        spareRows = null;
      }
    } else {
      times[at] = new long[CAP];
      if (keepRows) {
        rows[at] = new Object[CAP];
      }
    }
    lo[at] = 0;
    hi[at] = 0;
    nb++;
    return at;
  }

  /** The last block whose first time is {@code <= t}, or 0. */
  private int blockFor(long t) {
    int a = 0;
    int z = nb - 1;
    while (a < z) {
      int m = (a + z + 1) >>> 1;
      if (times[m][lo[m]] <= t) {
        a = m;
      } else {
        z = m - 1;
      }
    }
    return a;
  }

  /** The first index in {@code [from, to)} with {@code ts[i] > t}, or {@code to}. */
  private static int upper(long[] ts, int from, int to, long t) {
    while (from < to) {
      int m = (from + to) >>> 1;
      if (ts[m] <= t) {
        from = m + 1;
      } else {
        to = m;
      }
    }
    return from;
  }

  /** The first index in {@code [from, to)} with {@code ts[i] >= t}, or {@code to}. */
  private static int lower(long[] ts, int from, int to, long t) {
    while (from < to) {
      int m = (from + to) >>> 1;
      if (ts[m] < t) {
        from = m + 1;
      } else {
        to = m;
      }
    }
    return from;
  }

  /** The smallest time {@code >= t}, or {@code Long.MAX_VALUE}. */
  long ceiling(long t) {
    if (nb == 0 || last() < t) {
      return Long.MAX_VALUE;
    }
    int a = blockForCeiling(t);
    return times[a][lower(times[a], lo[a], hi[a], t)];
  }

  /**
   * {@link #ceiling(long)} from cursor {@code c}'s last answer when {@code t} is at least its last
   * target and no add has moved entries since (else a full search); leaves {@code c} at the answer.
   */
  long ceiling(long t, Cursor c) {
    if (nb == 0 || last() < t) {
      c.stamp = -1;
      return Long.MAX_VALUE;
    }
    if (c.stamp != moves || t < c.target) {
      int b = blockForCeiling(t);
      c.block = dropped + b;
      c.pos = lower(times[b], lo[b], hi[b], t);
      c.target = t;
      c.stamp = moves;
      return times[b][c.pos];
    }
    int b;
    int p;
    if (c.block < dropped) { // its block was evicted: every entry left is after it
      b = 0;
      p = lo[0];
    } else {
      b = (int) (c.block - dropped);
      p = Math.max(c.pos, lo[b]);
    }
    while (times[b][hi[b] - 1] < t) { // block nb - 1 ends at last() >= t
      b++;
      p = lo[b];
    }
    long[] ts = times[b];
    if (ts[p] < t) { // the next entry first (a window that starts at the next record), else a search
      p = p + 1 < hi[b] && ts[p + 1] >= t ? p + 1 : lower(ts, p + 1, hi[b], t);
    }
    c.block = dropped + b;
    c.pos = p;
    c.target = t;
    return ts[p];
  }

  /** The first block whose last time is {@code >= t}; needs {@code last() >= t}. */
  private int blockForCeiling(long t) {
    int a = 0;
    int z = nb - 1;
    while (a < z) {
      int m = (a + z) >>> 1;
      if (times[m][hi[m] - 1] >= t) {
        z = m;
      } else {
        a = m + 1;
      }
    }
    return a;
  }

  /**
   * Drops every entry with time {@code <= bound}; calls {@code listener} (if not null) once per
   * distinct dropped time, oldest first. Returns the number of entries dropped.
   */
  long evict(long bound, LongConsumer listener) {
    long n = 0;
    boolean any = false;
    long prev = 0;
    while (nb > 0) {
      long[] ts = times[0];
      int i = lo[0];
      int h = hi[0];
      while (i < h && ts[i] <= bound) {
        if (listener != null && (!any || ts[i] != prev)) {
          listener.accept(ts[i]);
        }
        any = true;
        prev = ts[i];
        if (keepRows) {
          rows[0][i] = null;
        }
        i++;
      }
      n += i - lo[0];
      lo[0] = i;
      if (i < h) {
        break;
      }
      dropFirstBlock();
    }
    size -= n;
    return n;
  }

  private void dropFirstBlock() {
    dropped++;
    spareTimes = times[0];
    if (keepRows) {
      spareRows = rows[0];
    }
    System.arraycopy(times, 1, times, 0, nb - 1);
    System.arraycopy(lo, 1, lo, 0, nb - 1);
    System.arraycopy(hi, 1, hi, 0, nb - 1);
    if (keepRows) {
      System.arraycopy(rows, 1, rows, 0, nb - 1);
      rows[nb - 1] = null;
    }
    times[nb - 1] = null;
    nb--;
  }

  /** Visits every entry, oldest first (the row is null without {@code keepRows}). */
  void forEach(Visitor v) {
    for (int b = 0; b < nb; b++) {
      long[] ts = times[b];
      Object[] rs = keepRows ? rows[b] : null;
      for (int i = lo[b]; i < hi[b]; i++) {
        v.visit(ts[i], rs == null ? null : rs[i]);
      }
    }
  }

  /** Throws {@link IllegalStateException} if an invariant of the class comment does not hold. */
  void checkInvariants() {
    long n = 0;
    long prev = Long.MIN_VALUE;
    for (int b = 0; b < nb; b++) {
      if (lo[b] < 0 || hi[b] > CAP || lo[b] >= hi[b]) {
        throw new IllegalStateException("block " + b + " has slice [" + lo[b] + ", " + hi[b] + ")");
      }
      for (int i = lo[b]; i < hi[b]; i++) {
        if (times[b][i] < prev) {
          throw new IllegalStateException("time " + times[b][i] + " after " + prev + " in block " + b);
        }
        prev = times[b][i];
      }
      if (keepRows) {
        for (int i = 0; i < CAP; i++) {
          if ((i < lo[b] || i >= hi[b]) && rows[b][i] != null) {
            throw new IllegalStateException("block " + b + " keeps a row at free slot " + i);
          }
        }
      }
      n += hi[b] - lo[b];
    }
    if (n != size) {
      throw new IllegalStateException("size " + size + " but the blocks hold " + n);
    }
  }
}

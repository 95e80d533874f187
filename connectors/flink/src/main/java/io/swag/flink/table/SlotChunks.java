package io.swag.flink.table;

import io.swag.core.Partials;
import java.nio.ByteBuffer;
import org.apache.flink.table.api.dataview.MapView;

/**
 * The deque slots of a {@link StateDabaLite} in a {@link MapView} (in Flink's OVER operators a view
 * backed by keyed map state: RocksDB and ForSt read and write only the entries touched), with a
 * small write-back cache of frames in a {@link Partials} store.
 *
 * <p>Position {@code pos} (a {@code long} that only grows) lives in chunk {@code k = pos / c} at
 * offset {@code pos % c}; the view maps {@code k} to the chunk's bytes: offsets {@code lo} and
 * {@code hi} (ints), then for each offset in {@code [lo, hi)} the raw value ({@link OverValues}) and
 * the partial in the store's byte form. {@code c} is fixed per accumulator (many slots per entry
 * for fixed-size partials, one for sketches).
 *
 * <p>Invariants, with live positions {@code [front, end)} (set by the algorithm):
 * <ul>
 *   <li>a view entry for chunk {@code k} holds at least the live positions of {@code k} that are
 *       not in a dirty frame, with their current value and partial;
 *   <li>a frame {@code i} caches chunk {@code key[i]} in store slots
 *       {@code [base + i*c, base + (i+1)*c)} and {@code values[i]}; {@code dirty[i]} when some
 *       live slot differs from the view entry; {@code stored[i]} when the view has an entry;
 *   <li>no view entry lies wholly below {@code front} (removed when {@code front} crosses it), and
 *       none at or above {@code end}.
 * </ul>
 * A frame is written back when it is the least recently used one and another chunk is needed, and
 * by {@link #flush()}; the caller flushes before the accumulator's fields are read. An operation of
 * the algorithm touches at most three positions, fewer than {@link #FRAMES}, so a frame in use is
 * never the one evicted.
 */
final class SlotChunks {
  /** Cached chunks at most. */
  static final int FRAMES = 6;

  private final MapView<Long, byte[]> view;
  private final Partials p;
  private final int base;
  private final int c;
  private final long[] key = new long[FRAMES];
  private final boolean[] dirty = new boolean[FRAMES];
  private final boolean[] stored = new boolean[FRAMES];
  private final long[] used = new long[FRAMES];
  private final Object[][] values = new Object[FRAMES][];
  private int frames;
  private long clock;

  /** Live positions {@code [front, end)}; kept up to date by the algorithm. */
  long front;
  long end;

  SlotChunks(MapView<Long, byte[]> view, Partials p, int base, int c) {
    if (c < 1) {
      throw new IllegalArgumentException("slots per chunk must be positive, got " + c);
    }
    this.view = view;
    this.p = p;
    this.base = base;
    this.c = c;
    java.util.Arrays.fill(key, -1);
  }

  /** The store slot of {@code pos}, loading its chunk; {@code write}: the caller changes the partial. */
  int slot(long pos, boolean write) {
    int i = frame(pos);
    if (write) {
      dirty[i] = true;
    }
    return base + i * c + (int) (pos - key[i] * c);
  }

  /** The raw value at live position {@code pos}. */
  Object value(long pos) {
    int i = frame(pos);
    return values[i][(int) (pos - key[i] * c)];
  }

  /** Records the value of a slot just lifted at {@code pos} (its frame is cached: see {@link #slot}). */
  void written(long pos, Object v) {
    int i = frame(pos);
    values[i][(int) (pos - key[i] * c)] = v;
    dirty[i] = true;
  }

  /** {@code front} moved to {@code newFront} (one eviction): a chunk it left behind is removed. */
  void evicted(long newFront) {
    front = newFront;
    if (newFront % c == 0) {
      long k = newFront / c - 1;
      int i = find(k);
      if (i >= 0) {
        key[i] = -1;
        dirty[i] = false;
        if (stored[i]) {
          remove(k);
        }
        stored[i] = false;
      } else {
        remove(k);
      }
    }
  }

  /** Writes every dirty frame back (and removes entries left without live positions); frames stay cached. */
  void flush() {
    for (int i = 0; i < frames; i++) {
      if (key[i] >= 0) {
        writeBack(i);
      }
    }
  }

  /** Drops the cache and every entry of the view. */
  void clear() {
    view.clear();
    java.util.Arrays.fill(key, -1);
    java.util.Arrays.fill(dirty, false);
    java.util.Arrays.fill(stored, false);
  }

  // ---- frames ----

  private int find(long k) {
    for (int i = 0; i < frames; i++) {
      if (key[i] == k) {
        return i;
      }
    }
    return -1;
  }

  private int frame(long pos) {
    long k = pos / c;
    int i = find(k);
    if (i < 0) {
      i = load(k);
    }
    used[i] = ++clock;
    return i;
  }

  private int load(long k) {
    int i = victim();
    long first = k * c;
    long liveLo = Math.max(front, first);
    long liveHi = Math.min(end, first + c);
    // an entry exists only below end (positions at or above end were never written)
    byte[] bytes = first >= end ? null : get(k);
    key[i] = k;
    dirty[i] = false;
    stored[i] = bytes != null;
    if (values[i] == null) {
      values[i] = new Object[c];
    }
    if (bytes == null) {
      if (liveLo < liveHi) {
        throw new OverStateException("slot chunk " + k + " (positions " + liveLo + ".." + (liveHi - 1)
            + " of the frame) is missing from state");
      }
      return i;
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    int lo = in.getInt();
    int hi = in.getInt();
    if (liveLo < liveHi && (lo > liveLo - first || hi < liveHi - first)) {
      throw new OverStateException("slot chunk " + k + " holds offsets " + lo + ".." + (hi - 1)
          + ", the frame needs " + (liveLo - first) + ".." + (liveHi - first - 1));
    }
    Object[] vals = values[i];
    int s = base + i * c;
    for (int j = lo; j < hi; j++) {
      vals[j] = OverValues.read(in);
      p.read(s + j, in);
    }
    return i;
  }

  /** A free frame, a new one, or the least recently used one (written back). */
  private int victim() {
    for (int i = 0; i < frames; i++) {
      if (key[i] < 0) {
        return i;
      }
    }
    if (frames < FRAMES) {
      frames++;
      p.resize(base + frames * c);
      return frames - 1;
    }
    int v = 0;
    for (int i = 1; i < frames; i++) {
      if (used[i] < used[v]) {
        v = i;
      }
    }
    writeBack(v);
    key[v] = -1;
    return v;
  }

  private void writeBack(int i) {
    long k = key[i];
    long first = k * c;
    long lo = Math.max(front, first);
    long hi = Math.min(end, first + c);
    if (lo >= hi) {
      if (stored[i]) {
        remove(k);
        stored[i] = false;
      }
    } else if (dirty[i]) {
      put(k, encode(i, (int) (lo - first), (int) (hi - first)));
      stored[i] = true;
    }
    dirty[i] = false;
  }

  private byte[] encode(int i, int lo, int hi) {
    Object[] vals = values[i];
    int s = base + i * c;
    int n = 8;
    for (int j = lo; j < hi; j++) {
      n += OverValues.size(vals[j]) + p.serializedSize(s + j);
    }
    byte[] b = new byte[n];
    ByteBuffer out = ByteBuffer.wrap(b);
    out.putInt(lo).putInt(hi);
    for (int j = lo; j < hi; j++) {
      OverValues.write(vals[j], out);
      p.write(s + j, out);
    }
    if (out.position() != n) {
      throw new OverStateException("slot chunk " + key[i] + ": wrote " + out.position() + " of " + n + " bytes");
    }
    return b;
  }

  // ---- the view ----

  private byte[] get(long k) {
    try {
      return view.get(k);
    } catch (Exception e) {
      throw new OverStateException("reading slot chunk " + k + ": " + e, e);
    }
  }

  private void put(long k, byte[] b) {
    try {
      view.put(k, b);
    } catch (Exception e) {
      throw new OverStateException("writing slot chunk " + k + ": " + e, e);
    }
  }

  private void remove(long k) {
    try {
      view.remove(k);
    } catch (Exception e) {
      throw new OverStateException("removing slot chunk " + k + ": " + e, e);
    }
  }
}

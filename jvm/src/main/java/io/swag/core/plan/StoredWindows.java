package io.swag.core.plan;

import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import io.swag.core.TimedAggregator;
import java.util.Arrays;
import java.util.List;

/**
 * One key's windows of one time group ({@link KeyWindows}) and their form in an engine's keyed state
 * ({@link EntryStore}), written incrementally: a {@link #flush} writes what changed since the last
 * one, never the window. The heap holds the aggregator and a time index, not the input rows.
 *
 * <p>Two layouts, chosen by one rule ({@link WindowGroup#preaggregates}):
 * <ul>
 *   <li><b>Slices</b> (every function mergeable): a record is combined into its slice
 *       {@code [k*g, (k+1)*g)} of the plan's gcd {@code g}: inserted at the slice start (lifted with
 *       its own time, {@link ProductFunction.At}), so a tree holds one entry per slice (an in-order
 *       plan's FIFO holds slices of one record; a key switches to its tree at its first record that
 *       shares a slice), and the store
 *       one entry per slice: slice start to the slice's partial in its byte form
 *       ({@link ProductPartials#write}). The slices touched since the last flush are noted (those
 *       {@link #insertDouble} appends to the in-order aggregator's ring by one mark, the start of the
 *       first: every ring entry from it on; a list for the others, and the ring's run joins the list
 *       at the flush or at the switch to the tree); a flush
 *       writes each as the tree holds it ({@link io.swag.core.TimedAggregator#entryBytes}: one put
 *       per slice touched, so a late record rewrites only its slice) and removes the written slices
 *       evicted since.
 *       State and heap are O(window / g) per key, like an engine's built-in sliding windows.</li>
 *   <li><b>Rows</b> (otherwise): records since the last flush are appended to buffers
 *       ({@link RowCodec}, segments of 64 KB, a segment dropped once all its rows are evicted); a
 *       flush writes them as one chunk (chunk id to rows, ids increasing per key) and removes every
 *       chunk whose rows are all evicted (an index of (largest time, id) per stored chunk, a min-heap
 *       on the time, is kept here and rebuilt by {@link #load}): a flush costs O(new bytes + chunks
 *       removed x log chunks), not O(chunks), so an engine may flush after every record.</li>
 * </ul>
 *
 * <p>Bookkeeping ({@link #writeMeta}, {@value #META_BYTES} bytes: fired watermark, evicted time, next
 * chunk id) goes with the key's other small state. {@link #load} rebuilds the key from store and meta
 * with one bulk insert.
 *
 * <p>Cost: an insert is the aggregator's insert plus noting its slice (O(1) in order, a binary
 * search otherwise) or one row encoding (rows). A flush costs O(slices touched, or bytes of new rows,
 * + entries removed) state operations and bytes. Without flushes (no checkpoints) what waits for one
 * stays O(window).
 *
 * <p>Invariants: {@code evicted} is at least every time the aggregator evicted; every stored chunk
 * is in the index; a stored slice or chunk with nothing above {@code evicted} is removed at the next
 * flush; after a flush, {@link #load} of the store and meta gives a key with the same results. Not
 * thread-safe.
 */
public final class StoredWindows {
  /** Bytes of {@link #writeMeta}. */
  public static final int META_BYTES = 24;
  private static final long[] NONE = new long[0];

  private final KeyWindows kw;
  private final boolean slices;
  private final long width;
  private final int timeSlot;
  private long evicted = Long.MIN_VALUE;

  // slices: the starts of the slices touched since the last flush (sorted, distinct), the stored
  // slices evicted since the last flush
  private final ProductFunction.At at;
  // a group that lifts rows at insert (WindowGroup.liftsRowsAtInsert): its one function, and the
  // reused holder of a lifted partial for insertDouble; else null
  private final ScalarProduct scalar;
  private final ScalarProduct.Partial lifted;
  private final AlignedStart sliceStart; // a record's slice start, without a division for in-order records
  private long[] touched = NONE;
  private int touchedCount;
  // the in-order aggregator's ring while it holds the slices (null once switched to its tree), and the
  // start of the first slice insertDouble appended to it since the last flush (Long.MAX_VALUE if none):
  // every ring entry at or after ringMark was appended since then, so the mark notes them for the flush
  // instead of one touched entry per slice; the ring's run is moved into touched at a flush or switch
  private final AdaptiveAggregator ring;
  private long ringMark = Long.MAX_VALUE;
  private long[] gone = NONE;
  private int goneCount;
  private long maxStored = Long.MIN_VALUE; // the largest slice start ever written

  // rows: the rows since the last flush in segments of about SEGMENT bytes (each with its largest
  // time, so that segments evicted before a flush are dropped), the stored chunks' (largest time, id)
  private static final int SEGMENT = 64 << 10;
  private final java.util.ArrayList<RowCodec.Writer> segments = new java.util.ArrayList<>();
  private long[] segmentMax = NONE;
  private RowCodec.Writer pending;
  private long pendingMax = Long.MIN_VALUE;
  private long[] heapMax = NONE; // the stored chunks as a min-heap on their largest time
  private long[] heapId = NONE;
  private int heapLen;
  private long nextChunk;

  /**
   * An empty key. {@code g}: a group made by {@link WindowGroup#storedGroups}; {@code timeSlot}: the
   * index of the record time (a {@code Long}) in the rows.
   *
   * @param g the group
   * @param timeSlot the index of the record time in the rows
   */
  public StoredWindows(WindowGroup g, int timeSlot) {
    this.timeSlot = timeSlot;
    this.slices = g.preaggregates();
    if (slices && !g.storesSlices()) {
      throw new IllegalArgumentException("a pre-aggregating group must be built by WindowGroup.storedGroups");
    }
    this.width = g.plan().sliceMs();
    this.kw = slices ? new KeyWindows(g, false, false, true) : g.newKey(false, true);
    this.at = slices ? new ProductFunction.At() : null;
    this.sliceStart = slices ? new AlignedStart(width, 0) : null;
    this.scalar = g.liftsRowsAtInsert() ? (ScalarProduct) g.fn.aggregated() : null;
    this.lifted = scalar != null ? new ScalarProduct.Partial() : null;
    kw.setEvictionListener(this::onEvict);
    this.ring = slices && kw.aggregator() instanceof AdaptiveAggregator a && !a.switched() ? a : null;
    if (ring != null) {
      ring.setSwitchListener(this::absorbRing); // after the windows' own listener: the ring is still whole
    }
  }

  /**
   * Whether this key keeps slices (else rows).
   *
   * @return true if the key keeps slices
   */
  public boolean storesSlices() {
    return slices;
  }

  /**
   * The windows (to fire, schedule, inspect).
   *
   * @return the windows
   */
  public KeyWindows windows() {
    return kw;
  }

  private void onEvict(long t) {
    if (t > evicted) {
      evicted = t;
    }
    if (slices && t <= maxStored) { // a slice never written needs no removal
      addGone(t);
    }
  }

  /**
   * {@link KeyWindows#insert} of an accepted record ({@code row[timeSlot] == t}) that the state will
   * hold from the next flush on. A value a function refuses throws {@link IllegalArgumentException}
   * before any change.
   *
   * @param t the record's time
   * @param row the record
   * @param watermark the current watermark
   * @param out receives the emitted rows
   */
  public void insert(long t, Object[] row, long watermark, KeyWindows.WindowOutput out) {
    if (slices) {
      long s = sliceStart.floor(t); // floorDiv(t, width) * width
      AdaptiveAggregator fifo = fifoFor(s);
      if (fifo != null && fifo.keepsInputs()) {
        // one record per slice so far: the in-order FIFO, which keeps its raw inputs (one object each)
        kw.insert(s, new ProductFunction.At().set(row, t), watermark, out);
      } else {
        insertLifted(s, row, t, watermark, out); // the FIFO keeps lifted partials, or the tree
      }
      touch(s);
    } else {
      if (pending == null || pending.size() >= SEGMENT) {
        newSegment();
      }
      int mark = pending.size();
      pending.add(row);
      try {
        kw.insert(t, row, watermark, out);
      } catch (RuntimeException e) {
        pending.truncate(mark);
        throw e;
      }
      pendingMax = Math.max(pendingMax, t);
    }
  }

  /**
   * {@link #insert} of an accepted record whose value column ({@link WindowGroup#scalarColumn}) holds
   * the {@code Double} {@code v}, for a group that {@link WindowGroup#liftsRowsAtInsert}: the same
   * effect with no row, the value lifted here ({@link ScalarProduct#liftDouble}) and handed on as its
   * partial. A value the function refuses throws {@link IllegalArgumentException} before any change.
   *
   * @param t the record's time
   * @param v the record's value in the group's one column
   * @param watermark the current watermark
   * @param out receives the emitted rows
   * @throws IllegalStateException if the group does not lift rows at insert
   */
  public void insertDouble(long t, double v, long watermark, KeyWindows.WindowOutput out) {
    if (scalar == null) {
      throw new IllegalStateException("insertDouble: the group does not lift rows at insert");
    }
    double x = scalar.liftDouble(v, t); // a refused value throws here, before any change
    long s = sliceStart.floor(t);
    AdaptiveAggregator fifo = fifoFor(s); // its ring keeps lifted partials
    kw.insert(s, lifted.set(x), watermark, out); // lifted at once by the ring or tree: the holder is reused
    if (fifo != null && !fifo.switched()) { // the insert itself switches it for a time behind its youngest
      if (ringMark == Long.MAX_VALUE) {
        ringMark = s; // appended as the ring's youngest entry: the mark notes it (and every slice after it)
      }
    } else {
      touch(s);
    }
  }

  /** Notes the ring's slices at or after {@link #ringMark} in {@link #touched} and clears the mark. */
  private void absorbRing() {
    long m = ringMark;
    if (m == Long.MAX_VALUE) {
      return;
    }
    ringMark = Long.MAX_VALUE;
    ring.forEachTimeFrom(m, this::touch);
  }

  /**
   * Before a record of slice {@code s}: the adaptive aggregator in FIFO mode ({@link #ring}) whose
   * youngest entry is already that slice switches to its tree (a second record in a slice: the tree
   * keeps one entry per slice). Returns the aggregator if it is still in FIFO mode then, else null.
   */
  private AdaptiveAggregator fifoFor(long s) {
    AdaptiveAggregator a = ring;
    if (a == null || a.switched()) {
      return null;
    }
    if (!a.isEmpty() && a.youngestTime() == s) {
      a.switchToTree();
      return null;
    }
    return a;
  }

  /** Starts a new segment of pending rows; drops the segments whose rows are all evicted. */
  private void newSegment() {
    if (pending != null) {
      if (segmentMax.length == segments.size()) {
        segmentMax = Arrays.copyOf(segmentMax, Math.max(4, 2 * segmentMax.length));
      }
      segmentMax[segments.size()] = pendingMax;
      segments.add(pending);
      int keep = 0;
      for (int i = 0; i < segments.size(); i++) {
        if (segmentMax[i] > evicted) {
          segmentMax[keep] = segmentMax[i];
          segments.set(keep++, segments.get(i));
        }
      }
      while (segments.size() > keep) {
        segments.remove(segments.size() - 1);
      }
    }
    pending = new RowCodec.Writer(256);
    pendingMax = Long.MIN_VALUE;
  }

  private void insertLifted(long s, Object[] row, long t, long watermark, KeyWindows.WindowOutput out) {
    try {
      kw.insert(s, at.set(row, t), watermark, out); // lifted at once (a tree, a FIFO of partials): the holder is reused
    } finally {
      at.set(null, 0);
    }
  }

  /**
   * Notes that slice {@code s} changed: O(1) for the newest slice (in-order records), else a binary
   * search (and a shift for a slice not touched yet). Without flushes (a job without checkpoints)
   * the evicted starts, a prefix, are dropped when the list is full: it stays O(slices in the window).
   */
  private void touch(long s) {
    int n = touchedCount;
    if (n > 0 && touched[n - 1] >= s) {
      if (touched[n - 1] == s) {
        return;
      }
      int i = Arrays.binarySearch(touched, 0, n, s);
      if (i >= 0) {
        return;
      }
      ensureTouched();
      i = -Arrays.binarySearch(touched, 0, touchedCount, s) - 1;
      System.arraycopy(touched, i, touched, i + 1, touchedCount - i);
      touched[i] = s;
      touchedCount++;
      return;
    }
    ensureTouched();
    touched[touchedCount++] = s;
  }

  private void ensureTouched() {
    if (touchedCount < touched.length) {
      return;
    }
    int drop = Arrays.binarySearch(touched, 0, touchedCount, evicted); // the evicted starts: a prefix (sorted, distinct)
    drop = drop >= 0 ? drop + 1 : -drop - 1;
    if (drop > 0 && 2 * drop >= touchedCount) {
      System.arraycopy(touched, drop, touched, 0, touchedCount - drop);
      touchedCount -= drop;
      return;
    }
    touched = Arrays.copyOf(touched, Math.max(8, 2 * touched.length));
  }

  /**
   * Writes the changes since the last flush to {@code store} (the key's entries) and forgets them
   * here; the engine then writes {@link #writeMeta}.
   *
   * @param store the key's entries
   * @throws Exception if {@code store} fails
   */
  public void flush(EntryStore store) throws Exception {
    if (slices) {
      flushSlices(store);
    } else {
      flushRows(store);
    }
  }

  private void flushSlices(EntryStore store) throws Exception {
    absorbRing();
    TimedAggregator agg = kw.aggregator();
    for (int i = 0; i < touchedCount; i++) {
      long s = touched[i];
      if (s > evicted) {
        byte[] b = agg.entryBytes(s); // the slice as the tree holds it: all its records so far
        if (b != null) {
          store.put(s, b);
          maxStored = Math.max(maxStored, s);
        }
      }
    }
    touchedCount = 0;
    if (touched.length > 64) {
      touched = NONE; // a quiet key keeps no list
    }
    for (int i = 0; i < goneCount; i++) {
      store.remove(gone[i]);
    }
    goneCount = 0;
    if (gone.length > 64) {
      gone = NONE;
    }
  }

  private void flushRows(EntryStore store) throws Exception {
    if (pending != null) {
      newSegment(); // the last segment joins the others; evicted ones are dropped
    }
    long max = Long.MIN_VALUE;
    int bytes = 0;
    for (int i = 0; i < segments.size(); i++) {
      max = Math.max(max, segmentMax[i]);
      bytes += segments.get(i).size();
    }
    if (max > evicted && bytes > 0) {
      byte[] chunk = new byte[bytes];
      int at0 = 0;
      for (RowCodec.Writer w : segments) {
        at0 = w.copyTo(chunk, at0);
      }
      store.put(nextChunk, chunk);
      addIndex(max, nextChunk);
      nextChunk++;
    }
    segments.clear();
    pending = null; // the buffers go with the flush: a quiet key holds none
    pendingMax = Long.MIN_VALUE;
    while (heapLen > 0 && heapMax[0] <= evicted) {
      store.remove(heapId[0]); // every row of the chunk was evicted
      popIndex();
    }
  }

  /** Adds a stored chunk to the index (a binary min-heap on the largest time): O(log chunks). */
  private void addIndex(long max, long id) {
    if (heapLen == heapMax.length) {
      heapMax = Arrays.copyOf(heapMax, Math.max(8, 2 * heapLen));
      heapId = Arrays.copyOf(heapId, heapMax.length);
    }
    int i = heapLen++;
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (heapMax[p] <= max) {
        break;
      }
      heapMax[i] = heapMax[p];
      heapId[i] = heapId[p];
      i = p;
    }
    heapMax[i] = max;
    heapId[i] = id;
  }

  /** Removes the chunk with the smallest largest time from the index: O(log chunks). */
  private void popIndex() {
    long max = heapMax[--heapLen];
    long id = heapId[heapLen];
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= heapLen) {
        break;
      }
      if (c + 1 < heapLen && heapMax[c + 1] < heapMax[c]) {
        c++;
      }
      if (heapMax[c] >= max) {
        break;
      }
      heapMax[i] = heapMax[c];
      heapId[i] = heapId[c];
      i = c;
    }
    if (heapLen > 0) {
      heapMax[i] = max;
      heapId[i] = id;
    }
  }

  /**
   * The key's bookkeeping: fired watermark, evicted time, next chunk id ({@value #META_BYTES} bytes).
   *
   * @param out the output
   * @throws IOException if {@code out} fails
   */
  public void writeMeta(DataOutput out) throws IOException {
    writeMeta(out, kw.firedWatermark(), evicted, nextChunk);
  }

  /** The meta's byte layout, in one place: fired watermark, evicted time, next chunk id. */
  private static void writeMeta(DataOutput out, long fired, long evicted, long nextChunk) throws IOException {
    out.writeLong(fired);
    out.writeLong(evicted);
    out.writeLong(nextChunk);
  }

  /**
   * Writes a key's time groups' bookkeeping: their count, then each one's {@link #writeMeta}.
   *
   * @param keyGroups the key's time groups
   * @param out the output
   * @throws IOException if {@code out} fails
   */
  public static void writeMetas(StoredWindows[] keyGroups, DataOutput out) throws IOException {
    out.writeInt(keyGroups.length);
    for (StoredWindows k : keyGroups) {
      k.writeMeta(out);
    }
  }

  /**
   * {@link #writeMetas} of a key of {@code groups} empty time groups (nothing fired, evicted or
   * written).
   *
   * @param groups the number of time groups
   * @param out the output
   * @throws IOException if {@code out} fails
   */
  public static void writeEmptyMetas(int groups, DataOutput out) throws IOException {
    out.writeInt(groups);
    for (int g = 0; g < groups; g++) {
      writeMeta(out, Long.MIN_VALUE, Long.MIN_VALUE, 0);
    }
  }

  /**
   * Rebuilds a key's time groups from what {@link #writeMetas} wrote and their stores
   * ({@code stores[g]} for {@code groups.get(g)}); a group count other than the plan's is an
   * {@link IllegalStateException} naming {@code who}.
   *
   * @param groups the time groups
   * @param timeSlot the index of the record time in the rows
   * @param meta what {@link #writeMetas} wrote
   * @param stores the groups' entries
   * @param who what the message names (the engine's operator)
   * @return the key's time groups
   * @throws Exception if a store fails or the state does not fit the plan
   */
  public static StoredWindows[] loadAll(List<WindowGroup> groups, int timeSlot, DataInput meta, EntryStore[] stores,
      String who) throws Exception {
    int n = meta.readInt();
    if (n != groups.size()) {
      throw new SwagFailure(Kind.STATE, who + ": restored state has " + n + " time groups, the plan " + groups.size()
          + "; restore with the query the checkpoint was taken with");
    }
    StoredWindows[] r = new StoredWindows[n];
    for (int g = 0; g < n; g++) {
      r[g] = load(groups.get(g), timeSlot, meta, stores[g]);
    }
    return r;
  }

  /**
   * Rebuilds a key from its store and the meta {@link #writeMeta} wrote after the last flush, with
   * one bulk insert: slices above the evicted time, or the rows above it, chunks in id order (equal
   * times keep their arrival order).
   *
   * @param g the group
   * @param timeSlot the index of the record time in the rows
   * @param meta what {@link #writeMeta} wrote
   * @param store the key's entries
   * @return the key
   * @throws Exception if {@code store} fails
   */
  public static StoredWindows load(WindowGroup g, int timeSlot, DataInput meta, EntryStore store) throws Exception {
    StoredWindows w = new StoredWindows(g, timeSlot);
    long fired = meta.readLong();
    w.evicted = meta.readLong();
    w.nextChunk = meta.readLong();
    long[][] ids = {new long[16]};
    byte[][][] blobs = {new byte[16][]};
    int[] count = {0};
    store.forEach((id, bytes) -> {
      int c = count[0];
      if (c == ids[0].length) {
        ids[0] = Arrays.copyOf(ids[0], 2 * c);
        blobs[0] = Arrays.copyOf(blobs[0], 2 * c);
      }
      ids[0][c] = id;
      blobs[0][c] = bytes;
      count[0] = c + 1;
    });
    int c = count[0];
    int[] order = TimeOrder.of(ids[0], c);
    long[] ts = new long[Math.max(16, c)];
    Object[] values = new Object[ts.length];
    int n = 0;
    for (int k = 0; k < c; k++) {
      long id = ids[0][order[k]];
      byte[] b = blobs[0][order[k]];
      if (w.slices) {
        w.maxStored = Math.max(w.maxStored, id);
        if (id > w.evicted) {
          ts[n] = id;
          values[n++] = new ProductFunction.Lifted(b);
        } else {
          w.addGone(id);
        }
        continue;
      }
      long max = Long.MIN_VALUE;
      for (Object[] row : RowCodec.decode(b)) {
        long t = (Long) row[timeSlot];
        max = Math.max(max, t);
        if (t <= w.evicted) {
          continue;
        }
        if (n == ts.length) {
          ts = Arrays.copyOf(ts, 2 * n);
          values = Arrays.copyOf(values, 2 * n);
        }
        ts[n] = t;
        values[n++] = row;
      }
      w.addIndex(max, id);
      w.nextChunk = Math.max(w.nextChunk, id + 1);
    }
    w.kw.restore(ts, values, n, fired);
    return w;
  }

  private void addGone(long s) {
    if (goneCount == gone.length) {
      gone = Arrays.copyOf(gone, Math.max(8, 2 * goneCount));
    }
    gone[goneCount++] = s;
  }

  /** What waits for the next flush: slices touched (slices), or bytes of pending rows (rows). */
  long heldSinceFlush() {
    if (slices) {
      return touchedCount + (ringMark == Long.MAX_VALUE ? 0 : ring.countFrom(ringMark)); // the two may share a few
    }
    long n = pending == null ? 0 : pending.size();
    for (RowCodec.Writer w : segments) {
      n += w.size();
    }
    return n;
  }

}

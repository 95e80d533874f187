package io.swag.core.plan;

import java.nio.ByteBuffer;

/**
 * The cold path of a {@link StoredWindows} key that keeps slices: an engine whose key cache is full
 * adds a record to a key that is not on the heap by combining it into the key's slice entry in its
 * {@link EntryStore} (one get, one put), without loading the key's windows. The layout is the one
 * {@link StoredWindows#flush} writes (slice start to the slice's partial, {@link ProductPartials#write}),
 * so a later {@link StoredWindows#load} sees the record as if it had gone through a loaded key.
 *
 * <p>It applies to a record <i>in time</i>: every window of the group that contains it fires after
 * the watermark, so the record updates no row already emitted (a record that does must go through a
 * loaded key, which emits the update). The key's bookkeeping ({@link StoredWindows#writeMeta}) is
 * unchanged by it: the fired watermark stays the last one this key fired at (no timer of the key ran
 * since), evicted slices are removed at the key's next load and flush.
 *
 * <p>Cost: O(1) state operations and O(partial bytes) per record. Invariant: after
 * {@link #insert}, the store's entry at the record's slice start is the combination of what it held
 * (none: the identity) and the record lifted with its own time. Not thread-safe: one per operator.
 */
public final class ColdSlices {
  private final WindowGroup g;
  private final long width;
  private final ProductPartials partials; // slot 0: the stored slice, slot 1: the record
  private final ProductFunction.At at = new ProductFunction.At();
  private ByteBuffer out = ByteBuffer.allocate(64);

  /**
   * For a group built by {@link WindowGroup#storedGroups} that
   * {@linkplain WindowGroup#preaggregates pre-aggregates}.
   *
   * @param g the group
   */
  public ColdSlices(WindowGroup g) {
    if (!g.storesSlices()) {
      throw new IllegalArgumentException("the cold path needs a group that stores slices (WindowGroup.storedGroups)");
    }
    this.g = g;
    this.width = g.plan().sliceMs();
    this.partials = new ProductPartials(g.function());
    partials.resize(2);
  }

  /**
   * The cold paths of a key's time groups ({@code groups}, as built by {@link WindowGroup#storedGroups}),
   * or null when one of them stores rows (its records must go through a loaded key).
   *
   * @param groups the key's time groups
   * @return one cold path per group, or null
   */
  public static ColdSlices[] of(java.util.List<WindowGroup> groups) {
    if (groups.isEmpty()) {
      return null;
    }
    ColdSlices[] r = new ColdSlices[groups.size()];
    for (int g = 0; g < r.length; g++) {
      if (!groups.get(g).storesSlices()) {
        return null;
      }
      r[g] = new ColdSlices(groups.get(g));
    }
    return r;
  }

  /**
   * The watermark at which the key's earliest window containing a record at {@code t} fires (the
   * key's timer must fire by then), or {@link Long#MIN_VALUE} if the record is not in time at
   * {@code watermark} (a window containing it has reached its end: the caller loads the key).
   *
   * @param t the record's time
   * @param watermark the current watermark
   * @return the fire watermark, or {@link Long#MIN_VALUE}
   */
  public long fireTime(long t, long watermark) {
    long fire = Long.MAX_VALUE;
    long delay = g.fireDelay();
    for (WindowSpec w : g.windows) {
      long end = WindowGroup.satAdd(w.firstStart(t), w.size() - 1); // the earliest window's last time
      if (end <= watermark) {
        return Long.MIN_VALUE;
      }
      fire = Math.min(fire, WindowGroup.satAdd(end, delay));
    }
    return fire;
  }

  /**
   * {@link #fireTime} over the groups a record goes to ({@code accepted[g]}, from {@code first} on,
   * {@code cold[g]} for group g): the earliest, or {@link Long#MIN_VALUE} if the record is not in time
   * for one of them (the caller loads the key).
   *
   * @param cold the groups' cold paths
   * @param accepted which groups accept the record
   * @param first the first group to look at
   * @param t the record's time
   * @param watermark the current watermark
   * @return the earliest fire watermark, or {@link Long#MIN_VALUE}
   */
  public static long fireTime(ColdSlices[] cold, boolean[] accepted, int first, long t, long watermark) {
    long fire = Long.MAX_VALUE;
    for (int g = first; g < accepted.length; g++) {
      if (accepted[g]) {
        long f = cold[g].fireTime(t, watermark);
        if (f == Long.MIN_VALUE) {
          return Long.MIN_VALUE;
        }
        fire = Math.min(fire, f);
      }
    }
    return fire;
  }

  /**
   * Combines the record ({@code row}, its time {@code t}; values already {@linkplain WindowGroup#check
   * checked}) into its slice in {@code store}, the current key's entries.
   *
   * @param t the record's time
   * @param row the record
   * @param store the key's entries
   * @throws Exception if {@code store} fails
   */
  public void insert(long t, Object[] row, EntryStore store) throws Exception {
    long s = Math.floorDiv(t, width) * width;
    byte[] old = store.get(s);
    try {
      partials.liftObject(1, at.set(row, t), t);
      if (old != null) {
        partials.liftObject(0, new ProductFunction.Lifted(old), s);
        partials.combine(0, 0, 1);
      } else {
        partials.copy(0, 1);
      }
      int n = partials.serializedSize(0);
      if (n < 0) {
        throw new UnsupportedOperationException("function '" + g.function().name() + "' has no byte form of its partials");
      }
      if (out.capacity() < n) {
        out = ByteBuffer.allocate(Math.max(n, 2 * out.capacity()));
      }
      out.clear();
      partials.write(0, out);
      byte[] b = new byte[n];
      out.flip();
      out.get(b);
      store.put(s, b);
    } finally {
      at.set(null, 0);
      partials.release(0);
      partials.release(1);
    }
  }
}

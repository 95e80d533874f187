package io.swag.flink.table;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import java.nio.ByteBuffer;
import org.apache.flink.table.api.dataview.MapView;

/**
 * DABA Lite (DABA Lite paper, Section 6) with its deque in keyed state: the same algorithm as
 * swag-core's {@link io.swag.core.fifo.DabaLite}, the deque's slots in {@link SlotChunks} (a
 * {@link MapView}, read and written a chunk at a time through a small write-back cache) and the
 * pointers and the two extra partials in plain fields, which the {@link OverAccumulator} keeps in
 * its own fields between batches.
 *
 * <p>Pointers {@code F <= L <= R <= A <= B <= E} are {@code long} positions that only grow (no
 * ring, nothing ever moves); the deque is positions {@code [F, E)}. Sublists {@code l_F},
 * {@code l_L}, {@code l_A} hold aggregates to the right end of their sublist ({@code l_F} and
 * {@code l_A}: to {@code B-1}); {@code l_R} and {@code l_B} hold plain values, with
 * {@code aggRA = agg(l_R ++ l_A)} (when {@code L != R}) and {@code aggB = agg(l_B)}.
 *
 * <p>Worst-case O(1) combines (at most 1 per query, 3 per insert, 2 per evict) and O(1) slots
 * touched per operation: query {@code F}; insert {@code E}; fixup {@code L}, {@code A-1},
 * {@code A}; evict {@code F} (its value, checked by the caller). Consecutive operations move each
 * of these by one, so a batch of operations reads and writes a few chunks.
 *
 * <p>Registers 0..2 of the store are the result and {@code aggRA}, {@code aggB}; frames follow.
 */
final class StateDabaLite {
  static final int RES = 0;
  static final int AGG_RA = 1;
  static final int AGG_B = 2;
  static final int REGISTERS = 3;

  private final Partials p;
  private final SlotChunks slots;
  private long f;
  private long l;
  private long r;
  private long a;
  private long b;
  private long e;

  /**
   * Resumes (or starts, all pointers 0 and the partials null) the aggregator of {@code fn} whose
   * deque is in {@code view} in chunks of {@code c} slots; {@code ptr} = {F, L, R, A, B, E}.
   */
  StateDabaLite(AggregateFunction<?, ?, ?> fn, MapView<Long, byte[]> view, int c, long[] ptr, byte[] aggRA, byte[] aggB) {
    this.p = fn.newPartials();
    p.resize(REGISTERS);
    p.setIdentity(RES);
    p.setIdentity(AGG_RA);
    p.setIdentity(AGG_B);
    f = ptr[0];
    l = ptr[1];
    r = ptr[2];
    a = ptr[3];
    b = ptr[4];
    e = ptr[5];
    if (!(f <= l && l <= r && r <= a && a <= b && b <= e && f >= 0)) {
      throw new OverStateException("DABA Lite pointers out of order: F=" + f + " L=" + l + " R=" + r + " A=" + a
          + " B=" + b + " E=" + e);
    }
    readRegister(AGG_RA, aggRA);
    readRegister(AGG_B, aggB);
    this.slots = new SlotChunks(view, p, REGISTERS, c);
    slots.front = f;
    slots.end = e;
  }

  /** Slots per chunk for {@code fn}: fixed-size partials share an entry, sketches get one each. */
  static int slotsPerChunk(AggregateFunction<?, ?, ?> fn) {
    return fn.newPartials().serializedSize() >= 0 ? 32 : 1;
  }

  private void readRegister(int reg, byte[] bytes) {
    if (bytes != null) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      p.read(reg, in);
      if (in.hasRemaining()) {
        throw new OverStateException("a partial of " + bytes.length + " bytes read only " + in.position());
      }
    }
  }

  long size() {
    return e - f;
  }

  /** Inserts {@code v} as the youngest element; a value the function rejects changes nothing. */
  void insert(Object v) {
    // deque.pushBack(v); E <- E + 1; aggB <- aggB ⊗ v; fixup()
    int s = slots.slot(e, false);
    lift(s, v, e);
    slots.written(e, v);
    if (b == e) {
      p.copy(AGG_B, s);
    } else {
      p.combine(AGG_B, AGG_B, s);
    }
    e++;
    slots.end = e;
    fixup();
  }

  private void lift(int s, Object v, long arg) {
    if (v instanceof Double d) {
      p.liftDouble(s, d, arg);
    } else if (v instanceof Long x) {
      p.liftLong(s, x, arg);
    } else {
      p.liftObject(s, v, arg);
    }
  }

  /** The raw value of the oldest element (the deque is not empty). */
  Object oldest() {
    return slots.value(f);
  }

  /** Removes the oldest element (the deque is not empty). */
  void evict() {
    // F <- F + 1; deque.popFront(); fixup()
    f++;
    slots.evicted(f);
    fixup();
  }

  private void fixup() {
    if (f == b) { // singleton
      b = e;
      a = e;
      r = e;
      l = e;
      p.setIdentity(AGG_RA);
      p.setIdentity(AGG_B);
    } else {
      if (l == b) { // flip
        l = f;
        a = e;
        b = e;
        p.copy(AGG_RA, AGG_B);
        p.setIdentity(AGG_B);
      }
      if (l == r) { // shift
        a++;
        r++;
        l++;
      } else { // shrink
        // *L <- Π_L ⊗ aggRA   (Π_L = *L because L != R)
        int sl = slots.slot(l, true);
        p.combine(sl, sl, AGG_RA);
        l++;
        // *(A-1) <- *(A-1) ⊗ Π_A
        if (a != b) {
          int d = slots.slot(a - 1, true);
          p.combine(d, d, slots.slot(a, false));
        }
        a--;
      }
    }
  }

  /** The aggregate of the deque, lowered ({@code null} for none). */
  Object query() {
    // Π_F ⊗ aggB
    if (f == b) {
      p.copy(RES, AGG_B);
    } else if (b == e) {
      p.copy(RES, slots.slot(f, false));
    } else {
      p.combine(RES, slots.slot(f, false), AGG_B);
    }
    return p.lower(RES);
  }

  /** Writes the cached chunks back to the view. */
  void flush() {
    slots.flush();
  }

  /** {F, L, R, A, B, E}. */
  long[] pointers() {
    return new long[] {f, l, r, a, b, e};
  }

  byte[] aggRABytes() {
    return registerBytes(AGG_RA);
  }

  byte[] aggBBytes() {
    return registerBytes(AGG_B);
  }

  private byte[] registerBytes(int reg) {
    byte[] out = new byte[p.serializedSize(reg)];
    p.write(reg, ByteBuffer.wrap(out));
    return out;
  }

  // ---- for differential tests against io.swag.core.fifo.DabaLite ----

  /** Pointer offsets from F: {L, R, A, B, E}. */
  int[] offsets() {
    return new int[] {(int) (l - f), (int) (r - f), (int) (a - f), (int) (b - f), (int) (e - f)};
  }

  /** The deque element at offset {@code i} from F, as the function's raw partial. */
  Object at(int i) {
    return p.partial(slots.slot(f + i, false));
  }

  Object aggRA() {
    return p.partial(AGG_RA);
  }

  Object aggB() {
    return p.partial(AGG_B);
  }
}

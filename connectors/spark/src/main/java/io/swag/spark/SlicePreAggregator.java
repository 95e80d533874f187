package io.swag.spark;

import io.swag.core.plan.ProductPartials;
import io.swag.core.plan.WindowGroup;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The map side of pre-aggregation (before the shuffle): per input partition of a micro-batch, the
 * records of each (key, slice) are combined into one partial, slice = {@code [k*g, (k+1)*g)} with
 * g the plan's gcd of window sizes, slides and offsets. Every record of a slice lies in the same
 * windows, so a slice is accepted or late, and lands in windows, exactly as each of its records
 * would. The output rows ({@link Layout#sliceSchema}) are the key columns, the slice start, the
 * record count and the partial in its byte form ({@link ProductPartials#write}); a rejected record
 * (null key, null or unparsable time, NaN, a value a function refuses) passes as its own row with its
 * text and the reason, so rejects are still counted and reported one by one.
 *
 * <p>Used only when the product is {@linkplain io.swag.core.plan.ProductFunction#isMergeable
 * mergeable} (commutative functions with a byte form of their partials: primitive ones, or the
 * hll and kll sketches' own serialization): the partials of one slice from several
 * partitions and micro-batches are then combined in whatever order they arrive with the same result.
 *
 * <p>Cost: per record one conversion, one lift (which is also the functions' check of the values),
 * one hash look-up of its key, one of its slice (none when the key's previous record was in the
 * same slice) and one combine; per slice one output row. Memory: at most
 * {@code preaggregate_slots} partials per task (default 65,536 primitive ones, a few MB; 8,192 when
 * a function keeps a sketch, whose partials reach a few KB); output is made lazily.
 *
 * <p>Each partition reports the slice width it combines records into to the query's
 * {@link PlanReports} (once, when it starts).
 */
final class SlicePreAggregator implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;
  private final Layout layout;
  private final boolean finalOnly;
  /** (key, slice) partials a task holds at most before handing them on (option {@code preaggregate_slots}). */
  private final int maxSlots;
  /** Where each partition reports its slice width. */
  private final PlanReports reports;

  /** The slices of one key in this partition: the last one used, and a map for the others. */
  private static final class KeySlices {
    final Object[] keyValues;
    long lastSlice = Long.MIN_VALUE;
    int lastSlot = -1;
    /** Open addressing: slice start to slot + 1 (0: empty), capacity a power of two, at most half full. */
    long[] starts = new long[16];
    int[] slots = new int[16];
    int size;

    KeySlices(Object[] keyValues) {
      this.keyValues = keyValues;
    }

    /** The slot of slice {@code s}, or {@code -1}. */
    int get(long s) {
      int m = starts.length - 1;
      for (int i = mix(s) & m; ; i = (i + 1) & m) {
        if (slots[i] == 0) {
          return -1;
        }
        if (starts[i] == s) {
          return slots[i] - 1;
        }
      }
    }

    void put(long s, int slot) {
      if (2 * (size + 1) > starts.length) {
        long[] os = starts;
        int[] ov = slots;
        starts = new long[2 * os.length];
        slots = new int[2 * os.length];
        size = 0;
        for (int i = 0; i < os.length; i++) {
          if (ov[i] != 0) {
            put(os[i], ov[i] - 1);
          }
        }
      }
      int m = starts.length - 1;
      int i = mix(s) & m;
      while (slots[i] != 0) {
        i = (i + 1) & m;
      }
      starts[i] = s;
      slots[i] = slot + 1;
      size++;
    }

    private static int mix(long s) {
      long h = s * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }

  /** {@code maxSlots} 0: the default for the query's partials (see {@link SwagSparkOptions}). */
  SlicePreAggregator(Layout layout, boolean finalOnly, int maxSlots) {
    this(layout, finalOnly, maxSlots, new PlanReports());
  }

  SlicePreAggregator(Layout layout, boolean finalOnly, int maxSlots, PlanReports reports) {
    if (maxSlots < 0) {
      throw new IllegalArgumentException("options.preaggregate_slots: " + maxSlots + " is not a positive integer");
    }
    this.layout = layout;
    this.finalOnly = finalOnly;
    this.reports = reports;
    this.maxSlots = maxSlots > 0 ? maxSlots : defaultSlots(layout.group(finalOnly, true).function().newPartials());
  }

  /**
   * Open partials for a budget of {@link SwagSparkOptions#PREAGGREGATE_BYTES} (32 MB): partials of a
   * fixed size get {@code budget / size} slots, from 64 to 65,536 (max + stddev: 65,536; a default
   * bloom, 2 KB: 16,384); sketches, whose size varies up to a few KB, 8,192.
   */
  static int defaultSlots(io.swag.core.Partials parts) {
    int size = parts.serializedSize();
    if (size < 0) {
      return SwagSparkOptions.DEFAULT_PREAGGREGATE_SKETCH_SLOTS;
    }
    long n = SwagSparkOptions.PREAGGREGATE_BYTES / Math.max(1, size);
    return (int) Math.max(64, Math.min(SwagSparkOptions.DEFAULT_PREAGGREGATE_SLOTS, n));
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    return new Slices(rows);
  }

  /**
   * The output of one partition, made as it is consumed. Input is read until {@link #maxSlots}
   * output rows wait (rejected records, or the partials of a flush) or the input ends. A record
   * that needs a new (key, slice) while {@code maxSlots} partials are open first flushes them all
   * to the output, and the store starts empty again. So a task holds at most {@code maxSlots}
   * open partials and {@code maxSlots} waiting rows, however long its partition (a back-fill of
   * years of history); a (key, slice) cut by a flush leaves as two rows, which the other side
   * combines like rows from two partitions.
   */
  private final class Slices extends RefillingIterator<Row> {
    private final Iterator<Row> rows;
    private final WindowGroup group = layout.group(finalOnly, true);
    private final long g = group.plan().sliceMs();
    private final int keys = layout.keys;
    private final ProductPartials parts = (ProductPartials) group.function().newPartials();
    private int cap = 64;
    private int used = 1; // slot 0: scratch for lifting a record before combining it into its slice
    private long[] count = new long[cap];
    private long[] start = new long[cap];
    private KeySlices[] owner = new KeySlices[cap];
    private final Map<Object, KeySlices> byKey = new HashMap<>();
    private final Object[] row = new Object[layout.columns.size()];

    Slices(Iterator<Row> rows) {
      this.rows = rows;
      parts.resize(cap);
      reports.add(PlanReports.preaggregateReport(g)); // the width every record below is sliced with
    }

    /** Reads input until {@code maxSlots} rows wait or the input ends (then the open partials leave). */
    @Override
    protected boolean refill() {
      while (out.size() < maxSlots && rows.hasNext()) {
        add(rows.next());
      }
      if (rows.hasNext()) {
        return true;
      }
      flush(); // the input's end
      return false;
    }

    /** Hands every open partial to the output; the store starts empty. */
    private void flush() {
      for (int slot = 1; slot < used; slot++) {
        out.add(RowFactory.create(layout.sliceRow(owner[slot].keyValues, start[slot], count[slot],
            parts.lifted(slot).bytes())));
        parts.release(slot);
        count[slot] = 0;
        owner[slot] = null;
      }
      used = 1;
      byKey.clear();
    }

    private void add(Row in) {
      String bad = layout.nullKey(in); // the key columns come first in the input rows too
      if (bad == null) {
        bad = layout.convertValues(in, row);
      }
      long t = 0;
      if (bad == null) {
        t = layout.time(row);
        try {
          parts.liftObject(0, row, t); // also the functions' check of the values
        } catch (IllegalArgumentException e) {
          bad = e.getMessage();
        }
      }
      if (bad != null) {
        Object[] kv = new Object[keys];
        for (int i = 0; i < keys; i++) {
          kv[i] = in.get(i);
        }
        out.add(RowFactory.create(layout.rejectedSliceRow(kv, layout.describe(in), bad)));
        return;
      }
      Object k = keys == 1 ? in.get(0) : keyList(in, keys);
      KeySlices ks = byKey.get(k);
      if (ks == null) {
        Object[] kv = new Object[keys];
        for (int i = 0; i < keys; i++) {
          kv[i] = in.get(i);
        }
        ks = new KeySlices(kv);
        byKey.put(k, ks);
      }
      long s = Math.floorDiv(t, g) * g;
      int slot;
      if (ks.lastSlice == s) {
        slot = ks.lastSlot;
      } else {
        int found = ks.get(s);
        if (found < 0) {
          if (used > maxSlots) { // maxSlots open: they leave first (this also drops ks's map)
            flush();
            ks = new KeySlices(ks.keyValues);
            byKey.put(k, ks);
          }
          if (used == cap) {
            cap = (int) Math.min(2L * cap, maxSlots + 1L); // slot 0 is the scratch
            parts.resize(cap);
            count = Arrays.copyOf(count, cap);
            start = Arrays.copyOf(start, cap);
            owner = Arrays.copyOf(owner, cap);
          }
          slot = used++;
          start[slot] = s;
          owner[slot] = ks;
          ks.put(s, slot);
        } else {
          slot = found;
        }
        ks.lastSlice = s;
        ks.lastSlot = slot;
      }
      if (count[slot] == 0) {
        parts.copy(slot, 0);
      } else {
        parts.combine(slot, slot, 0);
      }
      count[slot]++;
    }
  }

  private static List<Object> keyList(Row in, int keys) {
    Object[] k = new Object[keys];
    for (int i = 0; i < keys; i++) {
      k[i] = in.get(i);
    }
    return Arrays.asList(k);
  }
}

package io.swag.flink;

import java.io.Serializable;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * A record on its way from the input to {@link SwagWindowOperator}, for an input whose rows are
 * exactly a {@code BIGINT} key, a {@code BIGINT} time and a {@code DOUBLE} value that the operator
 * inserts by time and value alone ({@link SwagWindowOperator#scalarSlot}): the three as primitives
 * ({@link #row} null, "packed"), or the row itself for one the packing does not take.
 *
 * <p>Packed, a record crosses the {@code keyBy} as a tag byte and three 8-byte words
 * ({@link PackedRecordType}) and reaches the operator with nothing to unbox or check: no row, no
 * boxed fields, no null mask. {@link Pack} packs a row when it is positional, of kind
 * {@code INSERT}, with a non-null {@code Long} key, a {@code Long} time and a {@code Double} value
 * that is not NaN; any other row (which the operator converts or rejects) travels as it is.
 *
 * <p>Invariants: a packed record's row is null; {@link #toRow} of a packed record equals the row it
 * was packed from (the operator's late and rejected outputs return it); the Flink key of a packed
 * record ({@link Key}) equals the key {@link SwagWindows.ValueKey} takes from its row.
 */
public final class PackedRecord {
  long key;
  long time;
  double value;
  /** The row, for a record that is not packed; null when packed. */
  Row row;

  /** Whether the record is packed (key, time and value as primitives). */
  boolean packed() {
    return row == null;
  }

  /** Where the key, time and value columns are in the input's rows (of arity 3). */
  static final class Columns implements Serializable {
    private static final long serialVersionUID = 1L;
    final int key;
    final int time;
    final int value;

    Columns(int key, int time, int value) {
      this.key = key;
      this.time = time;
      this.value = value;
    }

    /** The columns of {@code layout}'s one key, its time and the value at used-row slot {@code valueSlot}. */
    static Columns of(Layout layout, int valueSlot) {
      return new Columns(layout.keyIdx[0], layout.timeIdx, layout.usedIdx[valueSlot]);
    }
  }

  /** The input row: the row itself, or for a packed record the positional row it was packed from. */
  Row toRow(Columns c) {
    if (row != null) {
      return row;
    }
    Row r = new Row(3);
    r.setField(c.key, key);
    r.setField(c.time, time);
    r.setField(c.value, value);
    return r;
  }

  /** Packs a row when it qualifies (see the class comment), else wraps it. */
  static final class Pack implements MapFunction<Row, PackedRecord> {
    private static final long serialVersionUID = 1L;
    private final Columns c;

    Pack(Columns c) {
      this.c = c;
    }

    @Override
    public PackedRecord map(Row in) {
      PackedRecord p = new PackedRecord();
      if (in.getKind() == RowKind.INSERT && in.getArity() == 3 && in.getFieldNames(false) == null
          && in.getField(c.key) instanceof Long k && in.getField(c.time) instanceof Long t
          && in.getField(c.value) instanceof Double v && !v.isNaN()) {
        p.key = k;
        p.time = t;
        p.value = v;
      } else {
        p.row = in;
      }
      return p;
    }
  }

  /** The Flink key: the packed key, or what {@code rows} takes from the row. */
  static final class Key implements KeySelector<PackedRecord, Object> {
    private static final long serialVersionUID = 1L;
    private final KeySelector<Row, Object> rows;

    Key(KeySelector<Row, Object> rows) {
      this.rows = rows;
    }

    @Override
    public Object getKey(PackedRecord p) throws Exception {
      return p.row == null ? (Object) p.key : rows.getKey(p.row);
    }
  }
}

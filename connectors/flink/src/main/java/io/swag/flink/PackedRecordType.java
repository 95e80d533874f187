package io.swag.flink;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.Row;

/**
 * The Flink type of {@link PackedRecord}, over the input's row type.
 *
 * <p>Byte layout of one record:
 * <pre>
 *   packed:     byte 0, long key, long time, long doubleToRawLongBits(value)   (25 bytes)
 *   not packed: byte 1, the row in the row type's own serialization
 * </pre>
 */
final class PackedRecordType extends TypeInformation<PackedRecord> {
  private static final long serialVersionUID = 1L;
  private static final byte PACKED = 0;
  private static final byte ROW = 1;
  private final TypeInformation<Row> rowType;

  PackedRecordType(TypeInformation<Row> rowType) {
    this.rowType = rowType;
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<PackedRecord> getTypeClass() {
    return PackedRecord.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<PackedRecord> createSerializer(SerializerConfig config) {
    return new Serializer(rowType.createSerializer(config));
  }

  @Override
  public String toString() {
    return "PackedRecord<" + rowType + ">";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PackedRecordType p && p.rowType.equals(rowType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(PackedRecordType.class, rowType);
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof PackedRecordType;
  }

  /** The serializer of the byte layout above. */
  static final class Serializer extends TypeSerializer<PackedRecord> {
    private static final long serialVersionUID = 1L;
    final TypeSerializer<Row> rows;

    Serializer(TypeSerializer<Row> rows) {
      this.rows = rows;
    }

    @Override
    public boolean isImmutableType() {
      return false;
    }

    @Override
    public TypeSerializer<PackedRecord> duplicate() {
      TypeSerializer<Row> d = rows.duplicate();
      return d == rows ? this : new Serializer(d);
    }

    @Override
    public PackedRecord createInstance() {
      return new PackedRecord();
    }

    @Override
    public PackedRecord copy(PackedRecord from) {
      PackedRecord p = new PackedRecord();
      p.key = from.key;
      p.time = from.time;
      p.value = from.value;
      p.row = from.row == null ? null : rows.copy(from.row);
      return p;
    }

    @Override
    public PackedRecord copy(PackedRecord from, PackedRecord reuse) {
      return copy(from);
    }

    @Override
    public int getLength() {
      return -1;
    }

    @Override
    public void serialize(PackedRecord p, DataOutputView out) throws IOException {
      if (p.row == null) {
        out.writeByte(PACKED);
        out.writeLong(p.key);
        out.writeLong(p.time);
        out.writeLong(Double.doubleToRawLongBits(p.value));
      } else {
        out.writeByte(ROW);
        rows.serialize(p.row, out);
      }
    }

    @Override
    public PackedRecord deserialize(DataInputView in) throws IOException {
      PackedRecord p = new PackedRecord();
      byte tag = in.readByte();
      if (tag == PACKED) {
        p.key = in.readLong();
        p.time = in.readLong();
        p.value = Double.longBitsToDouble(in.readLong());
      } else if (tag == ROW) {
        p.row = rows.deserialize(in);
      } else {
        throw new IOException("swag: a packed record's tag byte is " + tag + "; expected " + PACKED + " or " + ROW);
      }
      return p;
    }

    @Override
    public PackedRecord deserialize(PackedRecord reuse, DataInputView in) throws IOException {
      return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
      serialize(deserialize(in), out);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Serializer s && s.rows.equals(rows);
    }

    @Override
    public int hashCode() {
      return Objects.hash(Serializer.class, rows);
    }

    @Override
    public TypeSerializerSnapshot<PackedRecord> snapshotConfiguration() {
      return new Snapshot(this);
    }
  }

  /** The serializer's snapshot: the row serializer's, nested. */
  public static final class Snapshot extends CompositeTypeSerializerSnapshot<PackedRecord, Serializer> {
    /** For reading a snapshot. */
    public Snapshot() {}

    Snapshot(Serializer s) {
      super(s);
    }

    @Override
    protected int getCurrentOuterSnapshotVersion() {
      return 1;
    }

    @Override
    protected TypeSerializer<?>[] getNestedSerializers(Serializer s) {
      return new TypeSerializer<?>[] {s.rows};
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Serializer createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
      return new Serializer((TypeSerializer<Row>) nested[0]);
    }
  }
}

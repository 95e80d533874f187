package io.swag.flink.table;

import java.io.IOException;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Writes an {@link OverAccumulator} as its function, rank and raw values (pending retractions
 * after them); reading inserts the values into a fresh aggregator. No partials are serialized, so
 * the format does not depend on the aggregator's internals.
 */
public final class OverAccumulatorSerializer extends TypeSerializer<OverAccumulator> {
  private static final long serialVersionUID = 1L;
  private static final byte NULL = 0, DOUBLE = 1, LONG = 2, STRING = 3;

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<OverAccumulator> duplicate() {
    return this;
  }

  @Override
  public OverAccumulator createInstance() {
    return new OverAccumulator("count");
  }

  @Override
  public OverAccumulator copy(OverAccumulator from) {
    return from.copy();
  }

  @Override
  public OverAccumulator copy(OverAccumulator from, OverAccumulator reuse) {
    return from.copy();
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(OverAccumulator a, DataOutputView out) throws IOException {
    out.writeUTF(a.function);
    out.writeDouble(a.rank);
    out.writeBoolean(a.fifo != null);
    out.writeInt(a.values.size());
    for (Object v : a.values) {
      writeValue(v, out);
    }
    Map<Object, int[]> p = a.pending();
    int n = 0;
    if (p != null) {
      for (int[] c : p.values()) {
        n += c[0];
      }
    }
    out.writeInt(n);
    if (p != null) {
      for (Map.Entry<Object, int[]> e : p.entrySet()) {
        for (int i = 0; i < e.getValue()[0]; i++) {
          writeValue(e.getKey(), out);
        }
      }
    }
  }

  private static void writeValue(Object v, DataOutputView out) throws IOException {
    if (v instanceof Double d) {
      out.writeByte(DOUBLE);
      out.writeDouble(d);
    } else if (v instanceof Long l) {
      out.writeByte(LONG);
      out.writeLong(l);
    } else if (v instanceof String s) {
      out.writeByte(STRING);
      out.writeUTF(s);
    } else if (v == null) {
      out.writeByte(NULL);
    } else {
      throw new IOException("OverAccumulator: cannot serialize a value of " + v.getClass().getName());
    }
  }

  private static Object readValue(DataInputView in) throws IOException {
    byte tag = in.readByte();
    return switch (tag) {
      case DOUBLE -> in.readDouble();
      case LONG -> in.readLong();
      case STRING -> in.readUTF();
      case NULL -> null;
      default -> throw new IOException("OverAccumulator: bad value tag " + tag);
    };
  }

  @Override
  public OverAccumulator deserialize(DataInputView in) throws IOException {
    OverAccumulator a = new OverAccumulator(in.readUTF());
    a.rank = in.readDouble();
    boolean started = in.readBoolean();
    if (started) {
      a.ensure(a.rank);
    }
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      a.add(readValue(in));
    }
    int m = in.readInt();
    for (int i = 0; i < m; i++) {
      a.retract(readValue(in));
    }
    return a;
  }

  @Override
  public OverAccumulator deserialize(OverAccumulator reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView in, DataOutputView out) throws IOException {
    serialize(deserialize(in), out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OverAccumulatorSerializer;
  }

  @Override
  public int hashCode() {
    return OverAccumulatorSerializer.class.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<OverAccumulator> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Stateless serializer: the snapshot only names the class. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<OverAccumulator> {
    public Snapshot() {
      super(OverAccumulatorSerializer::new);
    }
  }
}

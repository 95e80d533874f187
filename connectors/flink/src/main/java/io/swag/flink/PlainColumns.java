package io.swag.flink;

import io.swag.core.plan.ResultKind;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.types.Row;

/**
 * Turns the columns of swag output rows that are not basic types (collect's lists, sketches, M4
 * results...) into their JSON text ({@link ResultKind#text}), for consumers that only know SQL/Python
 * types (PyFlink, Table API). Rows whose types are all basic pass through untouched.
 */
final class PlainColumns implements MapFunction<Row, Row> {
  private static final long serialVersionUID = 1L;
  private final boolean[] toString;

  private PlainColumns(boolean[] toString) {
    this.toString = toString;
  }

  static boolean isPlain(TypeInformation<?> t) {
    return t instanceof BasicTypeInfo || t.equals(Types.INSTANT) || t.equals(Types.LOCAL_DATE_TIME);
  }

  static RowTypeInfo plainType(RowTypeInfo rt) {
    TypeInformation<?>[] ts = new TypeInformation<?>[rt.getArity()];
    for (int i = 0; i < ts.length; i++) {
      ts[i] = isPlain(rt.getTypeAt(i)) ? rt.getTypeAt(i) : Types.STRING;
    }
    return new RowTypeInfo(ts, rt.getFieldNames());
  }

  /** {@code out} with non-basic columns as strings (the same stream if there are none). */
  static DataStream<Row> apply(DataStream<Row> out) {
    RowTypeInfo rt = (RowTypeInfo) out.getType();
    boolean[] conv = new boolean[rt.getArity()];
    boolean any = false;
    for (int i = 0; i < conv.length; i++) {
      conv[i] = !isPlain(rt.getTypeAt(i));
      any |= conv[i];
    }
    if (!any) {
      return out;
    }
    return out.map(new PlainColumns(conv)).returns(plainType(rt)).name("swag-plain-columns");
  }

  @Override
  public Row map(Row r) {
    Row o = Row.copy(r);
    for (int i = 0; i < toString.length; i++) {
      if (toString[i]) {
        Object v = r.getField(i);
        o.setField(i, v == null ? null : ResultKind.text(v));
      }
    }
    return o;
  }
}

package io.swag.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType$;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * {@link Layout#keysFromGroup}: which key types let a record row take its key columns from the group
 * key (the records path then stores rows without them), and that a row built that way equals the one
 * converted from the record itself.
 */
class LayoutKeysTest {
  private static Plan plan(String key, String time) {
    String keys = key == null ? "" : "\"" + key + "\"";
    return Planner.plan(QuerySpec.fromJson("{\"key\":[" + keys + "],\"time\":\"" + time + "\",\"order\":\"in_order\","
        + "\"windows\":[{\"name\":\"w\",\"size\":100,\"slide\":10,\"aggregates\":[{\"function\":\"max\",\"column\":\"v\","
        + "\"output\":\"m\"}]}]}"));
  }

  private static StructType schema(DataType keyType, DataType timeType) {
    return new StructType()
        .add("k", keyType, true)
        .add("t", timeType, true)
        .add("v", DataTypes.DoubleType, true);
  }

  private static boolean keysFromGroup(DataType keyType) {
    return new Layout(plan("k", "t"), schema(keyType, DataTypes.LongType)).keysFromGroup;
  }

  @Test
  void identityKeyTypesOnly() {
    for (DataType t : List.of(DataTypes.LongType, DataTypes.IntegerType, DataTypes.ShortType, DataTypes.ByteType,
        DataTypes.BooleanType, DataTypes.StringType)) {
      assertEquals(true, keysFromGroup(t), t.simpleString());
    }
    // Spark normalizes floats (-0.0, NaN) and groups collated strings by their collation key: the
    // record's own value may differ from its group key's
    DataType lcase = StringType$.MODULE$.apply("UTF8_LCASE");
    for (DataType t : List.of(DataTypes.DoubleType, DataTypes.FloatType, DataTypes.createDecimalType(10, 2),
        DataTypes.TimestampType, DataTypes.DateType, lcase)) {
      assertEquals(false, keysFromGroup(t), t.simpleString());
    }
  }

  @Test
  void notWithoutKeys() {
    StructType s = new StructType().add("t", DataTypes.LongType, true).add("v", DataTypes.DoubleType, true);
    assertEquals(false, new Layout(plan(null, "t"), s).keysFromGroup);
  }

  @Test
  void rowFromGroupKeyEqualsRowFromRecord() {
    List<Object[]> cases = List.of(
        new Object[] {DataTypes.LongType, 42L, 7L},
        new Object[] {DataTypes.IntegerType, -3, Integer.MIN_VALUE},
        new Object[] {DataTypes.ShortType, (short) 5, (short) -1},
        new Object[] {DataTypes.ByteType, (byte) 9, Byte.MIN_VALUE},
        new Object[] {DataTypes.BooleanType, true, false},
        new Object[] {DataTypes.StringType, "stationé", ""});
    for (Object[] c : cases) {
      DataType kt = (DataType) c[0];
      for (DataType tt : List.of(DataTypes.LongType, DataTypes.TimestampType)) {
        Layout layout = new Layout(plan("k", "t"), schema(kt, tt));
        assertEquals(true, layout.keysFromGroup, kt.simpleString());
        for (int i = 1; i <= 2; i++) {
          Object key = c[i];
          Row group = RowFactory.create(key);
          Object time = tt.equals(DataTypes.LongType) ? (Object) 1_000L : new Timestamp(1_000L);
          Row in = RowFactory.create(key, time, 2.5);
          List<Row> out = new ArrayList<>();
          Object[] fromRecord = layout.convertOrReject(group, in, out);
          Object[] fromGroup = layout.convertOrReject(group, layout.keyValues(group), in, out);
          assertEquals(List.of(), out, kt.simpleString());
          assertArrayEquals(fromRecord, fromGroup, kt.simpleString() + " " + key);
          assertEquals(1_000L, layout.time(fromGroup));
        }
      }
    }
  }

  @Test
  void aRejectedRecordOfAGroupKeyStillNamesItsColumn() {
    Layout layout = new Layout(plan("k", "t"), schema(DataTypes.LongType, DataTypes.LongType));
    Row group = RowFactory.create(4L);
    List<Row> out = new ArrayList<>();
    Object[] row = layout.convertOrReject(group, layout.keyValues(group), RowFactory.create(4L, 5L, Double.NaN), out);
    assertEquals(null, row);
    assertEquals(1, out.size());
    Row r = out.get(0);
    assertEquals("rejected", r.get(layout.outputSchema.fieldIndex(Layout.KIND)));
    assertEquals("column 'v' is NaN", r.get(layout.outputSchema.fieldIndex(Layout.REASON)));
    assertEquals(4L, r.get(0), "the rejected record's row keeps its key");
  }
}

package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.OnError;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.io.RecordProcessorUtils;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.function.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rows of exactly a {@code BIGINT} key, a {@code BIGINT} time and a {@code DOUBLE} value cross the
 * {@code keyBy} as {@link PackedRecord}s: the job gives the rows, late records and rejected records
 * of the same rows with a fourth, unused column (which travel as rows), per key and window in emission
 * order; without lateness the first row of each window equals a plain loop over the input; the
 * serializer and the packing keep every value to the bit and pass every other row through as it is.
 */
@SuppressWarnings("try") // the harness's close() is declared to throw InterruptedException
class PackedRecordTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = io.swag.flink.Clusters.miniCluster();

  static final RowTypeInfo PACKABLE = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v"},
      Types.LONG, Types.LONG, Types.DOUBLE);
  /** {@link TestStreams#TYPE} with a {@code BIGINT} key. */
  static final RowTypeInfo MARKED = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v", "id", "wm"},
      Types.LONG, Types.LONG, Types.DOUBLE, Types.LONG, Types.LONG);
  static final RowTypeInfo WIDER = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v", "id"},
      Types.LONG, Types.LONG, Types.DOUBLE, Types.LONG);

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}, cache {3}, {4}")
  @CsvSource({"21, 0, 0, 100000, max", "22, 150, 0, 100000, sum", "23, 150, 400, 100000, min",
      "24, 0, 0, 2, sum", "25, 150, 400, 2, max", "26, 150, 0, 2, min"})
  void packedRowsEqualRows(long seed, int disorder, long lateness, int cacheKeys, String fn) throws Exception {
    List<Row> in = TestStreams.generate(seed, 5000, 5, 6, disorder, 200);
    List<Row> marked = new ArrayList<>(); // k as a BIGINT; some NaN and null values and null keys
    for (int i = 0; i < in.size(); i++) {
      Row r = in.get(i);
      Long k = i % 101 == 3 ? null : Long.parseLong(((String) r.getField(0)).substring(1)) - 2; // keys -2 .. 2
      Object v = i % 97 == 5 ? Double.NaN : i % 89 == 7 ? null : r.getField(2);
      marked.add(Row.of(k, r.getField(1), v, r.getField(3), r.getField(4)));
    }
    QuerySpec q = QuerySpec.builder().key("k").time("ts").latenessMs(lateness)
        .window(WindowSpec.time(600, 100).name("w").aggregate("x", fn, "v")).build();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.getConfig().enableObjectReuse();
    DataStream<Row> source = env.fromData(marked, MARKED).setParallelism(1)
        .assignTimestampsAndWatermarks(TestStreams.watermarks()).setParallelism(1);
    String run = "packed-" + seed + "-" + disorder + "-" + lateness + "-" + cacheKeys + "-" + fn;
    SwagFlinkOptions options = SwagFlinkOptions.defaults().withCacheMaxKeys(cacheKeys).withKeyLayout("value");
    for (RowTypeInfo type : new RowTypeInfo[] {PACKABLE, WIDER}) {
      String name = run + type.getArity();
      int arity = type.getArity();
      DataStream<Row> rows = source.map(r -> arity == 3 ? Row.of(r.getField(0), r.getField(1), r.getField(2))
          : Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3)), type).setParallelism(1);
      SingleOutputStreamOperator<Row> swag = SwagWindows.aggregate(rows, q, options);
      assertEquals(arity == 3, packs(swag.getTransformation()), "rows of " + arity + " columns packed");
      swag.map(Row::copy, swag.getType()).sinkTo(new StaticSink<>(name));
      swag.getSideOutput(SwagWindows.lateTag(type)).map(PackedRecordTest::kTsV, Types.STRING)
          .sinkTo(new StaticSink<>(name + "-late"));
      swag.getSideOutput(SwagWindows.rejectedTag(type))
          .map(r -> r.getField(0) + " " + kTsV((Row) r.getField(1)), Types.STRING)
          .sinkTo(new StaticSink<>(name + "-rejected"));
    }
    env.execute("swag packed records " + run);

    Map<String, List<Object>> packed = byWindow(StaticSink.get(run + 3));
    assertEquals(byWindow(StaticSink.get(run + 4)), packed, "per key and window, the rows in emission order");
    assertTrue(packed.size() > 100, "few windows: " + packed.size());
    List<String> late = sorted(StaticSink.get(run + "3-late"));
    assertEquals(sorted(StaticSink.get(run + "4-late")), late, "late records");
    assertFalse(late.isEmpty(), "the input should have records too late for every window");
    List<String> rejected = sorted(StaticSink.get(run + "3-rejected"));
    assertEquals(sorted(StaticSink.get(run + "4-rejected")), rejected, "rejected records and their reasons");
    for (String kind : new String[] {"k=null", "v=NaN", "v=null"}) {
      assertTrue(rejected.stream().anyMatch(s -> s.contains(kind)), "a record with " + kind + " rejected: " + rejected);
    }
    if (lateness == 0) { // (with lateness, a late record can also open a window)
      assertEquals(firstRows(marked, fn), firsts(packed), "the first row of each window against a loop over the input");
    }
  }

  /** Whether {@code t}'s input is a stream of packed records (the map before the keyBy). */
  private static boolean packs(Transformation<?> t) {
    Transformation<?> keyed = t.getInputs().get(0);
    return keyed.getOutputType() instanceof PackedRecordType;
  }

  private static String kTsV(Row r) {
    return "k=" + r.getField(0) + " ts=" + r.getField(1) + " v=" + r.getField(2);
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    s.sort(null);
    return s;
  }

  /** Per key and window, the aggregate column of its rows in emission order. */
  private static Map<String, List<Object>> byWindow(List<Row> rows) {
    Map<String, List<Object>> m = new TreeMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.getField(0) + "@" + r.getField(2) + "-" + r.getField(3), x -> new ArrayList<>()).add(r.getField(4));
    }
    return m;
  }

  private static Map<String, Object> firsts(Map<String, List<Object>> m) {
    Map<String, Object> f = new TreeMap<>();
    m.forEach((k, v) -> f.put(k, v.get(0)));
    return f;
  }

  /**
   * The first row of each window [s, s + 600) of slide 100, by a loop over the input: {@code fn}
   * ({@code max}, {@code min} or {@code sum}) of the key's valid values with a time in the window among the records up to the one after which the
   * watermark first reaches s + 599 (the window fires at that watermark; a record after it is late
   * for it).
   */
  private static Map<String, Object> firstRows(List<Row> in, String fn) {
    java.util.function.BinaryOperator<Double> op = switch (fn) {
      case "max" -> Math::max;
      case "min" -> Math::min;
      default -> Double::sum; // small integers: exact in any order
    };
    Map<String, Double> max = new TreeMap<>();
    Map<Long, Integer> fires = new java.util.HashMap<>();
    for (int i = 0; i < in.size(); i++) {
      Row r = in.get(i);
      Object k = r.getField(0);
      long ts = (Long) r.getField(1);
      if (k == null || !(r.getField(2) instanceof Double v) || v.isNaN()) {
        continue;
      }
      for (long s = Math.floorDiv(ts, 100) * 100; s > ts - 600; s -= 100) {
        long end = s + 600;
        int fire = fires.computeIfAbsent(end, e -> {
          for (int j = 0; j < in.size(); j++) {
            if ((Long) in.get(j).getField(4) >= e - 1) {
              return j;
            }
          }
          return in.size() - 1;
        });
        if (i <= fire) {
          max.merge(k + "@" + s + "-" + end, v, op);
        }
      }
    }
    return new TreeMap<>(max);
  }

  @Test
  void serializerKeepsPackedValuesToTheBitAndRowsAsTheyAre() throws IOException {
    TypeSerializer<PackedRecord> ser = new PackedRecordType(PACKABLE).createSerializer(new SerializerConfigImpl());
    DataOutputSerializer out = new DataOutputSerializer(64);
    long[][] packed = {{Long.MIN_VALUE, Long.MAX_VALUE, Double.doubleToRawLongBits(-0.0)},
        {-1, 0, Double.doubleToRawLongBits(Double.MIN_VALUE)}, {7, -5, Double.doubleToRawLongBits(1e308)}};
    for (long[] p : packed) {
      PackedRecord r = new PackedRecord();
      r.key = p[0];
      r.time = p[1];
      r.value = Double.longBitsToDouble(p[2]);
      ser.serialize(r, out);
    }
    Row[] rows = {Row.of(null, 1L, 2.0), Row.of(1L, 2L, Double.NaN), Row.ofKind(RowKind.DELETE, 1L, 2L, 3.0)};
    for (Row row : rows) {
      PackedRecord r = new PackedRecord();
      r.row = row;
      ser.serialize(r, out);
    }
    assertEquals(3 * 25, out.length() - rowBytes(rows), "a packed record is 25 bytes");
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    for (long[] p : packed) {
      PackedRecord r = ser.deserialize(in);
      assertTrue(r.packed());
      assertEquals(p[0], r.key);
      assertEquals(p[1], r.time);
      assertEquals(p[2], Double.doubleToRawLongBits(r.value), "the value's bits");
    }
    for (Row row : rows) {
      PackedRecord r = ser.deserialize(in);
      assertFalse(r.packed());
      assertEquals(row.toString(), r.row.toString());
    }
    assertEquals(0, in.available());
    DataInputDeserializer bad = new DataInputDeserializer(new byte[] {5, 0, 0});
    IOException e = assertThrows(IOException.class, () -> ser.deserialize(bad));
    assertTrue(e.getMessage().contains("tag byte is 5"), e.getMessage());
  }

  private static int rowBytes(Row[] rows) throws IOException {
    TypeSerializer<Row> s = PACKABLE.createSerializer(new SerializerConfigImpl());
    DataOutputSerializer o = new DataOutputSerializer(64);
    for (Row r : rows) {
      o.writeByte(1);
      s.serialize(r, o);
    }
    return o.length();
  }

  @Test
  void snapshotRestoresAnEqualSerializer() throws IOException {
    TypeSerializer<PackedRecord> ser = new PackedRecordType(PACKABLE).createSerializer(new SerializerConfigImpl());
    TypeSerializerSnapshot<PackedRecord> snap = ser.snapshotConfiguration();
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, snap);
    TypeSerializerSnapshot<PackedRecord> read = TypeSerializerSnapshot.readVersionedSnapshot(
        new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertEquals(ser, read.restoreSerializer());
    assertTrue(read.resolveSchemaCompatibility(ser.snapshotConfiguration()).isCompatibleAsIs());
    assertNotEquals(ser, new PackedRecordType(WIDER).createSerializer(new SerializerConfigImpl()));
  }

  @Test
  void packsOnlyPositionalInsertRowsOfALongKeyLongTimeAndANumber() {
    PackedRecord.Columns c = new PackedRecord.Columns(2, 0, 1); // (ts, v, k)
    PackedRecord.Pack pack = new PackedRecord.Pack(c);
    Row good = Row.of(5L, -0.0, -3L);
    PackedRecord p = pack.map(good);
    assertTrue(p.packed());
    assertEquals(-3L, p.key);
    assertEquals(5L, p.time);
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(p.value));
    assertEquals(good, p.toRow(c), "the row rebuilt for the late and rejected outputs");
    assertInstanceOf(Long.class, p.toRow(c).getField(2));
    Row named = Row.withNames();
    named.setField("ts", 5L);
    named.setField("v", 1.0);
    named.setField("k", 1L);
    Row[] others = {Row.of(5L, 1.0, null), Row.of(null, 1.0, 1L), Row.of(5L, null, 1L), Row.of(5L, Double.NaN, 1L),
        Row.of(5, 1.0, 1L), Row.of(5L, 1.0f, 1L), Row.of(5L, 1.0, 1), Row.ofKind(RowKind.UPDATE_AFTER, 5L, 1.0, 1L),
        Row.of(5L, 1.0, 1L, 0L), named};
    for (Row r : others) {
      PackedRecord q = pack.map(r);
      assertFalse(q.packed(), r.toString());
      assertTrue(q.row == r, "the row itself: " + r);
      assertTrue(q.toRow(c) == r);
    }
    assertNull(SwagWindows.packing(io.swag.core.plan.Planner.plan(QuerySpec.builder().key("k").time("ts")
        .window(WindowSpec.time(600, 100).aggregate("x", "max", "v").aggregate("n", "count", null)).build()),
        new Layout(io.swag.core.plan.Planner.plan(QuerySpec.builder().key("k").time("ts")
            .window(WindowSpec.time(600, 100).aggregate("x", "max", "v").aggregate("n", "count", null)).build()),
            List.of("k", "ts", "v")), PACKABLE), "two functions: the general path, no packing");
  }

  /**
   * As a Flink task runs the operator ({@link RecordProcessorUtils}: no key set per record, since
   * {@code hasKeyContext1} is false), a packed record of a cached key that brings its timer earlier
   * registers that timer under its own key, not under the key of the record before it: its window
   * fires at the watermark that passes it. Then a record of a new key and one of a key written to
   * state (a one-key cache) go in under their own keys; and a key that went with its last window
   * comes back as a new key.
   */
  @Test
  void aPackedRecordWithoutAKeySetRegistersItsTimerUnderItsOwnKey() throws Exception {
    for (int cacheKeys : new int[] {100, 1}) {
      QuerySpec q = QuerySpec.builder().key("k").time("ts").order("out_of_order")
          .window(WindowSpec.time(600, 100).name("w").aggregate("x", "max", "v")).build();
      try (Task task = new Task(q, cacheKeys, false)) {
        assertFalse(task.op.hasKeyContext1(), "Flink sets no key per record");
        task.accept(1, 1000, 5.0); // first window to fire: [500, 1100)
        task.accept(2, 1000, 1.0);
        task.accept(1, 950, 7.0); // now [400, 1000), earlier
        task.harness.processWatermark(new Watermark(999));
        assertEquals(List.of("+I[1, w, 400, 1000, 7.0]"), task.rows(), "cache " + cacheKeys);
        task.accept(3, 1050, 4.0); // a new key: [500, 1100)
        task.accept(2, 1020, 9.0);
        task.harness.processWatermark(new Watermark(1099));
        List<String> rows = task.rows();
        rows.sort(null);
        assertEquals(List.of("+I[1, w, 500, 1100, 7.0]", "+I[2, w, 500, 1100, 9.0]", "+I[3, w, 500, 1100, 4.0]"), rows,
            "cache " + cacheKeys);
        task.harness.processWatermark(new Watermark(5_000)); // every window fires: the keys have nothing left and go
        task.rows();
        task.accept(1, 6_000, 3.0); // key 1 again, as a new key
        task.harness.processWatermark(new Watermark(6_099));
        assertEquals(List.of("+I[1, w, 5500, 6100, 3.0]"), task.rows(), "cache " + cacheKeys + ": a key that went, back");
      }
    }
  }

  /**
   * The cache's second chance: with room for two keys, a key that a packed record used since the
   * eviction last passed (found by its {@code long} value, which leaves the cache's access order as
   * it is) stays when a third key comes, and the other one leaves, though a row (not packed, which
   * goes through the access order) used it later. With paced firing a key that leaves the cache
   * fires its due windows then: the rows of the two keys that come out with the third key's record
   * are the other key's. Then every window fires: both keys' rows, the one that left reloaded from
   * its state, as written out by hand. (The third key's record updates a fired window, within the
   * lateness: it is loaded into the cache, not taken by the cold path.)
   */
  @Test
  void aKeyAPackedRecordUsedStaysInTheCacheAndTheOtherLeaves() throws Exception {
    QuerySpec q = QuerySpec.builder().key("k").time("ts").latenessMs(1000)
        .window(WindowSpec.time(600, 100).name("w").aggregate("x", "max", "v")).build();
    try (Task task = new Task(q, 2, true)) {
      task.accept(2, 1000, 6.0);
      task.accept(1, 1000, 5.0);
      task.harness.processWatermark(new Watermark(500)); // the first watermark: fires at once (nothing is due)
      task.harness.processWatermark(new Watermark(1099)); // [500, 1100) of both keys is due, paced: both wait
      PackedRecord row = new PackedRecord(); // a row the packing did not take: the general path
      row.row = Row.of(1L, 1150L, 2.0);
      task.processor.accept(new StreamRecord<>(row, 1150)); // the access order: 2, 1
      task.accept(2, 1150, 7.0); // key 2 used, the access order kept
      task.rows();
      task.accept(3, 1050, 8.0); // a third key: one leaves
      List<String> rows = task.rows();
      rows.removeIf(r -> r.startsWith("+I[3,"));
      assertEquals(List.of("+I[1, w, 500, 1100, 5.0]"), rows, "key 1 left the cache (firing its due window)");
      task.harness.processWatermark(Watermark.MAX_WATERMARK);
      rows = task.rows();
      rows.removeIf(r -> r.startsWith("+I[3,"));
      rows.sort(null);
      List<String> want = new ArrayList<>();
      for (long start = 600; start <= 1000; start += 100) {
        want.add("+I[1, w, " + start + ", " + (start + 600) + ", 5.0]"); // 5.0 at 1000, 2.0 at 1150
      }
      want.add("+I[1, w, 1100, 1700, 2.0]");
      want.add("+I[2, w, 500, 1100, 6.0]"); // 6.0 at 1000, 7.0 at 1150
      for (long start = 600; start <= 1100; start += 100) {
        want.add("+I[2, w, " + start + ", " + (start + 600) + ", 7.0]");
      }
      want.sort(null);
      assertEquals(want, rows, "every window of keys 1 and 2");
    }
  }

  /**
   * The operator of {@code q} over packed rows of {@link #PACKABLE}, in a test harness, fed as a Flink
   * task feeds it ({@link RecordProcessorUtils}: with no key set per record, since
   * {@code hasKeyContext1} is false; the harness's own {@code processElement} sets it).
   */
  private static final class Task implements AutoCloseable {
    final SwagWindowOperator op;
    final KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> harness;
    final ThrowingConsumer<StreamRecord<Object>, Exception> processor;

    Task(QuerySpec q, int cacheKeys, boolean paced) throws Exception {
      String[] names = PACKABLE.getFieldNames();
      op = new SwagWindowOperator(io.swag.core.plan.Planner.plan(q).toJson(), names, SwagWindows.lateTag(PACKABLE),
          SwagWindows.rejectedTag(PACKABLE), cacheKeys, OnError.REJECT, true, paced);
      PackedRecord.Key key = new PackedRecord.Key(new SwagWindows.ValueKey(0, names, ""));
      KeySelector<Object, Object> keys = r -> key.getKey((PackedRecord) r);
      @SuppressWarnings("unchecked")
      TypeInformation<Object> keyType = (TypeInformation<Object>) (TypeInformation<?>) Types.LONG;
      harness = new KeyedOneInputStreamOperatorTestHarness<>(op, keys, keyType);
      harness.setup(SwagWindows.outputType(q, PACKABLE).createSerializer(new SerializerConfigImpl()));
      harness.open();
      processor = RecordProcessorUtils.getRecordProcessor(op);
    }

    /** A packed record of key {@code k}, time and timestamp {@code t}, value {@code v}. */
    void accept(long k, long t, double v) throws Exception {
      processor.accept(new StreamRecord<>(packed(k, t, v), t));
    }

    /** The rows out since the last call, as text, in order; the output is cleared. */
    List<String> rows() {
      List<String> rows = new ArrayList<>();
      for (Object o : harness.getOutput()) {
        if (o instanceof StreamRecord<?> r) {
          rows.add(r.getValue().toString());
        }
      }
      harness.getOutput().clear();
      return rows;
    }

    @Override
    public void close() throws Exception {
      harness.close();
    }
  }

  private static PackedRecord packed(long k, long t, double v) {
    PackedRecord p = new PackedRecord();
    p.key = k;
    p.time = t;
    p.value = v;
    return p;
  }
}

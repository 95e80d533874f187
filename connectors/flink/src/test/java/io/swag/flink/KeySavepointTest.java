package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.OnError;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The key layout is part of the state's format: a snapshot of the operator (what a savepoint holds
 * of it) taken with the {@code row} layout restores with {@code row} and then gives exactly the
 * output of an uninterrupted run, and so does one taken with {@code value} with {@code value}; a
 * snapshot restored with the other layout fails (Flink's key serializer check), so no state is read
 * under the wrong key. Each operator alone in Flink's keyed operator test harness.
 */
@SuppressWarnings("try") // the harness's close() is declared to throw InterruptedException
class KeySavepointTest {
  static QuerySpec query() {
    return QuerySpec.builder().key("k").time("ts").latenessMs(100)
        .window(WindowSpec.time(400, 100).name("w").aggregate("f", "first", "v").aggregate("mx", "max", "v")
            .aggregate("n", "count", null))
        .build();
  }

  static KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> harness(String layout) throws Exception {
    String[] names = TestStreams.TYPE.getFieldNames();
    boolean value = layout.equals("value");
    SwagWindowOperator op = new SwagWindowOperator(Planner.plan(query()).toJson(), names,
        SwagWindows.lateTag(TestStreams.type()), SwagWindows.rejectedTag(TestStreams.type()), 100, OnError.REJECT, value);
    KeySelector<Row, Object> keys = value ? new SwagWindows.ValueKey(0, names, "")
        : new SwagWindows.KeyExtractor(new int[] {0}, names);
    @SuppressWarnings("unchecked")
    TypeInformation<Object> keyType = (TypeInformation<Object>) (TypeInformation<?>) (value ? Types.STRING
        : new RowTypeInfo(Types.STRING));
    KeySelector<Object, Object> rowKeys = r -> keys.getKey((Row) r);
    var h = new KeyedOneInputStreamOperatorTestHarness<>(op, rowKeys, keyType);
    h.setup(SwagWindows.outputType(query(), TestStreams.TYPE).createSerializer(new SerializerConfigImpl()));
    return h;
  }

  /** Feeds rows {@code from} to {@code to} of {@code in}, each followed by its watermark when it advances; returns the output rows. */
  static List<String> feed(KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> h, List<Row> in, int from, int to,
      long[] wm) throws Exception {
    for (int i = from; i < to; i++) {
      Row r = in.get(i);
      h.processElement(r, (Long) r.getField(1));
      long w = (Long) r.getField(4);
      if (w > wm[0]) {
        wm[0] = w;
        h.processWatermark(new Watermark(w));
      }
    }
    List<String> out = new ArrayList<>();
    for (Row r : h.extractOutputValues()) {
      out.add(RestoreTest.format(r));
    }
    return out;
  }

  static List<Row> input() {
    return TestStreams.generate(41, 1200, 4, 6, 40, 50);
  }

  static List<String> sorted(List<String> a, List<String> b) {
    List<String> r = new ArrayList<>(a);
    r.addAll(b);
    Collections.sort(r);
    return r;
  }

  @Test
  void aSnapshotRestoresOnlyWithItsOwnKeyLayout() throws Exception {
    List<Row> in = input();
    int half = in.size() / 2;
    for (String layout : List.of("row", "value")) {
      List<String> want;
      try (var whole = harness(layout)) {
        whole.open();
        want = sorted(feed(whole, in, 0, in.size(), new long[] {Long.MIN_VALUE}), List.of());
      }
      assertTrue(want.size() > 100, "windows: " + want.size());
      long[] wm = {Long.MIN_VALUE};
      OperatorSubtaskState snapshot;
      List<String> first;
      try (var before = harness(layout)) {
        before.open();
        first = feed(before, in, 0, half, wm);
        before.prepareSnapshotPreBarrier(1); // as Flink does before each snapshot
        snapshot = before.snapshot(1, 1);
      }
      List<String> second;
      try (var after = harness(layout)) {
        after.initializeState(snapshot);
        after.open();
        second = feed(after, in, half, in.size(), wm);
      }
      assertEquals(want, sorted(first, second), layout + ": the restored run's output");

      String other = layout.equals("row") ? "value" : "row";
      try (var wrong = harness(other)) {
        Exception e = assertThrows(Exception.class, () -> {
          wrong.initializeState(snapshot);
          wrong.open();
        }, layout + " snapshot restored with " + other);
        assertTrue(String.valueOf(causes(e)).toLowerCase(java.util.Locale.ROOT).contains("serializer"),
            "fails on the key serializer: " + causes(e));
      }
    }
  }

  private static List<String> causes(Throwable e) {
    List<String> r = new ArrayList<>();
    for (Throwable c = e; c != null; c = c.getCause()) {
      r.add(c.getClass().getSimpleName() + ": " + c.getMessage());
    }
    return r;
  }
}

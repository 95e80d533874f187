package io.swag.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.OnError;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checkpoints between records of cached keys on the operator's lean path (one {@code max}: a record
 * goes in by its time and value alone): a run that takes a snapshot, goes on, takes a second one and is
 * restored from the second gives exactly the output of an uninterrupted run. Every record between the
 * two snapshots is of a key already in the cache and no watermark passes between them (a firing would
 * mark its key as changed anyway; both runs hold them back there), so the second snapshot holds those
 * records only if the lean path marks their keys as changed. Each operator alone in Flink's keyed
 * operator test harness.
 */
@SuppressWarnings("try") // the harness's close() is declared to throw InterruptedException
class ScalarCheckpointTest {
  static QuerySpec query(long lateness) {
    return QuerySpec.builder().key("k").time("ts").latenessMs(lateness)
        .window(WindowSpec.time(400, 100).name("w").aggregate("mx", "max", "v")).build();
  }

  static KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> harness(long lateness) throws Exception {
    String[] names = TestStreams.TYPE.getFieldNames();
    SwagWindowOperator op = new SwagWindowOperator(Planner.plan(query(lateness)).toJson(), names,
        SwagWindows.lateTag(TestStreams.type()), SwagWindows.rejectedTag(TestStreams.type()), 100, OnError.REJECT,
        true);
    @SuppressWarnings("unchecked")
    TypeInformation<Object> keyType = (TypeInformation<Object>) (TypeInformation<?>) Types.STRING;
    SwagWindows.ValueKey keys = new SwagWindows.ValueKey(0, names, "");
    KeySelector<Object, Object> rowKeys = r -> keys.getKey((Row) r);
    var h = new KeyedOneInputStreamOperatorTestHarness<>(op, rowKeys, keyType);
    h.setup(SwagWindows.outputType(query(lateness), TestStreams.TYPE).createSerializer(new SerializerConfigImpl()));
    return h;
  }

  @ParameterizedTest(name = "seed {0}, disorder {1}, lateness {2}")
  @CsvSource({"51, 0, 0", "52, 40, 100"})
  void restoredFromALaterSnapshotEqualsAnUninterruptedRun(long seed, int disorder, long lateness) throws Exception {
    List<Row> in = TestStreams.generate(seed, 1200, 4, 6, disorder, 50);
    int a = in.size() / 2;
    int b = a + 40;
    List<String> want;
    try (var whole = harness(lateness)) {
      whole.open();
      long[] wm = {Long.MIN_VALUE};
      KeySavepointTest.feed(whole, in, 0, a, wm);
      recordsOnly(whole, in, a, b);
      want = KeySavepointTest.sorted(KeySavepointTest.feed(whole, in, b, in.size(), wm), List.of());
    }
    assertTrue(want.size() > 100, "windows: " + want.size());
    long[] wm = {Long.MIN_VALUE};
    OperatorSubtaskState second;
    List<String> before;
    try (var h = harness(lateness)) {
      h.open();
      KeySavepointTest.feed(h, in, 0, a, wm);
      h.prepareSnapshotPreBarrier(1); // as Flink does before each snapshot
      h.snapshot(1, 1); // writes every key seen so far: the records after it are of cached keys
      before = recordsOnly(h, in, a, b); // the harness's output so far, from the first record
      h.prepareSnapshotPreBarrier(2);
      second = h.snapshot(2, 2);
    }
    List<String> after;
    try (var h = harness(lateness)) {
      h.initializeState(second);
      h.open();
      after = KeySavepointTest.feed(h, in, b, in.size(), wm);
    }
    assertEquals(want, KeySavepointTest.sorted(before, after), "the run restored from the second snapshot");
    List<String> keys = new ArrayList<>();
    for (int i = a; i < b; i++) {
      String k = (String) in.get(i).getField(0);
      if (!keys.contains(k)) {
        keys.add(k);
      }
    }
    assertTrue(keys.size() >= 4, "records of every key between the snapshots: " + keys);
  }

  /** Feeds rows {@code from} to {@code to} of {@code in} without their watermarks; returns the output rows. */
  static List<String> recordsOnly(KeyedOneInputStreamOperatorTestHarness<Object, Object, Row> h, List<Row> in, int from,
      int to) throws Exception {
    for (int i = from; i < to; i++) {
      h.processElement(in.get(i), (Long) in.get(i).getField(1));
    }
    List<String> out = new ArrayList<>();
    for (Row r : h.extractOutputValues()) {
      out.add(RestoreTest.format(r));
    }
    return out;
  }
}

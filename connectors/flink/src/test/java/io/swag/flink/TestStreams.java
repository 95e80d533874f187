package io.swag.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * Seeded out-of-order test input: rows (k STRING, ts BIGINT, v DOUBLE, id BIGINT, wm BIGINT) where
 * {@code wm} is the watermark to emit right after the row (punctuated, so the interleaving of rows
 * and watermarks is part of the input and reproducible on any parallelism).
 */
final class TestStreams {
  private TestStreams() {}

  static final RowTypeInfo TYPE = (RowTypeInfo) Types.ROW_NAMED(new String[] {"k", "ts", "v", "id", "wm"},
      Types.STRING, Types.LONG, Types.DOUBLE, Types.LONG, Types.LONG);

  /**
   * {@code n} rows over {@code keys} keys; times advance by 0..step-1 ms per row, each row displaced
   * back by up to {@code disorder} ms; the watermark trails the largest time by {@code delay} ms and
   * is emitted every few rows; about 3% of the rows are "stragglers" up to 15 x delay old, so some
   * are within the allowed lateness and some too late.
   */
  static List<Row> generate(long seed, int n, int keys, int step, int disorder, int delay) {
    Random r = new Random(seed);
    List<Row> rows = new ArrayList<>(n);
    long base = 1_000_000;
    long maxT = Long.MIN_VALUE;
    long wm = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      base += r.nextInt(step);
      long t = base - (disorder > 0 ? r.nextInt(disorder + 1) : 0);
      if (r.nextInt(100) < 3) {
        t = base - r.nextInt(15 * delay + 1);
      }
      maxT = Math.max(maxT, t);
      if (r.nextInt(4) == 0) {
        wm = Math.max(wm, maxT - delay);
      }
      double v = r.nextInt(64);
      rows.add(Row.of("k" + r.nextInt(keys), t, v, (long) i, wm));
    }
    return rows;
  }

  /** Timestamps from {@code ts}, watermarks from {@code wm} after each row. */
  static WatermarkStrategy<Row> watermarks() {
    return WatermarkStrategy.<Row>forGenerator(ctx -> new Punctuated())
        .withTimestampAssigner((row, prev) -> (Long) row.getField(1));
  }

  static final class Punctuated implements WatermarkGenerator<Row> {
    private long last = Long.MIN_VALUE;

    @Override
    public void onEvent(Row event, long timestamp, WatermarkOutput output) {
      long w = (Long) event.getField(4);
      if (w > last) {
        last = w;
        output.emitWatermark(new Watermark(w));
      }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
  }

  @SuppressWarnings("unchecked")
  static TypeInformation<Row> type() {
    return TYPE;
  }
}

package io.swag.flink.bench;

import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.StoredWindows;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.util.List;
import java.util.Locale;

/**
 * swag-core's share of the Flink operator's per-record work, without Flink: what
 * {@code SwagWindowOperator} calls per record of {@code FlinkBench ceiling} (16 keys round-robin, one
 * record per key and slide, {@code max(v)}, in order): a {@link StoredWindows} insert per record, and
 * per watermark (every {@code 200 ms} of event time at the benchmark's rate, {@code wmEvery} records)
 * each key's {@link KeyWindows#fire}; the output counts the rows. Prints CPU ns per record (the
 * thread's CPU clock) per window/slide. Arguments: rounds, records, window/slide ratios, records per
 * watermark.
 */
public final class PlanPathBench {
  private PlanPathBench() {}

  static long rows;
  private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

  /**
   * Runs the benchmark.
   *
   * @param args rounds, records, window/slide ratios (comma-separated), records per watermark
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 4_000_000;
    long[] ratios = args.length > 2 ? java.util.Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray()
        : new long[] {1, 64};
    int wmEvery = args.length > 3 ? Integer.parseInt(args[3]) : 400_000;
    int keys = 16;
    for (int r = 0; r < rounds; r++) {
      for (long ratio : ratios) {
        QuerySpec q = QuerySpec.builder().key("k").time("ts").order("in_order")
            .window(WindowSpec.time(ratio * keys, keys).aggregate("mx", "max", "v")).build();
        Plan plan = Planner.plan(q);
        List<String> used = LocalExecutor.usedColumns(q);
        List<WindowGroup> groups = WindowGroup.storedGroups(plan, used, false);
        int timeSlot = used.indexOf("ts");
        int kSlot = used.indexOf("k");
        int vSlot = used.indexOf("v");
        StoredWindows[] ks = new StoredWindows[keys];
        for (int k = 0; k < keys; k++) {
          ks[k] = new StoredWindows(groups.get(0), timeSlot);
        }
        KeyWindows.WindowOutput out = new KeyWindows.WindowOutput() { // as the operator's: one result without a list
          @Override
          public void emit(int w, long s, long e, List<Object> res) {
            rows += res.size();
          }

          @Override
          public void emitOne(int w, long s, long e, Object result) {
            rows++;
          }
        };
        long wm = Long.MIN_VALUE;
        long t0 = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
          Object[] row = new Object[used.size()];
          long t = i;
          row[kSlot] = (long) (i % keys);
          row[timeSlot] = t;
          row[vSlot] = (double) ((i * 0x9E3779B97F4A7C15L >>> 7) % 1000);
          ks[i % keys].insert(t, row, wm, out);
          if ((i + 1) % wmEvery == 0) {
            wm = t;
            for (StoredWindows s : ks) {
              s.windows().fire(wm, out);
            }
          }
        }
        long ns = CPU.getCurrentThreadCpuTime() - t0;
        System.out.printf(Locale.ROOT, "window/slide %d: %.1f ns per record (%d rows)%n", ratio, ns / (double) n, rows);
        rows = 0;
      }
    }
  }
}

package io.swag.spark;

import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.Json;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.util.AccumulatorV2;

/**
 * What the tasks of one swag query ran, as a Spark accumulator: each task adds, once, a report
 * read back from what it built, the operator side ({@link SwagProcessor}, the back-fill) an
 * {@link ExecutedPlan} JSON and the map side of pre-aggregation ({@link SlicePreAggregator}) its
 * slice width ({@link #preaggregateReport}); the driver keeps the distinct reports, so its size is
 * bounded by the number of different reports (normally two), not by tasks or micro-batches.
 * {@link #executedPlan()} merges them into one read-back for the driver.
 *
 * <p>Thread-safe: a task's copy is written by its task thread, the driver's by the scheduler's.
 */
final class PlanReports extends AccumulatorV2<String, List<String>> {
  private static final long serialVersionUID = 1L;
  private static final String PREAGGREGATE = "preaggregate";
  private final LinkedHashSet<String> reports = new LinkedHashSet<>();

  /** The map side's report: it combines records into slices of {@code sliceMs} before the shuffle. */
  static String preaggregateReport(long sliceMs) {
    return "{\"stage\":\"" + PREAGGREGATE + "\",\"slice_ms\":" + sliceMs + "}";
  }

  @Override
  public synchronized boolean isZero() {
    return reports.isEmpty();
  }

  @Override
  public synchronized AccumulatorV2<String, List<String>> copy() {
    PlanReports c = new PlanReports();
    c.reports.addAll(reports);
    return c;
  }

  @Override
  public synchronized void reset() {
    reports.clear();
  }

  @Override
  public synchronized void add(String report) {
    reports.add(report);
  }

  @Override
  public void merge(AccumulatorV2<String, List<String>> other) {
    List<String> v = other.value();
    synchronized (this) {
      reports.addAll(v);
    }
  }

  @Override
  public synchronized List<String> value() {
    return new ArrayList<>(reports);
  }

  /**
   * The operator's read-back with the map side's pre-aggregation added to its engine facts as
   * {@code preaggregate_slice_ms} (0: no task pre-aggregated); null if no task reported yet.
   *
   * @throws IllegalStateException if tasks ran different plans
   */
  ExecutedPlan executedPlan() {
    ExecutedPlan op = null;
    TreeSet<Long> slices = new TreeSet<>();
    for (String r : value()) {
      if (r.contains("\"groups\"")) {
        ExecutedPlan p = ExecutedPlan.fromJson(r);
        if (op != null && !op.equals(p)) {
          throw new IllegalStateException("swag: the tasks of one query ran different plans: " + value());
        }
        op = p;
      } else if (Json.parse(r) instanceof Map<?, ?> m && PREAGGREGATE.equals(m.get("stage"))) {
        slices.add(((Number) m.get("slice_ms")).longValue());
      }
    }
    if (slices.size() > 1) {
      throw new IllegalStateException("swag: the map side of one query pre-aggregated slices of different widths: "
          + slices);
    }
    if (op == null && slices.isEmpty()) {
      return null;
    }
    if (op == null) {
      op = new ExecutedPlan(List.of(), Map.of("name", "spark"));
    }
    return op.withEngine("preaggregate_slice_ms", slices.isEmpty() ? 0L : slices.first());
  }
}

package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link Plan} over an in-memory stream, without an engine: the reference execution of the
 * query semantics of docs/query-spec.md, used by the Python API and as the model for the engine
 * operators.
 *
 * <p>Per record: the key columns (null: rejected), the time (event-time column: a number of epoch ms,
 * {@link java.time.Instant}, {@link java.util.Date}, {@link java.time.OffsetDateTime},
 * {@link java.time.ZonedDateTime}, {@link java.time.LocalDateTime}
 * as UTC, or a string holding an integer or an ISO-8601 instant/local date-time; null or anything else:
 * rejected; no time column: the arrival counter 0, 1, 2, ..., and the watermark follows it), NaN in
 * an aggregate column (rejected), then each group ({@link TimeGroupExecutor},
 * {@link CountGroupExecutor}); a value a function does not accept (e.g. a string for {@code max})
 * rejects the record before any group changed. A record that no group accepts (too late for every
 * time window, and no count window) is late: kept for {@link #takeLate()} and counted. Rejected
 * records are kept with a reason for {@link #takeRejected()}. Nothing is dropped silently.
 *
 * <p>Output rows ({@link #takeRows()}), in emission order: {@link LinkedHashMap}s of the key columns,
 * {@code window}, {@code window_start}, {@code window_end}, then the window's aggregates.
 *
 * <p>Fast path: {@link #LocalExecutor(Plan, List)} with a column order and {@link #process(Object[])}
 * (the executor keeps a reference to the array until its entry is evicted: do not reuse it).
 * Not thread-safe.
 */
public final class LocalExecutor {
  private final Plan plan;
  private final QuerySpec spec;
  private final List<String> columnOrder;
  private final int[] keyIdx;
  private final int timeIdx;
  private final int[] valueIdx;
  private final List<GroupExecutor> groups = new ArrayList<>();
  private final boolean hasTimeGroup;
  private final List<Map<String, Object>> rows = new ArrayList<>();
  private List<Map<String, Object>> late = new ArrayList<>();
  private List<Map<String, Object>> rejected = new ArrayList<>();
  private long lateCount;
  private long rejectedCount;
  private long arrivals;
  private final long[] timeOut = new long[1]; // the time RowContract.check parsed
  private long watermark = Long.MIN_VALUE;
  private OnError onError = OnError.REJECT;

  /**
   * For {@link #process(Map)}: the row layout is the columns the query uses.
   *
   * @param plan the plan
   */
  public LocalExecutor(Plan plan) {
    this(plan, usedColumns(plan.spec()));
  }

  /**
   * For {@link #process(Object[])}: rows hold the values of {@code columnOrder}.
   *
   * @param plan the plan
   * @param columnOrder the column of each row position
   */
  public LocalExecutor(Plan plan, List<String> columnOrder) {
    this.plan = plan;
    this.spec = plan.spec();
    this.columnOrder = List.copyOf(columnOrder);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < columnOrder.size(); i++) {
      index.putIfAbsent(columnOrder.get(i), i);
    }
    for (String c : usedColumns(spec)) {
      if (!index.containsKey(c)) {
        throw new SwagException(Kind.INVALID_INPUT, "columnOrder " + columnOrder + " lacks column '" + c
            + "' used by the query");
      }
    }
    keyIdx = spec.key().stream().mapToInt(index::get).toArray();
    timeIdx = spec.time() == null ? -1 : index.get(spec.time());
    valueIdx = RowContract.valueIndices(spec, index::get);
    boolean time = false;
    for (GroupPlan g : plan.groups()) {
      if (g.kind() == GroupKind.TIME) {
        groups.add(new TimeGroupExecutor(spec, g, index, rows));
        time = true;
      } else {
        groups.add(new CountGroupExecutor(spec, g, index, rows));
      }
    }
    hasTimeGroup = time;
  }

  /**
   * The columns a query reads: key, time, aggregate inputs (in that order, distinct).
   *
   * @param spec the query
   * @return the columns
   */
  public static List<String> usedColumns(QuerySpec spec) {
    List<String> c = new ArrayList<>(spec.key());
    if (spec.time() != null && !c.contains(spec.time())) {
      c.add(spec.time());
    }
    for (WindowSpec w : spec.windows()) {
      for (AggregateSpec a : w.aggregates()) {
        if (a.column() != null && !c.contains(a.column())) {
          c.add(a.column());
        }
      }
    }
    return c;
  }

  /**
   * The plan this executor runs.
   *
   * @return the plan
   */
  public Plan plan() {
    return plan;
  }

  /**
   * The read-back of what this executor runs, per group from an aggregator made as each key's is
   * (not from {@link #plan()}): see {@link ExecutedPlan}. O(windows).
   *
   * @return the read-back
   */
  public ExecutedPlan executedPlan() {
    List<ExecutedPlan.Group> r = new ArrayList<>();
    for (GroupExecutor g : groups) {
      r.add(g.executed());
    }
    return new ExecutedPlan(r, Map.of("name", "local"));
  }

  /**
   * Processes one record given as column name to value.
   *
   * @param record the record
   */
  public void process(Map<String, Object> record) {
    Object[] row = new Object[columnOrder.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = record.get(columnOrder.get(i));
    }
    process(row, record);
  }

  /**
   * Processes one record given as values in the column order of the constructor.
   *
   * @param row the record
   */
  public void process(Object[] row) {
    if (row.length < columnOrder.size()) {
      throw new SwagException(Kind.INVALID_INPUT, "row has " + row.length + " values, the column order " + columnOrder.size());
    }
    process(row, null);
  }

  private void process(Object[] row, Map<String, Object> original) {
    Object[] keyValues = new Object[keyIdx.length];
    for (int i = 0; i < keyIdx.length; i++) {
      keyValues[i] = row[keyIdx[i]];
    }
    String bad = RowContract.check(row, keyIdx, spec.key(), timeIdx, spec.time(), valueIdx, columnOrder, timeOut);
    if (bad != null) {
      reject(row, original, bad);
      return;
    }
    long t = timeIdx < 0 ? arrivals : timeOut[0];
    boolean[] accepted = new boolean[groups.size()];
    boolean any = false;
    for (int g = 0; g < groups.size(); g++) {
      accepted[g] = groups.get(g).accepts(t);
      any |= accepted[g];
    }
    if (!any) {
      lateCount++;
      late.add(original != null ? original : asMap(row));
      return;
    }
    Object key = keyValues.length == 0 ? "" : keyValues.length == 1 ? keyValues[0] : Arrays.asList(keyValues);
    int first = -1;
    try {
      for (int g = 0; g < groups.size(); g++) {
        if (accepted[g]) {
          if (first >= 0) {
            groups.get(g).check(row, t); // so that no group changes if a later one rejects the value
          } else {
            first = g;
          }
        }
      }
      groups.get(first).process(key, keyValues, t, row); // lifts before changing state
    } catch (IllegalArgumentException e) {
      reject(row, original, e.getMessage());
      return;
    }
    for (int g = first + 1; g < groups.size(); g++) {
      if (accepted[g]) {
        groups.get(g).process(key, keyValues, t, row);
      }
    }
    arrivals++;
    if (timeIdx < 0) {
      advanceWatermark(t);
    }
  }

  private Map<String, Object> asMap(Object[] row) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < columnOrder.size(); i++) {
      m.put(columnOrder.get(i), row[i]);
    }
    return m;
  }

  private void reject(Object[] row, Map<String, Object> original, String reason) {
    rejectedCount++;
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("record", original != null ? original : asMap(row));
    r.put("reason", reason);
    rejected.add(r);
    onError.rejected(reason, r.get("record"));
  }

  /**
   * What a rejected record does ({@link OnError}): {@code REJECT} (the default) keeps it for
   * {@link #takeRejected()}; {@code FAIL} also throws from {@link #process}. Returns this executor.
   *
   * @param mode the mode
   * @return this executor
   */
  public LocalExecutor onError(OnError mode) {
    this.onError = mode;
    return this;
  }

  /**
   * Advances the event-time watermark (a smaller value is ignored): fires the time windows with
   * {@code end - 1 <= watermark} and lets state older than lateness go.
   *
   * @param watermark the new watermark
   */
  public void advanceWatermark(long watermark) {
    if (watermark <= this.watermark) {
      return;
    }
    this.watermark = watermark;
    for (GroupExecutor g : groups) {
      g.advance(watermark);
    }
  }

  /** End of input: watermark = +infinity, so every window fires. */
  public void finish() {
    advanceWatermark(Long.MAX_VALUE);
  }

  /**
   * The current watermark.
   *
   * @return the watermark, {@code Long.MIN_VALUE} before the first
   */
  public long watermark() {
    return watermark;
  }

  /**
   * The rows emitted since the last call, in emission order.
   *
   * @return the rows
   */
  public List<Map<String, Object>> takeRows() {
    List<Map<String, Object>> r = new ArrayList<>(rows);
    rows.clear();
    return r;
  }

  /**
   * The late records since the last call, as given (a row array is returned as a column map).
   *
   * @return the late records
   */
  public List<Map<String, Object>> takeLate() {
    List<Map<String, Object>> r = late;
    late = new ArrayList<>();
    return r;
  }

  /**
   * Records that were too late for every window, in total.
   *
   * @return the late record count
   */
  public long lateCount() {
    return lateCount;
  }

  /**
   * The rejected records since the last call: maps with {@code record} and {@code reason}.
   *
   * @return the rejected records
   */
  public List<Map<String, Object>> takeRejected() {
    List<Map<String, Object>> r = rejected;
    rejected = new ArrayList<>();
    return r;
  }

  /**
   * Records rejected (null key, null or unparsable time, NaN, a value a function refuses), in total.
   *
   * @return the rejected record count
   */
  public long rejectedCount() {
    return rejectedCount;
  }

  /**
   * Whether the query has time windows (else the watermark is irrelevant).
   *
   * @return true if the query has time windows
   */
  public boolean hasTimeWindows() {
    return hasTimeGroup;
  }
}

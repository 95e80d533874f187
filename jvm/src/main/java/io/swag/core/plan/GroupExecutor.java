package io.swag.core.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes one {@link GroupPlan} inside a {@link LocalExecutor}: per key one aggregator of the
 * group's {@link ProductFunction}; rows go to the executor's output list. Subclasses:
 * {@link TimeGroupExecutor} and {@link CountGroupExecutor}.
 */
abstract class GroupExecutor {
  final QuerySpec spec;
  final GroupPlan plan;
  final WindowSpec[] windows;
  final ProductFunction fn;
  final List<Map<String, Object>> out;
  private final List<String> keyNames;
  private final InputCheck check;

  /** {@code columnIndex}: the row index of each column name. */
  GroupExecutor(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex, List<Map<String, Object>> out) {
    this.spec = spec;
    this.plan = plan;
    this.out = out;
    this.keyNames = spec.key();
    this.windows = new WindowSpec[plan.windows().size()];
    for (int i = 0; i < windows.length; i++) {
      windows[i] = spec.windows().get(plan.windows().get(i));
    }
    this.fn = WindowGroup.productOf(plan, columnIndex);
    this.check = new InputCheck(fn);
  }

  /** Whether the record at {@code t} is used by some window of the group (not too late for all). */
  abstract boolean accepts(long t);

  /** Checks the row's inputs without changing state; throws {@link IllegalArgumentException}. */
  void check(Object[] row, long t) {
    check.check(row, t);
  }

  /** Adds an accepted record; emits the rows it causes. */
  abstract void process(Object key, Object[] keyValues, long t, Object[] row);

  /** Advances the watermark (only forward); emits the rows of the windows that fire. */
  abstract void advance(long watermark);

  /** The read-back of what the group executes, from an aggregator made as each key's is ({@link ExecutedPlan}). */
  abstract ExecutedPlan.Group executed();

  /** Appends one output row: key columns, window, window_start, window_end, the window's aggregates. */
  final void emit(Object[] keyValues, int window, long start, long end, Object results) {
    @SuppressWarnings("unchecked")
    List<Object> res = (List<Object>) results;
    WindowSpec w = windows[window];
    List<Integer> members = plan.members().get(window);
    Map<String, Object> row = new LinkedHashMap<>(2 * (keyValues.length + 3 + members.size()));
    for (int i = 0; i < keyValues.length; i++) {
      row.put(keyNames.get(i), keyValues[i]);
    }
    row.put("window", w.name());
    row.put("window_start", start);
    row.put("window_end", end);
    for (int j = 0; j < members.size(); j++) {
      row.put(w.aggregates().get(j).output(), res.get(members.get(j)));
    }
    out.add(row);
  }
}

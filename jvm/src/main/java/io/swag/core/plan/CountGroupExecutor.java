package io.swag.core.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Executes one count-window group ({@link CountGroup}) in a {@link LocalExecutor}: per key a {@link CountWindow}. */
final class CountGroupExecutor extends GroupExecutor {
  private final Map<Object, CountWindow> states = new HashMap<>();
  private final CountGroup group;

  CountGroupExecutor(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex, List<Map<String, Object>> out) {
    super(spec, plan, columnIndex, out);
    this.group = new CountGroup(spec, plan, columnIndex);
  }

  @Override
  ExecutedPlan.Group executed() {
    return group.executed();
  }

  @Override
  boolean accepts(long t) {
    return true;
  }

  @Override
  void process(Object key, Object[] keyValues, long t, Object[] row) {
    CountWindow s = states.computeIfAbsent(key, k -> group.newKey(false));
    s.insert(t, row, (start, end, res) -> emit(keyValues, 0, start, end, res));
  }

  @Override
  void advance(long watermark) {}
}

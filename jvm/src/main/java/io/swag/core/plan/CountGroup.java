package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.fifo.FifoBase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The key-independent, compiled part of one count-window group of a {@link Plan} (docs/query-spec.md,
 * "Count windows"): the window, the product aggregate of its functions and the in-order algorithm
 * every key's {@link CountWindow} runs. Immutable and thread-safe. The local executor, the Flink
 * operator and the Spark operator all build their count windows from it.
 *
 * <p>Semantics: a key's window holds its last {@code size} records in arrival order; a row is
 * emitted every {@code slide} records of the key ({@code window_end}) or at every record
 * ({@code per_record}), with {@code window_start} = the key's records before the window and
 * {@code window_end} = the key's record count. Count windows never make a record late.
 */
public final class CountGroup {
  private final QuerySpec spec;
  private final GroupPlan plan;
  private final WindowSpec window;
  private final int queryWindow;
  final ProductFunction fn;
  private final int[] members;
  final boolean perRecord;
  private final InputCheck check;

  /**
   * @param spec the query
   * @param plan the group's plan, of kind {@code count}
   * @param columnIndex the row index of each column name ({@code Object[]} rows)
   */
  public CountGroup(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex) {
    if (plan.kind() == GroupKind.TIME) {
      throw new SwagException(SwagException.Kind.INVALID_QUERY, "group of kind '" + plan.kind()
          + "' is not a count-window group");
    }
    this.spec = spec;
    this.plan = plan;
    this.queryWindow = plan.windows().get(0);
    this.window = spec.windows().get(queryWindow);
    if (!plan.algorithm().isFifo()) {
      throw new SwagException(SwagException.Kind.INVALID_QUERY, "count window '" + window.name() + "': algorithm '"
          + plan.algorithm() + "' is not an in-order algorithm (" + io.swag.core.Swag.FIFO_ALGORITHMS + ")");
    }
    this.fn = WindowGroup.productOf(plan, columnIndex);
    this.members = plan.members().get(0).stream().mapToInt(Integer::intValue).toArray();
    this.perRecord = spec.perRecord();
    this.check = new InputCheck(fn);
  }

  /**
   * The count groups of a plan for rows laid out in {@code columnOrder}, in plan order.
   *
   * @param plan the plan
   * @param columnOrder the column of each row position
   * @return the count groups
   */
  public static List<CountGroup> countGroups(Plan plan, List<String> columnOrder) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < columnOrder.size(); i++) {
      index.putIfAbsent(columnOrder.get(i), i);
    }
    List<CountGroup> r = new ArrayList<>();
    for (GroupPlan g : plan.groups()) {
      if (g.kind() == GroupKind.COUNT) {
        r.add(new CountGroup(plan.spec(), g, index));
      }
    }
    return r;
  }

  /**
   * Per-key state; {@code retainRows}: also keep the window's rows, for an engine's state
   * ({@link CountWindow#forEachRow}).
   *
   * @param retainRows whether to keep the window's rows
   * @return a new key's state
   */
  public CountWindow newKey(boolean retainRows) {
    return new CountWindow(this, retainRows);
  }

  /** A FIFO aggregator of the plan's in-order algorithm. */
  FifoBase newFifo() {
    return plan.algorithm().newFifo(fn.aggregated());
  }

  /**
   * The read-back of what this group runs, from a FIFO made as each key's is ({@link ExecutedPlan}).
   *
   * @return the group's read-back
   */
  public ExecutedPlan.Group executed() {
    return ExecutedPlan.Group.ofCount(spec, queryWindow, newFifo());
  }

  /**
   * Checks a row's aggregate inputs without changing state; throws naming the function and value.
   *
   * @param row the record
   * @param t the record's time
   */
  public void check(Object[] row, long t) {
    check.check(row, t);
  }

  /**
   * The group's window.
   *
   * @return the window
   */
  public WindowSpec window() {
    return window;
  }

  /**
   * The window's aggregate values, in its output column order, from the product's results.
   *
   * @param results the product's results
   * @return the window's output values
   */
  public Object[] outputValues(List<Object> results) {
    Object[] r = new Object[members.length];
    for (int j = 0; j < members.length; j++) {
      r[j] = results.get(members[j]);
    }
    return r;
  }
}

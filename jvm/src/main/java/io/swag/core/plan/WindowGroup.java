package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.TimedAggregator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The key-independent, compiled part of one time-window group of a {@link Plan}: its windows, the
 * product aggregate that serves them all, lateness and emission, and the rules that do not depend on
 * a key (which records are late, what state no window needs any more). Immutable and thread-safe;
 * {@link #newKey} makes the per-key state ({@link KeyWindows}).
 *
 * <p>This is the engine-free core that the Flink and Spark operators and the {@link LocalExecutor}
 * share, so that they all run the semantics of docs/query-spec.md:
 *
 * <ul>
 *   <li>{@code window_end}: a window {@code [start, end)} fires when the watermark reaches
 *       {@code end - 1}; a record is used while some window containing it has
 *       {@code end - 1 + lateness > watermark}; a record arriving after its window fired emits an
 *       updated row.
 *   <li>{@code final} (an engine option for append-only sinks, e.g. Spark's append mode): a window
 *       fires once, when the watermark reaches {@code end - 1 + lateness}, with every record that
 *       was accepted for it; no updated rows.
 *   <li>{@code per_record}: each record emits, per window, the aggregate over {@code (t - size, t]}.
 * </ul>
 *
 * <p>Watermark convention: a watermark {@code W} says that no more records with time {@code <= W}
 * are expected (Flink's). Spark's watermark {@code S} says records with time {@code < S} are late,
 * which is {@code W = S - 1}.
 */
public final class WindowGroup {
  private final QuerySpec spec;
  private final GroupPlan plan;
  final WindowSpec[] windows;
  final ProductFunction fn;
  final long lateness;
  final boolean perRecord;
  final boolean finalOnly;
  final long maxSize;
  /** Per window, the results of the product that it outputs, in its output column order. */
  private final int[][] members;
  private final String[][] outputs;
  private final InputCheck check;
  private boolean storedSlices;

  /**
   * @param spec the query
   * @param plan the group's plan, of kind {@code time}
   * @param columnIndex the row index of each column name ({@code Object[]} rows)
   * @param finalOnly emit each window once, after its lateness (see the class comment)
   */
  public WindowGroup(QuerySpec spec, GroupPlan plan, Map<String, Integer> columnIndex, boolean finalOnly) {
    if (plan.kind() != GroupKind.TIME) {
      throw new SwagException(Kind.INVALID_QUERY, "group of kind '" + plan.kind() + "' is not a time-window group");
    }
    this.spec = spec;
    this.plan = plan;
    this.windows = new WindowSpec[plan.windows().size()];
    for (int i = 0; i < windows.length; i++) {
      windows[i] = spec.windows().get(plan.windows().get(i));
    }
    this.fn = productOf(plan, columnIndex);
    this.lateness = spec.latenessMs();
    this.perRecord = spec.perRecord();
    this.finalOnly = finalOnly && !perRecord;
    long m = 0;
    for (WindowSpec w : windows) {
      m = Math.max(m, w.size());
    }
    this.maxSize = m;
    this.members = new int[windows.length][];
    this.outputs = new String[windows.length][];
    for (int i = 0; i < windows.length; i++) {
      List<Integer> mem = plan.members().get(i);
      members[i] = mem.stream().mapToInt(Integer::intValue).toArray();
      outputs[i] = windows[i].aggregates().stream().map(AggregateSpec::output).toArray(String[]::new);
    }
    if (plan.slicing()) {
      if (perRecord) {
        throw new SwagException(Kind.INVALID_QUERY, "slicing needs emit window_end (per-record windows are not slice-aligned)");
      }
      for (WindowSpec w : windows) {
        if (w.size() % plan.sliceMs() != 0 || w.slide() % plan.sliceMs() != 0 || w.offset() % plan.sliceMs() != 0) {
          throw new SwagException(Kind.INVALID_QUERY, "slice width " + plan.sliceMs() + " ms does not divide window "
              + w.name() + " (size, slide, offset)");
        }
      }
    }
    this.check = new InputCheck(fn);
    newAggregator(); // fail early on a bad algorithm name
  }

  /**
   * The time groups of a plan for rows laid out in {@code columnOrder}.
   *
   * @param plan the plan
   * @param columnOrder the column of each row position
   * @param finalOnly emit each window once, after its lateness
   * @return the time groups, in plan order
   */
  public static List<WindowGroup> timeGroups(Plan plan, List<String> columnOrder, boolean finalOnly) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < columnOrder.size(); i++) {
      index.putIfAbsent(columnOrder.get(i), i);
    }
    for (String c : LocalExecutor.usedColumns(plan.spec())) {
      if (!index.containsKey(c)) {
        throw new SwagException(Kind.INVALID_INPUT, "columnOrder " + columnOrder + " lacks column '" + c + "' used by the query");
      }
    }
    List<WindowGroup> r = new ArrayList<>();
    for (GroupPlan g : plan.groups()) {
      if (g.kind() == GroupKind.TIME) {
        r.add(new WindowGroup(plan.spec(), g, index, finalOnly));
      }
    }
    return r;
  }

  /**
   * The time groups of a plan for an engine that keeps each key's windows in its state with
   * {@link StoredWindows}: a group that {@linkplain #preaggregates pre-aggregates} is built without
   * the planner's {@link SlicedAggregator} (its records go to their slice's start already). A tree
   * combines them into one entry per slice; an in-order plan's FIFO keeps one entry per record
   * (equal times) until its key switches to the tree. The executed plan shows the stored slices
   * ({@link ExecutedPlan}).
   *
   * @param plan the plan
   * @param columnOrder the column of each row position
   * @param finalOnly emit each window once, after its lateness
   * @return the time groups, in plan order
   */
  public static List<WindowGroup> storedGroups(Plan plan, List<String> columnOrder, boolean finalOnly) {
    List<WindowGroup> r = new ArrayList<>();
    List<WindowGroup> planned = timeGroups(plan, columnOrder, finalOnly);
    int g = 0;
    for (int i = 0; i < plan.groups().size(); i++) {
      GroupPlan p = plan.groups().get(i);
      if (p.kind() != GroupKind.TIME) {
        continue;
      }
      WindowGroup w = planned.get(g++);
      if (w.preaggregates() && p.slicing()) {
        w = timeGroups(plan.withGroup(i, p.withSlicing(false)), columnOrder, finalOnly).get(g - 1);
      }
      w.storedSlices = w.preaggregates();
      r.add(w);
    }
    return r;
  }

  /**
   * Built by {@link #storedGroups} to pre-aggregate: its keys combine records into slices
   * ({@link StoredWindows}).
   *
   * @return true if the group stores slices
   */
  public boolean storesSlices() {
    return storedSlices;
  }

  /**
   * Whether an engine that keeps state combines this group's records per slice of the plan's
   * {@linkplain GroupPlan#sliceMs() gcd} into one partial as they arrive, and keeps only slices: the
   * planner's decision ({@link GroupPlan#storedSlices}: {@code window_end} emission, so a slice lies in
   * exactly the windows each of its records does, and a {@linkplain ProductFunction#isMergeable
   * mergeable} product). Read by Spark's pre-aggregation before the shuffle and its state, and by the
   * Flink operator's and {@code swag_window}'s state.
   *
   * @return true if the group pre-aggregates
   */
  public boolean preaggregates() {
    return plan.storedSlices();
  }

  /**
   * Whether a {@link StoredWindows} of this group keeps no reference to an inserted row once its
   * insert returns: the group stores slices and its product is one scalar double function
   * ({@link ScalarProduct}), lifted into a {@code double} at the insert whatever the key runs (its
   * in-order ring, its tree). An engine may then refill one row array for every record.
   *
   * @return true if inserted rows are not kept
   */
  public boolean liftsRowsAtInsert() {
    return storedSlices && fn.aggregated() instanceof ScalarProduct; // storedSlices implies preaggregates()
  }

  /**
   * The row position of the one column the group's function reads when {@link #liftsRowsAtInsert}
   * (a record can then go in as that column's value alone, {@link StoredWindows#insertDouble}), else -1.
   *
   * @return the value column's position in the rows, or -1
   */
  public int scalarColumn() {
    return liftsRowsAtInsert() ? fn.column(0) : -1;
  }

  static ProductFunction productOf(GroupPlan plan, Map<String, Integer> columnIndex) {
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    int[] cols = new int[plan.product().size()];
    for (int j = 0; j < cols.length; j++) {
      GroupPlan.Part p = plan.product().get(j);
      fns.add(p.create());
      cols[j] = p.column() == null ? -1 : columnIndex.get(p.column());
    }
    return new ProductFunction(fns, cols);
  }

  /** A fresh aggregator of the plan's algorithm (tree, adaptive, in-order; sliced if planned). */
  TimedAggregator newAggregator() {
    Algorithm a = plan.algorithm();
    TimedAggregator agg;
    if (a.isAdaptive()) {
      agg = new AdaptiveAggregator(Algorithm.DABA_LITE, plan.treeAlgorithm(), fn);
    } else if (a.isFifo()) {
      agg = new AdaptiveAggregator(a, plan.treeAlgorithm(), fn);
    } else {
      agg = a.newTree(fn.aggregated());
    }
    return plan.slicing() ? new SlicedAggregator(agg, plan.sliceMs(), fn) : agg;
  }

  /**
   * The read-back of what this group executes, from a fresh aggregator made by
   * {@link #newAggregator()}, the factory of every key's {@link KeyWindows} (not from the
   * {@link GroupPlan}); see {@link ExecutedPlan}. O(windows); engines call it once per operator.
   *
   * @return the group's read-back
   */
  public ExecutedPlan.Group executed() {
    return ExecutedPlan.Group.ofTime(this, newAggregator());
  }

  /**
   * Per-key state; {@code retainRows}: also keep the input rows, for checkpoints (see
   * {@link KeyWindows}).
   *
   * @param retainRows whether to keep the input rows
   * @return a new key's state
   */
  public KeyWindows newKey(boolean retainRows) {
    return new KeyWindows(this, retainRows, !perRecord);
  }

  /**
   * Per-key state; {@code recordTimes}: keep an index of the distinct record times beside the
   * aggregator (needed for {@link KeyWindows#setEvictionListener} and {@link KeyWindows#records});
   * without it the next non-empty window is found with {@link TimedAggregator#ceilingTime}, which
   * saves a sorted-map update per record (the engine-free executor does so).
   *
   * @param retainRows whether to keep the input rows
   * @param recordTimes whether to keep the distinct record times
   * @return a new key's state
   */
  public KeyWindows newKey(boolean retainRows, boolean recordTimes) {
    return new KeyWindows(this, retainRows, recordTimes);
  }

  /**
   * The query.
   *
   * @return the query spec
   */
  public QuerySpec spec() {
    return spec;
  }

  /**
   * The group's plan.
   *
   * @return the plan
   */
  public GroupPlan plan() {
    return plan;
  }

  /**
   * The number of windows of the group.
   *
   * @return the window count
   */
  public int windowCount() {
    return windows.length;
  }

  /**
   * The group's window {@code i}.
   *
   * @param i the window's index in the group
   * @return the window
   */
  public WindowSpec window(int i) {
    return windows[i];
  }

  /**
   * The query's index of the group's window {@code i}.
   *
   * @param i the window's index in the group
   * @return the window's index in the query
   */
  public int queryWindowIndex(int i) {
    return plan.windows().get(i);
  }

  /**
   * Whether the group emits a row per record ({@code emit: per_record}).
   *
   * @return true for per-record emission
   */
  public boolean perRecord() {
    return perRecord;
  }

  /**
   * Whether each window is emitted once, after its lateness.
   *
   * @return true for final-only emission
   */
  public boolean finalOnly() {
    return finalOnly;
  }

  /**
   * The allowed lateness.
   *
   * @return the lateness in ms
   */
  public long latenessMs() {
    return lateness;
  }

  /**
   * The product of the group's aggregate functions.
   *
   * @return the product function
   */
  public ProductFunction function() {
    return fn;
  }

  /** Delay between a window's last timestamp ({@code end - 1}) and its firing watermark. */
  long fireDelay() {
    return finalOnly ? lateness : 0;
  }

  /**
   * Whether a record at {@code t} is still used by some window at this watermark
   * ({@code Long.MIN_VALUE}: none yet, everything is accepted). O(windows).
   *
   * @param t the record's time
   * @param watermark the current watermark
   * @return true if some window uses the record
   */
  public boolean accepts(long t, long watermark) {
    if (watermark == Long.MIN_VALUE) {
      return true;
    }
    if (perRecord) {
      return satAdd(t, lateness) > watermark;
    }
    for (WindowSpec w : windows) {
      if (satAdd(satAdd(w.lastStart(t), w.size() - 1), lateness) > watermark) {
        return true;
      }
    }
    return false;
  }

  /**
   * Entries with time {@code <= evictBound(watermark)} are needed by no window at this watermark.
   *
   * @param watermark the current watermark
   * @return the largest time that no window needs
   */
  public long evictBound(long watermark) {
    if (watermark == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    if (watermark == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    if (perRecord) {
      return satAdd(satAdd(watermark, -lateness), -maxSize + 1);
    }
    long b = Long.MAX_VALUE;
    for (WindowSpec w : windows) {
      b = Math.min(b, w.alignUp(satAdd(satAdd(watermark, -lateness), 2 - w.size())) - 1);
    }
    return b;
  }

  /**
   * The smallest watermark at which an entry at {@code t} is evictable: every window containing it is
   * past its lateness ({@code per_record}: {@code t + lateness + maxSize - 1}).
   *
   * @param t an entry's time
   * @return the watermark at which the entry is evictable
   */
  public long expiry(long t) {
    if (perRecord) {
      return satAdd(satAdd(t, lateness), maxSize - 1);
    }
    long e = Long.MIN_VALUE;
    for (WindowSpec w : windows) {
      e = Math.max(e, satAdd(satAdd(w.lastStart(t), w.size() - 1), lateness));
    }
    return e;
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
   * The output column names of window {@code i}'s aggregates.
   *
   * @param i the window's index in the group
   * @return the output column names
   */
  public String[] outputColumns(int i) {
    return outputs[i].clone();
  }

  /**
   * Window {@code i}'s aggregate values, in its output column order, from the product's results.
   *
   * @param i the window's index in the group
   * @param results the product's results
   * @return the window's output values
   */
  public Object[] outputValues(int i, List<Object> results) {
    int[] m = members[i];
    Object[] r = new Object[m.length];
    for (int j = 0; j < m.length; j++) {
      r[j] = results.get(m[j]);
    }
    return r;
  }

  static long satAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }
}

package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.GroupKind;
import io.swag.core.plan.GroupPlan;
import io.swag.core.plan.Plan;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.RowContract;
import io.swag.core.plan.WindowSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;

/**
 * Column layout of the operator: where the key, time and aggregate input columns are in the input
 * rows, and where each window's aggregates go in the output rows ({@link #outputNames}: key
 * columns, {@code window}, {@code window_start}, {@code window_end}, then every aggregate of the
 * query in spec order; a row fills the columns of its own window and leaves the others null).
 */
public final class Layout implements Serializable {
  private static final long serialVersionUID = 1L;
  final QuerySpec spec;
  /** The input's columns. */
  final String[] fields;
  /** The columns the query uses (key, time, aggregate inputs): the layout of the rows the core sees. */
  final List<String> used;
  /** For each used column, its index in the input. */
  final int[] usedIdx;
  /** Index of the key and time columns in the input. */
  final int[] keyIdx;
  final int timeIdx;
  /** Index of the time column in the used-column rows. */
  final int timeSlot;
  /** Indices of the key columns and of the columns aggregates read, in the used-column rows. */
  final int[] keySlots;
  final int[] valueSlots;
  private final long[] timeOut = new long[1]; // the time RowContract.check parsed
  final int arity;
  /** [time group][window in group] -> output positions of the window's aggregates. */
  final int[][][] timePos;
  final String[][] timeNames;
  final int[][] countPos;
  final String[] countNames;
  /** [time group][window in group] -> the product index of each of the window's aggregates ({@link GroupPlan#members}). */
  final int[][][] timeMembers;
  final int[][] countMembers;
  private final Map<String, Integer> byName = new HashMap<>();

  Layout(Plan plan, List<String> columns) {
    this.spec = plan.spec();
    this.fields = columns.toArray(new String[0]);
    for (int i = 0; i < fields.length; i++) {
      byName.putIfAbsent(fields[i], i);
    }
    keyIdx = new int[spec.key().size()];
    for (int i = 0; i < keyIdx.length; i++) {
      keyIdx[i] = index(spec.key().get(i), "key");
    }
    timeIdx = spec.time() == null ? -1 : index(spec.time(), "time");
    used = io.swag.core.plan.LocalExecutor.usedColumns(spec);
    for (WindowSpec w : spec.windows()) {
      if (w.isTime() && timeIdx < 0) {
        throw new SwagException(Kind.INVALID_QUERY, "time: the query has time window '" + w.name()
            + "' but no time column; the Flink operator runs event time: set 'time' to a column with a watermark");
      }
      for (AggregateSpec a : w.aggregates()) {
        if (a.column() != null) {
          index(a.column(), "windows '" + w.name() + "' aggregate '" + a.output() + "' column");
        }
      }
    }
    usedIdx = new int[used.size()];
    for (int i = 0; i < usedIdx.length; i++) {
      usedIdx[i] = byName.get(used.get(i));
    }
    timeSlot = spec.time() == null ? -1 : used.indexOf(spec.time());
    keySlots = spec.key().stream().mapToInt(used::indexOf).toArray();
    valueSlots = RowContract.valueIndices(spec, used::indexOf);
    List<String> out = outputNames(spec);
    arity = out.size();
    List<int[][]> tp = new ArrayList<>();
    List<String[]> tn = new ArrayList<>();
    List<int[]> cp = new ArrayList<>();
    List<String> cn = new ArrayList<>();
    List<int[][]> tm = new ArrayList<>();
    List<int[]> cm = new ArrayList<>();
    for (GroupPlan g : plan.groups()) {
      int[][] pos = new int[g.windows().size()][];
      String[] names = new String[pos.length];
      int[][] mem = new int[pos.length][];
      for (int i = 0; i < pos.length; i++) {
        mem[i] = g.members().get(i).stream().mapToInt(Integer::intValue).toArray();
        WindowSpec w = spec.windows().get(g.windows().get(i));
        names[i] = w.name();
        pos[i] = new int[w.aggregates().size()];
        for (int j = 0; j < pos[i].length; j++) {
          pos[i][j] = out.indexOf(w.aggregates().get(j).output());
        }
      }
      if (g.kind() == GroupKind.COUNT) {
        cp.add(pos[0]);
        cn.add(names[0]);
        cm.add(mem[0]);
      } else {
        tp.add(pos);
        tn.add(names);
        tm.add(mem);
      }
    }
    timePos = tp.toArray(new int[0][][]);
    timeNames = tn.toArray(new String[0][]);
    countPos = cp.toArray(new int[0][]);
    countNames = cn.toArray(new String[0]);
    timeMembers = tm.toArray(new int[0][][]);
    countMembers = cm.toArray(new int[0][]);
  }

  private int index(String column, String what) {
    Integer i = byName.get(column);
    if (i == null) {
      throw RowContract.missingColumn(spec, column, List.of(fields));
    }
    return i;
  }

  /** Output column names: key columns, window, window_start, window_end, the aggregates in spec order. */
  static List<String> outputNames(QuerySpec spec) {
    List<String> n = new ArrayList<>(spec.key());
    n.add("window");
    n.add("window_start");
    n.add("window_end");
    for (WindowSpec w : spec.windows()) {
      for (AggregateSpec a : w.aggregates()) {
        n.add(a.output());
      }
    }
    return n;
  }

  /**
   * The values of the used columns of an input row (a new array: the core keeps it), normalized by
   * {@link RowContract#normalize} to the types the core and the checkpoint codec take. The time
   * column is left as given (checked and parsed by {@link #check}).
   */
  Object[] values(Row in) {
    return values(in, new Object[usedIdx.length]);
  }

  /** {@link #values(Row)} into {@code row} (of the used columns' length), for a caller whose core keeps no row. */
  Object[] values(Row in, Object[] row) {
    boolean named = in.getFieldNames(false) != null;
    for (int i = 0; i < row.length; i++) {
      Object v = field(in, named, i);
      row[i] = i == timeSlot ? v : RowContract.normalize(v);
    }
    return row;
  }

  /**
   * The value of used column {@code slot} in an input row, as {@link #values} reads it
   * ({@code named}: the row's fields are named, {@code in.getFieldNames(false) != null}).
   */
  Object field(Row in, boolean named, int slot) {
    return named ? in.getField(fields[usedIdx[slot]]) : in.getField(usedIdx[slot]);
  }

  /**
   * The key columns' values of a Flink key: the key itself when the operator is keyed by the value
   * of its one key column ({@code valueKey}), else the fields of the key {@code Row}.
   */
  Object[] keyValues(Object key, boolean valueKey) {
    if (valueKey) {
      return new Object[] {key};
    }
    Object[] v = new Object[keyIdx.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = ((Row) key).getField(i);
    }
    return v;
  }

  /**
   * Why the row (used columns, from {@link #values}) is rejected ({@link RowContract}: a null key, a
   * null or unparsable time, a NaN an aggregate reads), or null; a good row's time becomes its epoch
   * ms in place (so rows hold no Instant).
   */
  String check(Object[] row) {
    String bad = RowContract.check(row, keySlots, spec.key(), timeSlot, spec.time(), valueSlots, used, timeOut);
    if (bad == null && timeSlot >= 0 && !(row[timeSlot] instanceof Long)) {
      row[timeSlot] = timeOut[0]; // a Long time is its own epoch ms: kept as it is (no new box per record)
    }
    return bad;
  }

  /** The time of a row that passed {@link #check} (epoch ms; 0 without a time column). */
  long time(Object[] row) {
    return timeSlot < 0 ? 0 : (Long) row[timeSlot];
  }

  /**
   * A result row of time group {@code group}'s window {@code window} with every column null: the row
   * {@link #fillTime} refills at each result of that window (it sets the same columns every time).
   */
  Row emptyRow() {
    return new Row(arity);
  }

  /** Sets the key columns, window, start, end and the window's aggregates (from the product's {@code results}) of {@code r}. */
  void fillTime(Row r, Object[] keyValues, int group, int window, long start, long end, List<Object> results) {
    fill(r, keyValues, timeNames[group][window], start, end, timePos[group][window], timeMembers[group][window], results);
  }

  /** {@link #fillTime} of a group of one function, given its one result (the product's list's only element). */
  void fillTimeOne(Row r, Object[] keyValues, int group, int window, long start, long end, Object result) {
    int[] pos = timePos[group][window];
    fillBounds(r, keyValues, timeNames[group][window], start, end);
    for (int j = 0; j < pos.length; j++) {
      setIfOther(r, pos[j], result);
    }
  }

  /**
   * The result {@link #fillTimeOne} left in {@code r}, the row of time group {@code group}'s window
   * {@code window} (or what a consumer put there: only a value equal to the next result to the bit
   * is used again), or null.
   */
  Object heldOne(Row r, int group, int window) {
    int[] pos = timePos[group][window];
    return pos.length == 0 ? null : r.getField(pos[0]);
  }

  /** {@link #fillTime} for count group {@code group}. */
  void fillCount(Row r, Object[] keyValues, int group, long start, long end, List<Object> results) {
    fill(r, keyValues, countNames[group], start, end, countPos[group], countMembers[group], results);
  }

  private static void fill(Row r, Object[] keyValues, String name, long start, long end, int[] pos, int[] members,
      List<Object> results) {
    fillBounds(r, keyValues, name, start, end);
    for (int j = 0; j < pos.length; j++) {
      r.setField(pos[j], results.get(members[j]));
    }
  }

  /**
   * Sets the key columns, window name, start and end of {@code r}. A column that already holds the
   * object to set is left as it is (a key's windows fire one after another into the window's row), and
   * a start equal to the row's current end takes that end's box (a window that starts where the
   * previous one of its row ended: tumbling windows, and sliding ones of window/slide 1): a
   * {@code Long} is immutable, so the row carries the same values as with a new box.
   */
  private static void fillBounds(Row r, Object[] keyValues, String name, long start, long end) {
    int k = keyValues.length;
    for (int i = 0; i < k; i++) {
      setIfOther(r, i, keyValues[i]);
    }
    setIfOther(r, k, name);
    Object previousEnd = r.getField(k + 2);
    r.setField(k + 1, previousEnd instanceof Long e && e == start ? previousEnd : Long.valueOf(start));
    r.setField(k + 2, end);
  }

  /** Sets field {@code i} of {@code r} to {@code v} unless it holds that very object already. */
  private static void setIfOther(Row r, int i, Object v) {
    if (r.getField(i) != v) {
      r.setField(i, v);
    }
  }
}

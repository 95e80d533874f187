package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.AggregateFunction;
import io.swag.core.Swag;
import io.swag.core.fifo.FifoBase;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.GroupPlan;
import io.swag.core.plan.ProductFunction;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.RowCodec;
import io.swag.core.plan.WindowSpec;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A count window of one key (docs/query-spec.md, "Count windows"): the last {@code size} records
 * in arrival order in a FIFO aggregator of the plan's in-order algorithm (O(1) per record with
 * DABA Lite), a row every {@code slide} records ({@code per_record}: every record) with
 * {@code window_start} = records before the window, {@code window_end} = the key's record count.
 * The window's rows are kept too, for checkpoints (a restore re-inserts them).
 */
final class CountWindows {
  /** The key-independent part: the product function of the group and the window. */
  static final class Group {
    final int index;
    final QuerySpec spec;
    final int queryWindow;
    final String algorithm;
    final ProductFunction fn;
    final WindowSpec w;
    final List<Integer> members;
    final boolean perRecord;

    Group(QuerySpec spec, GroupPlan plan, Layout layout, int index) {
      this.index = index;
      this.spec = spec;
      this.queryWindow = plan.windows().get(0);
      this.algorithm = plan.algorithm();
      if (!Swag.FIFO_ALGORITHMS.contains(algorithm)) {
        throw new SwagException(Kind.INVALID_QUERY, "count window: algorithm '" + algorithm + "' is not an in-order algorithm "
            + Swag.FIFO_ALGORITHMS);
      }
      this.w = spec.windows().get(plan.windows().get(0));
      this.members = plan.members().get(0);
      this.perRecord = spec.perRecord();
      List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
      int[] cols = new int[plan.product().size()];
      List<String> fields = layout.used;
      for (int j = 0; j < cols.length; j++) {
        Map<String, Object> p = plan.product().get(j);
        @SuppressWarnings("unchecked")
        Map<String, Object> opts = (Map<String, Object>) p.get("options");
        fns.add(new AggregateSpec("_", (String) p.get("function"), (String) p.get("column"), opts).create());
        Object c = p.get("column");
        cols[j] = c == null ? -1 : fields.indexOf((String) c);
      }
      this.fn = new ProductFunction(fns, cols);
    }

    CountWindows newKey() {
      return new CountWindows(this);
    }

    /** A key's FIFO aggregator of the plan's in-order algorithm. */
    FifoBase newFifo() {
      return Swag.fifo(algorithm, fn);
    }

    /** The read-back of what this group runs, from a FIFO made as each key's is ({@link ExecutedPlan}). */
    ExecutedPlan.Group executed() {
      return ExecutedPlan.Group.ofCount(spec, queryWindow, newFifo());
    }
  }

  private final Group g;
  private final FifoBase fifo;
  private final ArrayDeque<Object[]> rows = new ArrayDeque<>();
  private final ArrayDeque<Long> times = new ArrayDeque<>();
  private long count;

  private CountWindows(Group g) {
    this.g = g;
    this.fifo = g.newFifo();
  }

  /** Throws IllegalArgumentException (naming the value) if the row's inputs are refused. */
  void check(Object[] row, long t) {
    g.fn.lift(row, t);
  }

  void insert(long t, Object[] row, SwagWindowOperator op, Object[] keyValues) {
    add(t, row);
    if (g.perRecord || count % g.w.slide() == 0) {
      @SuppressWarnings("unchecked")
      List<Object> res = (List<Object>) fifo.query();
      List<Object> vals = new ArrayList<>(g.members.size());
      for (int m : g.members) {
        vals.add(res.get(m));
      }
      op.emitCount(keyValues, g.index, count - fifo.size(), count, vals, t);
    }
  }

  private void add(long t, Object[] row) {
    fifo.insertArg((Object) row, t);
    rows.addLast(row);
    times.addLast(t);
    count++;
    if (fifo.size() > g.w.size()) {
      fifo.evict();
      rows.pollFirst();
      times.pollFirst();
    }
  }

  int size() {
    return fifo.size();
  }

  /** Checkpoint: the record count, then the window's rows (time, RowCodec bytes), oldest first. */
  void write(DataOutputView out) throws IOException {
    out.writeLong(count);
    out.writeInt(rows.size());
    var ti = times.iterator();
    for (Object[] r : rows) {
      out.writeLong(ti.next());
      byte[] b = RowCodec.encode(r);
      out.writeInt(b.length);
      out.write(b);
    }
  }

  void read(DataInputView in) throws IOException {
    long c = in.readLong();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      long t = in.readLong();
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      add(t, RowCodec.decode(b).get(0));
    }
    count = c;
  }
}

package io.swag.spark;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.swag.core.plan.CountGroup;
import io.swag.core.plan.CountWindow;
import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.Plan;
import io.swag.core.plan.ProductFunction;
import io.swag.core.plan.QueryGroups;
import io.swag.core.plan.WindowGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The DataFrame entry point: {@link #aggregate(Dataset, String, String)} runs a swag query (the JSON
 * of {@code io.swag.core.plan.QuerySpec}) over a streaming or a static DataFrame, with the same
 * output schema ({@link Layout}) in both cases.
 *
 * <ul>
 *   <li>Streaming: {@code groupByKey(key columns).transformWithState(}{@link SwagProcessor}{@code ,
 *       EventTime, append|update)}; needs the RocksDB state store provider
 *       ({@link #ROCKSDB}) and a watermark on the time column (or the option
 *       {@code watermark_delay_ms}). A query of mergeable functions first combines each key's
 *       records per slice in every input partition ({@link SlicePreAggregator}, option
 *       {@code preaggregate}), so that slices, not records, go through the shuffle and the state.
 *   <li>Static (history back-fill): {@code groupBy(key).flatMapSortedGroups}: per key the rows
 *       sorted by time (or, pre-aggregated, the slices by start) go in with bulk inserts of
 *       {@link Backfill#CHUNK}, firing and evicting in between; no record is late.
 * </ul>
 * Late and rejected records are counted in the observed metrics {@code <metrics_name>} (columns
 * {@code late}, {@code rejected}, {@code windows}: {@code query.lastProgress.observedMetrics} when
 * streaming), and returned as rows if option {@code late = keep}.
 *
 * <p>What the tasks ran: each task reports once what it built to an accumulator of the query
 * ({@link PlanReports}); {@link #executedPlan(String)} reads it on the driver: the
 * operator's {@link ExecutedPlan} (per group the algorithm, arity, slicing and range-query windows
 * of the aggregators built) and, in its engine facts, whether the operator's input is pre-aggregated
 * ({@code preaggregate}) and the slice width the map side used ({@code preaggregate_slice_ms}).
 */
public final class SwagSpark {
  /** The class of Spark's RocksDB state store provider, which the streaming operator needs. */
  public static final String ROCKSDB =
      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
  /** The session configuration naming the state store provider. */
  public static final String PROVIDER_CONF = "spark.sql.streaming.stateStore.providerClass";
  private static final String WATERMARK_META = "spark.watermarkDelayMs";
  /** The grouping column of a query without key columns (the output has no key column). */
  private static final String GLOBAL_KEY = "swag_global_key";

  private SwagSpark() {}

  /** Per metrics name, the plan reports of the query last built with it (driver side). */
  private static final Map<String, PlanReports> REPORTS = new ConcurrentHashMap<>();

  /**
   * The read-back of what the tasks of the query last built with {@code metricsName} ran (JSON of
   * {@link ExecutedPlan}, with the engine facts {@code name}, {@code mode} (stream or batch),
   * {@code preaggregate} (the operator's input are slices combined before the shuffle) and
   * {@code preaggregate_slice_ms} (their width, 0 if none was made)); null if no task ran yet.
   *
   * @param metricsName the query's {@code metrics_name}
   * @return the read-back as JSON
   * @throws IllegalStateException if the tasks ran different plans
   */
  public static String executedPlan(String metricsName) {
    PlanReports r = REPORTS.get(metricsName);
    ExecutedPlan p = r == null ? null : r.executedPlan();
    return p == null ? null : p.toJson();
  }

  /** An operator task's report: the read-back of its groups' aggregators, in plan order. */
  static String operatorReport(QueryGroups groups, String mode, boolean preaggregated) {
    Map<String, Object> engine = new LinkedHashMap<>();
    engine.put("name", "spark");
    engine.put("mode", mode);
    engine.put("preaggregate", preaggregated);
    List<ExecutedPlan.Group> executed = new ArrayList<>();
    for (WindowGroup g : groups.time()) {
      executed.add(g.executed());
    }
    for (CountGroup c : groups.count()) {
      executed.add(c.executed());
    }
    return new ExecutedPlan(executed, engine).toJson();
  }

  /**
   * Runs {@code queryJson} (the JSON spec of docs/query-spec.md, or a plan's JSON: {@link Plan#of}) over
   * {@code df}, streaming or static;
   * {@code optionsJson}: see {@link SwagSparkOptions} ({@code "{}"} for the defaults). From Java or
   * Scala, with swag-core's and swag-spark's jars on the class path and the RocksDB state store
   * provider set ({@link #PROVIDER_CONF} = {@link #ROCKSDB}):
   *
   * <pre>{@code
   * Dataset<Row> trips = spark.readStream().schema(schema).csv(dir)
   *     .select(col("station"), to_timestamp(col("start")).as("start"), col("duration"))
   *     .withWatermark("start", "10 minutes");
   * Dataset<Row> windows = SwagSpark.aggregate(trips, queryJson, "{\"late\": \"keep\"}");
   * windows.writeStream().format("json").option("checkpointLocation", ck).start(out);
   * }</pre>
   *
   * A complete, tested program: {@code examples/spark-java} ({@code io.swag.examples.spark.SparkJavaExample}).
   *
   * @param df the input, streaming or static
   * @param queryJson the query spec or a plan, as JSON
   * @param optionsJson the options, as JSON
   * @return the result
   * @throws IllegalArgumentException a bad query or option, a missing column, a stream without a
   *     watermark on the time column (the message names the field and value)
   * @throws IllegalStateException the session lacks the RocksDB state store provider (streaming)
   */
  public static Dataset<Row> aggregate(Dataset<Row> df, String queryJson, String optionsJson) {
    SwagSparkOptions options = SwagSparkOptions.fromJson(optionsJson);
    Plan plan = Plan.of(queryJson);
    return aggregate(df, plan, options);
  }

  /**
   * Runs {@code plan} over {@code df}, streaming or static; see
   * {@link #aggregate(Dataset, String, String)}.
   *
   * @param df the input, streaming or static
   * @param plan the plan
   * @param options the options
   * @return the result
   */
  public static Dataset<Row> aggregate(Dataset<Row> df, Plan plan, SwagSparkOptions options) {
    String time = plan.spec().time();
    boolean eventTime = plan.groups().stream().anyMatch(g -> g.kind() == io.swag.core.plan.GroupKind.TIME);
    if (eventTime && df.isStreaming() && List.of(df.schema().fieldNames()).contains(time)) {
      df = prepareStream(df, time, options);
    }
    Layout layout = new Layout(plan, df.schema(), options.onError);
    Column[] cols = layout.columns.stream().map(SwagSpark::column).toArray(Column[]::new);
    Dataset<Row> input = df.select(cols);
    if (df.isStreaming() && layout.timeIdx >= 0) {
      input = stripWatermark(input, layout);
    }
    // grouping by columns (not groupByKey with a function): no per-row deserialization and key
    // serialization before the shuffle (AppendColumns), and the key is not shuffled twice
    Column[] keyCols = new Column[layout.keys];
    for (int i = 0; i < keyCols.length; i++) {
      keyCols[i] = column(layout.columns.get(i));
    }
    StructType keySchema = layout.keySchema;
    if (layout.keys == 0) { // one global key: Spark's grouping needs a clustering expression
      keyCols = new Column[] {lit(0).alias(GLOBAL_KEY)};
      keySchema = DataTypes.createStructType(List.of(DataTypes.createStructField(GLOBAL_KEY, DataTypes.IntegerType,
          false)));
    }
    boolean pre = preaggregates(plan, layout, options);
    PlanReports reports = new PlanReports();
    // unnamed: Spark's UI would keep a named accumulator's update of every task
    df.sparkSession().sparkContext().register(reports);
    REPORTS.put(options.metricsName, reports);
    if (pre) {
      if (layout.types[layout.timeIdx].equals(DataTypes.TimestampType)) { // epoch ms: no Timestamp object per record
        String t = layout.columns.get(layout.timeIdx);
        input = input.withColumn(t, functions.unix_millis(column(t)));
      }
      input = input.mapPartitions(new SlicePreAggregator(layout, options.finalOnly(), options.preaggregateSlots, reports),
          Encoders.row(layout.sliceSchema));
    }
    KeyValueGroupedDataset<Row, Row> grouped = input.groupBy(keyCols)
        .as(Encoders.row(keySchema), Encoders.row(pre ? layout.sliceSchema : layout.inputSchema));
    Dataset<Row> out;
    if (df.isStreaming()) {
      String provider = df.sparkSession().conf().get(PROVIDER_CONF, "");
      if (!ROCKSDB.equals(provider)) {
        throw new SwagFailure(Kind.SETUP, "swag on a streaming DataFrame needs the RocksDB state store: set "
            + PROVIDER_CONF + "=" + ROCKSDB + " (swag.spark.session() does), found '" + provider + "'");
      }
      LateEventsWatermark lateEvents = new LateEventsWatermark(
          new SerializableConfiguration(df.sparkSession().sessionState().newHadoopConf()));
      SwagProcessor p = new SwagProcessor(layout, UUID.randomUUID().toString(), options.finalOnly(),
          options.cacheMaxKeys, lateEvents, pre, reports);
      // count windows alone: no event time (they never wait for a watermark)
      out = grouped.transformWithState(p, eventTime ? TimeMode.EventTime() : TimeMode.None(),
          options.finalOnly() ? OutputMode.Append() : OutputMode.Update(), Encoders.row(layout.outputSchema));
    } else if (layout.timeIdx < 0) {
      out = grouped.flatMapGroups(new Backfill(layout, pre, reports), Encoders.row(layout.outputSchema));
    } else {
      // each key's rows sorted by time (the time column is a timestamp or epoch ms, Layout checks),
      // or its slices by slice start
      Column order = pre ? col(Layout.SLICE).asc() : column(layout.columns.get(layout.timeIdx)).asc();
      out = grouped.flatMapSortedGroups(new Column[] {order}, new Backfill(layout, pre, reports), Encoders.row(layout.outputSchema));
    }
    Column kind = col(Layout.KIND);
    Column records = col(Layout.COUNT);
    out = out.observe(options.metricsName,
        functions.coalesce(sum(when(kind.equalTo("late"), records).otherwise(0L)), lit(0L)).alias("late"),
        functions.coalesce(sum(when(kind.equalTo("rejected"), records).otherwise(0L)), lit(0L)).alias("rejected"),
        functions.coalesce(sum(when(kind.equalTo("window"), 1L).otherwise(0L)), lit(0L)).alias("windows"));
    out = out.drop(Layout.COUNT);
    if (!options.keepLate) {
      out = out.filter(kind.equalTo("window")).drop(Layout.KIND, Layout.RECORD, Layout.REASON);
    }
    return out;
  }

  /**
   * Whether a query (streaming or batch) pre-aggregates slices before the shuffle: option {@code preaggregate}
   * is {@code auto}, late records are counted (not kept), and the group
   * {@linkplain WindowGroup#preaggregates pre-aggregates} (the rule the Flink operator's stored slices follow too).
   */
  static boolean preaggregates(Plan plan, Layout layout, SwagSparkOptions options) {
    if (!options.preaggregate || options.keepLate || plan.spec().perRecord() || !layout.singleTimeGroup) {
      return false;
    }
    return layout.group(options.finalOnly(), true).preaggregates();
  }

  /** The top-level column named exactly {@code name} (dots, spaces and backticks taken literally). */
  static Column column(String name) {
    return col("`" + name.replace("`", "``") + "`");
  }

  /** A streaming input needs a watermark on the time column (added from the options if asked). */
  private static Dataset<Row> prepareStream(Dataset<Row> df, String time, SwagSparkOptions options) {
    StructField f = df.schema().apply(time);
    boolean hasWatermark = f.metadata().contains(WATERMARK_META);
    if (!hasWatermark) {
      if (options.watermarkDelayMs == null) {
        throw new SwagException(Kind.INVALID_INPUT, "the streaming input has no watermark on its time column '" + time
            + "': call df.withWatermark(\"" + time + "\", \"10 minutes\") first, or pass the option "
            + "watermark_delay_ms");
      }
      if (!f.dataType().equals(DataTypes.TimestampType)) {
        if (f.dataType().equals(DataTypes.LongType) || f.dataType().equals(DataTypes.IntegerType)) {
          df = df.withColumn(time, functions.timestamp_millis(column(time)));
        } else {
          throw new SwagException(Kind.INVALID_INPUT, "time column '" + time + "' has type " + f.dataType().simpleString()
              + "; expected a timestamp or an integer of epoch milliseconds");
        }
      }
      df = df.withWatermark(time, options.watermarkDelayMs + " milliseconds");
    }
    return df;
  }

  /**
   * Re-creates the time column without its watermark metadata: Spark's transformWithState would
   * otherwise drop late rows before the processor sees them (counted only as
   * {@code numRowsDroppedByWatermark}); swag wants them, to apply the allowed lateness and report
   * the rest. The watermark itself keeps advancing.
   */
  private static Dataset<Row> stripWatermark(Dataset<Row> input, Layout layout) {
    String time = layout.columns.get(layout.timeIdx);
    if (!input.schema().apply(time).metadata().contains(WATERMARK_META)) {
      return input;
    }
    Column t = functions.timestamp_millis(functions.unix_millis(column(time))).alias(time);
    Column[] cs = new Column[layout.columns.size()];
    for (int i = 0; i < cs.length; i++) {
      cs[i] = i == layout.timeIdx ? t : column(layout.columns.get(i));
    }
    return input.select(cs);
  }

  /**
   * Batch (history back-fill): per key, the rows in time order (a query without a time column: in
   * the order Spark delivers them) go in with bulk inserts of up to {@link #CHUNK} rows, each into
   * every group; after each chunk the windows that no later row can touch fire and the entries they
   * no longer need are bulk-evicted, and the output rows are handed out lazily. So a key's memory is
   * O(window + chunk), not O(history).
   */
  static final class Backfill implements FlatMapGroupsFunction<Row, Row, Row> {
    private static final long serialVersionUID = 1L;
    /** Rows per bulk insert when the rows arrive sorted by time. */
    static final int CHUNK = 4096;
    private final Layout layout;
    /** The rows are slices ({@link Layout#sliceSchema}) sorted by start, not records. */
    private final boolean slices;
    private final int chunk;
    /** Where each task reports the plan it executes (once, at its first key). */
    private final PlanReports reports;
    private transient QueryGroups groups;

    Backfill(Layout layout, boolean slices, PlanReports reports) {
      this(layout, slices, CHUNK, reports);
    }

    /** With a chunk size of its own (tests: chunk boundaries between equal slice starts). */
    Backfill(Layout layout, boolean slices, int chunk) {
      this(layout, slices, chunk, new PlanReports());
    }

    private Backfill(Layout layout, boolean slices, int chunk, PlanReports reports) {
      this.layout = layout;
      this.slices = slices;
      this.chunk = chunk;
      this.reports = reports;
    }

    @Override
    public java.util.Iterator<Row> call(Row key, java.util.Iterator<Row> rows) {
      if (groups == null) {
        groups = layout.groups(true, slices); // pre-aggregated: the slices come made, no slicing inside
        reports.add(operatorReport(groups, "batch", slices));
      }
      String badKey = layout.nullKey(key);
      if (badKey != null) { // (pre-aggregated: the map side passes such records as rejected rows)
        List<Row> out = new ArrayList<>();
        while (rows.hasNext()) {
          Row in = rows.next();
          out.add(slices ? rejectedSlice(key, in) : layout.recordRow(key, "rejected", in, badKey));
        }
        return out.iterator();
      }
      return new KeyRun(key, rows, chunk);
    }

    /** A record the map side rejected (its reason column is set), as an output row. */
    private Row rejectedSlice(Row key, Row in) {
      if (!layout.sliceRejected(in)) {
        throw new IllegalStateException("a slice of a key with a null key column: the map side rejects such records");
      }
      return layout.recordRow(key, "rejected", layout.sliceRecord(in), layout.sliceReason(in), layout.sliceCount(in));
    }

    /** One key's back-fill, a chunk of input at a time as its output is consumed. */
    private final class KeyRun extends RefillingIterator<Row> {
      private final Row key;
      private final java.util.Iterator<Row> rows;
      private final int chunk;
      private final KeyWindows[] time = new KeyWindows[groups.time().size()];
      private final KeyWindows.WindowOutput[] emit = new KeyWindows.WindowOutput[time.length];
      private final CountWindow[] count = new CountWindow[groups.count().size()];
      private final CountWindow.Output[] countEmit = new CountWindow.Output[count.length];
      private final boolean[] all = new boolean[time.length];
      private long[] ta = new long[16];
      private Object[] ok = new Object[16];

      KeyRun(Row key, java.util.Iterator<Row> rows, int chunk) {
        this.key = key;
        this.rows = rows;
        this.chunk = chunk;
        for (int g = 0; g < time.length; g++) {
          WindowGroup wg = groups.time().get(g);
          int gi = g;
          time[g] = wg.newKey(false);
          emit[g] = (w, s, e, r) -> out.add(layout.windowRow(key, gi, wg, w, s, e, r));
        }
        for (int c = 0; c < count.length; c++) {
          CountGroup cg = groups.count().get(c);
          int ci = c;
          count[c] = cg.newKey(false);
          countEmit[c] = (s, e, r) -> out.add(layout.countRow(key, ci, cg, s, e, r));
        }
        java.util.Arrays.fill(all, true); // sorted input: no record is late
      }

      /** Takes up to {@code chunk} rows: one bulk insert per group, then fires what no later row can touch. */
      @Override
      protected boolean refill() {
        int n = 0;
        long maxT = Long.MIN_VALUE;
        while (n < chunk && rows.hasNext()) {
          Row in = rows.next();
          if (slices) {
            if (layout.sliceRejected(in)) { // a record rejected on the map side
              out.add(rejectedSlice(key, in));
              continue;
            }
            n = add(n, layout.sliceStart(in), new ProductFunction.Lifted(layout.slicePartial(in)));
            maxT = Math.max(maxT, ta[n - 1]);
            continue;
          }
          Object[] row = layout.convertOrReject(key, in, out);
          if (row == null) {
            continue;
          }
          long t = layout.time(row);
          try {
            groups.check(row, t, all, -1);
          } catch (IllegalArgumentException e) {
            out.add(layout.recordRow(key, "rejected", in, e.getMessage()));
            continue;
          }
          maxT = Math.max(maxT, t);
          n = add(n, t, row);
          for (int c = 0; c < count.length; c++) {
            count[c].insert(t, row, countEmit[c]);
          }
        }
        // each row passed the groups' checks (a slice: the map side's); none is behind a fired
        // window (sorted input; a slice's records are at or after its start)
        for (int g = 0; g < time.length; g++) {
          time[g].insertCheckedBatch(ta, ok, n, time[g].firedWatermark(), emit[g]);
        }
        java.util.Arrays.fill(ok, 0, n, null);
        if (rows.hasNext()) {
          if (n > 0) {
            for (int g = 0; g < time.length; g++) {
              time[g].fire(maxT - 1, emit[g]); // later rows have times >= maxT
            }
          }
          return true;
        }
        for (int g = 0; g < time.length; g++) {
          time[g].fire(Long.MAX_VALUE, emit[g]);
        }
        return false;
      }

      private int add(int n, long t, Object value) {
        if (n == ta.length) {
          ta = java.util.Arrays.copyOf(ta, 2 * n);
          ok = java.util.Arrays.copyOf(ok, 2 * n);
        }
        ta[n] = t;
        ok[n] = value;
        return n + 1;
      }
    }
  }
}

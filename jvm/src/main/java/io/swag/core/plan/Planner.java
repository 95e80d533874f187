package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The planning rules, in one place (docs/query-spec.md "Plan"). O(windows × aggregates).
 *
 * <p>Groups: all time windows of the query share one aggregator per key (same key, same time);
 * each count window is its own group (an in-order aggregator of the key's last N records). In a
 * group, the distinct aggregates are packed into one {@link ProductFunction}; the largest window
 * bounds eviction and every window is answered by a range query {@code [start, end - 1]} of the
 * shared aggregator.
 *
 * <p>Algorithm of a time group:
 * <ul>
 *   <li>more than one time window: {@code bfiba<μ>} (range queries of different extents need a
 *       tree; FIFO aggregators only answer whole-window queries);
 *   <li>one window, order {@code in_order}: {@code daba_lite} (subtract-on-evict for cheap
 *       invertible functions was measured slower through the executor, docs/benchmarks.md);
 *   <li>one window, {@code unknown}: {@code adaptive} (DABA Lite until the first out-of-order
 *       record or query, then one O(n) bulk load into {@code bfiba<μ>});
 *   <li>one window, {@code out_of_order}: {@code bfiba<μ>}.
 * </ul>
 * Count windows: {@code soe} when every function is invertible and cheap (combine cost &lt;=
 * {@value #CHEAP}), else {@code daba_lite}.
 *
 * <p>Min arity μ by the combine cost c of the product (sum of the sub-functions' costs):
 * c &lt;= {@value #CHEAP}: 8; c &gt;= {@value #EXPENSIVE}: 2; else 4 (FiBA papers: cheap
 * combines favour wide nodes, expensive ones narrow nodes, which do fewer combines per repair).
 *
 * <p>Slicing (pre-aggregating records into slices of width g = gcd of the sizes, slides and
 * offsets, one tree entry per slice and key): used iff emit is {@code window_end} (per-record
 * windows end at each record, not on slice bounds), the group uses a tree, and
 * g &gt;= {@value #MIN_SLICE_MS} ms, or g &gt;= {@value #MIN_SLICE_MS_EXPENSIVE} ms for an expensive
 * product (combine cost &gt;= {@value #EXPENSIVE}). An expensive product with such a g is sliced in
 * a tree even under {@code in_order} / {@code unknown}: one combine per record into its slice beats
 * DABA Lite's insert and evict combines (measured in docs/benchmarks.md).
 */
public final class Planner {
  private Planner() {}

  /** Combine cost up to which a function counts as cheap. */
  public static final int CHEAP = 2;
  /** Combine cost from which a function counts as expensive (sketches, Bloom filters). */
  public static final int EXPENSIVE = 100;
  /**
   * Smallest slice width for which slicing is used. Measured (docs/benchmarks.md, PlannerSlicingBench,
   * 1 h window, sum/max): slicing cost 0.74-0.84x at slides of 0.1-1 s, gained 1.39x at 10 s and was
   * neutral (0.93-1.0x) at 1-10 min; so the threshold was raised from 1 s to 10 s.
   */
  public static final long MIN_SLICE_MS = 10_000;
  /**
   * Smallest slice width for which slicing is used when the product is expensive (combine cost
   * &gt;= {@value #EXPENSIVE}: Bloom filters, sketches), whatever the ordering hint. Measured
   * (docs/benchmarks.md, PlannerSlicingBench and PlannerOrderBench with bloom): a slice turns about
   * five expensive combines per record (insert and evict in DABA Lite or a tree) into about one (the
   * record's combine into its slice); slicing gained 3-9x at slides of 1 s to 10 min.
   */
  public static final long MIN_SLICE_MS_EXPENSIVE = 1_000;

  /**
   * The plan of a query: its windows grouped, and for each group the algorithm, slicing and state.
   *
   * @param spec the query
   * @return the plan
   */
  public static Plan plan(QuerySpec spec) {
    List<GroupPlan> groups = new ArrayList<>();
    List<Integer> time = new ArrayList<>();
    for (int i = 0; i < spec.windows().size(); i++) {
      if (spec.windows().get(i).isTime()) {
        time.add(i);
      }
    }
    if (!time.isEmpty()) {
      groups.add(group(spec, GroupKind.TIME, time));
    }
    for (int i = 0; i < spec.windows().size(); i++) {
      if (!spec.windows().get(i).isTime()) {
        groups.add(group(spec, GroupKind.COUNT, List.of(i)));
      }
    }
    return new Plan(spec, groups);
  }

  private static GroupPlan group(QuerySpec spec, GroupKind kind, List<Integer> windows) {
    Map<String, String> reasons = new LinkedHashMap<>();
    // product: the distinct aggregates of the group
    List<String> keys = new ArrayList<>();
    List<GroupPlan.Part> product = new ArrayList<>();
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    List<List<Integer>> members = new ArrayList<>();
    for (int w : windows) {
      List<Integer> idx = new ArrayList<>();
      for (AggregateSpec a : spec.windows().get(w).aggregates()) {
        String k = a.computationKey();
        int j = keys.indexOf(k);
        if (j < 0) {
          j = keys.size();
          keys.add(k);
          product.add(GroupPlan.Part.of(a));
          fns.add(a.create());
        }
        idx.add(j);
      }
      members.add(idx);
    }
    int cost = 0;
    boolean cheapInvertible = true;
    for (AggregateFunction<?, ?, ?> f : fns) {
      cost += f.combineCost();
      cheapInvertible &= f.isInvertible() && f.combineCost() <= CHEAP;
    }
    int arity = cost <= CHEAP ? 8 : cost >= EXPENSIVE ? 2 : 4;
    reasons.put("arity", "the product combine costs " + cost + " (sum over " + fns.size() + " function(s)); "
        + (arity == 8 ? "cheap (<= " + CHEAP + ") prefers wide nodes" : arity == 2 ? "expensive (>= " + EXPENSIVE
        + ", sketches/filters) prefers narrow nodes, fewer combines per repair" : "medium cost: middle arity"));
    Algorithm soeOrDaba = cheapInvertible ? Algorithm.SOE : Algorithm.DABA_LITE;
    String soeReason = cheapInvertible ? "every function is invertible and cheap: subtract-on-evict, 1 combine + 1"
        + " inverse per record (floating-point sums may drift by rounding)" : "DABA Lite: worst-case O(1) per"
        + " record for any associative function (" + (fns.stream().allMatch(AggregateFunction::isInvertible)
        ? "invertible but not cheap" : "not all functions invertible") + ")";
    Algorithm algorithm;
    long g = 0;
    boolean slicing = false;
    int largest = windows.get(0);
    for (int w : windows) {
      if (spec.windows().get(w).size() > spec.windows().get(largest).size()) {
        largest = w;
      }
    }
    List<Integer> range = new ArrayList<>();
    if (kind == GroupKind.COUNT) {
      algorithm = soeOrDaba;
      reasons.put("algorithm", "count window: the key's last " + spec.windows().get(windows.get(0)).size()
          + " records in arrival order, an in-order aggregator; " + soeReason);
      reasons.put("slicing", "count windows are not sliced");
      reasons.put("sharing", "a count window has its own aggregator per key (whole-window queries)");
    } else {
      for (int w : windows) {
        WindowSpec s = spec.windows().get(w);
        g = gcd(g, gcd(s.size(), gcd(s.slide(), s.offset())));
        if (w != largest) {
          range.add(w);
        }
      }
      boolean sliceExpensive = !spec.perRecord() && cost >= EXPENSIVE && g >= MIN_SLICE_MS_EXPENSIVE;
      if (windows.size() > 1) {
        algorithm = Algorithm.bulkTree(arity);
        reasons.put("algorithm", windows.size() + " time windows share one aggregator per key: range queries of"
            + " different extents need a tree (FiBA with bulk evict/insert); FIFO aggregators answer only"
            + " whole-window queries");
      } else if (sliceExpensive) {
        algorithm = Algorithm.bulkTree(arity);
        reasons.put("algorithm", "one window, an expensive product (combine cost " + cost + " >= " + EXPENSIVE
            + ") and gcd " + g + " ms >= " + MIN_SLICE_MS_EXPENSIVE + " ms: a sliced tree (FiBA with bulk"
            + " evict/insert), whatever the order: slicing saves more expensive combines than an in-order"
            + " algorithm would (a sliced aggregator replaces its youngest slice, which needs a tree)");
      } else if (spec.order().equals("in_order") || spec.time() == null) {
        algorithm = Algorithm.DABA_LITE;
        reasons.put("algorithm", (spec.time() == null ? "processing time (arrival order is time order)"
            : "order in_order") + ", one window: DABA Lite, worst-case O(1) per record for any associative"
            + " function (subtract-on-evict measured slower through the executor, also for cheap invertible"
            + " functions); a record that breaks the order switches the key to bfiba" + arity
            + " (as adaptive) instead of failing");
      } else if (spec.order().equals("unknown")) {
        algorithm = Algorithm.ADAPTIVE;
        reasons.put("algorithm", "order unknown, one window: start in order with DABA Lite (O(1)) and switch a"
            + " key to bfiba" + arity + " by one O(n) bulk insert at its first out-of-order record (or the first"
            + " query a FIFO cannot answer, e.g. a late update)");
      } else {
        algorithm = Algorithm.bulkTree(arity);
        reasons.put("algorithm", "order out_of_order: FiBA with bulk evict/insert, O(log d) per out-of-order"
            + " record at distance d");
      }
      boolean tree = algorithm.isTree();
      long minSlice = cost >= EXPENSIVE ? MIN_SLICE_MS_EXPENSIVE : MIN_SLICE_MS;
      slicing = !spec.perRecord() && tree && g >= minSlice;
      reasons.put("slicing", slicing ? "window_end emission, a tree, and gcd " + g + " ms >= " + minSlice
          + " ms" + (cost >= EXPENSIVE ? " (the threshold for an expensive product)" : "") + ": records are"
          + " pre-aggregated per key into slices [k*" + g + ", (k+1)*" + g + "), one tree entry per slice, so the"
          + " tree does one insert per slice instead of one per record"
          : "rule: slice iff emit is window_end, the group uses a tree and gcd >= " + MIN_SLICE_MS + " ms (>= "
          + MIN_SLICE_MS_EXPENSIVE + " ms for a product of combine cost >= " + EXPENSIVE + "); here "
          + (spec.perRecord() ? "emit is per_record (windows end at each record, not on slice bounds)"
          : !tree ? "the in-order algorithm is O(1) per record already" : "gcd " + g + " ms < " + minSlice
          + " ms (slices would hold few records)"));
      reasons.put("sharing", "the largest window (" + spec.windows().get(largest).name() + ", "
          + spec.windows().get(largest).size() + " ms) bounds eviction: entries older than the oldest window"
          + " still open (end - 1 + lateness > watermark) are bulk-evicted; "
          + (range.isEmpty() ? "it is the only window" : "the other windows are range queries over the same"
          + " aggregator") + "; all " + fns.size() + " distinct aggregate(s) are one product aggregate");
    }
    boolean stored = false;
    if (kind == GroupKind.TIME) {
      ProductFunction pf = new ProductFunction(fns);
      boolean commutative = pf.isCommutative();
      stored = !spec.perRecord() && g > 0 && pf.isMergeable();
      reasons.put("state", stored ? "window_end emission and every function mergeable (commutative, partials with a"
          + " byte form): engines that keep state combine each key's records into slices of gcd " + g + " ms as they"
          + " arrive and keep one partial per slice in state and on the heap, O(window / " + g + " ms) per key like"
          + " the engines' own sliding windows, whatever the record rate; a checkpoint writes the slices touched"
          + " since the last one"
          : (spec.perRecord() ? "emit is per_record (windows end at each record, not on slice bounds)"
          : !commutative ? "a function is order-sensitive (its partials cannot be combined in any order)"
          : "a function's partials have no byte form to store") + ": engines that keep state keep the records (in"
          + " chunks, each removed once evicted), O(records in the window) per key");
    }
    return new GroupPlan(kind, windows, algorithm, arity, g, slicing, stored, product, members, largest, range,
        reasons);
  }

  static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return Math.abs(a);
  }
}

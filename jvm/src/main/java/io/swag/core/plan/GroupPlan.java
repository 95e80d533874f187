package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The plan of one group of windows that share one aggregator per key: all time windows of a query
 * (same key, same time), or one count window. Immutable value, part of a {@link Plan}.
 *
 * <ul>
 *   <li>{@code kind}: {@link GroupKind#TIME} or {@link GroupKind#COUNT};
 *   <li>{@code algorithm} ({@link Algorithm}): {@code daba_lite}, {@code soe}, {@code adaptive}
 *       (DABA Lite, switching to {@code bfiba<minArity>} by one bulk insert at the first
 *       out-of-order record) or {@code bfiba2/4/8};
 *   <li>{@code minArity}: the B-tree arity of {@code bfiba} and of the fallback tree of the
 *       in-order algorithms (an in-order promise broken by the data switches to it too);
 *   <li>{@code sliceMs} (gcd of sizes, slides and offsets; 0 for count windows) and {@code slicing}
 *       (the in-memory aggregator slices: {@link SlicedAggregator});
 *   <li>{@code storedSlices}: whether engines that keep state (the Flink operator and
 *       {@code swag_window}, the Spark operator and its pre-aggregation) combine each key's records
 *       per slice as they arrive and keep slices, not records, in state and on the heap
 *       ({@link StoredWindows}); else they keep the records;
 *   <li>{@code product}: the distinct aggregates of the group packed into one product function,
 *       each a {@link Part} ({@code {function, column, options}} in JSON); {@code members}: per window of the group, the
 *       product index of each of its aggregates;
 *   <li>{@code evictionWindow} (bounds eviction, the largest) and {@code rangeQueryWindows};
 *   <li>{@code reasons}: why each choice was made (keys algorithm, arity, slicing, state, sharing).
 * </ul>
 *
 * <p>JSON ({@link Plan#toJson}): {@code kind} {@code "time"}/{@code "count"} and {@code algorithm}
 * the {@linkplain Algorithm#id() canonical name}; reading a plan also accepts an algorithm's aliases.
 */
public final class GroupPlan {
  /**
   * One aggregate of the group's product: {@code function}({@code column}) with {@code options}
   * ({@code column} null: the count of records). Options keep their order (sorted by name, as in
   * {@link AggregateSpec}).
   */
  public record Part(String function, String column, Map<String, Object> options) {
    /**
     * Copies {@code options} into an unmodifiable map in the same order.
     *
     * @param function the function name
     * @param column the input column, or null for the count of records
     * @param options the function options, or null for none
     */
    public Part {
      options = Collections.unmodifiableMap(new LinkedHashMap<>(options == null ? Map.of() : options));
    }

    /**
     * The part of an aggregate (its function, column and options; not its output name).
     *
     * @param a the aggregate
     * @return the part
     */
    public static Part of(AggregateSpec a) {
      return new Part(a.function(), a.column(), a.options());
    }

    /**
     * A new instance of the function ({@link AggregateSpec#create}).
     *
     * @return a new function
     */
    public AggregateFunction<?, ?, ?> create() {
      return new AggregateSpec("_", function, column, options).create();
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("function", function);
      m.put("column", column);
      m.put("options", new LinkedHashMap<>(options));
      return m;
    }

    @SuppressWarnings("unchecked")
    static Part fromMap(Map<String, Object> m) {
      return new Part((String) Objects.requireNonNull(m.get("function"), "function"), (String) m.get("column"),
          (Map<String, Object>) m.get("options"));
    }
  }

  private final GroupKind kind;
  private final List<Integer> windows;
  private final Algorithm algorithm;
  private final int minArity;
  private final long sliceMs;
  private final boolean slicing;
  private final boolean storedSlices;
  private final List<Part> product;
  private final List<List<Integer>> members;
  private final int evictionWindow;
  private final List<Integer> rangeQueryWindows;
  private final Map<String, String> reasons;

  /**
   * A group as the planner builds it or a plan's JSON reads it (see the class comment for the fields).
   *
   * @param kind time or count
   * @param windows the query's indices of the group's windows
   * @param algorithm the algorithm
   * @param minArity the B-tree min arity
   * @param sliceMs the slice width, 0 for count windows
   * @param slicing whether the aggregator slices
   * @param storedSlices whether stateful engines store slices
   * @param product the product's parts
   * @param members per window, the product index of each aggregate
   * @param evictionWindow the window that bounds eviction
   * @param rangeQueryWindows the windows answered by range queries
   * @param reasons why each choice was made
   */
  public GroupPlan(GroupKind kind, List<Integer> windows, Algorithm algorithm, int minArity, long sliceMs,
      boolean slicing, boolean storedSlices, List<Part> product, List<List<Integer>> members, int evictionWindow,
      List<Integer> rangeQueryWindows, Map<String, String> reasons) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.windows = List.copyOf(windows);
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    this.minArity = minArity;
    this.sliceMs = sliceMs;
    this.slicing = slicing;
    if (storedSlices && (sliceMs <= 0 || kind != GroupKind.TIME)) {
      throw new SwagException(Kind.INVALID_QUERY, "stored slices need a time group with a slice width > 0");
    }
    this.storedSlices = storedSlices;
    this.product = List.copyOf(product);
    List<List<Integer>> mm = new ArrayList<>();
    for (List<Integer> l : members) {
      mm.add(List.copyOf(l));
    }
    this.members = List.copyOf(mm);
    this.evictionWindow = evictionWindow;
    this.rangeQueryWindows = List.copyOf(rangeQueryWindows);
    this.reasons = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
  }

  /**
   * Time or count.
   *
   * @return the kind
   */
  public GroupKind kind() {
    return kind;
  }

  /**
   * Indices of the group's windows in {@link QuerySpec#windows()}.
   *
   * @return the window indices
   */
  public List<Integer> windows() {
    return windows;
  }

  /**
   * The algorithm.
   *
   * @return the algorithm
   */
  public Algorithm algorithm() {
    return algorithm;
  }

  /**
   * The B-tree min arity.
   *
   * @return 2, 4 or 8
   */
  public int minArity() {
    return minArity;
  }

  /**
   * The B-tree used as fallback of the in-order algorithms: {@code bfiba<minArity>}.
   *
   * @return the tree algorithm
   */
  public Algorithm treeAlgorithm() {
    return Algorithm.bulkTree(minArity);
  }

  /**
   * Whether the algorithm is a tree.
   *
   * @return true for a tree
   */
  public boolean isTree() {
    return algorithm.isTree();
  }

  /**
   * The slice width: the gcd of sizes, slides and offsets.
   *
   * @return the width in ms, 0 for count windows
   */
  public long sliceMs() {
    return sliceMs;
  }

  /**
   * Whether the in-memory aggregator slices ({@link SlicedAggregator}).
   *
   * @return true if it slices
   */
  public boolean slicing() {
    return slicing;
  }

  /**
   * Whether engines that keep state store this group's slices (one partial per key and slice) rather
   * than its records: the planner's one rule ({@link Planner}), read by every engine.
   *
   * @return true if stateful engines store slices
   */
  public boolean storedSlices() {
    return storedSlices;
  }

  /**
   * The distinct aggregates of the group, as one product.
   *
   * @return the parts
   */
  public List<Part> product() {
    return product;
  }

  /**
   * Per window of the group, the product index of each of its aggregates.
   *
   * @return the indices
   */
  public List<List<Integer>> members() {
    return members;
  }

  /**
   * The window that bounds eviction (the largest).
   *
   * @return its index in the group
   */
  public int evictionWindow() {
    return evictionWindow;
  }

  /**
   * The windows answered by range queries.
   *
   * @return their indices in the group
   */
  public List<Integer> rangeQueryWindows() {
    return rangeQueryWindows;
  }

  /**
   * Why each choice was made, by choice.
   *
   * @return the reasons
   */
  public Map<String, String> reasons() {
    return reasons;
  }

  /**
   * {@link #withAlgorithm(Algorithm, int)} by name ({@link Algorithm#parse(String)}).
   *
   * @param algorithm the algorithm's name
   * @param minArity the B-tree min arity
   * @return the copy
   */
  public GroupPlan withAlgorithm(String algorithm, int minArity) {
    return withAlgorithm(Algorithm.parse(algorithm), minArity);
  }

  /**
   * A copy with another algorithm (and arity), e.g. to compare algorithms in tests or benchmarks.
   *
   * @param algorithm the algorithm
   * @param minArity the B-tree min arity
   * @return the copy
   */
  public GroupPlan withAlgorithm(Algorithm algorithm, int minArity) {
    return new GroupPlan(kind, windows, algorithm, minArity, sliceMs, slicing, storedSlices, product, members,
        evictionWindow, rangeQueryWindows, with("algorithm", "set explicitly to " + algorithm + " (arity " + minArity + ")"));
  }

  /**
   * A copy with slicing switched on or off (slices of {@link #sliceMs()}).
   *
   * @param on whether to slice
   * @return the copy
   */
  public GroupPlan withSlicing(boolean on) {
    if (on && sliceMs <= 0) {
      throw new SwagException(Kind.INVALID_QUERY, "slicing needs a slice width > 0 (count windows have none)");
    }
    return new GroupPlan(kind, windows, algorithm, minArity, sliceMs, on, storedSlices, product, members,
        evictionWindow, rangeQueryWindows, with("slicing", "set explicitly " + (on ? "on" : "off")));
  }

  /**
   * A copy with stored slices switched on or off (tests, benchmarks: the records kept instead).
   *
   * @param on whether to store slices
   * @return the copy
   */
  public GroupPlan withStoredSlices(boolean on) {
    return new GroupPlan(kind, windows, algorithm, minArity, sliceMs, slicing, on, product, members,
        evictionWindow, rangeQueryWindows, with("state", "set explicitly to " + (on ? "slices" : "records")));
  }

  private Map<String, String> with(String k, String v) {
    Map<String, String> r = new LinkedHashMap<>(reasons);
    r.put(k, v);
    return r;
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", kind.json());
    m.put("windows", new ArrayList<Object>(windows));
    m.put("algorithm", algorithm.id());
    m.put("min_arity", (long) minArity);
    m.put("slice_ms", sliceMs);
    m.put("slicing", slicing);
    m.put("stored_slices", storedSlices);
    List<Object> parts = new ArrayList<>();
    for (Part p : product) {
      parts.add(p.toMap());
    }
    m.put("product", parts);
    m.put("members", new ArrayList<Object>(members));
    m.put("eviction_window", (long) evictionWindow);
    m.put("range_query_windows", new ArrayList<Object>(rangeQueryWindows));
    m.put("reasons", new LinkedHashMap<>(reasons));
    return m;
  }

  @SuppressWarnings("unchecked")
  static GroupPlan fromMap(String path, Map<String, Object> m) {
    try {
      List<List<Integer>> members = new ArrayList<>();
      for (Object o : (List<Object>) m.get("members")) {
        members.add(ints((List<Object>) o));
      }
      List<Part> product = new ArrayList<>();
      for (Object o : (List<Object>) m.get("product")) {
        product.add(Part.fromMap((Map<String, Object>) o));
      }
      Map<String, String> reasons = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : ((Map<String, Object>) m.get("reasons")).entrySet()) {
        reasons.put(e.getKey(), String.valueOf(e.getValue()));
      }
      Algorithm algorithm;
      try {
        algorithm = Algorithm.parse((String) m.get("algorithm"));
      } catch (IllegalArgumentException e) {
        throw new SwagException(Kind.UNKNOWN_ALGORITHM, path + ".algorithm: " + SwagException.text(e), e);
      }
      return new GroupPlan(GroupKind.parse(path + ".kind", m.get("kind")),
          ints((List<Object>) m.get("windows")), algorithm,
          ((Number) m.get("min_arity")).intValue(), ((Number) m.get("slice_ms")).longValue(),
          (Boolean) m.get("slicing"), Boolean.TRUE.equals(m.get("stored_slices")), product, members, ((Number) m.get("eviction_window")).intValue(),
          ints((List<Object>) m.get("range_query_windows")), reasons);
    } catch (ClassCastException | NullPointerException e) {
      throw new SwagException(Kind.INVALID_QUERY, path + ": malformed group plan: " + Json.write(m), e);
    }
  }

  private static List<Integer> ints(List<Object> l) {
    List<Integer> r = new ArrayList<>();
    for (Object o : l) {
      r.add(((Number) o).intValue());
    }
    return r;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupPlan g && Json.write(toMap()).equals(Json.write(g.toMap()));
  }

  @Override
  public int hashCode() {
    return Json.write(toMap()).hashCode();
  }
}

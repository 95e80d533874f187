package io.swag.core.plan;

import io.swag.core.TimedAggregator;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.TimedFifo;
import io.swag.core.ooo.ClassicBTree;
import io.swag.core.ooo.FingerBTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an operator executes, read back from the aggregators it built: per group the algorithm of
 * the aggregator actually constructed, its B-tree arity, whether it slices and with which width, and
 * how the group's windows share it (the window that bounds eviction, the windows answered by range
 * queries). Engines expose it once per operator (a Flink metric and log line, a Spark accumulator,
 * {@link LocalExecutor#executedPlan()}) so that a test can check it against the {@link Plan} the
 * planner made: a planner rule that stops applying inside an engine then shows up as a difference.
 *
 * <p>Invariant: no field is copied from a {@link GroupPlan}. Each is read from a constructed
 * object: the aggregator (its class, its own {@link TimedAggregator#algorithm() name}, a tree's
 * {@link FingerBTree#minArity() MIN_ARITY}, a {@link SlicedAggregator}'s width, an
 * {@link AdaptiveAggregator}'s FIFO and tree) or the {@link WindowGroup}'s windows. A group's read-back
 * is made from an aggregator built by {@link WindowGroup#newAggregator()}, the factory every key's
 * {@link KeyWindows} uses ({@link WindowGroup#executed()}), or from a key's own aggregator
 * ({@link KeyWindows#executed()}).
 *
 * <p>Names of the JSON form ({@link #toJson}), per group: {@code kind}, {@code windows} (query
 * indices), {@code window_names}, {@code aggregator} (the top-level aggregator's description),
 * {@code algorithm} (the structure holding the entries now: a FIFO algorithm or a tree),
 * {@code structure} (its Java class), {@code adaptive} (an in-order aggregator that switches to
 * {@code tree} at the first out-of-order record), {@code switched}, {@code tree} (the tree in use or
 * the fallback; null for count windows), {@code min_arity} (the tree's; 0 without one),
 * {@code slicing}, {@code slice_ms}, {@code eviction_window}, {@code range_query_windows}; and
 * {@code engine}: engine-specific facts (e.g. Spark's pre-aggregation before the shuffle).
 */
public final class ExecutedPlan {
  /** One group's read-back (see the class comment for the fields). */
  public record Group(GroupKind kind, List<Integer> windows, List<String> windowNames, String aggregator,
      String algorithm, String structure, boolean adaptive, boolean switched, String tree, int minArity,
      boolean slicing, long sliceMs, int evictionWindow, List<Integer> rangeQueryWindows) {
    /**
     * Copies the lists into unmodifiable ones.
     *
     * @param kind time or count
     * @param windows the query's indices of the group's windows
     * @param windowNames the windows' names
     * @param aggregator the top-level aggregator's description
     * @param algorithm the algorithm of the structure holding the entries now
     * @param structure that structure's Java class
     * @param adaptive whether the aggregator switches to {@code tree} at the first out-of-order record
     * @param switched whether it has switched
     * @param tree the tree in use or the fallback; null for count windows
     * @param minArity the tree's min arity; 0 without one
     * @param slicing whether the aggregator slices
     * @param sliceMs the slice width in ms
     * @param evictionWindow the window that bounds eviction
     * @param rangeQueryWindows the windows answered by range queries
     */
    public Group {
      windows = List.copyOf(windows);
      windowNames = List.copyOf(windowNames);
      rangeQueryWindows = List.copyOf(rangeQueryWindows);
    }

    /**
     * The read-back of a time-window group from an aggregator {@code built} for it: unwraps a
     * {@link SlicedAggregator} (slicing, width), an {@link AdaptiveAggregator} (its FIFO, or its tree
     * once switched, and the tree it switches to) and a {@link TimedFifo}; a B-tree gives its arity.
     *
     * @param g the group
     * @param built an aggregator made for it
     * @return the read-back
     */
    public static Group ofTime(WindowGroup g, TimedAggregator built) {
      TimedAggregator a = built;
      boolean slicing = false;
      long sliceMs = 0;
      if (a instanceof SlicedAggregator s) {
        slicing = true;
        sliceMs = s.width();
        a = s.inner();
      } else if (g.storesSlices()) { // the key combines records into slices before its aggregator
        slicing = true;
        sliceMs = g.plan().sliceMs();
      }
      boolean adaptive = false;
      boolean switched = false;
      TimedAggregator tree = null;
      String algorithm = a.algorithm();
      Object structure = a instanceof TimedFifo f ? f.inner() : a;
      if (a instanceof AdaptiveAggregator ad) {
        adaptive = true;
        tree = ad.tree();
        switched = ad.fifo() == null;
        algorithm = switched ? tree.algorithm() : ad.fifo().algorithm();
        structure = switched ? tree : ad.fifo();
      } else if (minArityOf(a) > 0) {
        tree = a;
      }
      List<Integer> windows = new ArrayList<>();
      List<String> names = new ArrayList<>();
      int largest = 0;
      for (int i = 0; i < g.windowCount(); i++) {
        windows.add(g.queryWindowIndex(i));
        names.add(g.window(i).name());
        if (g.window(i).size() > g.window(largest).size()) {
          largest = i;
        }
      }
      List<Integer> range = new ArrayList<>();
      for (int i = 0; i < windows.size(); i++) {
        if (i != largest) {
          range.add(windows.get(i));
        }
      }
      return new Group(GroupKind.TIME, windows, names, built.algorithm(), algorithm, structure.getClass().getSimpleName(),
          adaptive, switched, tree == null ? null : tree.algorithm(), tree == null ? 0 : minArityOf(tree), slicing,
          sliceMs, windows.get(largest), range);
    }

    /**
     * The read-back of a count-window group (window {@code queryWindow} of {@code spec}) from the FIFO
     * built for a key.
     *
     * @param spec the query
     * @param queryWindow the window's index in the query
     * @param built the FIFO built for a key
     * @return the read-back
     */
    public static Group ofCount(QuerySpec spec, int queryWindow, FifoBase built) {
      return new Group(GroupKind.COUNT, List.of(queryWindow), List.of(spec.windows().get(queryWindow).name()),
          built.algorithm(), built.algorithm(), built.getClass().getSimpleName(), false, false, null, 0, false, 0,
          queryWindow, List.of());
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", kind.json());
      m.put("windows", new ArrayList<Object>(windows));
      m.put("window_names", new ArrayList<Object>(windowNames));
      m.put("aggregator", aggregator);
      m.put("algorithm", algorithm);
      m.put("structure", structure);
      m.put("adaptive", adaptive);
      m.put("switched", switched);
      m.put("tree", tree);
      m.put("min_arity", (long) minArity);
      m.put("slicing", slicing);
      m.put("slice_ms", sliceMs);
      m.put("eviction_window", (long) evictionWindow);
      m.put("range_query_windows", new ArrayList<Object>(rangeQueryWindows));
      return m;
    }

    @SuppressWarnings("unchecked")
    static Group fromMap(Map<String, Object> m) {
      try {
        return new Group(GroupKind.parse("executed plan: kind", m.get("kind")), ints((List<Object>) m.get("windows")),
            strings((List<Object>) m.get("window_names")), (String) m.get("aggregator"), (String) m.get("algorithm"),
            (String) m.get("structure"), (Boolean) m.get("adaptive"), (Boolean) m.get("switched"),
            (String) m.get("tree"), ((Number) m.get("min_arity")).intValue(), (Boolean) m.get("slicing"),
            ((Number) m.get("slice_ms")).longValue(), ((Number) m.get("eviction_window")).intValue(),
            ints((List<Object>) m.get("range_query_windows")));
      } catch (ClassCastException | NullPointerException e) {
        throw new IllegalArgumentException("executed plan: malformed group " + Json.write(m), e);
      }
    }

    /** One line: {@code bfiba8 (BulkFingerBTree, min arity 8), sliced 10000 ms; eviction bounded by b; range queries: a}. */
    String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append(algorithm).append(" (").append(structure);
      if (adaptive) {
        sb.append(switched ? ", switched to the tree" : ", switches to " + tree + " when out of order");
      }
      if (minArity > 0) {
        sb.append(", min arity ").append(minArity);
      }
      sb.append(")").append(slicing ? ", sliced " + sliceMs + " ms" : ", not sliced");
      if (kind == GroupKind.TIME) {
        sb.append("; eviction bounded by ").append(windowNames.get(windows.indexOf(evictionWindow)))
            .append("; range queries: ");
        List<String> rq = new ArrayList<>();
        for (int w : rangeQueryWindows) {
          rq.add(windowNames.get(windows.indexOf(w)));
        }
        sb.append(rq.isEmpty() ? "none" : String.join(", ", rq));
      }
      return sb.toString();
    }
  }

  private final List<Group> groups;
  private final Map<String, Object> engine;

  /**
   * A read-back.
   *
   * @param groups the groups' read-backs
   * @param engine engine-specific facts
   */
  public ExecutedPlan(List<Group> groups, Map<String, Object> engine) {
    this.groups = List.copyOf(groups);
    this.engine = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(engine));
  }

  /**
   * A read-back without engine facts.
   *
   * @param groups the groups' read-backs
   */
  public ExecutedPlan(List<Group> groups) {
    this(groups, Map.of());
  }

  /**
   * The groups' read-backs, in plan order.
   *
   * @return the groups
   */
  public List<Group> groups() {
    return groups;
  }

  /**
   * Engine-specific facts (JSON values), empty if none.
   *
   * @return the engine facts
   */
  public Map<String, Object> engine() {
    return engine;
  }

  /**
   * A copy with one more engine fact.
   *
   * @param name the fact's name
   * @param value the fact, a JSON value
   * @return the copy
   */
  public ExecutedPlan withEngine(String name, Object value) {
    Map<String, Object> e = new LinkedHashMap<>(engine);
    e.put(name, value);
    return new ExecutedPlan(groups, e);
  }

  /**
   * The read-back as JSON.
   *
   * @return the JSON text
   */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("version", 1L);
    List<Object> g = new ArrayList<>();
    for (Group x : groups) {
      g.add(x.toMap());
    }
    m.put("groups", g);
    m.put("engine", new LinkedHashMap<>(engine));
    return Json.write(m);
  }

  /**
   * Reads the JSON of {@link #toJson}.
   *
   * @param json the JSON text
   * @return the read-back
   */
  @SuppressWarnings("unchecked")
  public static ExecutedPlan fromJson(String json) {
    Object v = Json.parse(json);
    if (!(v instanceof Map<?, ?> m) || !(m.get("groups") instanceof List<?> gl) || !(m.get("engine") instanceof Map<?, ?> e)) {
      throw new IllegalArgumentException("executed plan: expected an object with 'groups' and 'engine', got " + json);
    }
    List<Group> groups = new ArrayList<>();
    for (Object o : gl) {
      if (!(o instanceof Map)) {
        throw new IllegalArgumentException("executed plan: a group is not an object: " + json);
      }
      groups.add(Group.fromMap((Map<String, Object>) o));
    }
    return new ExecutedPlan(groups, (Map<String, Object>) e);
  }

  /**
   * The read-back as text, one line per group (for a log line).
   *
   * @return the text
   */
  public String describe() {
    StringBuilder sb = new StringBuilder("executed plan (read back from the built aggregators):");
    for (int i = 0; i < groups.size(); i++) {
      Group g = groups.get(i);
      sb.append("\n  group ").append(i).append(" (").append(g.kind()).append(" windows: ")
          .append(String.join(", ", g.windowNames())).append("): ").append(g.describe());
    }
    if (!engine.isEmpty()) {
      sb.append("\n  engine: ").append(Json.write(engine));
    }
    return sb.toString();
  }

  /** MIN_ARITY of a B-tree aggregator, 0 for any other. */
  static int minArityOf(TimedAggregator a) {
    if (a instanceof FingerBTree f) {
      return f.minArity();
    }
    if (a instanceof ClassicBTree c) {
      return c.minArity();
    }
    return 0;
  }

  private static List<Integer> ints(List<Object> l) {
    List<Integer> r = new ArrayList<>();
    for (Object o : l) {
      r.add(((Number) o).intValue());
    }
    return r;
  }

  private static List<String> strings(List<Object> l) {
    List<String> r = new ArrayList<>();
    for (Object o : l) {
      r.add((String) o);
    }
    return r;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExecutedPlan p && toJson().equals(p.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return describe();
  }
}

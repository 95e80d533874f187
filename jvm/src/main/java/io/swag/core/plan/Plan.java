package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output of {@link Planner#plan}: the spec and one {@link GroupPlan} per group of windows that
 * share an aggregator. Small, immutable and JSON-serializable ({@link #toJson}/{@link #fromJson}
 * round-trip exactly), so an engine operator, or {@link LocalExecutor}, executes it as planned.
 */
public final class Plan {
  private final QuerySpec spec;
  private final List<GroupPlan> groups;

  /**
   * A plan.
   *
   * @param spec the query
   * @param groups the groups, in plan order
   */
  public Plan(QuerySpec spec, List<GroupPlan> groups) {
    this.spec = spec;
    this.groups = List.copyOf(groups);
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
   * The groups, in plan order.
   *
   * @return the groups
   */
  public List<GroupPlan> groups() {
    return groups;
  }

  /**
   * A copy with group {@code i} replaced (see {@link GroupPlan#withAlgorithm},
   * {@link GroupPlan#withSlicing}).
   *
   * @param i the group's index
   * @param g the new group
   * @return the copy
   */
  public Plan withGroup(int i, GroupPlan g) {
    List<GroupPlan> l = new ArrayList<>(groups);
    l.set(i, g);
    return new Plan(spec, l);
  }

  /**
   * The plan as JSON: an object with {@code spec} and {@code groups}.
   *
   * @return the JSON text
   */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("version", 1L);
    m.put("spec", spec.toMap());
    List<Object> g = new ArrayList<>();
    for (GroupPlan p : groups) {
      g.add(p.toMap());
    }
    m.put("groups", g);
    return Json.write(m);
  }

  /**
   * The plan of {@code json}: a plan ({@link #toJson}: an object with {@code spec} and
   * {@code groups}, e.g. one with several time groups) as it is, or a query spec, planned by the
   * {@link Planner}. The one rule the engines' entry points take either by.
   *
   * @param json a plan's or a query spec's JSON text
   * @return the plan
   */
  @SuppressWarnings("unchecked")
  public static Plan of(String json) {
    Object v = Json.parse(json);
    if (v instanceof Map<?, ?> m && m.containsKey("groups") && m.containsKey("spec")) {
      return fromJson(json);
    }
    return Planner.plan(QuerySpec.fromJson(json));
  }

  /**
   * Reads the JSON of {@link #toJson}.
   *
   * @param json the JSON text
   * @return the plan
   */
  public static Plan fromJson(String json) {
    Object v = Json.parse(json);
    if (!(v instanceof Map<?, ?> m) || !(m.get("groups") instanceof List<?> gl)) {
      throw new SwagException(Kind.INVALID_QUERY, "plan: expected an object with 'spec' and 'groups'");
    }
    QuerySpec spec = QuerySpec.fromMap(m.get("spec"));
    List<GroupPlan> groups = new ArrayList<>();
    for (int i = 0; i < gl.size(); i++) {
      if (!(gl.get(i) instanceof Map)) {
        throw new SwagException(Kind.INVALID_QUERY, "groups[" + i + "]: expected an object");
      }
      @SuppressWarnings("unchecked") // a JSON object (Json.parse) is a Map<String, Object>
      Map<String, Object> g = (Map<String, Object>) gl.get(i);
      groups.add(GroupPlan.fromMap("groups[" + i + "]", g));
    }
    return new Plan(spec, groups);
  }

  /**
   * The plan as text: per group the windows, the choices and the reason for each.
   *
   * @return the text
   */
  public String explain() {
    StringBuilder sb = new StringBuilder();
    sb.append("query: key ").append(spec.key().isEmpty() ? "(none: one global key)" : spec.key())
        .append(", time ").append(spec.time() == null ? "(processing time: arrival order)" : spec.time())
        .append(", order ").append(spec.order()).append(", emit ").append(spec.emit())
        .append(", lateness ").append(spec.latenessMs()).append(" ms\n");
    for (int gi = 0; gi < groups.size(); gi++) {
      GroupPlan g = groups.get(gi);
      sb.append("group ").append(gi).append(" (").append(g.kind()).append(" windows: ");
      List<String> names = new ArrayList<>();
      for (int w : g.windows()) {
        names.add(spec.windows().get(w).name());
      }
      sb.append(String.join(", ", names)).append("): one aggregator per key\n");
      sb.append("  algorithm: ").append(g.algorithm());
      boolean count = g.kind() == GroupKind.COUNT;
      if (!g.isTree() && !count) {
        sb.append(" (fallback tree ").append(g.treeAlgorithm()).append(")");
      }
      sb.append("\n    because ").append(g.reasons().getOrDefault("algorithm", "-")).append('\n');
      if (count) {
        sb.append("  min arity: none (no tree)\n");
      } else {
        sb.append("  min arity: ").append(g.minArity()).append("\n    because ")
            .append(g.reasons().getOrDefault("arity", "-")).append('\n');
      }
      List<String> prod = new ArrayList<>();
      for (GroupPlan.Part p : g.product()) {
        prod.add(p.function() + "(" + (p.column() == null ? "*" : p.column()) + ")"
            + (p.options().isEmpty() ? "" : Json.write(p.options())));
      }
      sb.append("  product aggregate: ").append(String.join(" x ", prod)).append('\n');
      if (count) {
        sb.append("  slices: none (count windows)\n    because ").append(g.reasons().getOrDefault("slicing", "-"))
            .append('\n');
      } else {
        sb.append("  slices, local executor (in memory): gcd ").append(g.sliceMs()).append(" ms, ")
            .append(g.slicing() ? "used" : "not used").append("\n    because ")
            .append(g.reasons().getOrDefault("slicing", "-")).append('\n');
        sb.append("  slices, engines with state (Flink operator and swag_window, Spark): ")
            .append(g.storedSlices() ? "used, records combined into slices of " + g.sliceMs() + " ms as they arrive"
                : "not used, records kept" + (g.slicing() ? " (their aggregator sliced as the local executor's)" : ""))
            .append("\n    because ").append(g.reasons().getOrDefault("state", "-")).append('\n');
      }
      sb.append("  eviction bounded by: ").append(spec.windows().get(g.evictionWindow()).name());
      List<String> rq = new ArrayList<>();
      for (int w : g.rangeQueryWindows()) {
        rq.add(spec.windows().get(w).name());
      }
      sb.append("; range queries: ").append(rq.isEmpty() ? "none" : String.join(", ", rq))
          .append("\n    because ").append(g.reasons().getOrDefault("sharing", "-")).append('\n');
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Plan p && toJson().equals(p.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return explain();
  }
}

package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.Inputs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A validated query (docs/query-spec.md, version 1): key columns, time column, allowed lateness,
 * order, emission mode, optional column types and windows with their aggregates. Immutable value.
 *
 * <p>{@link #fromJson} fills defaults ({@code version} 1, {@code key} [], {@code time} null,
 * {@code lateness_ms} 0, {@code order} "unknown", {@code emit} "window_end", {@code columns} {},
 * window {@code kind} "time", {@code slide} = size, {@code offset} 0, {@code name}
 * {@link WindowSpec#defaultName}, aggregate {@code column} null, {@code options} {}) and validates;
 * every error is an {@link IllegalArgumentException} whose message starts with the field path and
 * the value, e.g. {@code windows[1].slide: 7200000 > size 3600000; hopping windows with gaps are
 * not supported}. {@link #toJson} is canonical: fields in the order of the doc, defaults filled,
 * maps ({@code columns}, {@code options}) sorted by name, compact (see {@link Json}), so that the
 * same spec gives the same text in Python and Java. A builder serves Java users. O(size of the spec).
 */
public final class QuerySpec {
  /** The accepted values of {@code order}. */
  public static final List<String> ORDERS = List.of("in_order", "out_of_order", "unknown");
  /** The accepted values of {@code emit}. */
  public static final List<String> EMITS = List.of("window_end", "per_record");
  /** The accepted column types of {@code columns}. */
  public static final List<String> TYPES = List.of("double", "long", "string", "boolean", "timestamp");
  /** Output names reserved for the row layout. */
  public static final List<String> RESERVED = List.of("window", "window_start", "window_end");
  /** Functions that take any input type; every other built-in function needs numbers. */
  static final Set<String> ANY_TYPE = Set.of("count", "collect", "bloom", "countmin", "hll", "udaf");

  private static final List<String> FIELDS = List.of("version", "key", "time", "lateness_ms", "order", "emit",
      "columns", "windows");
  private static final List<String> WINDOW_FIELDS = List.of("name", "kind", "size", "slide", "offset", "aggregates");
  private static final List<String> AGG_FIELDS = List.of("output", "function", "column", "options");

  private final List<String> key;
  private final String time;
  private final long latenessMs;
  private final String order;
  private final String emit;
  private final Map<String, String> columns;
  private final List<WindowSpec> windows;

  private QuerySpec(List<String> key, String time, long latenessMs, String order, String emit,
      Map<String, String> columns, List<WindowSpec> windows) {
    this.key = List.copyOf(key);
    this.time = time;
    this.latenessMs = latenessMs;
    this.order = order;
    this.emit = emit;
    this.columns = java.util.Collections.unmodifiableMap(new TreeMap<>(columns));
    this.windows = List.copyOf(windows);
  }

  // ---------------------------------------------------------------- JSON

  /**
   * Parses, fills defaults and validates a spec.
   *
   * @param json the spec's JSON text
   * @return the spec
   */
  public static QuerySpec fromJson(String json) {
    Object v;
    try {
      v = Json.parse(json);
    } catch (IllegalArgumentException e) {
      throw new SwagException(Kind.INVALID_QUERY, "query spec: " + SwagException.text(e), e);
    }
    return fromMap(v);
  }

  /**
   * The canonical JSON text.
   *
   * @return the JSON text
   */
  public String toJson() {
    return Json.write(toMap());
  }

  /**
   * The spec as ordered maps and lists (the canonical JSON structure).
   *
   * @return the spec as maps and lists
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("version", 1L);
    m.put("key", new ArrayList<>(key));
    m.put("time", time);
    m.put("lateness_ms", latenessMs);
    m.put("order", order);
    m.put("emit", emit);
    m.put("columns", new LinkedHashMap<>(columns));
    List<Object> w = new ArrayList<>();
    for (WindowSpec s : windows) {
      w.add(s.toMap());
    }
    m.put("windows", w);
    return m;
  }

  /**
   * Validates a parsed JSON value (maps, lists, strings, numbers) and builds the spec.
   *
   * @param root the parsed JSON value
   * @return the spec
   */
  @SuppressWarnings("unchecked")
  public static QuerySpec fromMap(Object root) {
    if (!(root instanceof Map)) {
      throw err("query spec", root, "expected a JSON object");
    }
    Map<String, Object> m = (Map<String, Object>) root;
    unknownFields("", m, FIELDS);
    Object version = m.getOrDefault("version", 1L);
    if (!(version instanceof Number n && n.doubleValue() == 1)) {
      throw err("version", version, "only version 1 is supported");
    }
    // key
    List<String> key = new ArrayList<>();
    Object k = m.get("key");
    if (k instanceof String s) {
      k = List.of(s);
    }
    if (k != null) {
      if (!(k instanceof List)) {
        throw err("key", k, "expected a list of column names");
      }
      List<Object> kl = (List<Object>) k;
      for (int i = 0; i < kl.size(); i++) {
        Object c = kl.get(i);
        if (!(c instanceof String s) || s.isEmpty()) {
          throw err("key[" + i + "]", c, "expected a non-empty column name");
        }
        if (key.contains(s)) {
          throw err("key[" + i + "]", c, "duplicate key column");
        }
        key.add(s);
      }
    }
    Object t = m.get("time");
    if (t != null && !(t instanceof String s && !s.isEmpty())) {
      throw err("time", t, "expected a column name or null (processing time)");
    }
    if (t != null && key.contains(t)) {
      throw err("time", t, "is also a key column");
    }
    long lateness = integer("lateness_ms", m.getOrDefault("lateness_ms", 0L));
    if (lateness < 0) {
      throw err("lateness_ms", lateness, "must be >= 0");
    }
    String order = choice("order", m.getOrDefault("order", "unknown"), ORDERS);
    String emit = choice("emit", m.getOrDefault("emit", "window_end"), EMITS);
    Map<String, String> columns = new TreeMap<>();
    Object cols = m.get("columns");
    if (cols != null) {
      if (!(cols instanceof Map)) {
        throw err("columns", cols, "expected an object of column name to type");
      }
      for (Map.Entry<String, Object> e : ((Map<String, Object>) cols).entrySet()) {
        String path = "columns." + e.getKey();
        if (e.getKey().isEmpty()) {
          throw err(path, e.getValue(), "column names must be non-empty");
        }
        columns.put(e.getKey(), choice(path, e.getValue(), TYPES));
      }
    }
    // windows
    Object ws = m.get("windows");
    if (!(ws instanceof List) || ((List<Object>) ws).isEmpty()) {
      throw err("windows", ws, "expected a non-empty list of windows");
    }
    List<WindowSpec> windows = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> outputs = new HashSet<>();
    List<Object> wl = (List<Object>) ws;
    for (int i = 0; i < wl.size(); i++) {
      WindowSpec w = window("windows[" + i + "]", wl.get(i), key, columns, outputs);
      if (!names.add(w.name())) {
        throw err("windows[" + i + "].name", w.name(), "duplicate window name");
      }
      windows.add(w);
    }
    return new QuerySpec(key, (String) t, lateness, order, emit, columns, windows);
  }

  @SuppressWarnings("unchecked")
  private static WindowSpec window(String path, Object v, List<String> key, Map<String, String> columns,
      Set<String> outputs) {
    if (!(v instanceof Map)) {
      throw err(path, v, "expected a window object");
    }
    Map<String, Object> m = (Map<String, Object>) v;
    unknownFields(path + ".", m, WINDOW_FIELDS);
    GroupKind kind = GroupKind.parse(path + ".kind", choice(path + ".kind", m.getOrDefault("kind",
        GroupKind.TIME.json()), List.of(GroupKind.TIME.json(), GroupKind.COUNT.json())));
    if (!m.containsKey("size")) {
      throw err(path + ".size", null, "required");
    }
    long size = integer(path + ".size", m.get("size"));
    if (size <= 0) {
      throw err(path + ".size", size, "must be > 0");
    }
    long slide = integer(path + ".slide", m.getOrDefault("slide", size));
    if (slide <= 0) {
      throw err(path + ".slide", slide, "must be > 0");
    }
    if (slide > size) {
      throw new SwagException(Kind.INVALID_QUERY, path + ".slide: " + slide + " > size " + size
          + "; hopping windows with gaps are not supported");
    }
    long offset = integer(path + ".offset", m.getOrDefault("offset", 0L));
    if (offset < 0 || offset >= slide) {
      throw err(path + ".offset", offset, "must satisfy 0 <= offset < slide " + slide);
    }
    if (kind == GroupKind.COUNT && offset != 0) {
      throw err(path + ".offset", offset, "count windows take no offset");
    }
    Object name = m.get("name");
    if (name != null && !(name instanceof String s && !s.isEmpty())) {
      throw err(path + ".name", name, "expected a non-empty string");
    }
    Object as = m.get("aggregates");
    if (!(as instanceof List) || ((List<Object>) as).isEmpty()) {
      throw err(path + ".aggregates", as, "expected a non-empty list of aggregates");
    }
    List<AggregateSpec> aggs = new ArrayList<>();
    List<Object> al = (List<Object>) as;
    for (int j = 0; j < al.size(); j++) {
      aggs.add(aggregate(path + ".aggregates[" + j + "]", al.get(j), key, columns, outputs));
    }
    return new WindowSpec((String) name, kind, size, slide, offset, aggs);
  }

  @SuppressWarnings("unchecked")
  private static AggregateSpec aggregate(String path, Object v, List<String> key, Map<String, String> columns,
      Set<String> outputs) {
    if (!(v instanceof Map)) {
      throw err(path, v, "expected an aggregate object");
    }
    Map<String, Object> m = (Map<String, Object>) v;
    unknownFields(path + ".", m, AGG_FIELDS);
    Object out = m.get("output");
    if (!(out instanceof String o) || o.isEmpty()) {
      throw err(path + ".output", out, "expected a non-empty output column name");
    }
    if (key.contains(o) || RESERVED.contains(o)) {
      throw err(path + ".output", o, "clashes with a key column or a reserved column (" + String.join(", ",
          RESERVED) + ")");
    }
    if (!outputs.add(o)) {
      throw err(path + ".output", o, "duplicate output column (outputs must be unique across the query)");
    }
    Object fn = m.get("function");
    if (!(fn instanceof String f) || f.isBlank()) {
      throw err(path + ".function", fn, "expected a function name; known functions: "
          + String.join(", ", io.swag.core.fn.Functions.names()));
    }
    Object col = m.get("column");
    if (col != null && !(col instanceof String c && !c.isEmpty())) {
      throw err(path + ".column", col, "expected a column name or null");
    }
    Object opts = m.getOrDefault("options", Map.of());
    if (opts == null) {
      opts = Map.of();
    }
    if (!(opts instanceof Map)) {
      throw err(path + ".options", opts, "expected an object");
    }
    AggregateSpec a = new AggregateSpec(o, f, (String) col, (Map<String, Object>) opts);
    try {
      io.swag.core.fn.Functions.byName(a.function(), Map.of());
    } catch (IllegalArgumentException e) {
      if (SwagException.kindOf(e) == Kind.UNKNOWN_FUNCTION) {
        throw err(Kind.UNKNOWN_QUERY_FUNCTION, path + ".function", fn, SwagException.text(e));
      }
      // other errors (e.g. quantile without rank) are about options: checked below
    }
    try {
      a.create();
    } catch (IllegalArgumentException e) {
      throw err(path + ".options", opts, SwagException.text(e));
    }
    if (col == null && !a.function().equals("count")) {
      throw err(path + ".column", null, "only count takes no column (function '" + a.function() + "')");
    }
    if (col != null) {
      String type = columns.get(col);
      if (type != null && !ANY_TYPE.contains(a.function()) && (type.equals("string") || type.equals("boolean"))) {
        throw err(path + ".column", col, "function '" + a.function() + "' needs numbers but column '" + col
            + "' is a " + type);
      }
    }
    return a;
  }

  private static void unknownFields(String prefix, Map<String, Object> m, List<String> known) {
    for (String f : m.keySet()) {
      if (!known.contains(f)) {
        throw err(prefix + f, m.get(f), "unknown field; known fields: " + String.join(", ", known));
      }
    }
  }

  private static long integer(String path, Object v) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) < 9.0e15) {
      return (long) n.doubleValue();
    }
    throw err(path, v, "expected an integer");
  }

  private static String choice(String path, Object v, List<String> allowed) {
    if (v instanceof String s && allowed.contains(s)) {
      return s;
    }
    throw err(path, v, "expected one of " + String.join(", ", allowed));
  }

  static SwagException err(String path, Object value, String msg) {
    return err(Kind.INVALID_QUERY, path, value, msg);
  }

  /** {@code <path>: <value as JSON>; <msg>}, of {@code kind}. */
  static SwagException err(Kind kind, String path, Object value, String msg) {
    String shown;
    try {
      shown = Json.write(value);
    } catch (IllegalArgumentException e) {
      shown = Inputs.describe(value);
    }
    if (shown.length() > 200) {
      shown = shown.substring(0, 197) + "...";
    }
    return new SwagException(kind, path + ": " + shown + "; " + msg);
  }

  // ---------------------------------------------------------------- builder

  /**
   * A builder of a spec, for Java users.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Java API: {@code QuerySpec.builder().key("station").time("t").window(WindowSpec.time(60_000, 10_000)
   * .aggregate("m", "max", "x")).build()}; {@link Builder#build()} validates like {@link #fromJson}. */
  public static final class Builder {
    private final List<String> key = new ArrayList<>();
    private String time;
    private long latenessMs;
    private String order = "unknown";
    private String emit = "window_end";
    private final Map<String, String> columns = new TreeMap<>();
    private final List<WindowSpec> windows = new ArrayList<>();

    /**
     * Sets the key columns.
     *
     * @param columns the key columns
     * @return this builder
     */
    public Builder key(String... columns) {
      key.addAll(List.of(columns));
      return this;
    }

    /**
     * Sets the event-time column.
     *
     * @param column the time column
     * @return this builder
     */
    public Builder time(String column) {
      this.time = column;
      return this;
    }

    /**
     * Sets the allowed lateness.
     *
     * @param ms the lateness in ms
     * @return this builder
     */
    public Builder latenessMs(long ms) {
      this.latenessMs = ms;
      return this;
    }

    /**
     * Sets the input order promise, one of {@link #ORDERS}.
     *
     * @param order the order
     * @return this builder
     */
    public Builder order(String order) {
      this.order = order;
      return this;
    }

    /**
     * Sets when rows are emitted, one of {@link #EMITS}.
     *
     * @param emit the emit mode
     * @return this builder
     */
    public Builder emit(String emit) {
      this.emit = emit;
      return this;
    }

    /**
     * Declares a column's type, one of {@link #TYPES}.
     *
     * @param name the column
     * @param type the type
     * @return this builder
     */
    public Builder column(String name, String type) {
      columns.put(name, type);
      return this;
    }

    /**
     * Adds a window.
     *
     * @param window the window
     * @return this builder
     */
    public Builder window(WindowSpec window) {
      windows.add(window);
      return this;
    }

    /**
     * Adds the window a window builder builds.
     *
     * @param window the window's builder
     * @return this builder
     */
    public Builder window(WindowSpec.Builder window) {
      return window(window.build());
    }

    /**
     * The spec, with defaults filled and validated.
     *
     * @return the spec
     */
    public QuerySpec build() {
      QuerySpec raw = new QuerySpec(key, time, latenessMs, order, emit, columns, windows);
      return fromMap(raw.toMap());
    }
  }

  // ---------------------------------------------------------------- accessors

  /**
   * The key columns.
   *
   * @return the key columns, possibly empty
   */
  public List<String> key() {
    return key;
  }

  /**
   * The event-time column, or null for processing time.
   *
   * @return the time column, or null
   */
  public String time() {
    return time;
  }

  /**
   * The allowed lateness.
   *
   * @return the lateness in ms
   */
  public long latenessMs() {
    return latenessMs;
  }

  /**
   * The input order promise, one of {@link #ORDERS}.
   *
   * @return the order
   */
  public String order() {
    return order;
  }

  /**
   * When rows are emitted, one of {@link #EMITS}.
   *
   * @return the emit mode
   */
  public String emit() {
    return emit;
  }

  /**
   * Whether a row is emitted per record ({@code emit = per_record}).
   *
   * @return true for per-record emission
   */
  public boolean perRecord() {
    return emit.equals("per_record");
  }

  /**
   * Declared column types, sorted by name.
   *
   * @return the column types, by name
   */
  public Map<String, String> columns() {
    return columns;
  }

  /**
   * The windows, in query order.
   *
   * @return the windows
   */
  public List<WindowSpec> windows() {
    return windows;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QuerySpec q && toJson().equals(q.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}

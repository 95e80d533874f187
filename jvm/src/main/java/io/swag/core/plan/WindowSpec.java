package io.swag.core.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One window of a query: a time window ({@code size}, {@code slide}, {@code offset} in ms; windows
 * start at {@code k * slide + offset} and cover {@code [start, start + size)}) or a count window
 * (the last {@code size} records of a key, emitted every {@code slide} records). Immutable value;
 * validated by {@link QuerySpec}. Create with {@link #time}/{@link #count} and the builder methods.
 *
 * <p>The window arithmetic helpers below are O(1) and use floor division, so negative times work.
 */
public final class WindowSpec {
  private final String name;
  private final GroupKind kind;
  private final long size;
  private final long slide;
  private final long offset;
  private final List<AggregateSpec> aggregates;
  private final boolean slidesDivideSize; // size a multiple of slide: the first start is lastStart - size + slide

  /**
   * {@code name} null = the default name ({@link #defaultName}).
   *
   * @param name the window's name, or null
   * @param kind time or count
   * @param size the size, in ms or records
   * @param slide the slide, in ms or records
   * @param offset the offset of the window starts, in ms
   * @param aggregates the aggregates
   */
  public WindowSpec(String name, GroupKind kind, long size, long slide, long offset, List<AggregateSpec> aggregates) {
    this.kind = kind;
    this.size = size;
    this.slide = slide;
    this.offset = offset;
    this.slidesDivideSize = slide > 0 && size % slide == 0;
    this.name = name != null ? name : defaultName(kind, size, slide);
    this.aggregates = List.copyOf(aggregates);
  }

  /**
   * A builder of a time window of {@code sizeMs} sliding by {@code slideMs}.
   *
   * @param sizeMs the size in ms
   * @param slideMs the slide in ms
   * @return the builder
   */
  public static Builder time(long sizeMs, long slideMs) {
    return new Builder(GroupKind.TIME, sizeMs, slideMs);
  }

  /**
   * A builder of a tumbling time window.
   *
   * @param sizeMs the size in ms
   * @return the builder
   */
  public static Builder tumbling(long sizeMs) {
    return new Builder(GroupKind.TIME, sizeMs, sizeMs);
  }

  /**
   * A builder of a count window: the last {@code size} records, emitted every {@code slide}.
   *
   * @param size the size in records
   * @param slide the slide in records
   * @return the builder
   */
  public static Builder count(long size, long slide) {
    return new Builder(GroupKind.COUNT, size, slide);
  }

  /** Builder of a {@link WindowSpec}; {@link #build()} does not validate (the query does). */
  public static final class Builder {
    private final GroupKind kind;
    private final long size;
    private final long slide;
    private long offset;
    private String name;
    private final List<AggregateSpec> aggregates = new ArrayList<>();

    Builder(GroupKind kind, long size, long slide) {
      this.kind = kind;
      this.size = size;
      this.slide = slide;
    }

    /**
     * Sets the offset of the window starts.
     *
     * @param offsetMs the offset in ms
     * @return this builder
     */
    public Builder offset(long offsetMs) {
      this.offset = offsetMs;
      return this;
    }

    /**
     * Sets the window's name.
     *
     * @param name the name, or null for the default
     * @return this builder
     */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /**
     * Adds the aggregate {@code output = function(column)}.
     *
     * @param output the output column
     * @param function the function name
     * @param column the input column, or null for {@code count}
     * @return this builder
     */
    public Builder aggregate(String output, String function, String column) {
      aggregates.add(AggregateSpec.of(output, function, column));
      return this;
    }

    /**
     * Adds the aggregate {@code output = function(column)} with options.
     *
     * @param output the output column
     * @param function the function name
     * @param column the input column, or null for {@code count}
     * @param options the function options
     * @return this builder
     */
    public Builder aggregate(String output, String function, String column, Map<String, ?> options) {
      aggregates.add(new AggregateSpec(output, function, column, options));
      return this;
    }

    /**
     * The window.
     *
     * @return the window
     */
    public WindowSpec build() {
      return new WindowSpec(name, kind, size, slide, offset, aggregates);
    }
  }

  /**
   * {@code "<size>/<slide>"}: time windows with the largest exact unit (d, h, min, s, ms), e.g.
   * {@code 1h/1min}.
   *
   * @param kind time or count
   * @param size the size
   * @param slide the slide
   * @return the name
   */
  public static String defaultName(GroupKind kind, long size, long slide) {
    if (kind == GroupKind.COUNT) {
      return size + "/" + slide;
    }
    return duration(size) + "/" + duration(slide);
  }

  /**
   * A duration in ms with the largest unit that divides it exactly: {@code 90min}, {@code 1500ms}.
   *
   * @param ms a duration in ms
   * @return the duration's text
   */
  public static String duration(long ms) {
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] names = {"d", "h", "min", "s"};
    for (int i = 0; i < units.length; i++) {
      if (ms != 0 && ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    return ms + "ms";
  }

  /**
   * The window's name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * {@link GroupKind#TIME} or {@link GroupKind#COUNT}.
   *
   * @return the kind
   */
  public GroupKind kind() {
    return kind;
  }

  /**
   * Whether this is a time window.
   *
   * @return true for a time window
   */
  public boolean isTime() {
    return kind == GroupKind.TIME;
  }

  /**
   * The size, in ms or records.
   *
   * @return the size
   */
  public long size() {
    return size;
  }

  /**
   * The slide, in ms or records.
   *
   * @return the slide
   */
  public long slide() {
    return slide;
  }

  /**
   * The offset of the window starts, in ms.
   *
   * @return the offset
   */
  public long offset() {
    return offset;
  }

  /**
   * The aggregates, in query order.
   *
   * @return the aggregates
   */
  public List<AggregateSpec> aggregates() {
    return aggregates;
  }

  // ---- window arithmetic (time windows) ----

  /**
   * The start of the latest window containing {@code t}: the largest {@code k*slide+offset <= t}.
   *
   * @param t a time
   * @return the window start
   */
  public long lastStart(long t) {
    return t - Math.floorMod(t - offset, slide);
  }

  /**
   * The start of the earliest window containing {@code t}: the smallest aligned start
   * {@code > t - size}.
   *
   * @param t a time
   * @return the window start
   */
  public long firstStart(long t) {
    return firstStart(t, lastStart(t));
  }

  /** {@link #firstStart(long)} given {@code last = lastStart(t)} (one division fewer when slides divide the size). */
  long firstStart(long t, long last) {
    if (slidesDivideSize && t - size < t) { // t - size does not wrap
      return last - size + slide;
    }
    return lastStart(t - size) + slide;
  }

  /**
   * The smallest aligned window start {@code >= x}.
   *
   * @param x a time
   * @return the window start
   */
  public long alignUp(long x) {
    return x + Math.floorMod(offset - x, slide);
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("kind", kind.json());
    m.put("size", size);
    m.put("slide", slide);
    m.put("offset", offset);
    List<Object> a = new ArrayList<>();
    for (AggregateSpec s : aggregates) {
      a.add(s.toMap());
    }
    m.put("aggregates", a);
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WindowSpec w && name.equals(w.name) && kind == w.kind && size == w.size
        && slide == w.slide && offset == w.offset && aggregates.equals(w.aggregates);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, kind.json(), size, slide, offset, aggregates);
  }

  @Override
  public String toString() {
    return Json.write(toMap());
  }
}

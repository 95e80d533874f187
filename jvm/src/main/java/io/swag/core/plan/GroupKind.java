package io.swag.core.plan;

/**
 * The kind of a window and of a {@link GroupPlan}: time windows (sizes in ms of event or
 * processing time) or count windows (sizes in records). Plan and query JSON keep the strings
 * {@code "time"} and {@code "count"} ({@link #json()}, {@link #parse}).
 */
public enum GroupKind {
  TIME("time"),
  COUNT("count");

  private final String json;

  GroupKind(String json) {
    this.json = json;
  }

  /** The JSON form: {@code "time"} or {@code "count"}. */
  public String json() {
    return json;
  }

  /**
   * The kind of a JSON string.
   *
   * @throws IllegalArgumentException naming {@code field} and the value, for anything but
   *     {@code "time"} or {@code "count"}
   */
  public static GroupKind parse(String field, Object value) {
    for (GroupKind k : values()) {
      if (k.json.equals(value)) {
        return k;
      }
    }
    throw new IllegalArgumentException(field + ": expected \"time\" or \"count\", got " + (value instanceof String s
        ? "'" + s + "'" : value));
  }

  /** The JSON form. */
  @Override
  public String toString() {
    return json;
  }
}

package io.swag.core.plan;

/**
 * The kind of a window and of a {@link GroupPlan}: time windows (sizes in ms of event or
 * processing time) or count windows (sizes in records). Plan and query JSON keep the strings
 * {@code "time"} and {@code "count"} ({@link #json()}, {@link #parse}).
 */
public enum GroupKind {
  /** Time windows: sizes in ms. */
  TIME("time"),
  /** Count windows: sizes in records. */
  COUNT("count");

  private final String json;

  GroupKind(String json) {
    this.json = json;
  }

  /**
   * The JSON form: {@code "time"} or {@code "count"}.
   *
   * @return the JSON string
   */
  public String json() {
    return json;
  }

  /**
   * The kind of a JSON string.
   *
   * @param field the field's name, for messages
   * @param value the JSON value
   * @return the kind
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

package io.swag.core.plan;

import io.swag.core.Inputs;
import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.List;

/**
 * The rules every engine applies to an input row before its windows see it, in one place: the one
 * time parser ({@link #parseTime}) and the checks, in this order, with their reasons (the text a
 * rejected record carries on every engine path):
 * <ol>
 *   <li>a null key column: {@code key column 'k' is null};</li>
 *   <li>a null time: {@code time column 't' is null}; a value that is not a time:
 *       {@code time column 't': unparsable time <value> (...)};</li>
 *   <li>a NaN in a column an aggregate reads: {@code column 'v' is NaN};</li>
 * </ol>
 * then each function's own check of its input (its {@code IllegalArgumentException} message), and
 * lateness. Engines keep only their type mapping (to the values {@link #parseTime} and the functions
 * take) and row building.
 *
 * <p>Times: epoch milliseconds as an integral number (also an integral {@code double}, as JSON and
 * pandas give them), {@link Instant}, {@link Date} (and {@code java.sql.Timestamp}),
 * {@link OffsetDateTime}, {@link ZonedDateTime}, {@link LocalDateTime} (taken as UTC), or a string
 * of one of these: digits (epoch ms), ISO-8601 with an offset or {@code Z}, or a local date-time
 * ({@code 2024-01-31T12:00:00}, a space instead of {@code T} too; taken as UTC).
 */
public final class RowContract {
  private RowContract() {}

  /**
   * The value normalizer every engine applies to the cells it hands the core: integers (int, short,
   * byte) as {@code Long}, {@code Float} and {@code BigDecimal} as {@code Double}, timestamps
   * ({@link Instant}, {@link Date}, offset, zoned and local date-times) as epoch ms {@code Long};
   * {@code Long}, {@code Double}, {@code String}, {@code Boolean}, null and anything else as they are
   * (a connector maps its own remaining types). O(1), no allocation for the common types.
   *
   * @param v a cell value, or null
   * @return the normalized value
   */
  public static Object normalize(Object v) {
    if (v == null || v instanceof Double || v instanceof Long || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float || v instanceof java.math.BigDecimal) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof java.time.temporal.Temporal || v instanceof Date) {
      Long t = parseTime(v);
      if (t != null) {
        return t;
      }
    }
    return v;
  }

  /**
   * Whether {@code v} is a value {@link #normalize} leaves for the core as it is (not a connector's own
   * type).
   *
   * @param v a value
   * @return true if {@link #normalize} leaves it as it is
   */
  public static boolean isNormal(Object v) {
    return v == null || v instanceof Double || v instanceof Long || v instanceof String || v instanceof Boolean;
  }

  /**
   * The text of a late or rejected record that engines return beside its reason:
   * {@code {"k": "a", "t": 1000, "v": NaN}}, strings and timestamps quoted, in column order.
   *
   * @param columns the column names
   * @param value the value of each column, by position
   * @return the record's text
   */
  public static String describe(List<String> columns, java.util.function.IntFunction<Object> value) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      Object v = value.apply(i);
      b.append('"').append(columns.get(i)).append("\": ");
      boolean quoted = v instanceof CharSequence || v instanceof Date || v instanceof java.time.temporal.TemporalAccessor;
      b.append(quoted ? "\"" + v + "\"" : String.valueOf(v));
    }
    return b.append('}').toString();
  }

  /**
   * Epoch ms of a time value, or null if it is null or not a time (see the class comment).
   *
   * @param v a time value
   * @return its epoch milliseconds, or null
   */
  public static Long parseTime(Object v) {
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 9.0e18 ? (long) d : null;
    }
    if (v instanceof Instant i) {
      return i.toEpochMilli();
    }
    if (v instanceof Date d) {
      return d.getTime();
    }
    if (v instanceof OffsetDateTime o) {
      return o.toInstant().toEpochMilli();
    }
    if (v instanceof ZonedDateTime z) {
      return z.toInstant().toEpochMilli();
    }
    if (v instanceof LocalDateTime l) {
      return l.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    if (v instanceof String s) {
      return parseTimeText(s.trim());
    }
    return null;
  }

  private static Long parseTimeText(String x) {
    try {
      return Long.parseLong(x);
    } catch (NumberFormatException e) {
      // an ISO form
    }
    try {
      return Instant.parse(x).toEpochMilli();
    } catch (RuntimeException e) {
      // next form
    }
    try {
      return OffsetDateTime.parse(x).toInstant().toEpochMilli();
    } catch (RuntimeException e) {
      // next form
    }
    try {
      return LocalDateTime.parse(x.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The error for an input that lacks {@code column}, a column {@code spec} reads, on every engine:
   * {@code <role> '<column>' is not a column of the input; its columns are [a, b]}, the role being
   * {@code key column}, {@code time column} or {@code column ... of aggregate 'out' (window 'w')}
   * (the first aggregate reading it).
   *
   * @param spec the query
   * @param column the missing column
   * @param inputColumns the input's columns
   * @return the error
   */
  public static SwagException missingColumn(QuerySpec spec, String column, List<String> inputColumns) {
    String role = null;
    if (spec.key().contains(column)) {
      role = "key column '" + column + "'";
    } else if (column.equals(spec.time())) {
      role = "time column '" + column + "'";
    } else {
      for (WindowSpec w : spec.windows()) {
        for (AggregateSpec a : w.aggregates()) {
          if (role == null && column.equals(a.column())) {
            role = "column '" + column + "' of aggregate '" + a.output() + "' (window '" + w.name() + "')";
          }
        }
      }
    }
    return new SwagException(Kind.INVALID_INPUT, (role == null ? "column '" + column + "'" : role)
        + " is not a column of the input; its columns are " + inputColumns);
  }

  /** {@link #missingColumn} for the first column of {@link LocalExecutor#usedColumns} that {@code inputColumns}
   * lacks; nothing if it has them all.
   *
   * @param spec the query
   * @param inputColumns the input's columns
   */
  public static void requireColumns(QuerySpec spec, List<String> inputColumns) {
    for (String c : LocalExecutor.usedColumns(spec)) {
      if (!inputColumns.contains(c)) {
        throw missingColumn(spec, c, inputColumns);
      }
    }
  }

  /**
   * The reason of a record whose key column {@code column} is null.
   *
   * @param column the key column
   * @return the reason
   */
  public static String nullKey(String column) {
    return "key column '" + column + "' is null";
  }

  /**
   * The reason of a record whose time {@code value} (in column {@code column}) is null or not a time.
   *
   * @param column the time column
   * @param value the time value
   * @return the reason
   */
  public static String badTime(String column, Object value) {
    if (value == null) {
      return "time column '" + column + "' is null";
    }
    return "time column '" + column + "': unparsable time " + Inputs.describe(value)
        + " (epoch ms, a timestamp or an ISO-8601 string)";
  }

  /**
   * The reason of a record with a NaN in column {@code column}.
   *
   * @param column the column holding the NaN
   * @return the reason
   */
  public static String nan(String column) {
    return "column '" + column + "' is NaN";
  }

  /**
   * Whether {@code v} is a NaN (a {@code Double} or {@code Float}).
   *
   * @param v a value
   * @return true if {@code v} is a NaN
   */
  public static boolean isNaN(Object v) {
    return (v instanceof Double d && d.isNaN()) || (v instanceof Float f && f.isNaN());
  }

  /**
   * The positions of the columns the query's aggregates read (each once, in spec order) in a row
   * laid out by {@code indexOf} (column name to position): the columns {@link #check} looks for NaN in.
   *
   * @param spec the query
   * @param indexOf the position of each column name
   * @return the positions of the value columns
   */
  public static int[] valueIndices(QuerySpec spec, java.util.function.ToIntFunction<String> indexOf) {
    List<Integer> vals = new java.util.ArrayList<>();
    for (WindowSpec w : spec.windows()) {
      for (AggregateSpec a : w.aggregates()) {
        if (a.column() != null && !vals.contains(indexOf.applyAsInt(a.column()))) {
          vals.add(indexOf.applyAsInt(a.column()));
        }
      }
    }
    return vals.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The first reason {@code row} is rejected for, in the order of the class comment, or null: its
   * key columns at {@code keyIdx} (named {@code keyNames}), its time at {@code timeIdx} (none if
   * negative; the parsed time is stored into {@code times[0]}), the value columns at
   * {@code valueIdx} (named by {@code columnNames} at the same index as in the row).
   *
   * @param row the record
   * @param keyIdx the positions of the key columns
   * @param keyNames the key columns' names
   * @param timeIdx the position of the time column, or negative for none
   * @param timeName the time column's name
   * @param valueIdx the positions of the value columns
   * @param columnNames the row's column names, by position
   * @param times receives the parsed time at index 0
   * @return the reason, or null if the row is accepted
   */
  public static String check(Object[] row, int[] keyIdx, List<String> keyNames, int timeIdx, String timeName,
      int[] valueIdx, List<String> columnNames, long[] times) {
    for (int i = 0; i < keyIdx.length; i++) {
      if (row[keyIdx[i]] == null) {
        return nullKey(keyNames.get(i));
      }
    }
    if (timeIdx >= 0) {
      Object tv = row[timeIdx];
      Long t = parseTime(tv);
      if (t == null) {
        return badTime(timeName, tv);
      }
      times[0] = t;
    }
    for (int c : valueIdx) {
      if (isNaN(row[c])) {
        return nan(columnNames.get(c));
      }
    }
    return null;
  }
}

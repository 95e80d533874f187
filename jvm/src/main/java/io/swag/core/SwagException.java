package io.swag.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A swag error with a {@link Kind}: what went wrong, readable from Java ({@link #kind()}) and from
 * the message text alone, because some front-ends (Spark Connect) receive only the text and the class
 * name of a server-side exception.
 *
 * <p><b>Message form.</b> {@code getMessage()} is {@code "[SWAG_<KIND>] <text>"}, e.g.
 * {@code "[SWAG_INVALID_QUERY] windows[1].slide: 7200000 > size 3600000; ..."}. {@link #tag} is the one
 * place that writes the prefix and {@link #kindOf(String)} / {@link #text(String)} the one place that
 * reads it; Python's {@code swag.errors.from_java} reads the same form. The text after the prefix is
 * the message without it ({@link #text()}): it names the field and the value.
 *
 * <p><b>Two Java classes, one kind set.</b> A kind decides the class, so catch clauses written for
 * the JDK types keep working:
 * <ul>
 *   <li>{@code SwagException} (this class, an {@link IllegalArgumentException}): the caller's
 *       arguments are wrong: the query, the input's columns and types, a function's or engine's
 *       options, an algorithm or function name. {@code assertThrows(IllegalArgumentException.class,
 *       ...)} and {@code catch (IllegalArgumentException e)} see them as before.</li>
 *   <li>{@link SwagFailure} (an {@link IllegalStateException}): the environment or a running job is
 *       wrong: {@link Kind#SETUP}, {@link Kind#STATE}, {@link Kind#USER_FUNCTION}, {@link Kind#REJECTED_RECORD}. They are not
 *       {@code IllegalArgumentException}s, so a per-record {@code catch (IllegalArgumentException e)}
 *       never turns them into a rejected record.</li>
 * </ul>
 *
 * <p><b>Not swag exceptions.</b> A function refusing one value (a string given to {@code sum}, a NaN,
 * a non-positive value for {@code geomean}, a user function's {@code lift} throwing) and a time older
 * than an in-order aggregator's youngest stay plain {@link IllegalArgumentException}s without a prefix:
 * engines turn them into rejected records whose reason is the message, and the local aggregator API
 * raises them as value errors of the call. An empty window is a {@link java.util.NoSuchElementException}
 * and an operation an aggregator does not support an {@link UnsupportedOperationException}. Any other
 * exception is a bug.
 */
public class SwagException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** What went wrong; {@link #failure()} tells which Java class carries it. */
  public enum Kind {
    /** A query spec or plan that does not validate (field path, value, reason). */
    INVALID_QUERY(false),
    /** A query names an aggregate function that does not exist (the message lists the known ones). */
    UNKNOWN_QUERY_FUNCTION(false),
    /** The input does not fit the query: a missing column, a column of the wrong type, no watermark. */
    INVALID_INPUT(false),
    /** An aggregator's algorithm name is not known (the message lists the known ones). */
    UNKNOWN_ALGORITHM(false),
    /** An aggregator's function name is not known (the message lists the known ones). */
    UNKNOWN_FUNCTION(false),
    /** A function's or an aggregator's option is unknown or has a bad value. */
    INVALID_OPTION(false),
    /** The algorithm cannot run this function (e.g. subtract-on-evict needs an invertible one). */
    INCOMPATIBLE_FUNCTION(false),
    /** The engine, session or class path cannot run swag (e.g. Spark's state store is not RocksDB). */
    SETUP(true),
    /** Restored state does not fit the plan (the query changed between checkpoint and restore). */
    STATE(true),
    /** A user-defined aggregate function failed outside {@code lift}. */
    USER_FUNCTION(true),
    /** A record was rejected under {@code on_error = fail} ({@link io.swag.core.plan.OnError}): its reason. */
    REJECTED_RECORD(true);

    private final boolean failure;

    Kind(boolean failure) {
      this.failure = failure;
    }

    /**
     * True for the kinds thrown as {@link SwagFailure} (an {@link IllegalStateException}).
     *
     * @return true if the kind is thrown as a {@link SwagFailure}
     */
    public boolean failure() {
      return failure;
    }

    /**
     * The message prefix, {@code "[SWAG_<NAME>] "}.
     *
     * @return the prefix
     */
    public String prefix() {
      return "[SWAG_" + name() + "] ";
    }
  }

  private static final Pattern PREFIX = Pattern.compile("^\\[SWAG_([A-Z_]+)\\] ");

  private final Kind kind;

  /**
   * An exception of {@code kind}; its message is {@code text} with the kind's prefix.
   *
   * @param kind a kind whose {@link Kind#failure()} is false
   * @param text the message without its prefix
   */
  public SwagException(Kind kind, String text) {
    this(kind, text, null);
  }

  /**
   * An exception of {@code kind} with a cause; its message is {@code text} with the kind's prefix.
   *
   * @param kind a kind whose {@link Kind#failure()} is false
   * @param text the message without its prefix
   * @param cause the cause
   */
  public SwagException(Kind kind, String text, Throwable cause) {
    super(tag(checked(kind, false), text), cause);
    this.kind = kind;
  }

  /**
   * What went wrong.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * The message without its prefix.
   *
   * @return the message without its prefix
   */
  public String text() {
    return text(getMessage());
  }

  /**
   * {@code text} with the prefix of {@code kind}: the one place that writes the form.
   *
   * @param kind the kind
   * @param text the message without its prefix
   * @return the message
   */
  public static String tag(Kind kind, String text) {
    return kind.prefix() + text;
  }

  /**
   * The kind a message starts with, or null if it has no (known) prefix: the one place that reads it.
   *
   * @param message a message
   * @return the kind, or null
   */
  public static Kind kindOf(String message) {
    if (message == null) {
      return null;
    }
    Matcher m = PREFIX.matcher(message);
    if (!m.find()) {
      return null;
    }
    try {
      return Kind.valueOf(m.group(1));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The kind of a throwable: its own, else the one its message starts with, else null.
   *
   * @param t a throwable
   * @return the kind, or null
   */
  public static Kind kindOf(Throwable t) {
    if (t instanceof SwagException s) {
      return s.kind();
    }
    if (t instanceof SwagFailure f) {
      return f.kind();
    }
    return t == null ? null : kindOf(t.getMessage());
  }

  /**
   * {@code message} without a kind prefix (unchanged if it has none).
   *
   * @param message a message
   * @return the message without its prefix
   */
  public static String text(String message) {
    return kindOf(message) == null ? message : message.substring(message.indexOf("] ") + 2);
  }

  /**
   * The message of {@code t} without a kind prefix: for wrapping it into another message.
   *
   * @param t a throwable
   * @return its message without its prefix
   */
  public static String text(Throwable t) {
    return text(t.getMessage());
  }

  static Kind checked(Kind kind, boolean failure) {
    if (kind == null || kind.failure() != failure) {
      throw new IllegalArgumentException("kind " + kind + " is thrown as "
          + (kind != null && kind.failure() ? "SwagFailure" : "SwagException"));
    }
    return kind;
  }
}

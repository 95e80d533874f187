package io.swag.core;

/**
 * The {@link IllegalStateException} form of a {@link SwagException}: the kinds whose
 * {@link SwagException.Kind#failure()} is true ({@code SETUP}, {@code STATE}, {@code USER_FUNCTION}),
 * with the same message form ({@code "[SWAG_<KIND>] <text>"}). See {@link SwagException} for the
 * kinds and why two classes carry them.
 */
public class SwagFailure extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final SwagException.Kind kind;

  /**
   * A failure of {@code kind}; its message is {@code text} with the kind's prefix.
   *
   * @param kind a kind whose {@link SwagException.Kind#failure()} is true
   * @param text the message without its prefix
   */
  public SwagFailure(SwagException.Kind kind, String text) {
    this(kind, text, null);
  }

  /**
   * A failure of {@code kind} with a cause; its message is {@code text} with the kind's prefix.
   *
   * @param kind a kind whose {@link SwagException.Kind#failure()} is true
   * @param text the message without its prefix
   * @param cause the cause
   */
  public SwagFailure(SwagException.Kind kind, String text, Throwable cause) {
    super(SwagException.tag(SwagException.checked(kind, true), text), cause);
    this.kind = kind;
  }

  /**
   * What went wrong.
   *
   * @return the kind
   */
  public SwagException.Kind kind() {
    return kind;
  }

  /**
   * The message without its prefix.
   *
   * @return the message without its prefix
   */
  public String text() {
    return SwagException.text(getMessage());
  }
}

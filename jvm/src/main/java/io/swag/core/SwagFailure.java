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

  public SwagFailure(SwagException.Kind kind, String text) {
    this(kind, text, null);
  }

  public SwagFailure(SwagException.Kind kind, String text, Throwable cause) {
    super(SwagException.tag(SwagException.checked(kind, true), text), cause);
    this.kind = kind;
  }

  public SwagException.Kind kind() {
    return kind;
  }

  /** The message without its prefix. */
  public String text() {
    return SwagException.text(getMessage());
  }
}

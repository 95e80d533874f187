package io.swag.flink.table;

/**
 * The state of a swag OVER accumulator is inconsistent or could not be read or written (a slot
 * chunk missing or unreadable, a state backend failure), or a retraction names a row that is not in
 * the frame.
 */
public final class OverStateException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public OverStateException(String message) {
    super(message);
  }

  public OverStateException(String message, Throwable cause) {
    super(message, cause);
  }
}

package io.swag.core.plan;

import java.util.Locale;

/**
 * What an engine does with a record the row contract ({@link RowContract}) or a function refuses:
 * {@code reject} (the default: the record is counted and returned with its reason, the job goes on)
 * or {@code fail} (the job fails with the reason). One option on every engine path: the local
 * executor, the Flink operator (DataStream and PyFlink), {@code swag_window} and the OVER functions,
 * and Spark streaming and batch. Late records are never failures.
 */
public enum OnError {
  REJECT,
  FAIL;

  /** The option's value ({@code reject} or {@code fail}, any case; null is the default, reject). */
  public static OnError parse(String field, Object value) {
    if (value == null) {
      return REJECT;
    }
    String v = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "reject" -> REJECT;
      case "fail" -> FAIL;
      default -> throw new IllegalArgumentException(field + ": '" + value + "' is not one of [reject, fail]");
    };
  }

  /**
   * Called with the reason of every rejected record: nothing with {@code reject}, with {@code fail}
   * throws {@link RejectedRecordException} naming the reason and the record.
   */
  public void rejected(String reason, Object record) {
    if (this == FAIL) {
      throw new RejectedRecordException(reason, record);
    }
  }

  /** A rejected record under {@code on_error = fail}: the job fails with the record's reason. */
  public static final class RejectedRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RejectedRecordException(String reason, Object record) {
      super("record rejected (on_error=fail): " + reason + "; record: " + record);
    }
  }

  public String optionValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}

package io.swag.core.plan;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import java.util.Locale;

/**
 * What an engine does with a record the row contract ({@link RowContract}) or a function refuses:
 * {@code reject} (the default: the record is counted and returned with its reason, the job goes on)
 * or {@code fail} (the job fails with the reason). One option on every engine path: the local
 * executor, the Flink operator (DataStream and PyFlink), {@code swag_window} and the OVER functions,
 * and Spark streaming and batch. Late records are never failures.
 */
public enum OnError {
  /** The record is counted and returned with its reason; the job goes on. */
  REJECT,
  /** The job fails with the record's reason. */
  FAIL;

  /**
   * The option's value ({@code reject} or {@code fail}, any case; null is the default, reject).
   *
   * @param field the option's name, for messages
   * @param value the option's value, or null
   * @return the mode
   */
  public static OnError parse(String field, Object value) {
    if (value == null) {
      return REJECT;
    }
    String v = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "reject" -> REJECT;
      case "fail" -> FAIL;
      default -> throw new SwagException(Kind.INVALID_QUERY, field + ": '" + value + "' is not one of [reject, fail]");
    };
  }

  /**
   * Called with the reason of every rejected record: nothing with {@code reject}; with {@code fail}
   * throws a {@link SwagFailure} of kind {@link Kind#REJECTED_RECORD} naming the reason and the record
   * (an {@link IllegalStateException}: no per-record {@code catch} turns it into a rejection).
   *
   * @param reason the reason
   * @param record the rejected record
   */
  public void rejected(String reason, Object record) {
    if (this == FAIL) {
      throw new SwagFailure(Kind.REJECTED_RECORD, "record rejected (on_error=fail): " + reason + "; record: " + record);
    }
  }
}

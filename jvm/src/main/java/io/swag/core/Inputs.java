package io.swag.core;

/** Conversion of input values with errors that name the function and the offending value. */
public final class Inputs {
  private Inputs() {}

  /**
   * The value as a double, or an {@link IllegalArgumentException} naming function and value.
   *
   * @param function the function's name, for the message
   * @param value the value
   * @return the value as a double
   */
  public static double toDouble(String function, Object value) {
    if (value instanceof Number) {
      double d = ((Number) value).doubleValue();
      if (d != d) {
        throw nan(function);
      }
      return d;
    }
    if (value == null) {
      throw new IllegalArgumentException("function '" + function + "' got a null value; it takes numbers");
    }
    throw new IllegalArgumentException("function '" + function + "' takes numbers, got "
        + value.getClass().getSimpleName() + " value " + describe(value));
  }

  static IllegalArgumentException nan(String function) {
    return new IllegalArgumentException("function '" + function
        + "' got value NaN; NaN is not a number and would make the aggregate order-dependent");
  }

  /**
   * A short printable form of a value for error messages.
   *
   * @param value the value
   * @return its printable form
   */
  public static String describe(Object value) {
    String s = value instanceof CharSequence ? "\"" + value + "\"" : String.valueOf(value);
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }
}

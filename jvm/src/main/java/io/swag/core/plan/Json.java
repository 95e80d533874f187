package io.swag.core.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader and canonical writer for query specs and plans (no dependency).
 *
 * <p>Reading: objects become {@link LinkedHashMap}s (field order kept, a duplicate field is an
 * error), arrays {@link ArrayList}s, integers without fraction or exponent {@link Long} (or
 * {@link Double} beyond the long range), other numbers {@link Double}, plus {@link String},
 * {@link Boolean} and {@code null}. O(length of the text).
 *
 * <p>Writing is canonical and matches Python's
 * {@code json.dumps(value, separators=(",", ":"), ensure_ascii=True)}: no whitespace, maps in their
 * iteration order, non-ASCII escaped as {@code \\uXXXX} (lowercase hex), integers as integers and
 * doubles in Python's {@code repr} form ({@code 0.95}, {@code 1.0}, {@code 1e-05}, {@code 1e+16}).
 */
public final class Json {
  private Json() {}

  /**
   * Parses one JSON value; errors name the character offset.
   *
   * @param text the JSON text
   * @return the value: maps, lists, strings, numbers, booleans or null
   */
  public static Object parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("JSON text is null");
    }
    Reader r = new Reader(text);
    r.ws();
    Object v = r.value();
    r.ws();
    if (r.i != text.length()) {
      throw r.error("unexpected trailing text");
    }
    return v;
  }

  /**
   * The canonical JSON text of a value made of maps, lists, strings, numbers, booleans and nulls.
   *
   * @param value the value
   * @return the JSON text
   */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  static void write(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Boolean b) {
      sb.append(b ? "true" : "false");
    } else if (v instanceof Double || v instanceof Float) {
      sb.append(number(((Number) v).doubleValue()));
    } else if (v instanceof Number n) {
      sb.append(n.longValue());
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        string(sb, String.valueOf(e.getKey()));
        sb.append(':');
        write(sb, e.getValue());
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        write(sb, l.get(i));
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + v.getClass().getSimpleName() + " as JSON: " + v);
    }
  }

  /** A double in Python's repr form (shortest digits per Java's Double.toString). */
  static String number(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("JSON has no " + d);
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    String digits = b.unscaledValue().abs().toString();
    int exp = digits.length() - 1 - b.scale(); // d = 0.digits... * 10^(exp+1), i.e. d1.d2.. * 10^exp
    String sign = d < 0 ? "-" : "";
    if (exp < -4 || exp >= 16) {
      String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign + mant + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }
    String plain;
    if (exp < 0) {
      plain = "0." + "0".repeat(-exp - 1) + digits;
    } else if (digits.length() <= exp + 1) {
      plain = digits + "0".repeat(exp + 1 - digits.length()) + ".0";
    } else {
      plain = digits.substring(0, exp + 1) + "." + digits.substring(exp + 1);
    }
    return sign + plain;
  }

  static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static final class Reader {
    final String s;
    int i;

    Reader(String s) {
      this.s = s;
    }

    IllegalArgumentException error(String msg) {
      String near = s.substring(i, Math.min(s.length(), i + 20));
      return new IllegalArgumentException("invalid JSON at offset " + i + ": " + msg
          + (near.isEmpty() ? " (end of text)" : " near '" + near + "'"));
    }

    void ws() {
      while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
    }

    Object value() {
      if (i >= s.length()) {
        throw error("expected a value");
      }
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object();
        case '[':
          return array();
        case '"':
          return str();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return num();
          }
          throw error("unexpected character '" + c + "'");
      }
    }

    Object literal(String word, Object v) {
      if (!s.startsWith(word, i)) {
        throw error("expected " + word);
      }
      i += word.length();
      return v;
    }

    Map<String, Object> object() {
      Map<String, Object> m = new LinkedHashMap<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') {
          throw error("expected a field name");
        }
        String k = str();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') {
          throw error("expected ':'");
        }
        i++;
        ws();
        Object v = value();
        if (m.containsKey(k)) {
          throw error("duplicate field \"" + k + "\"");
        }
        m.put(k, v);
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
        } else if (i < s.length() && s.charAt(i) == '}') {
          i++;
          return m;
        } else {
          throw error("expected ',' or '}'");
        }
      }
    }

    List<Object> array() {
      List<Object> l = new ArrayList<>();
      i++;
      ws();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return l;
      }
      while (true) {
        ws();
        l.add(value());
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
        } else if (i < s.length() && s.charAt(i) == ']') {
          i++;
          return l;
        } else {
          throw error("expected ',' or ']'");
        }
      }
    }

    String str() {
      StringBuilder sb = new StringBuilder();
      i++;
      while (true) {
        if (i >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(i++);
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\') {
          if (i >= s.length()) {
            throw error("unterminated escape");
          }
          char e = s.charAt(i++);
          switch (e) {
            case '"', '\\', '/' -> sb.append(e);
            case 'n' -> sb.append('\n');
            case 'r' -> sb.append('\r');
            case 't' -> sb.append('\t');
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'u' -> {
              if (i + 4 > s.length()) {
                throw error("bad \\u escape");
              }
              try {
                sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
              } catch (NumberFormatException ex) {
                throw error("bad \\u escape");
              }
              i += 4;
            }
            default -> throw error("bad escape '\\" + e + "'");
          }
        } else if (c < 0x20) {
          throw error("control character in string");
        } else {
          sb.append(c);
        }
      }
    }

    Object num() {
      int start = i;
      if (s.charAt(i) == '-') {
        i++;
      }
      boolean frac = false;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c >= '0' && c <= '9') {
          i++;
        } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
          frac = true;
          i++;
        } else {
          break;
        }
      }
      String t = s.substring(start, i);
      try {
        if (!frac) {
          try {
            return Long.parseLong(t);
          } catch (NumberFormatException e) {
            return Double.parseDouble(t);
          }
        }
        return Double.parseDouble(t);
      } catch (NumberFormatException e) {
        i = start;
        throw error("bad number '" + t + "'");
      }
    }
  }
}

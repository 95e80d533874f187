package io.swag.flink;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.types.Row;

/**
 * Maps swag result rows to POJOs ({@link SwagWindows#asPojos}): each output column goes to the
 * public field or the public setter of the class whose name is the column's, in snake_case or
 * camelCase ({@code window_start}: field {@code window_start} or {@code windowStart}, setter
 * {@code setWindowStart}). Columns the class has no place for are left out; a public field no
 * column maps to is an error (a misspelt name). Checked when the job is built.
 */
final class RowToPojo<T> implements MapFunction<Row, T> {
  private static final long serialVersionUID = 1L;
  private final Class<T> type;
  private final String[] columns;
  private transient MethodHandle ctor;
  private transient MethodHandle[] setters; // by column; null: the class does not take it

  RowToPojo(Class<T> type, String[] columns) {
    this.type = type;
    this.columns = columns.clone();
    bind(); // fail at job-building time
  }

  static String camel(String snake) {
    StringBuilder b = new StringBuilder();
    boolean up = false;
    for (char c : snake.toCharArray()) {
      if (c == '_') {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  private void bind() {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      ctor = lookup.unreflectConstructor(type.getConstructor());
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalArgumentException("pojo: " + type.getName() + " needs a public no-argument constructor", e);
    }
    if (!Modifier.isPublic(type.getModifiers())) {
      throw new IllegalArgumentException("pojo: " + type.getName() + " must be a public class");
    }
    Map<String, Field> fields = new LinkedHashMap<>();
    for (Field f : type.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isFinal(f.getModifiers())) {
        fields.put(f.getName(), f);
      }
    }
    Map<String, Method> methods = new LinkedHashMap<>();
    for (Method m : type.getMethods()) {
      if (m.getName().startsWith("set") && m.getParameterCount() == 1 && !Modifier.isStatic(m.getModifiers())) {
        methods.put(m.getName().toLowerCase(Locale.ROOT), m);
      }
    }
    setters = new MethodHandle[columns.length];
    List<String> used = new ArrayList<>();
    try {
      for (int i = 0; i < columns.length; i++) {
        String c = columns[i];
        Field f = fields.containsKey(c) ? fields.get(c) : fields.get(camel(c));
        if (f != null) {
          setters[i] = lookup.unreflectSetter(f);
          used.add(f.getName());
          continue;
        }
        Method m = methods.get("set" + camel(c).toLowerCase(Locale.ROOT));
        if (m != null) {
          setters[i] = lookup.unreflect(m);
        }
      }
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("pojo: " + type.getName() + ": " + e.getMessage(), e);
    }
    for (String f : fields.keySet()) {
      if (!used.contains(f)) {
        throw new IllegalArgumentException("pojo: field '" + f + "' of " + type.getName()
            + " matches no output column; the columns are " + List.of(columns));
      }
    }
  }

  @Override
  public T map(Row row) throws Exception {
    if (setters == null) {
      bind();
    }
    try {
      @SuppressWarnings("unchecked")
      T t = (T) ctor.invoke();
      for (int i = 0; i < setters.length; i++) {
        Object v = row.getField(i);
        if (setters[i] != null && v != null) {
          setters[i].invoke(t, v);
        }
      }
      return t;
    } catch (Throwable e) {
      if (e instanceof Exception x) {
        throw x;
      }
      throw new RuntimeException(e);
    }
  }
}

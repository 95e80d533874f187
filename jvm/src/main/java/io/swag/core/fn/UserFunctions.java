package io.swag.core.fn;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.SwagFailure;
import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import io.swag.core.Inputs;
import io.swag.core.ResultType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * User-defined aggregate functions: the query function {@code udaf} with option {@code class} (the
 * fully qualified name of a class implementing {@link AggregateFunction}) and any other options as
 * the class's parameters. The one place where such a class is loaded, checked and constructed, for
 * every engine.
 *
 * <ul>
 *   <li>Loading: by the calling thread's context class loader (Spark's and Flink's user-code
 *       loaders), then swag's own. The class must be on the class path of the JVM that plans the
 *       query and of the ones that run it (docs/udaf.md: per engine).
 *   <li>Construction: a public constructor taking {@code Map<String, Object>} (the parameters, without
 *       {@code class}), else a public no-arg constructor (then no parameters may be given).
 *   <li>The instance is wrapped ({@link UserFunction}): a value its {@code lift} refuses by throwing
 *       any {@link RuntimeException} becomes an {@link IllegalArgumentException} naming the class,
 *       the column and the value, which every engine turns into a rejected record (counted, returned
 *       with the reason), never a failed job; {@code lower}'s results are converted to the declared
 *       {@link AggregateFunction#resultType()}. The flags ({@code isCommutative},
 *       {@code isInvertible}, {@link ByteForm}) are the class's own, so planning treats it as a
 *       built-in with the same flags.
 * </ul>
 * Every problem is an {@link IllegalArgumentException} naming the class and the column.
 */
public final class UserFunctions {
  /** The query function name of a user-defined function. */
  public static final String FUNCTION = "udaf";
  /** The option naming the class. */
  public static final String CLASS_OPTION = "class";

  private UserFunctions() {}

  /**
   * The user's function named by {@code options.class}, constructed with the other options.
   *
   * @param options the aggregate's options, with {@code class}
   * @return the function
   * @param column the aggregate's input column (for messages; may be null)
   */
  public static AggregateFunction<Object, Object, Object> load(Map<String, ?> options, String column) {
    Object cls = options == null ? null : options.get(CLASS_OPTION);
    String where = column == null ? "" : " (column '" + column + "')";
    if (!(cls instanceof String name) || name.isBlank()) {
      throw new SwagException(Kind.INVALID_OPTION, "function 'udaf'" + where + " needs option 'class': the fully qualified name "
          + "of a class implementing io.swag.core.AggregateFunction, got " + Inputs.describe(cls));
    }
    Map<String, Object> params = new LinkedHashMap<>(options);
    params.remove(CLASS_OPTION);
    String label = "udaf '" + name + "'" + where;
    Class<?> c = find(name.trim(), label);
    if (!AggregateFunction.class.isAssignableFrom(c)) {
      throw new SwagException(Kind.INVALID_OPTION, label + ": class does not implement io.swag.core.AggregateFunction");
    }
    Object instance = construct(c, params, label);
    @SuppressWarnings("unchecked")
    AggregateFunction<Object, Object, Object> fn = (AggregateFunction<Object, Object, Object>) instance;
    String text = "udaf '" + name + "'" + (column == null ? "" : " on column '" + column + "'");
    return fn instanceof ByteForm<?> ? new WithByteForm(fn, name, text) : new UserFunction(fn, name, text);
  }

  private static Class<?> find(String name, String label) {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    for (ClassLoader l : new ClassLoader[] {context, UserFunctions.class.getClassLoader()}) {
      if (l == null) {
        continue;
      }
      try {
        return Class.forName(name, true, l);
      } catch (ClassNotFoundException | NoClassDefFoundError e) {
        // try the next loader
      }
    }
    throw new SwagException(Kind.INVALID_OPTION, label + ": class not found on the class path; add the jar that holds it "
        + "(local: swag.add_jars(...) before the first query; Spark: swag.spark.session(jars=[...]) or --jars; "
        + "Spark Connect: the server's --jars; Flink: env.add_jars(...) or the job jar)");
  }

  private static Object construct(Class<?> c, Map<String, Object> params, String label) {
    try {
      Constructor<?> k;
      Object[] args;
      try {
        k = c.getConstructor(Map.class);
        args = new Object[] {java.util.Collections.unmodifiableMap(params)};
      } catch (NoSuchMethodException e) {
        try {
          k = c.getConstructor();
        } catch (NoSuchMethodException e2) {
          throw new SwagException(Kind.INVALID_OPTION, label + ": no public constructor taking a java.util.Map (the "
              + "parameters) or no arguments");
        }
        if (!params.isEmpty()) {
          throw new SwagException(Kind.INVALID_OPTION, label + ": parameters " + params.keySet() + " given, but the class has "
              + "no public constructor taking a java.util.Map");
        }
        args = new Object[0];
      }
      return k.newInstance(args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      throw new SwagException(Kind.INVALID_OPTION, label + ": the constructor threw " + t, t);
    } catch (InstantiationException | IllegalAccessException e) {
      throw new SwagException(Kind.INVALID_OPTION, label + ": cannot be instantiated: " + e, e);
    }
  }

  /**
   * A user's function as swag runs it: the class's own flags and combine, {@code lift} errors as
   * {@link IllegalArgumentException} (a rejected record), results converted to the declared type.
   */
  static class UserFunction implements AggregateFunction<Object, Object, Object> {
    final AggregateFunction<Object, Object, Object> fn;
    private final String className;
    private final String label;
    private final ResultType type;

    UserFunction(AggregateFunction<Object, Object, Object> fn, String className, String label) {
      this.fn = fn;
      this.className = className;
      this.label = label;
      ResultType t = fn.resultType();
      this.type = t == null ? ResultType.STRING : t;
    }

    @Override
    public String name() {
      return FUNCTION + "(" + className + ")";
    }

    /** A failure of the user's code outside {@code lift}: a typed error naming the class, column and method. */
    private SwagFailure failed(String method, RuntimeException e) {
      return new SwagFailure(Kind.USER_FUNCTION, label + ": " + method + " threw " + e, e);
    }

    @Override
    public Object identity() {
      try {
        return fn.identity();
      } catch (RuntimeException e) {
        throw failed("identity", e);
      }
    }

    @Override
    public Object lift(Object value, long arg) {
      try {
        return fn.lift(value, arg);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(label + " refused " + Inputs.describe(value) + ": " + e, e);
      }
    }

    @Override
    public Object combine(Object older, Object newer) {
      try {
        return fn.combine(older, newer);
      } catch (RuntimeException e) {
        throw failed("combine", e);
      }
    }

    @Override
    public Object lower(Object partial) {
      Object r;
      try {
        r = fn.lower(partial);
      } catch (RuntimeException e) {
        throw failed("lower", e);
      }
      return type.convert(r);
    }

    @Override
    public boolean isCommutative() {
      return fn.isCommutative();
    }

    @Override
    public boolean isInvertible() {
      return fn.isInvertible();
    }

    @Override
    public Object inverse(Object whole, Object older) {
      try {
        return fn.inverse(whole, older);
      } catch (RuntimeException e) {
        throw failed("inverse", e);
      }
    }

    @Override
    public int combineCost() {
      return fn.combineCost();
    }

    @Override
    public ResultType resultType() {
      return type;
    }

    /** The user's own instance (for tests and the laws check). */
    AggregateFunction<Object, Object, Object> unwrap() {
      return fn;
    }
  }

  /** A {@link UserFunction} whose class has a byte form: partials can be written, so it can be pre-aggregated. */
  static final class WithByteForm extends UserFunction implements ByteForm<Object> {
    private final ByteForm<Object> bytes;

    @SuppressWarnings("unchecked")
    WithByteForm(AggregateFunction<Object, Object, Object> fn, String className, String label) {
      super(fn, className, label);
      this.bytes = (ByteForm<Object>) fn;
    }

    @Override
    public int byteSize(Object partial) {
      return bytes.byteSize(partial);
    }

    @Override
    public void write(Object partial, ByteBuffer out) {
      bytes.write(partial, out);
    }

    @Override
    public Object read(ByteBuffer in, int length) {
      return bytes.read(in, length);
    }
  }
}

package io.swag.core.fn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import io.swag.core.ResultType;
import io.swag.core.plan.AggregateSpec;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loading, checking and running user-defined functions (function {@code udaf}). */
class UserFunctionsTest {

  /** Concatenates integer inputs as text in order: "1,2,3" (non-commutative); refuses negative values. */
  public static final class Concat implements AggregateFunction<Object, String, String> {
    final String sep;

    public Concat(Map<String, Object> params) {
      this.sep = String.valueOf(params.getOrDefault("sep", ","));
    }

    public String name() {
      return "concat";
    }

    public String identity() {
      return "";
    }

    public String lift(Object v, long t) {
      long x = ((Number) v).longValue();
      if (x < 0) {
        throw new IllegalStateException("negative: " + x);
      }
      return Long.toString(x);
    }

    public String combine(String a, String b) {
      return a.isEmpty() ? b : b.isEmpty() ? a : a + sep + b;
    }

    public String lower(String p) {
      return p;
    }
  }

  /** A commutative sum with a byte form and a declared LONG result. */
  public static final class LongSum implements AggregateFunction<Object, Long, Long>, ByteForm<Long> {
    public String name() {
      return "lsum";
    }

    public Long identity() {
      return 0L;
    }

    public Long lift(Object v, long t) {
      return ((Number) v).longValue();
    }

    public Long combine(Long a, Long b) {
      return a + b;
    }

    public Long lower(Long p) {
      return p;
    }

    @Override
    public boolean isCommutative() {
      return true;
    }

    @Override
    public ResultType resultType() {
      return ResultType.LONG;
    }

    public int byteSize(Long p) {
      return 8;
    }

    public void write(Long p, ByteBuffer out) {
      out.putLong(p);
    }

    public Long read(ByteBuffer in, int length) {
      return in.getLong();
    }
  }

  public static final class NoArgs implements AggregateFunction<Object, Long, Long> {
    public String name() {
      return "noargs";
    }

    public Long identity() {
      return 0L;
    }

    public Long lift(Object v, long t) {
      return 1L;
    }

    public Long combine(Long a, Long b) {
      return a + b;
    }

    public Long lower(Long p) {
      return p;
    }
  }

  public static final class Throws implements AggregateFunction<Object, Long, Long> {
    public Throws(Map<String, Object> p) {
      throw new IllegalStateException("no license");
    }

    public String name() {
      return "throws";
    }

    public Long identity() {
      return 0L;
    }

    public Long lift(Object v, long t) {
      return 1L;
    }

    public Long combine(Long a, Long b) {
      return a + b;
    }

    public Long lower(Long p) {
      return p;
    }
  }

  private static Map<String, Object> opts(String cls, Object... kv) {
    Map<String, Object> m = new HashMap<>();
    m.put("class", cls);
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void loadsWithParametersAndKeepsTheClassFlags() {
    AggregateFunction<?, ?, ?> f = new AggregateSpec("c", "udaf", "v", opts(Concat.class.getName(), "sep", "|")).create();
    assertEquals("udaf(" + Concat.class.getName() + ")", f.name());
    assertFalse(f.isCommutative());
    assertEquals(ResultType.STRING, f.resultType());
    AggregateFunction<?, ?, ?> s = new AggregateSpec("s", "UDAF", "v", opts(LongSum.class.getName())).create();
    assertTrue(s.isCommutative());
    assertInstanceOf(ByteForm.class, s);
    assertEquals(ResultType.LONG, s.resultType());
    assertInstanceOf(UserFunctions.UserFunction.class, new AggregateSpec("n", "udaf", "v",
        opts(NoArgs.class.getName())).create());
  }

  @Test
  void badClassesAreClearErrorsNamingClassAndColumn() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new AggregateSpec("x", "udaf", "v", opts("com.example.Missing")).create());
    assertTrue(e.getMessage().contains("'com.example.Missing'") && e.getMessage().contains("column 'v'")
        && e.getMessage().contains("not found"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new AggregateSpec("x", "udaf", "v", opts(String.class.getName())).create());
    assertTrue(e.getMessage().contains("does not implement io.swag.core.AggregateFunction")
        && e.getMessage().contains("'java.lang.String'") && e.getMessage().contains("column 'v'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new AggregateSpec("x", "udaf", "v", opts(NoArgs.class.getName(), "k", 3)).create());
    assertTrue(e.getMessage().contains("[k]") && e.getMessage().contains("Map"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new AggregateSpec("x", "udaf", "v", opts(Throws.class.getName())).create());
    assertTrue(e.getMessage().contains("constructor threw") && e.getMessage().contains("no license"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new AggregateSpec("x", "udaf", "v", Map.of()).create());
    assertTrue(e.getMessage().contains("needs option 'class'"), e.getMessage());
  }

  @Test
  void aQueryWithAMissingClassFailsValidationAtTheOptionsPath() {
    String json = "{\"key\": [], \"time\": \"t\", \"windows\": [{\"size\": 10, \"slide\": 5, \"aggregates\": ["
        + "{\"output\": \"x\", \"function\": \"udaf\", \"column\": \"v\", \"options\": {\"class\": \"no.Such\"}}]}]}";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QuerySpec.fromJson(json));
    assertTrue(e.getMessage().contains("windows[0].aggregates[0].options") && e.getMessage().contains("no.Such"),
        e.getMessage());
  }

  /**
   * Concat over out-of-order records through the planner's tree: each window's text is its values in
   * time order (an independent recompute), a value the class refuses is a rejected record with a
   * reason naming the class and column, and nothing else changes.
   */
  @Test
  void runsInOrderOfTimeAndRejectsWhatLiftRefuses() {
    String json = "{\"key\": [\"k\"], \"time\": \"t\", \"order\": \"out_of_order\", \"windows\": [{\"size\": 6, "
        + "\"slide\": 3, \"aggregates\": [{\"output\": \"c\", \"function\": \"udaf\", \"column\": \"v\", \"options\": "
        + "{\"class\": \"" + Concat.class.getName() + "\"}}, {\"output\": \"s\", \"function\": \"udaf\", \"column\": \"v\","
        + " \"options\": {\"class\": \"" + LongSum.class.getName() + "\"}}]}]}";
    LocalExecutor ex = new LocalExecutor(Planner.plan(QuerySpec.fromJson(json)));
    long[] ts = {5, 1, 3, 2, 8, 7, 4, 6, 11, 9};
    long[] vs = {50, 10, 30, 20, 80, 70, -1, 60, 110, 90};
    for (int i = 0; i < ts.length; i++) {
      Map<String, Object> r = new HashMap<>();
      r.put("k", "a");
      r.put("t", ts[i]);
      r.put("v", vs[i]);
      ex.process(r);
    }
    ex.finish();
    List<Map<String, Object>> rejected = ex.takeRejected();
    assertEquals(1, rejected.size());
    String reason = String.valueOf(rejected.get(0));
    assertTrue(reason.contains(Concat.class.getName()) && reason.contains("column 'v'") && reason.contains("negative"),
        reason);
    int n = 0;
    for (Map<String, Object> row : ex.takeRows()) {
      long st = (Long) row.get("window_start");
      List<String> want = new ArrayList<>();
      long sum = 0;
      for (long t = st; t < st + 6; t++) {
        for (int i = 0; i < ts.length; i++) {
          if (ts[i] == t && vs[i] >= 0) {
            want.add(Long.toString(vs[i]));
            sum += vs[i];
          }
        }
      }
      assertEquals(String.join(",", want), row.get("c"), row.toString());
      assertEquals(sum, row.get("s"), row.toString());
      n++;
    }
    assertTrue(n >= 4, "rows: " + n);
  }

  @Test
  void theLawsCheckFindsAFalseCommutativityClaim() {
    AggregateFunction<?, ?, ?> concat = new AggregateSpec("c", "udaf", "v", opts(Concat.class.getName())).create();
    List<Object> samples = List.of(1L, 2L, 3L, 4L, 5L);
    assertEquals(List.of(), FunctionLaws.check(concat, samples, 20, 1));
    AggregateFunction<Object, String, String> liar = new AggregateFunction<>() {
      final Concat c = new Concat(Map.of());

      public String name() {
        return "liar";
      }

      public String identity() {
        return "";
      }

      public String lift(Object v, long t) {
        return c.lift(v, t);
      }

      public String combine(String a, String b) {
        return c.combine(a, b);
      }

      public String lower(String p) {
        return p;
      }

      @Override
      public boolean isCommutative() {
        return true;
      }
    };
    List<String> bad = FunctionLaws.check(liar, samples, 20, 1);
    assertEquals(1, bad.size(), bad.toString());
    assertTrue(bad.get(0).contains("commutative"), bad.toString());
    List<String> lift = FunctionLaws.check(concat, List.of(1L, -2L), 5, 1);
    assertTrue(lift.get(0).contains("threw") && lift.get(0).contains("negative"), lift.toString());
  }

  /** An invertible, cheap sum: subtract-on-evict eligible, like the built-in sum. */
  public static final class InvSum implements AggregateFunction<Object, Long, Long> {
    public String name() {
      return "invsum";
    }

    public Long identity() {
      return 0L;
    }

    public Long lift(Object v, long t) {
      return ((Number) v).longValue();
    }

    public Long combine(Long a, Long b) {
      if (a == 13L && b == 13L) {
        throw new ArithmeticException("13 + 13 is bad luck");
      }
      return a + b;
    }

    public Long lower(Long p) {
      return p;
    }

    @Override
    public boolean isCommutative() {
      return true;
    }

    @Override
    public boolean isInvertible() {
      return true;
    }

    @Override
    public Long inverse(Long whole, Long older) {
      return whole - older;
    }

    @Override
    public int combineCost() {
      return 1;
    }
  }

  /** The planner treats a user's function by its flags, as a built-in with the same flags. */
  @Test
  void flagsDrivePlanning() {
    String count = "{\"key\":[\"k\"],\"windows\":[{\"kind\":\"count\",\"size\":5,\"slide\":1,\"aggregates\":"
        + "[{\"output\":\"x\",\"function\":\"udaf\",\"column\":\"v\",\"options\":{\"class\":\"%s\"}}]}]}";
    // invertible and cheap: subtract-on-evict for a count window (as the built-in sum); not invertible: DABA Lite
    assertEquals(Algorithm.SOE, Planner.plan(QuerySpec.fromJson(String.format(count, InvSum.class.getName())))
        .groups().get(0).algorithm());
    assertEquals(Algorithm.DABA_LITE, Planner.plan(QuerySpec.fromJson(String.format(count, LongSum.class.getName())))
        .groups().get(0).algorithm());
    // commutative with a byte form: pre-aggregated into slices (Spark's map side, the Flink operator's
    // stored slices); without a byte form, or not commutative: records
    String time = "{\"key\":[\"k\"],\"time\":\"t\",\"windows\":[{\"size\":1000,\"slide\":100,\"aggregates\":"
        + "[{\"output\":\"x\",\"function\":\"udaf\",\"column\":\"v\",\"options\":{\"class\":\"%s\"}}]}]}";
    for (Object[] c : new Object[][] {{LongSum.class, true}, {InvSum.class, false}, {Concat.class, false}}) {
      io.swag.core.plan.Plan plan = Planner.plan(QuerySpec.fromJson(String.format(time, ((Class<?>) c[0]).getName())));
      boolean pre = io.swag.core.plan.WindowGroup.storedGroups(plan, List.of("k", "t", "v"), false).get(0).preaggregates();
      assertEquals(c[1], pre, ((Class<?>) c[0]).getSimpleName());
    }
  }

  /** A user's combine, lower or inverse that throws is a typed error naming the class, column and method. */
  @Test
  void failuresOutsideLiftNameClassColumnAndMethod() {
    @SuppressWarnings("unchecked")
    AggregateFunction<Object, Object, Object> f = (AggregateFunction<Object, Object, Object>)
        new AggregateSpec("x", "udaf", "v", opts(InvSum.class.getName())).create();
    Object a = f.lift(13L, 0);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.combine(a, f.lift(13L, 1)));
    assertTrue(e.getMessage().contains("'" + InvSum.class.getName() + "'") && e.getMessage().contains("column 'v'")
        && e.getMessage().contains("combine threw") && e.getMessage().contains("bad luck"), e.getMessage());
    assertEquals(io.swag.core.SwagException.Kind.USER_FUNCTION, io.swag.core.SwagException.kindOf(e));
    assertEquals(7L, f.combine(f.lift(3L, 0), f.lift(4L, 1)));
  }
}

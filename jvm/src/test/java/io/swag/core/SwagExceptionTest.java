package io.swag.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.SwagException.Kind;
import io.swag.core.fn.Functions;
import io.swag.core.plan.LocalExecutor;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.StoredWindows;
import io.swag.core.plan.WindowGroup;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The kinds survive the message text alone, and representative bad calls throw the expected kind. */
class SwagExceptionTest {
  private static final String QUERY = "{'key':['k'],'time':'t','windows':[{'size':10,'aggregates':"
      + "[{'output':'m','function':'max','column':'v'}]}]}";

  private static RuntimeException of(Kind kind, String text) {
    return kind.failure() ? new SwagFailure(kind, text) : new SwagException(kind, text);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void kindAndTextSurviveTheMessage(Kind kind) {
    String text = "windows[0].size: -1; must be > 0 [not a prefix] ";
    RuntimeException e = of(kind, text);
    String message = e.getMessage();
    assertEquals("[SWAG_" + kind.name() + "] " + text, message);
    // what a front-end that sees only text gets
    assertEquals(kind, SwagException.kindOf(message));
    assertEquals(text, SwagException.text(message));
    // Java readers
    assertEquals(kind, SwagException.kindOf(e));
    assertEquals(kind, SwagException.kindOf(new RuntimeException(message))); // the text of a copy
    // the class follows the kind: a failure is no IllegalArgumentException (never a rejected record)
    if (kind.failure()) {
      assertInstanceOf(IllegalStateException.class, e);
      assertEquals(text, ((SwagFailure) e).text());
      assertThrows(IllegalArgumentException.class, () -> new SwagException(kind, text));
    } else {
      assertInstanceOf(IllegalArgumentException.class, e);
      assertEquals(text, ((SwagException) e).text());
      assertThrows(IllegalArgumentException.class, () -> new SwagFailure(kind, text));
    }
  }

  @Test
  void messagesWithoutAKnownPrefixHaveNoKind() {
    for (String m : new String[] {"function 'sum' takes numbers", "[SWAG_NO_SUCH_KIND] x", " [SWAG_SETUP] x",
        "[SWAG_SETUP]x", "x [SWAG_SETUP] y"}) {
      assertNull(SwagException.kindOf(m), m);
      assertEquals(m, SwagException.text(m));
    }
    assertNull(SwagException.kindOf((String) null));
    assertNull(SwagException.kindOf(new IllegalArgumentException("no kind")));
  }

  @Test
  void queryValidation() {
    SwagException e = assertThrows(SwagException.class, () -> QuerySpec.fromJson(json(QUERY.replace("10", "-1"))));
    assertEquals(Kind.INVALID_QUERY, e.kind());
    assertEquals("windows[0].size: -1; must be > 0", e.text());

    e = assertThrows(SwagException.class, () -> QuerySpec.fromJson(json(QUERY.replace("'max'", "'maximum'"))));
    assertEquals(Kind.UNKNOWN_QUERY_FUNCTION, e.kind());
    assertTrue(e.text().startsWith("windows[0].aggregates[0].function: \"maximum\"; unknown aggregate function"),
        e.text());
    assertFalse(e.text().contains("[SWAG_"), "a wrapped message keeps no inner prefix: " + e.text());

    e = assertThrows(SwagException.class, () -> QuerySpec.fromJson(json(QUERY.replace("'column':'v'",
        "'column':'v','options':{'bits':3}"))));
    assertEquals(Kind.INVALID_QUERY, e.kind());
    assertTrue(e.text().contains("function 'max' has no option 'bits'") && !e.text().contains("[SWAG_"), e.text());

    e = assertThrows(SwagException.class, () -> QuerySpec.fromJson("{"));
    assertEquals(Kind.INVALID_QUERY, e.kind());
    assertTrue(e.text().startsWith("query spec: invalid JSON"), e.text());
  }

  @Test
  void aggregatorArguments() {
    assertEquals(Kind.UNKNOWN_FUNCTION,
        assertThrows(SwagException.class, () -> Functions.byName("maximum")).kind());
    assertEquals(Kind.INVALID_OPTION,
        assertThrows(SwagException.class, () -> Functions.byName("bloom", Map.of("size", 3))).kind());
    assertEquals(Kind.INVALID_OPTION,
        assertThrows(SwagException.class, () -> Functions.byName("quantile")).kind());
    assertEquals(Kind.UNKNOWN_ALGORITHM,
        assertThrows(SwagException.class, () -> Swag.timed("quick_sort", "max")).kind());
    assertEquals(Kind.UNKNOWN_ALGORITHM,
        assertThrows(SwagException.class, () -> Swag.fifo("quick_sort", "max")).kind());
    assertEquals(Kind.INVALID_OPTION,
        assertThrows(SwagException.class, () -> Swag.timed("fiba", "max", Map.of("minArity", 3))).kind());
    assertEquals(Kind.INCOMPATIBLE_FUNCTION,
        assertThrows(SwagException.class, () -> Swag.fifo("soe", "max")).kind());
  }

  @Test
  void valueRefusalsStayPlainIllegalArgumentExceptions() {
    // engines turn these into rejected records whose reason is the message: no prefix there
    @SuppressWarnings("unchecked")
    AggregateFunction<Object, Object, Object> sum = (AggregateFunction<Object, Object, Object>) Functions.byName("sum");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sum.lift("x", 0));
    assertFalse(e instanceof SwagException);
    assertNull(SwagException.kindOf(e));
  }

  @Test
  void inputNotFittingTheQuery() {
    var plan = Planner.plan(QuerySpec.fromJson(json(QUERY)));
    SwagException e = assertThrows(SwagException.class, () -> new LocalExecutor(plan, List.of("k", "t")));
    assertEquals(Kind.INVALID_INPUT, e.kind());
    assertTrue(e.text().contains("lacks column 'v'"), e.text());
  }

  @Test
  void oneMessageForAnInputWithoutAColumnTheQueryReads() {
    QuerySpec spec = QuerySpec.fromJson(json(QUERY));
    List<String> input = List.of("k", "t", "w");
    SwagException e = assertThrows(SwagException.class, () -> io.swag.core.plan.RowContract.requireColumns(spec, input));
    assertEquals(Kind.INVALID_INPUT, e.kind());
    assertEquals("column 'v' of aggregate 'm' (window '10ms/10ms') is not a column of the input; its columns are "
        + "[k, t, w]", e.text());
    assertEquals("time column 't' is not a column of the input; its columns are [k, v]",
        assertThrows(SwagException.class, () -> io.swag.core.plan.RowContract.requireColumns(spec, List.of("k", "v")))
            .text());
    assertEquals("key column 'k' is not a column of the input; its columns are []",
        assertThrows(SwagException.class, () -> io.swag.core.plan.RowContract.requireColumns(spec, List.of())).text());
    io.swag.core.plan.RowContract.requireColumns(spec, List.of("v", "t", "k", "extra")); // all there: no error
  }

  @Test
  void restoredStateOfAnotherPlan() throws Exception {
    var plan = Planner.plan(QuerySpec.fromJson(json(QUERY)));
    List<WindowGroup> groups = WindowGroup.timeGroups(plan, List.of("k", "t", "v"), true);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StoredWindows.writeEmptyMetas(groups.size() + 1, new DataOutputStream(bytes));
    SwagFailure e = assertThrows(SwagFailure.class, () -> StoredWindows.loadAll(groups, 0,
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), null, "test"));
    assertEquals(Kind.STATE, e.kind());
    assertTrue(e.text().startsWith("test: restored state has 2 time groups, the plan 1"), e.text());
  }

  private static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }
}

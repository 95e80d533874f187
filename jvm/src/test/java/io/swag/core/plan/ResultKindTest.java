package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fn.Functions;
import io.swag.core.fn.Structured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The output contract: every function's {@link AggregateSpec#resultKind} against the values the
 * local executor really produces for it (the engines map the kind to their types, so a kind that
 * does not describe the values would type a column wrongly on every engine).
 */
class ResultKindTest {
  private static final List<String> SKIPPED = List.of(io.swag.core.fn.UserFunctions.FUNCTION); // needs a class

  @Test
  void everyFunctionsValuesAreOfItsKind() {
    List<String> aggs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String f : Functions.names()) {
      if (SKIPPED.contains(f)) {
        continue;
      }
      names.add(f);
      String opts = f.equals("quantile") ? ",\"options\":{\"rank\":0.9}" : "";
      aggs.add("{\"output\":\"" + f + "\",\"function\":\"" + f + "\",\"column\":\"v\"" + opts + "}");
    }
    names.add("kll_rank");
    aggs.add("{\"output\":\"kll_rank\",\"function\":\"kll\",\"column\":\"v\",\"options\":{\"rank\":0.5}}");
    QuerySpec spec = QuerySpec.fromJson("{\"key\":[\"k\"],\"time\":\"t\",\"windows\":[{\"name\":\"w\",\"size\":100,"
        + "\"aggregates\":[" + String.join(",", aggs) + "]}]}");
    LocalExecutor ex = new LocalExecutor(Planner.plan(spec), List.of("k", "t", "v"));
    for (int i = 0; i < 20; i++) {
      ex.process(new Object[] {"a", (long) (i * 3), (double) (i % 7)});
    }
    ex.finish();
    List<Map<String, Object>> rows = ex.takeRows();
    assertFalse(rows.isEmpty());
    Map<String, AggregateSpec> byOutput = new java.util.HashMap<>();
    for (AggregateSpec a : spec.windows().get(0).aggregates()) {
      byOutput.put(a.output(), a);
    }
    int checked = 0;
    for (Map<String, Object> row : rows) {
      for (String n : names) {
        Object v = row.get(n);
        if (v == null) {
          continue;
        }
        ResultKind k = byOutput.get(n).resultKind();
        boolean ok = switch (k) {
          case LONG, TIME -> v instanceof Long;
          case DOUBLE -> v instanceof Double;
          case LIST -> v instanceof List;
          case STRUCT -> v instanceof Structured || v instanceof Map;
          case STRING -> v instanceof String;
          case BOOLEAN -> v instanceof Boolean;
        };
        assertTrue(ok, n + ": kind " + k + " but the value is " + v.getClass().getName() + " " + v);
        checked++;
      }
    }
    assertTrue(checked >= names.size(), "values checked: " + checked);
  }

  @Test
  void argminAndArgmaxAreTimes() {
    assertEquals(ResultKind.TIME, AggregateSpec.of("a", "argmin", "v").resultKind());
    assertEquals(ResultKind.TIME, AggregateSpec.of("a", "argmax", "v").resultKind());
    assertEquals(ResultKind.DOUBLE, new AggregateSpec("q", "kll", "v", Map.of("rank", 0.5)).resultKind());
    assertEquals(ResultKind.STRUCT, AggregateSpec.of("q", "kll", "v").resultKind());
  }
}

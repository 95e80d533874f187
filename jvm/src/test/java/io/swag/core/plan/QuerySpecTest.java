package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.SwagException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec validation (each error names the field path and the value), defaults, canonical JSON. */
class QuerySpecTest {

  static final String DOC_EXAMPLE = """
      {
        "version": 1,
        "key": ["start_station"],
        "time": "start_time",
        "lateness_ms": 3600000,
        "order": "unknown",
        "emit": "window_end",
        "columns": {"duration": "double", "bike_id": "string", "start_station": "long"},
        "windows": [
          {"name": "1h/1min", "kind": "time", "size": 3600000, "slide": 60000, "offset": 0,
           "aggregates": [
             {"output": "max_trip", "function": "max", "column": "duration", "options": {}},
             {"output": "p95", "function": "quantile", "column": "duration", "options": {"rank": 0.95}}
           ]},
          {"name": "last100", "kind": "count", "size": 100, "slide": 1, "offset": 0,
           "aggregates": [{"output": "n", "function": "count", "column": null, "options": {}}]}
        ]
      }""";

  static final String CANONICAL = "{\"version\":1,\"key\":[\"start_station\"],\"time\":\"start_time\","
      + "\"lateness_ms\":3600000,\"order\":\"unknown\",\"emit\":\"window_end\",\"columns\":{\"bike_id\":\"string\","
      + "\"duration\":\"double\",\"start_station\":\"long\"},\"windows\":[{\"name\":\"1h/1min\",\"kind\":\"time\","
      + "\"size\":3600000,\"slide\":60000,\"offset\":0,\"aggregates\":[{\"output\":\"max_trip\",\"function\":\"max\","
      + "\"column\":\"duration\",\"options\":{}},{\"output\":\"p95\",\"function\":\"quantile\",\"column\":\"duration\","
      + "\"options\":{\"rank\":0.95}}]},{\"name\":\"last100\",\"kind\":\"count\",\"size\":100,\"slide\":1,\"offset\":0,"
      + "\"aggregates\":[{\"output\":\"n\",\"function\":\"count\",\"column\":null,\"options\":{}}]}]}";

  @Test
  void theTimeColumnIsNotAKeyColumn() {
    SwagException e = assertThrows(SwagException.class, () -> QuerySpec.fromJson("{\"key\":[\"k\",\"t\"],"
        + "\"time\":\"t\",\"windows\":[{\"size\":10,\"aggregates\":[{\"output\":\"n\",\"function\":\"count\"}]}]}"));
    assertEquals("time: \"t\"; is also a key column", e.text());
    assertEquals(SwagException.Kind.INVALID_QUERY, e.kind());
  }

  @Test
  void docExampleIsValidAndCanonical() {
    QuerySpec q = QuerySpec.fromJson(DOC_EXAMPLE);
    assertEquals(CANONICAL, q.toJson());
    assertEquals(q, QuerySpec.fromJson(q.toJson()));
    assertEquals(q.hashCode(), QuerySpec.fromJson(q.toJson()).hashCode());
    assertEquals(CANONICAL, QuerySpec.fromJson(CANONICAL).toJson());
  }

  @Test
  void defaultsAreFilled() {
    QuerySpec q = QuerySpec.fromJson("{\"windows\":[{\"size\":3600000,\"slide\":60000,"
        + "\"aggregates\":[{\"output\":\"n\",\"function\":\"count\"}]},"
        + "{\"size\":5400000,\"aggregates\":[{\"output\":\"m\",\"function\":\"MAX\",\"column\":\"x\"}]},"
        + "{\"kind\":\"count\",\"size\":10,\"aggregates\":[{\"output\":\"c\",\"function\":\"count\"}]}]}");
    assertEquals("{\"version\":1,\"key\":[],\"time\":null,\"lateness_ms\":0,\"order\":\"unknown\","
        + "\"emit\":\"window_end\",\"columns\":{},\"windows\":[{\"name\":\"1h/1min\",\"kind\":\"time\",\"size\":3600000,"
        + "\"slide\":60000,\"offset\":0,\"aggregates\":[{\"output\":\"n\",\"function\":\"count\",\"column\":null,"
        + "\"options\":{}}]},{\"name\":\"90min/90min\",\"kind\":\"time\",\"size\":5400000,\"slide\":5400000,\"offset\":0,"
        + "\"aggregates\":[{\"output\":\"m\",\"function\":\"max\",\"column\":\"x\",\"options\":{}}]},{\"name\":\"10/10\","
        + "\"kind\":\"count\",\"size\":10,\"slide\":10,\"offset\":0,\"aggregates\":[{\"output\":\"c\",\"function\":"
        + "\"count\",\"column\":null,\"options\":{}}]}]}", q.toJson());
  }

  @Test
  void builderMatchesJson() {
    QuerySpec b = QuerySpec.builder().key("start_station").time("start_time").latenessMs(3_600_000)
        .column("duration", "double").column("bike_id", "string").column("start_station", "long")
        .window(WindowSpec.time(3_600_000, 60_000).aggregate("max_trip", "max", "duration")
            .aggregate("p95", "quantile", "duration", Map.of("rank", 0.95)))
        .window(WindowSpec.count(100, 1).name("last100").aggregate("n", "count", null))
        .build();
    assertEquals(QuerySpec.fromJson(DOC_EXAMPLE), b);
    assertEquals(CANONICAL, b.toJson());
    QuerySpec other = QuerySpec.builder().key("start_station").time("start_time")
        .window(WindowSpec.tumbling(60_000).aggregate("n", "count", null)).build();
    assertNotEquals(b, other);
    SwagException e = assertThrows(SwagException.class, () -> QuerySpec.builder()
        .window(WindowSpec.time(1000, 2000).aggregate("n", "count", null)).build());
    assertEquals(SwagException.Kind.INVALID_QUERY, e.kind());
    assertTrue(e.text().startsWith("windows[0].slide: 2000"), e.getMessage());
  }

  /** JSON text (with ' for "), then the expected start of the error message. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{'windows':[{'size':3600000,'slide':60000,'aggregates':[{'output':'n','function':'count'}]},"
          + "{'size':3600000,'slide':7200000,'aggregates':[{'output':'m','function':'count'}]}]}"
          + "| windows[1].slide: 7200000 > size 3600000; hopping windows with gaps are not supported",
      "{'version':2,'windows':[]}| version: 2;",
      "{'key':['a','a'],'windows':[]}| key[1]: \"a\"; duplicate",
      "{'key':['a',''],'windows':[]}| key[1]: \"\";",
      "{'key':'','windows':[]}| key[0]: \"\";",
      "{'time':5,'windows':[]}| time: 5;",
      "{'lateness_ms':-1,'windows':[]}| lateness_ms: -1; must be >= 0",
      "{'lateness_ms':1.5,'windows':[]}| lateness_ms: 1.5; expected an integer",
      "{'order':'sorted','windows':[]}| order: \"sorted\"; expected one of in_order, out_of_order, unknown",
      "{'emit':'eventually','windows':[]}| emit: \"eventually\"; expected one of window_end, per_record",
      "{'columns':{'x':'float'},'windows':[]}| columns.x: \"float\"; expected one of double",
      "{'windows':[]}| windows: []; expected a non-empty list",
      "{'windows':[{'kind':'session','size':5,'aggregates':[]}]}| windows[0].kind: \"session\";",
      "{'windows':[{'slide':5,'aggregates':[]}]}| windows[0].size: null; required",
      "{'windows':[{'size':0,'aggregates':[]}]}| windows[0].size: 0; must be > 0",
      "{'windows':[{'size':10,'slide':-2,'aggregates':[]}]}| windows[0].slide: -2; must be > 0",
      "{'windows':[{'size':10,'slide':5,'offset':5,'aggregates':[]}]}| windows[0].offset: 5; must satisfy 0 <= offset < slide 5",
      "{'windows':[{'kind':'count','size':10,'slide':5,'offset':1,'aggregates':[]}]}| windows[0].offset: 1; count windows",
      "{'windows':[{'size':10,'aggregates':[]}]}| windows[0].aggregates: []; expected a non-empty list",
      "{'windows':[{'size':10,'aggregates':[{'output':'n','function':'count'}]},"
          + "{'size':10,'aggregates':[{'output':'m','function':'count'}]}]}| windows[1].name: \"10ms/10ms\"; duplicate",
      "{'windows':[{'size':10,'aggregates':[{'output':'n','function':'count'}]},"
          + "{'size':20,'aggregates':[{'output':'n','function':'count'}]}]}| windows[1].aggregates[0].output: \"n\"; duplicate",
      "{'key':['n'],'windows':[{'size':10,'aggregates':[{'output':'n','function':'count'}]}]}"
          + "| windows[0].aggregates[0].output: \"n\"; clashes",
      "{'windows':[{'size':10,'aggregates':[{'output':'window_end','function':'count'}]}]}"
          + "| windows[0].aggregates[0].output: \"window_end\"; clashes",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'maxx','column':'v'}]}]}"
          + "| windows[0].aggregates[0].function: \"maxx\"; unknown aggregate function 'maxx'; known functions: sum, count",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'max'}]}]}"
          + "| windows[0].aggregates[0].column: null; only count takes no column",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'max','column':'v','options':{'rank':1}}]}]}"
          + "| windows[0].aggregates[0].options: {\"rank\":1}; function 'max' has no option 'rank'",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'quantile','column':'v'}]}]}"
          + "| windows[0].aggregates[0].options: {}; function 'quantile' needs option 'rank'",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'bloom','column':'v','options':{'bits':'many'}}]}]}"
          + "| windows[0].aggregates[0].options: {\"bits\":\"many\"}; function 'bloom' option 'bits' must be an integer",
      "{'columns':{'v':'string'},'windows':[{'size':10,'aggregates':[{'output':'x','function':'max','column':'v'}]}]}"
          + "| windows[0].aggregates[0].column: \"v\"; function 'max' needs numbers but column 'v' is a string",
      "{'windows':[{'size':10,'aggregates':[{'output':'x','function':'count','colum':'v'}]}]}"
          + "| windows[0].aggregates[0].colum: \"v\"; unknown field",
      "{'lateness':5,'windows':[]}| lateness: 5; unknown field",
      "[1,2]| query spec: [1,2]; expected a JSON object",
      "{'windows':[}| query spec: invalid JSON at offset 12",
  })
  void errorsNameFieldAndValue(String json, String expected) {
    SwagException e = assertThrows(SwagException.class, () -> QuerySpec.fromJson(json.replace('\'', '"')));
    assertTrue(e.kind() == SwagException.Kind.INVALID_QUERY || e.kind() == SwagException.Kind.UNKNOWN_QUERY_FUNCTION,
        e.getMessage());
    assertTrue(e.text().startsWith(expected.trim()), "message: " + e.getMessage() + "\nexpected: " + expected);
  }

  @Test
  void stringColumnsAreFineForHashingFunctions() {
    QuerySpec q = QuerySpec.fromJson("{\"columns\":{\"b\":\"string\"},\"windows\":[{\"size\":10,\"aggregates\":["
        + "{\"output\":\"d\",\"function\":\"hll\",\"column\":\"b\"},{\"output\":\"c\",\"function\":\"collect\","
        + "\"column\":\"b\"}]}]}");
    assertEquals(2, q.windows().get(0).aggregates().size());
  }

  @Test
  void jsonWriterMatchesPython() {
    // values as Python's json.dumps(..., separators=(",", ":")) writes them
    assertEquals("[0.95,1.0,1e-05,0.0001,1e+16,1234567890123456.8,-2.5,100,\"\\u00e9\\n\\\"\"]",
        Json.write(List.of(0.95, 1.0, 0.00001, 0.0001, 1e16, 1234567890123456.8, -2.5, 100L, "é\n\"")));
    Object v = Json.parse(" {\"a\" : [1, 2.5, -3e2, true, false, null, \"x\\u0041\"]} ");
    assertEquals("{\"a\":[1,2.5,-300.0,true,false,null,\"xA\"]}", Json.write(v));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1,\"a\":2}"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1,]"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] x"));
  }
}

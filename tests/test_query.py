"""swag.Query: the JSON spec of docs/query-spec.md, built in Python and checked against Java's
io.swag.core.plan (QuerySpec.fromJson / toJson, Planner.plan / explain)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

import swag
from swag import _jvm


def java_canonical(text: str) -> str:
    """Java's canonical JSON of a spec text (QuerySpec.fromJson(text).toJson())."""
    return str(_jvm.jclass("io.swag.core.plan.QuerySpec").fromJson(text).toJson())


def bike_query() -> swag.Query:
    """The example of docs/query-spec.md."""
    return (
        swag.Query(
            key="start_station",
            time="start_time",
            lateness="1h",
            columns={"duration": "double", "bike_id": "string", "start_station": "long"},
        )
        .window("1h", slide="1min", max_trip=swag.max("duration"), p95=swag.quantile("duration", 0.95))
        .count_window(100, name="last100", n=swag.count())
    )


DOC_EXAMPLE = {
    "version": 1,
    "key": ["start_station"],
    "time": "start_time",
    "lateness_ms": 3600000,
    "order": "unknown",
    "emit": "window_end",
    "columns": {"duration": "double", "bike_id": "string", "start_station": "long"},
    "windows": [
        {
            "name": "1h/1min",
            "kind": "time",
            "size": 3600000,
            "slide": 60000,
            "offset": 0,
            "aggregates": [
                {"output": "max_trip", "function": "max", "column": "duration", "options": {}},
                {"output": "p95", "function": "quantile", "column": "duration", "options": {"rank": 0.95}},
            ],
        },
        {
            "name": "last100",
            "kind": "count",
            "size": 100,
            "slide": 1,
            "offset": 0,
            "aggregates": [{"output": "n", "function": "count", "column": None, "options": {}}],
        },
    ],
}


def many_queries() -> dict[str, swag.Query]:
    """Specs covering every field, every helper and both kinds of windows."""
    return {
        "doc_example": bike_query(),
        "global_key_processing_time": swag.Query().count_window(10, slide=5, c=swag.collect("x")),
        "two_keys_all_helpers": swag.Query(
            key=["a", "b"], time="t", lateness=timedelta(minutes=5), order="out_of_order", emit="per_record"
        ).window(
            "1d",
            "1h",
            offset="30min",
            mx=swag.max("v"),
            mn=swag.min("v"),
            s=swag.sum("v"),
            n=swag.count(),
            nv=swag.count("v"),
            avg=swag.mean("v"),
            gm=swag.geomean("v"),
            sd=swag.stddev("v"),
            var=swag.variance("v"),
            amin=swag.argmin("v"),
            amax=swag.argmax("v"),
            f=swag.first("v"),
            last=swag.last("v"),
            m4=swag.m4("v"),
            col=swag.collect("v"),
            maxc=swag.maxcount("v"),
            minc=swag.mincount("v"),
            distinct=swag.hll("u", lgK=10),
            seen=swag.bloom("u", bits=1024, hashes=2),
            freq=swag.countmin("u", width=64, depth=4),
            p99=swag.quantile("v", 0.99, k=100),
            med=swag.median("v"),
            sketch=swag.kll("v", k=400),
        ),
        "in_order_several_windows": swag.Query(key="k", time="t", order="in_order")
        .window(250, m=swag.max("v"))
        .window("90s", "30s", name="ninety", s=swag.sum("v"))
        .window("1.5s", "500ms", offset=100, a=swag.mean("v")),
    }


# ---- pure Python: building, JSON, durations ----


def test_to_json_is_the_documented_example() -> None:
    q = bike_query()
    assert json.loads(q.to_json()) == DOC_EXAMPLE
    assert list(json.loads(q.to_json())) == list(DOC_EXAMPLE)  # field order
    assert list(json.loads(q.to_json())["windows"][0]) == ["name", "kind", "size", "slide", "offset", "aggregates"]
    assert "\n" not in q.to_json()


@pytest.mark.parametrize(
    "value, ms",
    [("90s", 90_000), ("1min", 60_000), ("1h", 3_600_000), ("1d", 86_400_000), ("250ms", 250), (1500, 1500),
     (timedelta(seconds=2, milliseconds=5), 2005), ("1.5s", 1500), ("-5s", -5000)],
)
def test_durations(value: Any, ms: int) -> None:
    q = swag.Query(time="t", lateness=value).window(value, value, m=swag.max("v"))
    assert q.lateness_ms == ms and q.windows[0].size == ms and q.windows[0].slide == ms


@pytest.mark.parametrize(
    "size, slide, name",
    [("1h", "1min", "1h/1min"), ("90s", None, "90s/90s"), (1500, 500, "1500ms/500ms"), ("2d", "12h", "2d/12h"),
     ("1min", "30s", "1min/30s")],
)
def test_default_window_names(size: Any, slide: Any, name: str) -> None:
    assert swag.Query(time="t").window(size, slide, m=swag.max("v")).windows[0].name == name


def test_tumbling_by_default_and_count_window_defaults() -> None:
    q = swag.Query(time="t").window("1h", m=swag.max("v")).count_window(7, n=swag.count())
    q.count_window(100, slide=10, s=swag.sum("v"))
    d = q.to_dict()["windows"]
    assert (d[0]["size"], d[0]["slide"], d[0]["offset"]) == (3_600_000, 3_600_000, 0)
    assert (d[1]["name"], d[1]["kind"], d[1]["size"], d[1]["slide"], d[1]["offset"]) == ("7/1", "count", 7, 1, 0)
    assert d[2]["name"] == "100/10"


def test_canonical_form_sorts_maps_and_lowercases_functions() -> None:
    q = swag.Query(time="t", columns={"z": float, "a": "string", "m": int})
    q.window("1s", b=swag.bloom("a", hashes=2, bits=64), c=swag.Aggregate(" MAX ", "z"))
    text = q.to_json()
    assert '"columns":{"a":"string","m":"long","z":"double"}' in text
    assert '"options":{"bits":64,"hashes":2}' in text
    assert '"function":"max"' in text
    assert " " not in text and text.isascii()
    assert json.loads(swag.Query(time="é").window(1, n=swag.count()).to_json())["time"] == "é"
    assert '"time":"\\u00e9"' in swag.Query(time="é").window(1, n=swag.count()).to_json()


def test_output_named_like_a_parameter() -> None:
    q = swag.Query(time="t").window("1s", size=swag.count(), n=swag.max("v")).count_window(3, n=swag.min("v"))
    assert [o for o, _ in q.windows[0].aggregates] == ["size", "n"]
    assert [o for o, _ in q.windows[1].aggregates] == ["n"]


def test_helpers_do_not_shadow_builtins_on_star_import() -> None:
    ns: dict[str, Any] = {}
    exec("from swag import *", ns)
    assert "max" not in ns and "min" not in ns and "sum" not in ns
    assert "count" in ns and "Query" in ns and "run" in ns
    assert swag.max("v") == swag.Aggregate("max", "v") and swag.sum("v").function == "sum"
    assert max(1, 2) == 2  # this module's built-ins are untouched


def test_from_json_round_trip() -> None:
    for name, q in many_queries().items():
        text = q.to_json()
        back = swag.Query.from_json(text)
        assert back.to_json() == text, name
        assert back == q, name
        assert swag.Query.from_json(json.loads(text)).to_json() == text, name


def test_from_json_fills_defaults() -> None:
    q = swag.Query.from_json(
        '{"key": ["k"], "time": "t", "windows": [{"size": 60000, "aggregates": [{"output": "n", "function": "count"}]}]}'
    )
    assert q.to_dict() == {
        "version": 1, "key": ["k"], "time": "t", "lateness_ms": 0, "order": "unknown", "emit": "window_end",
        "columns": {},
        "windows": [{"name": "1min/1min", "kind": "time", "size": 60000, "slide": 60000, "offset": 0,
                     "aggregates": [{"output": "n", "function": "count", "column": None, "options": {}}]}],
    }  # fmt: skip


@pytest.mark.parametrize(
    "make, field, value",
    [
        (lambda: swag.max(5), "max.column", "5"),
        (lambda: swag.Query(key=["k", 3]), "key[1]", "3"),
        (lambda: swag.Query(time=17), "time", "17"),
        (lambda: swag.Query(time="t", lateness="soon"), "lateness_ms", '"soon"'),
        (lambda: swag.Query(time="t").window("5 parsecs"), "windows[0].size", '"5 parsecs"'),
        (lambda: swag.Query(time="t").window("1s").window("1s", "1.5ms"), "windows[1].slide", '"1.5ms"'),
        (lambda: swag.Query(time="t").window("1s", m="max"), "windows[0].aggregates.m", '"max"'),
        (lambda: swag.Query(columns={"v": list}), "columns.v", "list"),
        (lambda: swag.Query.from_json('{"windows": [{"size": 1, "sizes": 2}]}'), "windows[0].sizes", "2"),
        (lambda: swag.Query.from_json('{"version": 2}'), "version", "2"),
        (lambda: swag.hll("u", lgK=[12]), "hll.options.lgK", "[12]"),
    ],
)
def test_python_side_argument_errors(make: Any, field: str, value: str) -> None:
    """Arguments that cannot make a spec are rejected in Python, in Java's message style:
    ``<field path>: <value>; <why>``."""
    with pytest.raises(swag.InvalidQueryError) as e:
        make()
    assert str(e.value).startswith(field + ": "), str(e.value)
    assert e.value.field == field
    assert value in str(e.value).split("; ")[0]


# ---- Java: canonical JSON ----


@pytest.mark.parametrize("name", list(many_queries()))
def test_to_json_equals_java_canonical_json(name: str) -> None:
    text = many_queries()[name].to_json()
    assert java_canonical(text) == text
    assert many_queries()[name].canonical_json() == text


def test_java_canonical_json_of_the_doc_example() -> None:
    assert java_canonical(json.dumps(DOC_EXAMPLE, indent=2)) == bike_query().to_json()


@pytest.mark.parametrize(
    "spec",
    [
        {"key": ["k"], "time": "t", "windows": [{"size": 60000, "aggregates": [{"output": "n", "function": "count"}]}]},
        {"time": "t", "windows": [{"kind": "time", "size": 5400000, "slide": 1800000,
                                   "aggregates": [{"output": "m", "function": "max", "column": "v"}]}]},
        {"windows": [{"kind": "count", "size": 100, "aggregates": [{"output": "n", "function": "count"}]},
                     {"kind": "count", "size": 100, "slide": 10,
                      "aggregates": [{"output": "s", "function": "sum", "column": "v"}]}]},
    ],
)  # fmt: skip
def test_defaults_filled_like_java(spec: dict[str, Any]) -> None:
    """Specs with fields left out: Python's from_json fills the same defaults (window names
    included) as Java's fromJson/toJson."""
    text = json.dumps(spec)
    canonical = java_canonical(text)
    assert swag.Query.from_json(text).to_json() == canonical
    assert swag.Query.from_json(canonical).to_json() == canonical


# ---- Java: validation errors name the field path and the value ----


def _invalid(q: swag.Query) -> swag.InvalidQueryError:
    with pytest.raises(swag.InvalidQueryError) as e:
        q.validate()
    assert "\tat " not in str(e.value) and "Exception" not in str(e.value), str(e.value)
    return e.value


def base() -> swag.Query:
    return swag.Query(key="k", time="t")


def test_unknown_function() -> None:
    err = _invalid(base().window("1h", x=swag.Aggregate("maximum", "v")))
    assert isinstance(err, swag.UnknownFunctionError)
    assert str(err).startswith("windows[0].aggregates[0].function: "), str(err)
    assert "maximum" in str(err)
    assert "max" in str(err).split("maximum", 1)[1]  # lists the known names


@pytest.mark.parametrize("size, shown", [(0, "0"), ("-5s", "-5000")])
def test_non_positive_size(size: Any, shown: str) -> None:
    err = _invalid(base().window("1h", m=swag.max("v")).window(size, 1, m2=swag.max("v")))
    assert str(err).startswith("windows[1].size: "), str(err)
    assert shown in str(err)


def test_non_positive_count_window_size() -> None:
    err = _invalid(base().count_window(0, n=swag.count()))
    assert str(err).startswith("windows[0].size: ") and "0" in str(err), str(err)


def test_slide_larger_than_size() -> None:
    err = _invalid(base().window("1h", m=swag.max("v")).window("1h", "2h", m2=swag.max("v")))
    assert str(err).startswith("windows[1].slide: "), str(err)
    assert "7200000" in str(err) and "3600000" in str(err)
    assert "hopping windows with gaps are not supported" in str(err)


def test_non_positive_slide_and_bad_offset() -> None:
    err = _invalid(base().window("1h", 0, m=swag.max("v")))
    assert str(err).startswith("windows[0].slide: ") and "0" in str(err), str(err)
    err = _invalid(base().window("1h", "1min", offset="1min", m=swag.max("v")))
    assert str(err).startswith("windows[0].offset: ") and "60000" in str(err), str(err)


def test_negative_lateness() -> None:
    err = _invalid(swag.Query(key="k", time="t", lateness=-1).window("1h", m=swag.max("v")))
    assert str(err).startswith("lateness_ms: "), str(err)
    assert "-1" in str(err)


def test_duplicate_output_names() -> None:
    err = _invalid(base().window("1h", top=swag.max("v")).window("1d", s=swag.sum("v"), top=swag.max("w")))
    assert str(err).startswith("windows[1].aggregates[1].output: "), str(err)
    assert "top" in str(err)


@pytest.mark.parametrize("output", ["k", "window", "window_start", "window_end"])
def test_output_names_reserved(output: str) -> None:
    err = _invalid(base().window("1h", **{output: swag.max("v")}))
    assert str(err).startswith("windows[0].aggregates[0].output: "), str(err)
    assert output in str(err)


def test_duplicate_window_names() -> None:
    err = _invalid(base().window("1h", name="w", a=swag.max("v")).window("2h", name="w", b=swag.max("v")))
    assert str(err).startswith("windows[1].name: ") and "w" in str(err), str(err)


def test_function_not_applicable_to_column_type() -> None:
    q = swag.Query(key="k", time="t", columns={"name": "string", "v": "double"})
    q.window("1h", ok=swag.hll("name"), top=swag.max("name"))
    err = _invalid(q)
    assert str(err).startswith("windows[0].aggregates[1]"), str(err)
    assert "max" in str(err) and "string" in str(err) and "name" in str(err)


@pytest.mark.parametrize(
    "q, field, value",
    [
        (lambda: swag.Query(key="k", time="t", order="sideways").window("1h", m=swag.max("v")), "order", "sideways"),
        (lambda: swag.Query(key="k", time="t", emit="never").window("1h", m=swag.max("v")), "emit", "never"),
        (lambda: swag.Query(key=["k", "k"], time="t").window("1h", m=swag.max("v")), "key", "k"),
        (lambda: swag.Query(time="t", columns={"v": "decimal"}).window("1h", m=swag.max("v")), "columns", "decimal"),
        (lambda: base().window("1h", m=swag.Aggregate("max", None)), "windows[0].aggregates[0].column", "null"),
        (lambda: base().window("1h", h=swag.hll("v", lgK="big")), "windows[0].aggregates[0]", "big"),
        (lambda: base().window("1h", q=swag.Aggregate("quantile", "v")), "windows[0].aggregates[0]", "rank"),
    ],
)
def test_other_validation_errors(q: Any, field: str, value: str) -> None:
    err = _invalid(q())
    assert str(err).startswith(field), str(err)
    assert value in str(err)


def test_no_windows_is_an_error() -> None:
    err = _invalid(base())
    assert str(err).startswith("windows"), str(err)


# ---- Java: plan and explain ----


def _groups(q: swag.Query) -> list[dict[str, Any]]:
    plan = json.loads(q.plan_json())
    assert plan["spec"] == json.loads(q.to_json()), plan
    groups: list[dict[str, Any]] = plan["groups"]
    return groups


@pytest.mark.parametrize(
    "order, function, expected",
    [
        ("in_order", swag.max, "daba_lite"),
        ("in_order", swag.collect, "daba_lite"),
        ("in_order", swag.sum, "daba_lite"),  # soe was slower through the executor
        ("out_of_order", swag.max, "bfiba"),
        ("unknown", swag.max, "adaptive"),
        # an expensive sketch with a coarse gcd (1 min): a sliced tree whatever the hint
        ("in_order", swag.hll, "bfiba"),
        ("unknown", swag.hll, "bfiba"),
    ],
)
def test_explain_names_algorithm_and_reasons(order: str, function: Any, expected: str) -> None:
    q = swag.Query(key="k", time="t", order=order).window("1h", "1min", a=function("v"))
    text = q.explain()
    groups = _groups(q)
    assert len(groups) == 1
    assert groups[0]["algorithm"].startswith(expected), groups
    assert f"algorithm: {expected}" in text, text
    reasons = groups[0]["reasons"]
    assert set(reasons) >= {"algorithm", "slicing", "sharing"}, reasons
    for r in reasons.values():
        assert r and r in text, (r, text)
    assert f"because {reasons['algorithm']}" in text


def test_explain_shares_windows_of_one_key() -> None:
    q = (
        swag.Query(key="k", time="t", order="in_order")
        .window("1h", "1min", a=swag.max("v"))
        .window("10min", "1min", b=swag.max("v"))
        .window("30min", "5min", c=swag.sum("v"))
        .count_window(10, n=swag.count())
    )
    text = q.explain()
    groups = _groups(q)
    assert "1h/1min" in text and "10min/1min" in text and "30min/5min" in text and "10/1" in text, text
    time_groups = [g for g in groups if g["kind"] == "time"]
    assert len(time_groups) == 1 and len(groups) == 2, groups
    g = time_groups[0]
    assert g["windows"] == [0, 1, 2]
    assert g["slice_ms"] == 60000  # gcd of the sizes and slides
    assert g["slicing"] is True
    assert g["eviction_window"] == 0 and g["range_query_windows"] == [1, 2]
    assert g["algorithm"].startswith("bfiba")
    assert [p["function"] for p in g["product"]] == ["max", "sum"]  # max(v) computed once for two windows
    assert "gcd 60000 ms, used" in text


def test_explain_of_an_invalid_query_raises() -> None:
    with pytest.raises(swag.InvalidQueryError) as e:
        base().window("1h", "2h", m=swag.max("v")).explain()
    assert str(e.value).startswith("windows[0].slide: ")

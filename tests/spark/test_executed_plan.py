"""The Spark operator runs the plan that ``Query.explain()`` prints: per query shape (in order,
unknown order, out of order with its tree arity, windows sharing one tree, sliced) a batch and a
streaming run report what their tasks built (``swag.spark.executed_plan``, read back from the
aggregators, see ``io.swag.core.plan.ExecutedPlan``), checked here against the explain text parsed
on its own (no shared code with the read-back), count windows included.

explain() prints two slicing lines per time group: the local executor's in-memory slicing and what
engines with state do (the planner's ``stored_slices``). Spark pre-aggregates (combines each key's
records into slices of the gcd before the shuffle, and keeps slices in state) exactly where the second
line says "used", also where the local executor does not slice (an in-order or small-slide plan).
"""

from __future__ import annotations

import random
import re

import pytest
from spark_helpers import BASE, run_available, source, write_batches

import swag
import swag.spark

# ---- the oracle: explain() text ----

_HEAD = re.compile(r"^group \d+ \((time|count) windows: (.*)\): one aggregator per key$")
_ALGORITHM = re.compile(r"^  algorithm: (\S+)(?: \(fallback tree (\S+)\))?$")
_ARITY = re.compile(r"^  min arity: (\d+|none \(no tree\))$")
_SLICES = re.compile(r"^  slices(?:, local executor \(in memory\))?: (?:gcd (\d+) ms, (used|not used)|none \(count windows\))$")
_STORED = re.compile(r"^  slices, engines with state \(Flink operator and swag_window, Spark\): (used|not used), ")
_SHARING = re.compile(r"^  eviction bounded by: (.*); range queries: (.*)$")
# the in-order algorithm an in-order plan starts with (the planner: adaptive is DABA Lite until out of order)
_IN_ORDER_START = {"daba_lite": "daba_lite", "adaptive": "daba_lite"}


def explained(query: swag.Query) -> list[dict]:
    """The groups as ``query.explain()`` prints them."""
    text = query.explain()
    groups: list[dict] = []
    for line in text.splitlines():
        if m := _HEAD.match(line):
            groups.append({"kind": m[1], "windows": m[2].split(", ")})
        elif m := _ALGORITHM.match(line):
            groups[-1].update(algorithm=m[1], fallback=m[2])
        elif m := _ARITY.match(line):
            groups[-1]["min_arity"] = 0 if m[1].startswith("none") else int(m[1])
        elif m := _SLICES.match(line):
            groups[-1].update(slice_ms=int(m[1] or 0), slicing=m[2] == "used", stored_slices=False)
        elif m := _STORED.match(line):
            groups[-1]["stored_slices"] = m[1] == "used"
        elif m := _SHARING.match(line):
            groups[-1].update(eviction=m[1], range=[] if m[2] == "none" else m[2].split(", "))
    assert groups and all(len(g) == 10 for g in groups), f"explain() not understood:\n{text}"
    return groups


def assert_executed(expl: list[dict], executed: dict | None) -> None:
    """The read-back runs the explained groups: algorithm, arity, slicing (the aggregator's own, or
    Spark's pre-aggregation before the shuffle), eviction window and range queries."""
    assert executed is not None, "no task reported what it ran"
    assert len(executed["groups"]) == len(expl), executed
    engine = executed["engine"]
    for e, x in zip(expl, executed["groups"]):
        where = f"executed {x}\nexplained {e}"
        assert x["kind"] == e["kind"] == "time" and x["window_names"] == e["windows"], where
        if e["algorithm"].startswith("bfiba"):
            assert (x["algorithm"], x["tree"], x["adaptive"]) == (e["algorithm"], e["algorithm"], False), where
        else:
            assert (x["algorithm"], x["tree"], x["adaptive"]) == (_IN_ORDER_START[e["algorithm"]], e["fallback"], True), where
        assert x["min_arity"] == e["min_arity"], where
        if engine["preaggregate"]:
            # the slices come made: the aggregator does not slice again; the map side sliced by the gcd
            assert (x["slicing"], x["slice_ms"]) == (False, 0), where
            assert engine["preaggregate_slice_ms"] == e["slice_ms"] > 0, (engine, e)
        else:
            assert (x["slicing"], x["slice_ms"]) == (e["slicing"], e["slice_ms"] if e["slicing"] else 0), where
            assert engine["preaggregate_slice_ms"] == 0, engine
        names = dict(zip(x["windows"], x["window_names"]))
        assert names[x["eviction_window"]] == e["eviction"], where
        assert [names[w] for w in x["range_query_windows"]] == e["range"], where


# ---- the queries ----


def _q(order: str) -> swag.Query:
    return swag.Query(key="k", time="ts", order=order)


QUERIES = {
    "in_order": (_q("in_order").window(1000, slide=100, name="w", mx=swag.max("v")), "daba_lite"),
    "unknown": (_q("unknown").window(1000, slide=100, name="w", mx=swag.max("v")), "adaptive"),
    "out_of_order": (_q("out_of_order").window(1000, slide=100, name="w", mx=swag.max("v"), sd=swag.stddev("v")),
                     "bfiba4"),
    "shared_tree": (_q("out_of_order").window(500, slide=100, name="short", mx=swag.max("v"))
                    .window(2000, slide=100, name="long", mx_long=swag.max("v")), "range"),
    "sliced": (_q("out_of_order").window(60_000, slide=20_000, name="m1", mx=swag.max("v"))
               .window(120_000, slide=20_000, name="m2", s=swag.sum("v")), "sliced"),
}


def assert_exercises(expl: list[dict], rule: str) -> None:
    """The explained plan has the feature the query is meant to exercise."""
    g = expl[0]
    if rule == "range":
        assert g["range"], expl
    elif rule == "sliced":
        assert g["slicing"] and g["slice_ms"] == 20_000 and len(g["range"]) == 1, expl
    else:
        assert g["algorithm"] == rule, expl


def _rows(in_order: bool, n: int = 400) -> list[tuple[str, int, float]]:
    """(k, ts epoch ms, v) over 3 keys and ~4 min of event time; shuffled a little unless ``in_order``."""
    r = random.Random(5)
    t, out = BASE, []
    for _ in range(n):
        t += r.randrange(600)
        out.append((f"k{r.randrange(3)}", t if in_order else t - r.randrange(200), float(r.randrange(50))))
    return out


@pytest.mark.parametrize("preaggregate", ["auto", "off"])
@pytest.mark.parametrize("name", list(QUERIES))
def test_batch_runs_the_explained_plan(spark, name, preaggregate):
    query, rule = QUERIES[name]
    expl = explained(query)
    assert_exercises(expl, rule)
    df = spark.createDataFrame(_rows(query.order != "out_of_order"), "k STRING, ts LONG, v DOUBLE")
    metrics = f"plan_{name}_{preaggregate}"
    out = swag.spark.aggregate(df, query, metrics_name=metrics, preaggregate=preaggregate).collect()
    assert len(out) > 10, "the query emitted rows"
    executed = swag.spark.executed_plan(spark, metrics)
    assert_executed(expl, executed)
    # max, stddev and sum are mergeable: explain() says engines with state slice, and with
    # preaggregate=auto Spark does
    assert all(e["stored_slices"] for e in expl)
    assert executed["engine"]["preaggregate"] == (preaggregate == "auto"), executed["engine"]
    assert executed["engine"]["mode"] == "batch"


def test_in_order_plan_is_preaggregated_as_explain_says(spark):
    """explain() says the local executor does not slice the in-order plan and engines with state do:
    Spark pre-aggregates by the gcd before the shuffle."""
    query, _ = QUERIES["in_order"]
    expl = explained(query)
    assert not expl[0]["slicing"] and expl[0]["slice_ms"] == 100  # "gcd 100 ms, not used"
    assert expl[0]["stored_slices"]
    df = spark.createDataFrame(_rows(True), "k STRING, ts LONG, v DOUBLE")
    assert swag.spark.aggregate(df, query, metrics_name="plan_preaggregated").collect()
    engine = swag.spark.executed_plan(spark, "plan_preaggregated")["engine"]
    assert engine["preaggregate"] and engine["preaggregate_slice_ms"] == 100, engine


def test_order_sensitive_plan_is_not_preaggregated_as_explain_says(spark):
    """first() is order-sensitive: explain() says engines with state keep records, and Spark does not
    pre-aggregate even with preaggregate=auto."""
    query = _q("in_order").window(1000, slide=100, name="w", f=swag.first("v"))
    expl = explained(query)
    assert not expl[0]["stored_slices"]
    df = spark.createDataFrame(_rows(True), "k STRING, ts LONG, v DOUBLE")
    assert swag.spark.aggregate(df, query, metrics_name="plan_records").collect()
    engine = swag.spark.executed_plan(spark, "plan_records")["engine"]
    assert not engine["preaggregate"] and engine["preaggregate_slice_ms"] == 0, engine


@pytest.mark.parametrize("name,preaggregate", [("sliced", "auto"), ("out_of_order", "off")])
def test_stream_runs_the_explained_plan(spark, tmp_path, name, preaggregate):
    query, _ = QUERIES[name]
    expl = explained(query)
    rows = _rows(query.order != "out_of_order", 300)
    last = max(t for _, t, _ in rows)
    flush = [{"k": "zz", "t": last + 600_000, "v": 0.0}]
    write_batches(tmp_path / "in", [[{"k": k, "t": t, "v": v} for k, t, v in rows[:150]],
                                    [{"k": k, "t": t, "v": v} for k, t, v in rows[150:]], flush])
    metrics = f"plan_stream_{name}"
    df = swag.spark.aggregate(source(spark, tmp_path / "in", "1 second"), query, metrics_name=metrics,
                              preaggregate=preaggregate)
    out, progress = run_available(df, metrics, tmp_path / "ck", timeout=60)
    assert out.count() > 10, "the query emitted rows"
    executed = swag.spark.executed_plan(spark, metrics)
    assert_executed(expl, executed)
    assert executed["engine"]["mode"] == "stream"
    assert executed["engine"]["preaggregate"] == (preaggregate == "auto")


def test_count_windows_report_their_fifo(spark):
    query = _q("in_order").window(1000, name="w", m=swag.max("v")).count_window(5, c=swag.sum("v"))
    expl = explained(query)
    assert [g["kind"] for g in expl] == ["time", "count"]
    df = spark.createDataFrame(_rows(True, 10), "k STRING, ts LONG, v DOUBLE")
    assert swag.spark.aggregate(df, query, metrics_name="plan_count").count() > 0
    executed = swag.spark.executed_plan(spark, "plan_count")
    assert executed is not None and [g["kind"] for g in executed["groups"]] == ["time", "count"]
    for e, g in zip(executed["groups"], expl, strict=True):
        assert e["window_names"] == g["windows"]
        assert e["algorithm"] == _IN_ORDER_START.get(g["algorithm"], g["algorithm"])

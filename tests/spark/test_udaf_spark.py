"""User-defined aggregate functions on Spark (classic session, streaming and batch back-fill; and
over Spark Connect): the example jar's TopK and Trend against an independent recompute, rejected
records counted with the class in the reason, the column types the functions declare."""

from __future__ import annotations

import math

import pytest
from spark_helpers import finish, flush_batches, millis, source, start_available, write_batches

import swag
import swag.spark
from udaf_cases import TOPK, assert_matches, expected, query, rejected_count, require_jar, trace


def _compare(rows, recs) -> None:
    assert_matches({(r["k"], r["window_start"]): (r["top"], r["trend"], r["head"]) for r in rows if r["k"] != "zz"}, recs)


def _types(df) -> dict[str, str]:
    return {f.name: f.dataType.simpleString() for f in df.schema.fields}


@pytest.mark.parametrize("seed", [4, 5])
def test_streaming_matches_an_independent_recompute(spark, tmp_path, seed):
    require_jar()
    recs = trace(seed)
    batches = [recs[i : i + 100] for i in range(0, len(recs), 100)]
    last = max(r["t"] for r in recs)
    write_batches(tmp_path / "in", batches + flush_batches(last))
    out = swag.spark.aggregate(source(spark, tmp_path / "in", delay="5 seconds"), query("ts"), late="keep")
    types = _types(out)
    assert types["top"] == "string" and types["trend"] == "double" and types["head"] == "double"
    table, progress = finish(start_available(out, f"udaf_stream_{seed}", tmp_path / "ck"))
    windows, others = swag.spark.split(table)
    rows = [r.asDict() for r in millis(windows, "window_start", "window_end").collect()]
    _compare(rows, recs)
    bad = others.collect()
    assert len(bad) == rejected_count(recs) == 3
    assert all(b["swag_kind"] == "rejected" and TOPK in b["swag_reason"] for b in bad), bad
    counts = [swag.spark.observed_metrics(p) for p in progress]
    assert sum(c["rejected"] for c in counts if c) == 3
    assert sum(c["late"] for c in counts if c) == 0


def test_batch_backfill_matches_an_independent_recompute(spark):
    require_jar()
    from pyspark.sql import functions as F

    recs = trace(6)
    df = spark.createDataFrame([(r["k"], r["t"], r["v"]) for r in recs], "k STRING, t LONG, v DOUBLE")
    df = df.select("k", F.timestamp_millis("t").alias("ts"), "v")
    out = swag.spark.aggregate(df, query("ts"), late="keep")
    windows, others = swag.spark.split(out)
    _compare([r.asDict() for r in millis(windows, "window_start", "window_end").collect()], recs)
    reasons = [r["swag_reason"] for r in others.collect()]
    assert len(reasons) == 3 and all(TOPK in x and "finite" in x for x in reasons), reasons


def test_only_topk_is_preaggregated_trend_keeps_records(spark):
    """TopK is commutative with a byte form: a query of it alone pre-aggregates slices before the
    shuffle; with Trend (not commutative) the records are shipped."""
    require_jar()
    from pyspark.sql import functions as F

    recs = [r for r in trace(7) if math.isfinite(r["v"])]
    df = spark.createDataFrame([(r["k"], r["t"], r["v"]) for r in recs], "k STRING, t LONG, v DOUBLE")
    df = df.select("k", F.timestamp_millis("t").alias("ts"), "v")
    q1 = swag.Query(key="k", time="ts").window(4_000, slide=1_000, top=swag.udaf(TOPK, "v", k=3))
    rows1 = millis(swag.spark.aggregate(df, q1, metrics_name="udaf_pre"), "window_start").collect()
    plan1 = swag.spark.executed_plan(spark, "udaf_pre")
    assert plan1["engine"]["preaggregate"] is True and plan1["engine"]["preaggregate_slice_ms"] == 1_000
    want = expected(recs)
    assert {(r["k"], r["window_start"]): r["top"] for r in rows1} == {k: v[0] for k, v in want.items()}
    swag.spark.aggregate(df, query("ts"), metrics_name="udaf_nopre").count()
    assert swag.spark.executed_plan(spark, "udaf_nopre")["engine"]["preaggregate"] is False


def test_a_missing_class_is_an_invalid_query(spark):
    from pyspark.sql import functions as F

    df = spark.createDataFrame([("a", 1, 1.0)], "k STRING, t LONG, v DOUBLE").select(
        "k", F.timestamp_millis("t").alias("ts"), "v"
    )
    q = swag.Query(key="k", time="ts").window(10, x=swag.udaf("com.example.Missing", "v"))
    with pytest.raises(swag.InvalidQueryError, match="com.example.Missing"):
        swag.spark.aggregate(df, q)


def test_over_spark_connect_equals_classic(spark, connect):
    """The Connect server was started with the jars swag.add_jars registered (connect_server_command)."""
    require_jar()
    recs = trace(8)
    rows = [(r["k"], r["t"], r["v"]) for r in recs]
    outs = []
    for session in (spark, connect):
        from pyspark.sql import functions as F
        from pyspark.sql.connect import functions as CF

        fns = CF if session is connect else F
        df = session.createDataFrame(rows, "k STRING, t LONG, v DOUBLE")
        df = df.select("k", fns.timestamp_millis("t").alias("ts"), "v")
        out = swag.spark.aggregate(df, query("ts"), late="keep")
        assert _types(out)["top"] == "string" and _types(out)["trend"] == "double"
        windows, _ = swag.spark.split(out)
        got = windows.select("k", fns.unix_millis("window_start").alias("window_start"), "top", "trend", "head")
        outs.append(sorted(tuple(r) for r in got.collect()))
    assert len(outs[0]) > 40
    assert outs[0] == outs[1]
    _compare([dict(zip(("k", "window_start", "top", "trend", "head"), r)) for r in outs[1]], recs)

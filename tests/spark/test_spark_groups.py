"""The Spark operator with count windows, several time-window groups in one plan, and a query of
count windows without a time column, streaming (across a restart from the checkpoint, so that each
group's stored chunks are read back) and batch, against an oracle written here from the rules of
docs/query-spec.md (no swag code):

- a time window [s, s + size) with s a multiple of the slide holds the key's records with times in
  it; ``last`` is the value of the latest time in it;
- a count window ends at every ``slide``-th record of the key (in arrival order) and holds the key's
  last ``size`` records; ``window_start`` = records before it, ``window_end`` = the key's count;
  ``collect`` lists their values in arrival order.

The records arrive in time order (no record is late), so append mode emits each time window once
with all its records, and arrival order is batch order, then file order.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from spark_helpers import BASE, finish, millis, start_available, write_batches

import swag
import swag.spark

SIZE, SLIDE = 4_000, 2_000  # the time window
SIZE2, SLIDE2 = 6_000, 3_000  # the second time window (its own group in the plan test)
CSIZE, CSLIDE = 5, 2  # the count window


def _batches(seed: int, files: int = 6, per_file: int = 60) -> list[list[dict[str, Any]]]:
    """Records with increasing times (random steps, several keys), then a flush record far ahead."""
    rng = random.Random(seed)
    now = BASE
    out = []
    for _ in range(files):
        batch = []
        for _ in range(per_file):
            now += rng.randint(1, 300)
            batch.append({"k": rng.choice("abc"), "t": now, "v": float(rng.randint(-9, 9))})
        out.append(batch)
    # far ahead: every window of the records before fires (its own windows stay open)
    out.append([{"k": "zz", "t": now + 600_000, "v": 0.0}])
    out.append([{"k": "zz", "t": now + 600_001, "v": 0.0}])
    return out


def _time_oracle(records: list[dict[str, Any]], name: str, size: int, slide: int, last_t: int) -> dict:
    """(k, window, start) -> (end, sum, last) of every time window that fires by the watermark of the
    last record (its end - 1 at or below it, with the 5 s delay)."""
    wins: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        s = (r["t"] // slide) * slide
        while s > r["t"] - size:
            wins[(r["k"], s)].append(r)
            s -= slide
    wm = last_t - 5_000 - 1
    out = {}
    for (k, s), rs in wins.items():
        if s + size - 1 <= wm:
            latest = max(rs, key=lambda r: r["t"])
            out[(k, name, s)] = (s + size, sum(r["v"] for r in rs), latest["v"])
    return out


def _count_oracle(records: list[dict[str, Any]]) -> dict:
    """(k, window, end) -> (start, sum, collect) of the count window, records in arrival order."""
    seen: dict[str, list[float]] = defaultdict(list)
    out = {}
    for r in records:
        vs = seen[r["k"]]
        vs.append(r["v"])
        if len(vs) % CSLIDE == 0:
            last = vs[-CSIZE:]
            out[(r["k"], "c", len(vs))] = (len(vs) - len(last), sum(last), last)
    return out


def _rows(df) -> dict:
    got = {}
    for r in df.collect():
        d = r.asDict()
        count = d["window"] == "c"  # a count window is known by its end (its start repeats at first)
        key = (d["k"], d["window"], d["window_end"] if count else d["window_start"])
        assert key not in got, f"window emitted twice: {key}"
        if count:
            got[key] = (d["window_start"], d["cs"], list(d["cc"]))
        else:
            got[key] = (d["window_end"], d["s"], d["l"])
    return got


def _query(time: str | None = "ts") -> swag.Query:
    return (
        swag.Query(key="k", time=time, order="in_order")
        .window(SIZE, SLIDE, name="w", s=swag.sum("v"), l=swag.last("v"))
        .count_window(CSIZE, slide=CSLIDE, name="c", cs=swag.sum("v"), cc=swag.collect("v"))
    )


def _assert_same(got: dict, want: dict) -> None:
    assert want, "the oracle expects no rows: the comparison would check nothing"
    assert set(got) == set(want), (
        f"only emitted: {sorted(set(got) - set(want))[:5]}; missing: {sorted(set(want) - set(got))[:5]}"
    )
    bad = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
    assert not bad, f"{len(bad)} rows differ, e.g. {bad[:3]}"


def test_stream_count_and_time_windows_across_a_restart(spark, tmp_path):
    batches = _batches(11)
    records = [r for b in batches for r in b]
    src, ck, sink = tmp_path / "in", tmp_path / "ck", tmp_path / "out"
    from spark_helpers import source

    for part, (lo, hi) in enumerate([(0, 3), (3, len(batches))]):
        write_batches(src, batches[lo:hi], first=lo)
        df = swag.spark.aggregate(source(spark, src, "5 seconds"), _query(), metrics_name=f"groups_{part}")
        assert dict(df.dtypes)["window_start"] == "bigint", "count windows make the bounds longs"
        sq = (df.writeStream.format("parquet").option("path", str(sink)).option("checkpointLocation", str(ck))
              .trigger(availableNow=True).start())
        assert sq.awaitTermination(240) and sq.exception() is None, sq.exception()
    got = _rows(spark.read.parquet(str(sink)))
    want = _time_oracle(records, "w", SIZE, SLIDE, records[-1]["t"])
    want.update(_count_oracle(records))
    _assert_same(got, want)


def test_batch_count_and_time_windows(spark):
    batches = _batches(12)
    records = [r for b in batches for r in b]
    from pyspark.sql import functions as F

    df = spark.createDataFrame(records, "k STRING, t LONG, v DOUBLE").withColumn("ts", F.timestamp_millis("t"))
    got = _rows(swag.spark.aggregate(df.coalesce(1), _query(), metrics_name="groups_batch"))
    want = _time_oracle(records, "w", SIZE, SLIDE, 2**62)  # batch: every window fires
    want.update(_count_oracle(records))
    _assert_same(got, want)


def test_stream_count_windows_without_a_time_column(spark, tmp_path):
    batches = _batches(13)[:-2]
    records = [r for b in batches for r in b]
    write_batches(tmp_path / "in", batches)
    df = spark.readStream.schema("k STRING, t LONG, v DOUBLE").option("maxFilesPerTrigger", 1).json(str(tmp_path / "in"))
    q = swag.Query(key="k").count_window(CSIZE, slide=CSLIDE, name="c", cs=swag.sum("v"), cc=swag.collect("v"))
    df = swag.spark.aggregate(df, q, metrics_name="groups_notime", output_mode="update")
    out, _ = finish(start_available(df, "groups_notime", tmp_path / "ck", mode="update"))
    _assert_same(_rows(out), _count_oracle(records))


def _two_group_plan(spark) -> str:
    """A plan whose two time windows are two groups (the planner makes one group of all time windows):
    each window planned alone, the second group pointed at the second window of the joint spec."""
    jvm = spark._jvm.io.swag.core.plan
    q = swag.Query(key="k", time="ts", order="in_order")
    a = q.window(SIZE, SLIDE, name="w", s=swag.sum("v"), l=swag.last("v"))
    b = swag.Query(key="k", time="ts", order="in_order").window(SIZE2, SLIDE2, name="w2", s2=swag.sum("v"), l2=swag.last("v"))
    pa = json.loads(jvm.Planner.plan(jvm.QuerySpec.fromJson(a.to_json())).toJson())
    pb = json.loads(jvm.Planner.plan(jvm.QuerySpec.fromJson(b.to_json())).toJson())
    spec = json.loads(a.to_json())
    spec["windows"] = spec["windows"] + json.loads(b.to_json())["windows"]
    gb = pb["groups"][0]
    gb["windows"] = [1]
    return json.dumps({"spec": spec, "groups": [pa["groups"][0], gb]})


@pytest.mark.parametrize("streaming", [False, True])
def test_two_time_groups(spark, tmp_path, streaming):
    plan = _two_group_plan(spark)
    batches = _batches(14)
    records = [r for b in batches for r in b]
    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F

    if streaming:
        from spark_helpers import source

        write_batches(tmp_path / "in", batches)
        df = source(spark, tmp_path / "in", "5 seconds")
    else:
        df = spark.createDataFrame(records, "k STRING, t LONG, v DOUBLE").withColumn("ts", F.timestamp_millis("t"))
    jdf = spark._jvm.io.swag.spark.SwagSpark.aggregate(df._jdf, plan, json.dumps({"metrics_name": "groups_two"}))
    out = DataFrame(jdf, spark)
    if streaming:
        out, _ = finish(start_available(out, "groups_two_stream", tmp_path / "ck"))
    rows = millis(out, "window_start", "window_end").collect()
    executed = swag.spark.executed_plan(spark, "groups_two")
    got = {}
    for r in rows:
        d = r.asDict()
        key = (d["k"], d["window"], d["window_start"])
        assert key not in got, f"window emitted twice: {key}"
        got[key] = (d["window_end"], d["s"], d["l"]) if d["window"] == "w" else (d["window_end"], d["s2"], d["l2"])
        other = ("s2", "l2") if d["window"] == "w" else ("s", "l")
        assert all(d[c] is None for c in other), f"a row fills another window's columns: {d}"
    last = records[-1]["t"] if streaming else 2**62
    want = _time_oracle(records, "w", SIZE, SLIDE, last)
    want.update(_time_oracle(records, "w2", SIZE2, SLIDE2, last))
    _assert_same(got, want)
    assert executed is not None and [g["window_names"] for g in executed["groups"]] == [["w"], ["w2"]]


def test_processing_time_windows_are_refused_with_the_reason(spark):
    df = spark.createDataFrame([("a", 1.0)], "k STRING, v DOUBLE")
    q = swag.Query(key="k").window(1000, s=swag.sum("v"))
    with pytest.raises(swag.errors.SwagError, match=r"processing time\) is not supported on Spark: a micro-batch"):
        swag.spark.aggregate(df, q, metrics_name="groups_proc")

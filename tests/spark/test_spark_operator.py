"""The swag operator on Spark beyond the differential tests: restart from a checkpoint, bad input
(every bad record accounted for), update mode against a plain-Python oracle, and setup errors."""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from datetime import UTC, datetime

import pytest
from spark_helpers import BASE, diff, finish, metric_sums, millis, source, watermarks, write_batches
from test_spark_differential import DELAY, FIELDS, FIELDS_PRE, preaggregates, swag_query, swag_rows

import swag
import swag.spark
from swag.errors import InvalidInputError, InvalidQueryError, SwagError, SwagSetupError

# ---- restart ----

NO_DATA_BATCHES = "spark.sql.streaming.noDataMicroBatches.enabled"


@pytest.mark.parametrize("pre", [False, True], ids=["records", "preaggregated"])
def test_restart_from_checkpoint_gives_the_uninterrupted_output(spark, stream_run, tmp_path, pre):
    """Stop after half of the files, restart with the same checkpoint (a new operator instance: its
    executor-side cache misses and the state comes back from the state store): the two runs'
    outputs together equal the uninterrupted run's, with no (key, window) twice. ``pre``: a query
    swag pre-aggregates, whose state holds slices rather than records."""
    batches, uninterrupted, builtin, progress = stream_run(1, pre)
    # restart before a batch with a record that only the previous batch's watermark S_{h-1} (Spark's
    # late-events watermark) admits into a 20s window, not the batch's own S_h: a restarted run that
    # does not know S_{h-1} loses it
    wm = watermarks(progress)
    half = next(h for h in range(2, len(batches) - 2) if any(
        wm[h - 1] <= r["t"] < wm[h] and any(wm[h - 1] < e <= wm[h] for e in range(r["t"] // 10_000 * 10_000 + 10_000,
                                                                                    r["t"] + 20_001, 10_000))
        for r in batches[h]))
    out, ck = tmp_path / "out", tmp_path / "ck"

    def run():
        df = swag.spark.aggregate(source(spark, tmp_path / "in", DELAY), swag_query(collect=not pre))
        assert preaggregates(df) == pre
        # Without no-data batches: else the first run would end with one that only raises the
        # watermark, and the restarted run's first file would be judged late by that watermark,
        # not by the one the uninterrupted run used for it (so would Spark's built-in aggregation):
        # another stream, not a restart of the same one.
        spark.conf.set(NO_DATA_BATCHES, "false")
        try:
            sq = (df.writeStream.format("parquet").option("path", str(out)).option("checkpointLocation", str(ck))
                  .outputMode("append").trigger(availableNow=True).start())
        finally:
            spark.conf.unset(NO_DATA_BATCHES)
        sq.awaitTermination(240)
        assert sq.exception() is None, sq.exception()
        return list(sq.recentProgress)

    write_batches(tmp_path / "in", batches[:half])
    first = run()
    n_first = spark.read.parquet(str(out)).count()
    write_batches(tmp_path / "in", batches[half:], first=half)
    second = run()
    assert first and second and n_first > 0
    # the same micro-batches, numbered the same, as in the uninterrupted run: so the same watermarks
    assert [(p["batchId"], p["numInputRows"]) for p in first + second] == [
        (p["batchId"], p["numInputRows"]) for p in progress if p["numInputRows"] > 0]
    assert watermarks(first + second) == {i: w for i, w in watermarks(progress).items() if i < len(batches)}
    assert sum(p["numInputRows"] for p in first + second) == sum(len(b) for b in batches)
    got = swag_rows(spark.read.parquet(str(out)), FIELDS_PRE if pre else FIELDS)  # asserts no (key, window) twice
    # values within 1e-9 (the restored aggregator combines mean/stddev partials in another order);
    # the first batch after the restart judges lateness by the previous batch's watermark, read
    # from the checkpoint's offset log, so it accepts exactly what the uninterrupted run accepts
    assert diff(got, uninterrupted) == []
    assert diff(got, builtin) == []  # and Spark's built-in aggregation over the same stream
    assert metric_sums(first + second) == metric_sums(progress) and metric_sums(progress)["late"] > 0


@pytest.mark.parametrize("cache_max_keys", [0, 1])
def test_a_bounded_aggregator_cache_gives_the_same_output(spark, stream_run, tmp_path, cache_max_keys):
    """With room for no key or one key (of 5), the operator rebuilds the other keys' aggregators from
    the state store every micro-batch: the output is the same as with the default cache, and the
    JVM holds at most that many more aggregators afterwards."""
    from spark_helpers import run_available

    batches, uninterrupted, builtin, progress = stream_run(1)
    assert len(uninterrupted) > 100 and diff(uninterrupted, builtin) == []  # the reference is right
    write_batches(tmp_path / "in", batches)
    cache = spark._jvm.io.swag.spark.SwagProcessor
    before = cache.cachedKeys()
    df = swag.spark.aggregate(source(spark, tmp_path / "in", DELAY), swag_query(), cache_max_keys=cache_max_keys)
    out, prog = run_available(df, f"cache_{cache_max_keys}", tmp_path / "ck")
    assert diff(swag_rows(out), uninterrupted) == []
    assert metric_sums(prog) == metric_sums(progress) and metric_sums(progress)["late"] > 0
    assert 0 <= cache.cachedKeys() - before <= cache_max_keys


def test_preaggregate_is_validated(spark, rate):
    with pytest.raises(InvalidQueryError, match="options.preaggregate: 'always' is not one of auto, off"):
        swag.spark.aggregate(rate.withWatermark("ts", "1 second"), _q(), preaggregate="always")  # type: ignore[arg-type]
    with pytest.raises(InvalidQueryError, match="options.preaggregate_slots: 0 is not an integer from 1 to"):
        swag.spark.aggregate(rate.withWatermark("ts", "1 second"), _q(), preaggregate_slots=0)


def test_cache_max_keys_is_validated(spark, rate):
    with pytest.raises(InvalidQueryError, match="cache_max_keys: -1"):
        swag.spark.aggregate(rate, _q(), cache_max_keys=-1)


# ---- bad input ----


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _bad_input_stream(spark, d):
    """Null keys, null and unparsable times, a NaN value and a record beyond the lateness, in files
    of one micro-batch each, with the query; windows: see the two tests below."""
    from pyspark.sql import functions as F

    B = BASE
    rows = [
        [("a", _iso(B + 1000), 1.0), ("a", _iso(B + 3000), 2.0), ("b", _iso(B + 2000), 3.0),
         (None, _iso(B + 1500), 1.0), ("a", None, 1.0), ("a", "not a time", 1.0), ("a", _iso(B + 4000), float("nan"))],
        [("a", _iso(B + 30_000), 5.0)],
        [("b", _iso(B + 26_000), 4.0)],  # runs with the watermark 25s (from the batch before)
        # a@5s: its window ended at 10s <= 25s, the watermark of the batch before: late (Spark's
        # late-events watermark; in the batch before, a@5s would still have counted)
        [("a", _iso(B + 5000), 7.0)],
        [("zz", _iso(B + 200_000), 0.0)],
        [("zz", _iso(B + 200_001), 0.0)],
    ]
    d.mkdir()
    for i, b in enumerate(rows):
        p = d / f"part-{i:04d}.json"
        p.write_text("".join(json.dumps({"k": k, "ts_s": t, "v": v}) + "\n" for k, t, v in b))
        os.utime(p, (1_600_000_000 + 10 * i,) * 2)
    src = spark.readStream.schema("k STRING, ts_s STRING, v DOUBLE").option("maxFilesPerTrigger", 1).json(str(d))
    src = src.select("k", "v", F.try_to_timestamp("ts_s").alias("ts")).withWatermark("ts", "5 seconds")
    q = swag.Query(key="k", time="ts", lateness=0).window(10_000, s=swag.sum("v"), n=swag.count(), mx=swag.max("v"))
    return src, q


BAD_INPUT_WINDOWS = {
    ("a", 0, 10_000): (3.0, 2, 2.0),
    ("b", 0, 10_000): (3.0, 1, 3.0),
    ("b", 20_000, 30_000): (4.0, 1, 4.0),
    ("a", 30_000, 40_000): (5.0, 1, 5.0),
}


@pytest.mark.parametrize("preaggregate", ["auto", "off", "auto-slots-1"])
def test_bad_input_is_counted_when_not_kept(spark, tmp_path, preaggregate):
    """late="count" (with it swag pre-aggregates this query unless told not to): the same windows,
    and every bad record is counted, one by one, in the observed metrics. ``auto-slots-1``: the map
    side hands on every partial as soon as a second (key, slice) opens."""
    src, q = _bad_input_stream(spark, tmp_path / "in")
    slots = 1 if preaggregate == "auto-slots-1" else None
    out = swag.spark.aggregate(src, q, preaggregate="off" if preaggregate == "off" else "auto", preaggregate_slots=slots)
    assert preaggregates(out) == (preaggregate != "off")
    assert "swag_kind" not in out.columns and "swag_n" not in out.columns
    sq = (out.writeStream.format("memory").queryName(f"bad_input_{preaggregate.replace('-', '_')}").outputMode("append")
          .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start())
    table, progress = finish(sq)
    B = BASE
    windows = {(r.k, r.window_start - B, r.window_end - B): (r.s, r.n, r.mx)
               for r in millis(table, "window_start", "window_end").collect()}
    assert windows == BAD_INPUT_WINDOWS
    m = metric_sums(progress)
    assert (m["late"], m["rejected"], m["windows"]) == (1, 4, 4)


@pytest.mark.parametrize("preaggregate", ["auto", "off"])
def test_values_a_function_refuses_are_rejected_one_by_one(spark, tmp_path, preaggregate):
    """geomean refuses values <= 0: on the map side of pre-aggregation (the lift is the check) as in
    the processor, each such record is rejected and counted, and the windows hold the others."""
    B = BASE
    vals = [4.0, -1.0, 9.0, 0.0, 2.0, 8.0]
    batches = [[{"k": "a", "t": B + 1000 * i, "v": v} for i, v in enumerate(vals)],
               [{"k": "zz", "t": B + 100_000, "v": 1.0}], [{"k": "zz", "t": B + 100_001, "v": 1.0}]]
    write_batches(tmp_path / "in", batches)
    q = swag.Query(key="k", time="ts", lateness=0).window(10_000, g=swag.geomean("v"), n=swag.count())
    out = swag.spark.aggregate(source(spark, tmp_path / "in", "0 seconds"), q, preaggregate=preaggregate)
    assert preaggregates(out) == (preaggregate == "auto")
    sq = (out.writeStream.format("memory").queryName(f"refused_{preaggregate}").outputMode("append")
          .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start())
    table, progress = finish(sq)
    rows = [r for r in millis(table, "window_start", "window_end").collect() if r.k == "a"]
    assert [(r.window_start - B, r.n) for r in rows] == [(0, 4)]
    assert rows[0].g == pytest.approx((4.0 * 9.0 * 2.0 * 8.0) ** 0.25, rel=1e-12)
    assert metric_sums(progress)["rejected"] == 2


def test_bad_input_is_accounted_for(spark, tmp_path):
    """Null keys, null and unparsable times, NaN values and records beyond the lateness: the query
    keeps running, the windows of the good records are right, each bad record comes back as a row
    (late="keep") and is counted in the observed metrics."""
    B = BASE
    src, q = _bad_input_stream(spark, tmp_path / "in")
    out = swag.spark.aggregate(src, q, late="keep")
    sq = (out.writeStream.format("memory").queryName("bad_input").outputMode("append")
          .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start())
    table, progress = finish(sq)
    result = millis(table, "window_start", "window_end").collect()
    windows = {(r.k, r.window_start - B, r.window_end - B): (r.s, r.n, r.mx) for r in result if r.swag_kind == "window"}
    assert windows == BAD_INPUT_WINDOWS
    others = sorted((r.swag_kind, r.swag_reason, r.swag_record) for r in result if r.swag_kind != "window")
    kinds = Counter(k for k, _, _ in others)
    assert kinds == {"rejected": 4, "late": 1}, others
    reasons = [reason for _, reason, _ in others]
    assert sum("key column 'k' is null" in x for x in reasons) == 1
    assert sum("time column 'ts' is null" in x for x in reasons) == 2  # null, and "not a time" (no timestamp)
    assert sum("column 'v' is NaN" in x for x in reasons) == 1
    late = [rec for k, _, rec in others if k == "late"]
    assert len(late) == 1 and '"v": 7.0' in late[0]
    m = metric_sums(progress)
    assert (m["late"], m["rejected"], m["windows"]) == (1, 4, 4)


def test_batch_bad_input_is_accounted_for_and_split_gives_a_side_table(spark):
    """History back-fill with null keys, null times and NaN values: the good records' windows are
    right, each bad record comes back as a rejected row (late="keep"), and split() separates the
    window rows (the schema of late="count") from the bad ones (a side table)."""
    from pyspark.sql import functions as F

    B = BASE
    rows = [("a", B + 1000, 1.0), ("a", B + 3000, 2.0), ("b", B + 2000, 3.0), ("a", B + 12_000, 4.0),
            (None, B + 1500, 1.0), ("a", None, 1.0), ("b", B + 4000, float("nan"))]
    df = spark.createDataFrame(rows, "k string, t long, v double").select("k", "v", F.timestamp_millis("t").alias("ts"))
    q = swag.Query(key="k", time="ts", lateness=0).window(10_000, s=swag.sum("v"), n=swag.count(), mx=swag.max("v"))
    out = swag.spark.aggregate(df, q, late="keep")
    windows, others = swag.spark.split(out)
    counted = swag.spark.aggregate(df, q)
    assert windows.schema == counted.schema
    got = {(r.k, r.window_start - B, r.window_end - B): (r.s, r.n, r.mx)
           for r in millis(windows, "window_start", "window_end").collect()}
    expected = {("a", 0, 10_000): (3.0, 2, 2.0), ("b", 0, 10_000): (3.0, 1, 3.0), ("a", 10_000, 20_000): (4.0, 1, 4.0)}
    assert got == expected
    assert {(r.k, r.window_start - B, r.window_end - B): (r.s, r.n, r.mx)
            for r in millis(counted, "window_start", "window_end").collect()} == expected
    bad = sorted((r.swag_kind, r.swag_reason) for r in others.collect())
    assert others.columns == ["swag_kind", "swag_record", "swag_reason"]
    assert [k for k, _ in bad] == ["rejected"] * 3, bad
    reasons = " | ".join(x for _, x in bad)
    assert "key column 'k' is null" in reasons and "time column 'ts' is null" in reasons and "column 'v' is NaN" in reasons


def test_batch_and_stream_have_the_same_schema(spark, rate):
    """A query tested on history runs unchanged on a stream: same output columns and types."""
    from pyspark.sql import functions as F

    static = spark.createDataFrame([("a", 1, 1.0)], "k string, t long, v double").select(
        "k", F.timestamp_millis("t").alias("ts"), "v")
    q = swag.Query(key="k", time="ts").window(10_000, slide=5_000, mx=swag.max("v"), sd=swag.stddev("v"), n=swag.count())
    for late in ("count", "keep"):
        b = swag.spark.aggregate(static, q, late=late)
        s = swag.spark.aggregate(rate.withWatermark("ts", "1 second"), q, late=late)
        assert not b.isStreaming and s.isStreaming
        assert b.schema == s.schema, (late, b.schema, s.schema)
    assert b.columns[:4] == ["k", "window", "window_start", "window_end"]


def test_column_names_with_dots_spaces_and_backticks(spark):
    """Column names are taken literally (not as nested fields or expressions)."""
    from pyspark.sql import functions as F

    df = spark.createDataFrame([("s1", 0, 1.0), ("s1", 4_000, 3.0), ("s2", 1_000, 2.0), ("s1", 12_000, 5.0)],
                               "k string, t long, v double").select(
        F.col("k").alias("station.id"), F.timestamp_millis("t").alias("start time"), F.col("v").alias("trip`v"))
    q = swag.Query(key="station.id", time="start time").window(10_000, top=swag.max("trip`v"), n=swag.count())
    rows = sorted((r["station.id"], r["window_start"].timestamp(), r["top"], r["n"])
                  for r in swag.spark.aggregate(df, q).collect())
    assert rows == [("s1", 0.0, 3.0, 2), ("s1", 10.0, 5.0, 1), ("s2", 0.0, 2.0, 1)]


def test_session_without_the_jars_says_what_to_do(tmp_path):
    """A process whose first SparkSession lacks the swag jars: swag.spark.session() cannot add them
    (spark.jars only counts for the first SparkContext) and says so."""
    import subprocess
    import sys

    code = (
        "from pyspark.sql import SparkSession\n"
        "SparkSession.builder.master('local[1]').config('spark.ui.enabled', 'false').getOrCreate()\n"
        "import swag.spark\n"
        "from swag.errors import SwagSetupError\n"
        "try:\n"
        "    swag.spark.session()\n"
        "except SwagSetupError as e:\n"
        "    print('SETUP-ERROR:', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "SETUP-ERROR:" in r.stdout, r.stdout + r.stderr[-2000:]
    assert "does not have the swag jars" in r.stdout and "spark.jars only takes effect" in r.stdout


# ---- update mode ----

SIZE, SLIDE, LATENESS = 20_000, 10_000, 5_000


def _starts(t: int) -> list[int]:
    return list(range((t // SLIDE) * SLIDE, t - SIZE, -SLIDE))


def oracle_update(batches, wm: dict[int, int]):
    """Rows per batch of swag's update mode over sliding windows with lateness, given the watermark
    S_i each batch ran with (Spark's: records with time < S are late; swag's watermark is S - 1):

    - a record of batch i is used for each window with ``end + lateness > S_{i-1}`` (the previous
      batch's watermark, Spark's late-events watermark; S_0 for batch 0); none: late;
    - after the batch's records: one updated row per already-emitted window the batch touched;
    - then every window with ``end <= S_i`` not emitted yet is emitted; windows with
      ``end + lateness <= S_i`` are dropped."""
    state: dict[tuple[str, int], list[float]] = defaultdict(list)
    emitted: set[tuple[str, int]] = set()
    out, late = {}, 0
    for i in sorted(wm):
        prev, cur = wm[i - 1] if i > 0 else wm[0], wm[i]
        touched, rows = set(), []
        for r in batches[i] if i < len(batches) else []:
            alive = [s for s in _starts(r["t"]) if s + SIZE + LATENESS > prev]
            late += not alive
            for s in alive:
                state[(r["k"], s)].append(r["v"])
                if (r["k"], s) in emitted:
                    touched.add((r["k"], s))
        rows += [(k, s, s + SIZE, len(state[(k, s)]), sum(state[(k, s)])) for k, s in touched]
        for k, s in list(state):
            if (k, s) not in emitted and s + SIZE <= cur:
                rows.append((k, s, s + SIZE, len(state[(k, s)]), sum(state[(k, s)])))
                emitted.add((k, s))
            if s + SIZE + LATENESS <= cur:
                del state[(k, s)]
        out[i] = sorted(rows)
    return out, late


@pytest.mark.parametrize("preaggregate", ["auto", "off"])
def test_update_mode_matches_oracle(spark, tmp_path, preaggregate):
    s = 1000
    B = BASE
    recs = [
        [("a", 5 * s), ("b", 11 * s)],
        [("c", 17 * s)],
        [("d", 18 * s)],
        # a@9s: its window [-10s, 10s) is past its lateness (15s <= 17s), [0s, 20s) is not
        [("a", 9 * s)],
        [("b", 31 * s), ("a", 12 * s)],
        # inside the lateness of emitted windows ([0, 20s), [10s, 30s) of b), and late for all
        [("b", 19 * s), ("b", 26 * s), ("c", 3 * s)],
        [("a", 33 * s), ("c", 27 * s)],
        [("zz", 200 * s)],
        [("zz", 201 * s)],
    ]
    batches = [[{"k": k, "t": B + t, "v": float(j + 1)} for j, (k, t) in enumerate(b)] for b in recs]
    write_batches(tmp_path / "in", batches)
    q = swag.Query(key="k", time="ts", lateness=LATENESS).window(SIZE, slide=SLIDE, n=swag.count(), s=swag.sum("v"))
    out = swag.spark.aggregate(source(spark, tmp_path / "in", "0 seconds"), q, output_mode="update",
                               preaggregate=preaggregate)
    assert preaggregates(out) == (preaggregate == "auto")
    got: dict[int, list] = {}

    def collect(df, batch_id):
        got[batch_id] = sorted(
            (r.k, r.window_start - B, r.window_end - B, r.n, r.s) for r in millis(df, "window_start", "window_end").collect()
        )

    sq = (out.writeStream.foreachBatch(collect).outputMode("update").option("checkpointLocation", str(tmp_path / "ck"))
          .trigger(availableNow=True).start())
    sq.awaitTermination(240)
    assert sq.exception() is None, sq.exception()
    progress = list(sq.recentProgress)
    wm = {i: w - B for i, w in watermarks(progress).items()}
    rel = [[{**r, "t": r["t"] - B} for r in b] for b in batches]
    expected, late = oracle_update(rel, {i: max(w, -(10**12)) for i, w in wm.items()})
    assert {i: v for i, v in got.items() if v} == {i: v for i, v in expected.items() if v}
    assert metric_sums(progress)["late"] == late
    assert any(len(v) for i, v in expected.items() if i >= 4)  # updates after the first rows happened


# ---- errors ----


@pytest.fixture()
def rate(spark):
    return spark.readStream.format("rate").load().selectExpr("cast(value % 3 as string) as k", "timestamp as ts",
                                                             "cast(value as double) as v")


def _q(column: str = "v") -> swag.Query:
    return swag.Query(key="k", time="ts").window(10_000, mx=swag.max(column))


def test_stream_without_watermark_names_the_time_column(rate):
    with pytest.raises(SwagError, match="'ts'.*withWatermark"):
        swag.spark.aggregate(rate, _q())
    assert swag.spark.aggregate(rate, _q(), watermark_delay="10s").isStreaming  # the option is the way out


def test_session_without_rocksdb_names_the_provider_conf(spark, rate):
    conf = swag.spark.PROVIDER_CONF
    old = spark.conf.get(conf)
    spark.conf.set(conf, "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider")
    try:
        with pytest.raises(SwagSetupError, match=conf.replace(".", r"\.")):
            swag.spark.aggregate(rate.withWatermark("ts", "1 second"), _q())
    finally:
        spark.conf.set(conf, old)
    assert spark.conf.get(conf) == swag.spark.ROCKSDB


def test_missing_column_is_named(spark, rate):
    with pytest.raises(SwagError, match="'nope'"):
        swag.spark.aggregate(rate.withWatermark("ts", "1 second"), _q("nope"))
    static = spark.createDataFrame([("a", 1, 1.0)], "k string, ts long, v double")
    with pytest.raises(SwagError, match="'nope'"):
        swag.spark.aggregate(static, _q("nope"))


def test_invalid_input_raises_invalid_input_error(spark, rate):
    """An input that does not fit the query (Java kind INVALID_INPUT) -> InvalidInputError, a subclass
    of InvalidQueryError, with the Java message without its kind prefix."""
    with pytest.raises(InvalidInputError,
                       match="^the streaming input has no watermark on its time column 'ts'.*withWatermark") as info:
        swag.spark.aggregate(rate, _q())
    assert info.value.java_exception is not None
    assert "at io.swag" not in str(info.value)  # the message, not the Java stack trace
    stream = spark.readStream.format("rate").load().selectExpr("'a' as k", "'x' as ts", "1.0D as v")
    with pytest.raises(InvalidInputError, match="^time column 'ts' has type string"):
        swag.spark.aggregate(stream, _q(), watermark_delay="1s")


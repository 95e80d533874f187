"""Cross-engine equivalence, Spark: every case of tests/equivalence/corpus.py on Spark Structured
Streaming and on the batch back-fill, against the local executor row for row, value for value and
type for type (module docstring of the corpus: determinism, row shapes; its KNOWN_GAPS: what differs
today, asserted exactly).

- **Streaming**: one JSON-lines file per segment of the case (one micro-batch each,
  ``maxFilesPerTrigger=1``, ``availableNow``), ``t`` read as a timestamp with the case's watermark
  delay, then two flush batches far ahead (key ``zz``, far later times: every window fires; their own
  rows are dropped). Append mode emits each window once, with its final values after the lateness:
  compared with the last local row of each window. ``late="keep"``: the late and rejected records come
  back as rows, compared with the local executor's by count, reason and record.
- **Batch back-fill**: a static DataFrame of the records, against the local executor run with no
  watermark until the end (nothing is late in a back-fill); ``t`` as epoch ms (bigint) for the cases in
  ``LONG_TIME``, else as a timestamp.
"""

from __future__ import annotations

import json
import math
import re
import time

import pytest
from spark_helpers import millis, start_available, write_batches

import swag
import swag.spark
from equivalence.corpus import (
    BY_ID,
    CASES,
    DOUBLE,
    FAR,
    KNOWN_GAPS,
    LIST,
    LONG,
    OBJECT,
    STRING,
    TIME,
    check_types,
    compare_rows,
    drop_value_gaps,
    final_rows,
    java_text,
    local,
    output_types,
    print_timings,
    trim,
)

LONG_TIME = {"basic", "global", "two_keys"}
FLUSH_AHEAD = 600_000
TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def _print_timings():
    """Prints each case's wall time after the module (shown with ``pytest -s``)."""
    yield
    print_timings("spark", TIMINGS)


def _schema(case) -> str:
    types = {"k": "STRING", "k2": "BIGINT", "t": "BIGINT", "v": "DOUBLE"}
    return ", ".join(f"{c} {types[c]}" for c in case.columns)


def _contract(timestamp_time: bool):
    spark_types = {"bigint": LONG, "double": DOUBLE, "string": STRING, "array<double>": LIST}

    def contract_of(want: str, got: str | None) -> str | None:
        if want == TIME:  # window bounds, argmin, argmax: the time column's type (docs/query-spec.md)
            return TIME if got == ("timestamp" if timestamp_time else "bigint") else None
        if want == OBJECT and got == "string":  # a structure as its JSON text (docs/query-spec.md)
            return OBJECT
        return spark_types.get(got)

    return contract_of


def _rows(df, case, engine: str, timestamp_time: bool) -> list[dict]:
    """The window rows as plain dicts: timestamps as epoch ms, the gap columns read from their type,
    flush rows dropped, the other windows' columns dropped."""
    q = case.query()
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    gap_types = check_types(case.id, engine, q, types, _contract(timestamp_time))
    ts_cols = [c for c, t in types.items() if t == "timestamp"]
    rows = [r.asDict(recursive=True) for r in millis(df, *ts_cols).collect()]
    last = max(r["t"] for r in case.records if r["t"] is not None)
    # the flush records' windows: after the data's, or (count windows) of the flush key
    rows = [r for r in rows if r["window_start"] <= last and r.get("k") != "zz"]
    objects = [c for c, t in output_types(q).items() if t == OBJECT and c not in gap_types]
    for r in rows:
        for c, t in gap_types.items():
            if t == "string":
                r[c] = java_text(r[c])
        for c in objects:
            if r.get(c) is not None:
                r[c] = json.loads(r[c])
    return trim(q, rows, engine)


def _check_values(case, engine: str, got: list[dict], want: list[dict]) -> None:
    q = case.query()
    drop_value_gaps(case.id, engine, got, want)
    problems = compare_rows(q, got, want, engine)
    assert problems == [], f"{engine} {case.id}: {len(problems)} differences, first: " + "\n".join(problems[:5])


def _others(case, bad_rows, ref) -> None:
    """Late and rejected rows against the local executor's: kinds, reasons and records."""
    got = []
    for b in bad_rows:
        rec, reason = _record(b["swag_record"]), b["swag_reason"]
        if b["swag_kind"] == "late":  # Spark gives a late record a reason; the local executor none
            lateness = case.query().lateness_ms
            assert re.fullmatch(rf"time {rec[1]} is beyond the allowed lateness \({lateness} ms\) at watermark \d+",
                                reason), reason
            reason = ""
        got.append((b["swag_kind"], reason, rec))
    got.sort()
    want = sorted([("late", "", _record(r)) for r in ref.late]
                  + [("rejected", d["reason"], _record(d["record"])) for d in ref.rejected])
    assert [(k, r) for k, r, _ in got] == [(k, r) for k, r, _ in want], f"{case.id}: kinds and reasons"
    assert [x for _, _, x in got] == [x for _, _, x in want], f"{case.id}: records"


def _record(rec) -> tuple:
    """A late or rejected record as (k, t, v): Spark's swag_record is JSON text with the time as an
    ISO timestamp; the local one a dict with epoch ms."""
    if isinstance(rec, str):
        rec = json.loads(rec)
        t = rec.get("t")
        if isinstance(t, str):
            from datetime import datetime

            t = int(datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp() * 1000)
        rec = {**rec, "t": t}
    v = rec.get("v")
    return (rec.get("k"), rec.get("t"), "NaN" if isinstance(v, float) and math.isnan(v) else v)


def _stream_df(spark, case, directory):
    from pyspark.sql import functions as F

    df = spark.readStream.schema(_schema(case)).option("maxFilesPerTrigger", 1).json(str(directory))
    cols = [F.timestamp_millis("t").alias("t") if c == "t" else F.col(c) for c in case.columns]
    return df.select(*cols).withWatermark("t", f"{case.delay} milliseconds")


def _flush(case) -> list[list[dict]]:
    last = max(r["t"] for r in case.records if r["t"] is not None) + FLUSH_AHEAD
    rec = {c: (1 if c == "k2" else "zz") for c in case.columns if c in ("k", "k2")}
    return [[{**rec, "t": last, "v": 1.0}], [{**rec, "t": last + 1, "v": 1.0}]]


@pytest.mark.parametrize("case_id", [c.id for c in CASES])
def test_streaming_equals_the_local_executor(spark, tmp_path, case_id: str) -> None:
    case = BY_ID[case_id]
    engine = "spark_stream"
    started = time.monotonic()
    try:
        write_batches(tmp_path / "in", case.segments + _flush(case))
        _run_or_gap(engine, case_id, lambda: _stream_case(spark, case, tmp_path))
    finally:
        TIMINGS[f"stream {case_id}"] = time.monotonic() - started


def _run_or_gap(engine: str, case_id: str, run) -> None:
    """Runs the comparison; for a known gap with an error, asserts that error instead."""
    gap = KNOWN_GAPS.get((engine, case_id))
    if not (gap and gap.error):
        run()
        return
    try:
        run()
    except AssertionError:
        raise
    except Exception as e:  # noqa: BLE001 - the engine's own exception types vary (Py4J, pyspark, swag)
        assert re.search(gap.error, str(e)), f"{engine} {case_id}: error {e!s:.500} does not match the gap {gap.error!r}"
        return
    raise AssertionError(f"{engine} {case_id}: ran without the error of the known gap ({gap.reason}): remove it "
                         "from KNOWN_GAPS")


def _stream_case(spark, case, tmp_path) -> None:
    engine, case_id = "spark_stream", case.id
    out = swag.spark.aggregate(_stream_df(spark, case, tmp_path / "in"), case.query(), late="keep",
                               metrics_name=f"equiv_{case_id}")
    sq = start_available(out, f"equiv_{case_id}", tmp_path / "ck")
    try:
        assert sq.awaitTermination(240), f"{case_id}: the stream did not finish in 240 s"
        if sq.exception() is not None:
            raise RuntimeError(str(sq.exception()))
        progress = list(sq.recentProgress)
    finally:
        sq.stop()
    table = spark.table(f"equiv_{case_id}")
    windows, others = swag.spark.split(table)
    ref = local(case)
    got = _rows(windows, case, engine, True)
    want = final_rows(case.query(), ref.rows) if case.query().emit == "window_end" else ref.rows
    _check_values(case, engine, got, [dict(r) for r in want])
    _others(case, others.collect(), ref)
    counts = [swag.spark.observed_metrics(p, f"equiv_{case_id}") for p in progress]
    assert sum(c["late"] for c in counts if c) == ref.late_count
    assert sum(c["rejected"] for c in counts if c) == len(ref.rejected)


@pytest.mark.parametrize("case_id", [c.id for c in CASES])
def test_batch_backfill_equals_the_local_executor(spark, case_id: str) -> None:
    from pyspark.sql import functions as F

    case = BY_ID[case_id]
    engine = "spark_batch"
    started = time.monotonic()
    try:
        long_time = case_id in LONG_TIME
        df = spark.createDataFrame([tuple(r.get(c) for c in case.columns) for r in case.records], _schema(case))
        if not long_time:
            df = df.select(*[F.timestamp_millis("t").alias("t") if c == "t" else F.col(c) for c in case.columns])

        counts = any(w.kind == "count" for w in case.query().windows)
        if counts:  # count windows: one input partition, so that Spark hands each key its rows in order:
            df = df.coalesce(1)  # by time (a back-fill sorts them), or as given without a time column

        def run() -> None:
            windows, others = swag.spark.split(swag.spark.aggregate(df, case.query(), late="keep"))
            ref = local(case, FAR, by_time=counts and case.query().time is not None)
            got = _rows(windows, case, engine, not long_time)
            _check_values(case, engine, got, [dict(r) for r in ref.rows])
            _others(case, [r.asDict() for r in others.collect()], ref)

        _run_or_gap(engine, case_id, run)
    finally:
        TIMINGS[f"batch {case_id}"] = time.monotonic() - started

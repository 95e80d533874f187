"""The reference of the cross-engine equivalence suite, checked: the local executor (``swag.run``)
against a brute-force oracle written here (plain Python over the records, no swag code), for the
functions an oracle can state in a line, on the corpus's own streams; its time forms; and the
corpus's claims about its lateness and rejected-record streams. The engines are compared with the
local executor in tests/spark/test_equiv_spark.py and tests/flink/test_equiv_flink.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import swag
from equivalence.corpus import BASE, BY_ID, CASES, FAR, compare_rows, lateness_stream, local, python_type, utc


def _starts(t: int, size: int, slide: int, offset: int) -> list[int]:
    """The starts of the time windows holding ``t``: ``k * slide + offset <= t < start + size``."""
    first = (t - offset) // slide * slide + offset
    out = []
    s = first
    while s > t - size:
        out.append(s)
        s -= slide
    return out


def _oracle(records, key: str | None, windows: list[tuple[str, int, int, int, dict]]) -> list[dict]:
    """window_end rows of time windows, no record late: per (key, window, start) the records in it, in
    event-time order (equal times in arrival order), reduced by the functions named in ``fns``."""
    cells: dict[tuple, list[tuple[int, int, float]]] = {}
    for i, r in enumerate(records):
        for name, size, slide, offset, _ in windows:
            for s in _starts(r["t"], size, slide, offset):
                cells.setdefault((r.get(key) if key else None, name, s, s + size), []).append((r["t"], i, r["v"]))
    fns = {
        "sum": lambda vs: float(sum(vs)), "count": len, "max": lambda vs: float(max(vs)),
        "min": lambda vs: float(min(vs)), "first": lambda vs: vs[0], "last": lambda vs: vs[-1],
        "collect": list,
    }
    rows = []
    for (k, name, s, e), entries in cells.items():
        vs = [v for _, _, v in sorted(entries)]
        spec = next(w[4] for w in windows if w[0] == name)
        row = {"window": name, "window_start": s, "window_end": e}
        if key:
            row[key] = k
        row.update({out: fns[fn](vs) for out, fn in spec.items()})
        rows.append(row)
    return rows


@pytest.mark.parametrize("case_id", ["basic", "order", "global"])
def test_local_executor_equals_a_brute_force_oracle(case_id: str) -> None:
    case = BY_ID[case_id]
    recs = case.records
    key = "k" if case_id != "global" else None
    q = swag.Query(key=key, time="t", order="out_of_order")
    q.window(1000, s=swag.sum("v"), n=swag.count(), f=swag.first("v"), l=swag.last("v"))
    q.window(3000, slide=1000, offset=250, c=swag.collect("v"), mx=swag.max("v"), mn=swag.min("v"))
    want = _oracle(recs, key, [("1s/1s", 1000, 1000, 0, {"s": "sum", "n": "count", "f": "first", "l": "last"}),
                               ("3s/1s", 3000, 1000, 250, {"c": "collect", "mx": "max", "mn": "min"})])
    got = swag.run(q, recs, watermark_delay=FAR)
    assert got.late == [] and got.rejected == []
    assert len(want) > 20
    assert compare_rows(q, got.rows, want, "local") == []


def test_per_record_rows_equal_a_brute_force_oracle() -> None:
    """per_record: for each record, the window (t - size, t] of its key over the records so far."""
    case = BY_ID["per_record"]
    recs = case.records
    q = swag.Query(key="k", time="t", emit="per_record").window(1000, s=swag.sum("v"), n=swag.count())
    want = []
    for i, r in enumerate(recs):
        vs = [x["v"] for x in recs[: i + 1] if x["k"] == r["k"] and r["t"] - 1000 < x["t"] <= r["t"]]
        want.append({"k": r["k"], "window": "1s/1s", "window_start": r["t"] - 999, "window_end": r["t"] + 1,
                     "s": float(sum(vs)), "n": len(vs)})
    got = swag.run(q, recs, watermark_delay=case.delay)
    assert got.rows == want


def test_count_windows_equal_a_brute_force_oracle() -> None:
    """The last N records of the key in arrival order, a row every ``slide`` records."""
    case = BY_ID["processing_time"]
    recs = case.records
    want, seen = [], {}
    for r in recs:
        seen.setdefault(r["k"], []).append(r["v"])
        n = len(seen[r["k"]])
        if n % 2 == 0:
            last = seen[r["k"]][-4:]
            want.append({"k": r["k"], "window": "4/2", "window_start": max(0, n - 4), "window_end": n,
                         "s": float(sum(last)), "mx": float(max(last)), "n": len(last)})
    assert swag.run(case.query(), recs).rows == want


def test_the_lateness_stream_is_late_and_updated_where_the_corpus_says() -> None:
    case = BY_ID["late"]
    res = local(case)
    late = [(r["k"], r["t"] - BASE) for r in res.late]
    assert late == [("a", 2_200), ("b", 400)] and res.late_count == 2
    # the late-but-allowed records made updated rows: window 5 s of a (5.3 s), windows 5 s and 6 s of b
    # (6.7 s); key c (7.1 s) is new: its windows 6 s and 7 s fire at once
    seen: dict[tuple, int] = {}
    for r in res.rows:
        k = (r["k"], r["window_start"] - BASE)
        seen[k] = seen.get(k, 0) + 1
    assert {k: n for k, n in seen.items() if n > 1} == {("a", 5_000): 2, ("b", 5_000): 2, ("b", 6_000): 2}
    assert {k for k in seen if k[0] == "c"} == {("c", 6_000), ("c", 7_000)}


@pytest.mark.parametrize(("case_id", "reasons"), [
    ("rejected", ["key column 'k' is null", "column 'v' is NaN"]),
    ("null_time", ["time column 't' is null", "key column 'k' is null"]),
])
def test_the_rejected_streams_reject_each_bad_record_with_its_reason(case_id: str, reasons: list[str]) -> None:
    case = BY_ID[case_id]
    res = local(case)
    assert sorted(d["reason"] for d in res.rejected) == sorted(reasons * len(case.segments))
    assert res.late == []


@pytest.mark.parametrize("form", ["iso", "datetime_utc", "datetime_naive", "digits", "float"])
def test_time_forms_give_the_same_rows(form: str) -> None:
    """Epoch ms, ISO-8601 strings, aware and naive (UTC) datetimes, digit strings and integral floats
    are one time: the same rows, late and rejected records."""
    case = BY_ID["late"]
    conv = {
        "iso": lambda ms: utc(ms).isoformat(),
        "datetime_utc": utc,
        "datetime_naive": lambda ms: utc(ms).replace(tzinfo=None),
        "digits": str,
        "float": float,
    }[form]
    want = local(case)
    recs = [{**r, "t": conv(r["t"])} for r in case.records]
    got = swag.run(case.query(), recs, watermark_delay=case.delay)
    assert got.rows == want.rows
    assert [(r["k"], r["v"]) for r in got.late] == [(r["k"], r["v"]) for r in want.late]


def test_an_unparsable_time_is_rejected_with_its_reason() -> None:
    """Only the local executor receives time strings: Spark and Flink read a typed time column
    (timestamp or epoch ms), where an unparsable time cannot occur."""
    recs = [{"k": "a", "t": BASE, "v": 1.0}, {"k": "a", "t": "11/25/2026", "v": 2.0}]
    res = swag.run(swag.Query(key="k", time="t").window(1000, s=swag.sum("v")), recs)
    assert [d["reason"] for d in res.rejected] == [
        "time column 't': unparsable time \"11/25/2026\" (epoch ms, a timestamp or an ISO-8601 string)"]
    assert res.rows == [{"k": "a", "window": "1s/1s", "window_start": BASE, "window_end": BASE + 1000, "s": 1.0}]


def test_every_case_runs_and_its_rows_have_the_contract_types() -> None:
    from equivalence.corpus import output_types

    assert utc(BASE) == datetime.fromtimestamp(BASE // 1000, tz=UTC)
    assert len(lateness_stream()) == 4
    for case in CASES:
        q = case.query()
        res = local(case)
        assert res.rows, case.id
        types = output_types(q)
        for r in res.rows:
            for c, v in r.items():
                if c in types:
                    want = "long" if types[c] == "time" else types[c]
                    assert python_type(v) == want, (case.id, c, v)


def test_every_known_gap_names_an_engine_and_a_case_the_suites_run() -> None:
    from equivalence.corpus import KNOWN_GAPS

    engines = {"spark_stream", "spark_batch", "flink_datastream", "flink_table", "flink_sql"}
    for (engine, case_id), gap in KNOWN_GAPS.items():
        assert engine in engines and case_id in BY_ID, (engine, case_id)
        assert gap.reason and (gap.error or gap.types or gap.values or gap.null_key_rows), (engine, case_id)
        cols = set(BY_ID[case_id].query().to_dict()["key"]) | set(
            name for w in BY_ID[case_id].query().windows for name, _ in w.aggregates)
        assert set(gap.types) <= cols and set(gap.values) <= cols, (engine, case_id)

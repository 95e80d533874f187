"""swag.run (Java's LocalExecutor) against a naive Python oracle that re-aggregates every window
from the raw records, with the window semantics of docs/query-spec.md:

- time windows start at k * slide + offset and cover [start, start + size);
- the watermark is the largest event time seen minus the delay, advanced after each record;
- emit = window_end: a window fires (one row per key) when the watermark reaches end - 1; a record
  arriving later is still used while end - 1 + lateness > watermark and then emits an updated row;
  a record too late for every window it belongs to is returned and counted as late; at the end
  every window that has not fired fires;
- emit = per_record: per record, at once, a row per window over (t - size, t];
- count windows: the last size records of the key, emitted every slide records.

Aggregates over time windows combine records in event-time order (ties in arrival order): the
order that matters for collect, first, last and the tie rule of argmax.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import swag

LONG_MIN = -(2**63)

# ---- records ----


def make_records(seed: int, n: int, keys: str = "abc", jitter: int = 400, very_late: float = 0.05) -> list[dict[str, Any]]:
    """Records in arrival order whose event times run ahead with random steps, most a little out
    of order (up to ``jitter`` ms behind), a few far behind (``very_late``): late for some
    windows. Values are small integers as floats (exact sums, ties for max/argmax)."""
    rng = random.Random(seed)
    now = 100_000
    out = []
    for _ in range(n):
        now += rng.randint(0, 120)
        if rng.random() < 0.1:
            now = (now // 500 + 1) * 500 - 1  # the last ms of windows: the watermark hits end - 1 exactly
        r = rng.random()
        if r < very_late:
            t = now - rng.randint(1_000, 6_000)
        elif r < 0.6:
            t = now - rng.randint(0, jitter)
        else:
            t = now
        out.append({"k": rng.choice(keys), "t": t, "v": float(rng.randint(-20, 20))})
    return out


# ---- oracle ----


def _aggregate(fn: str, entries: list[tuple[int, int, dict[str, Any]]]) -> Any:
    """``fn`` over entries (time, arrival index, record), combined in (time, arrival) order."""
    entries = sorted(entries, key=lambda e: (e[0], e[1]))
    vs = [r["v"] for _, _, r in entries]
    if fn == "sum":
        return float(sum(vs))
    if fn == "max":
        return max(vs)
    if fn == "min":
        return min(vs)
    if fn == "count":
        return len(vs)
    if fn == "collect":
        return vs
    if fn == "mean":
        return sum(vs) / len(vs)
    if fn == "stddev":
        return statistics.stdev(vs) if len(vs) > 1 else math.nan  # sample stddev of one value
    if fn == "first":
        return vs[0]
    if fn == "last":
        return vs[-1]
    if fn == "argmax":
        top = max(vs)
        return next(t for (t, _, r) in entries if r["v"] == top)
    raise AssertionError(fn)


AGGS = {"s": "sum", "m": "max", "n": "count", "c": "collect"}
MORE_AGGS = {"lo": "min", "avg": "mean", "sd": "stddev", "f": "first", "l": "last", "am": "argmax"}


def _helpers(aggs: dict[str, str]) -> dict[str, swag.Aggregate]:
    made = {}
    for out, fn in aggs.items():
        made[out] = swag.count() if fn == "count" else getattr(swag, fn)("v")
    return made


def _starts(t: int, size: int, slide: int, offset: int) -> list[int]:
    last = t - (t - offset) % slide
    out = []
    s = last
    while s > t - size:
        out.append(s)
        s -= slide
    return sorted(out)


def oracle_window_end(
    records: list[dict[str, Any]], windows: list[tuple[str, int, int, int]], aggs: dict[str, str], lateness: int, delay: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(rows, late records) of a window_end query over time windows ``(name, size, slide, offset)``."""
    state: dict[tuple[str, str, int], list[tuple[int, int, dict[str, Any]]]] = defaultdict(list)
    geometry = {name: (size, slide, offset) for name, size, slide, offset in windows}
    fired: set[tuple[str, str, int]] = set()
    rows: list[dict[str, Any]] = []
    late: list[dict[str, Any]] = []
    wm = LONG_MIN
    top = LONG_MIN

    def row(wkey: tuple[str, str, int]) -> dict[str, Any]:
        name, k, start = wkey
        out = {"k": k, "window": name, "window_start": start, "window_end": start + geometry[name][0]}
        out[STEP] = step  # when the row is emitted: after record `step` (len(records): at the end)
        for o, fn in aggs.items():
            out[o] = _aggregate(fn, state[wkey])
        return out

    step = 0
    for i, r in enumerate(records):
        step = i
        t = r["t"]
        used = False
        for name, size, slide, offset in windows:
            for start in _starts(t, size, slide, offset):
                end = start + size
                if not end - 1 + lateness > wm:
                    continue  # too late for this window: its state is gone
                used = True
                wkey = (name, r["k"], start)
                state[wkey].append((t, i, r))
                if wm >= end - 1:  # the window has fired (or is due): an updated row at once
                    fired.add(wkey)
                    rows.append(row(wkey))
        if not used:
            late.append(r)
        top = max(top, t)
        if top - delay > wm:
            wm = top - delay
            for wkey in sorted(state, key=lambda w: (w[2] + geometry[w[0]][0], w)):
                if wkey not in fired and wm >= wkey[2] + geometry[wkey[0]][0] - 1:
                    fired.add(wkey)
                    rows.append(row(wkey))
    step = len(records)
    for wkey in sorted(state, key=lambda w: (w[2] + geometry[w[0]][0], w)):
        if wkey not in fired:
            rows.append(row(wkey))
    return rows, late


def oracle_per_record_time(
    records: list[dict[str, Any]], windows: list[tuple[str, int]], aggs: dict[str, str]
) -> list[dict[str, Any]]:
    """Rows of a per_record query over time windows ``(name, size)`` (no record late)."""
    rows = []
    for i, r in enumerate(records):
        t = r["t"]
        for name, size in windows:
            entries = [(x["t"], j, x) for j, x in enumerate(records[: i + 1]) if x["k"] == r["k"] and t - size < x["t"] <= t]
            out = {"k": r["k"], "window": name, "window_start": t - size + 1, "window_end": t + 1}
            for o, fn in aggs.items():
                out[o] = _aggregate(fn, entries)
            rows.append(out)
    return rows


def oracle_count(
    records: list[dict[str, Any]], windows: list[tuple[str, int, int]], aggs: dict[str, str], per_record: bool
) -> list[dict[str, Any]]:
    """Rows of count windows ``(name, size, slide)``: the last ``size`` records of the key (arrival
    order), every ``slide`` records of the key (every record when ``per_record``); window_end is
    the key's record count, window_start the count at the window's first record minus one
    (``max(0, count - size)``)."""
    seen: dict[str, list[tuple[int, int, dict[str, Any]]]] = defaultdict(list)
    rows = []
    for i, r in enumerate(records):
        mine = seen[r["k"]]
        mine.append((i, i, r))  # arrival order: the "time" is the arrival index
        c = len(mine)
        for name, size, slide in windows:
            if per_record or c % slide == 0:
                out = {"k": r["k"], "window": name, "window_start": max(0, c - size), "window_end": c}
                for o, fn in aggs.items():
                    out[o] = _aggregate(fn, mine[-size:])
                rows.append(out)
    return rows


# ---- comparing ----


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


STEP = "_step"


def assert_same_rows(got: list[dict[str, Any]], want: list[dict[str, Any]], ordered_within: tuple[str, ...]) -> None:
    """Equal rows; per group (the columns ``ordered_within``) in the same order: the order
    between groups (e.g. windows firing at one watermark) is not specified. When the expected rows
    carry the step that emits them (``STEP``), the result's rows must come in step order: every
    row is emitted right after the record that causes it (or at the end). The expected rows must
    not be empty: every caller's input makes windows."""
    assert want, "the test input makes no expected rows: the comparison would check nothing"
    assert len(got) == len(want), f"{len(got)} rows, expected {len(want)}"
    g: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    w: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in got:
        g[tuple(r.get(c) for c in ordered_within)].append(r)
    for r in want:
        w[tuple(r[c] for c in ordered_within)].append(r)
    step_of: dict[int, int] = {}
    assert set(g) == set(w), f"groups only in the result: {sorted(set(g) - set(w))[:5]}; missing: {sorted(set(w) - set(g))[:5]}"
    for key, wrows in w.items():
        grows = g[key]
        assert len(grows) == len(wrows), f"{key}: {len(grows)} rows, expected {len(wrows)}: {grows} vs {wrows}"
        for a, b in zip(grows, wrows, strict=True):
            if STEP in b:
                step_of[id(a)] = b[STEP]
                b = {c: v for c, v in b.items() if c != STEP}
            assert set(a) == set(b), f"{key}: columns {list(a)}, expected {list(b)}"
            for c in b:
                assert _close(a[c], b[c]), f"{key}: column {c!r} is {a[c]!r}, expected {b[c]!r}\n got {a}\nwant {b}"
    if step_of:
        steps = [step_of[id(r)] for r in got]
        for n in range(1, len(steps)):
            assert steps[n - 1] <= steps[n], (
                f"row {n} {got[n]} is emitted after record {steps[n]}, "
                f"but the row before it ({got[n - 1]}) only after record {steps[n - 1]}"
            )


# ---- window_end against the oracle ----

WINDOWS = [("1s/1s", 1000, 1000, 0), ("3s/1s", 3000, 1000, 0), ("tilted", 2500, 500, 200)]


def window_end_query(
    lateness: int, windows: list[tuple[str, int, int, int]], aggs: dict[str, str], order: str = "unknown"
) -> tuple[swag.Query, dict[str, dict[str, str]]]:
    """The query, and per window the output names -> function (outputs are unique per query)."""
    q = swag.Query(key="k", time="t", lateness=lateness, order=order)
    per_window = {}
    for i, (name, size, slide, offset) in enumerate(windows):
        named = {f"{o}{i}": fn for o, fn in aggs.items()}
        per_window[name] = named
        q.window(size, slide, offset=offset, name=name, **_helpers(named))
    return q, per_window


def oracle_for(
    records: list[dict[str, Any]], windows: list[tuple[str, int, int, int]], per_window: dict[str, dict[str, str]],
    lateness: int, delay: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    late_sets = []
    for w in windows:
        r, late = oracle_window_end(records, [w], per_window[w[0]], lateness, delay)
        rows += r
        late_sets.append({id(x) for x in late})
    late_ids = set.intersection(*late_sets)  # late = too late for every window of the query
    return rows, [x for x in records if id(x) in late_ids]


# gcd 10 s (Planner.MIN_SLICE_MS): the planner slices (SlicedAggregator in front of the tree)
SLICED = [("10s/10s", 10000, 10000, 0), ("30s/10s", 30000, 10000, 0), ("40s/20s", 40000, 20000, 0)]
SINGLE = [("3s/1s", 3000, 1000, 0)]  # one window: adaptive (order unknown) or daba_lite (in_order)
GEOMETRIES = {"unsliced": WINDOWS, "sliced": SLICED, "single": SINGLE}


@pytest.mark.parametrize(
    "seed, lateness, delay, geometry, order",
    [
        (1, 0, 0, "unsliced", "unknown"),
        (2, 0, 300, "unsliced", "unknown"),
        (3, 700, 0, "unsliced", "out_of_order"),
        (4, 700, 300, "unsliced", "unknown"),
        (5, 1500, 100, "unsliced", "unknown"),
        (6, 0, 0, "sliced", "unknown"),
        (7, 700, 300, "sliced", "out_of_order"),
        (8, 0, 0, "single", "unknown"),
        (9, 700, 300, "single", "unknown"),
        (10, 700, 300, "single", "out_of_order"),
        (12, 700, 300, "single", "in_order"),  # declared in order, but is not: the key switches to a tree
    ],
)
def test_window_end_matches_oracle(seed: int, lateness: int, delay: int, geometry: str, order: str) -> None:
    windows = GEOMETRIES[geometry]
    records = make_records(seed, 600)
    if geometry == "sliced":
        # the sliced windows are 10x coarser (the planner slices from gcd 10 s): scale the stream,
        # the lateness and the delay with them, keeping records on the last ms of windows
        records = [{**r, "t": (r["t"] + 1) * 10 - 1} for r in records]
        lateness, delay = lateness * 10, delay * 10
    q, per_window = window_end_query(lateness, windows, AGGS, order=order)
    groups = json.loads(q.plan_json())["groups"]
    assert [g["slicing"] for g in groups if g["kind"] == "time"] == [geometry == "sliced"], groups
    res = swag.run(q, records, watermark_delay=delay)
    want_rows, want_late = oracle_for(records, windows, per_window, lateness, delay)
    assert_same_rows(res.rows, want_rows, ("k", "window", "window_start"))
    assert res.late == want_late
    assert all(a is b for a, b in zip(res.late, want_late, strict=True))  # the records as given
    assert res.late_count == len(want_late)
    assert res.rejected == []
    assert want_late, "the data must make late records"  # (5% of them are 1 to 6 s behind)
    if lateness > 0:
        # updated rows: some (key, window) emitted more than once
        seen = [(r["k"], r["window"], r["window_start"]) for r in want_rows]
        assert len(set(seen)) < len(seen)


@pytest.mark.parametrize("order", ["unknown", "out_of_order"])
def test_window_end_more_functions(order: str) -> None:
    records = make_records(11, 400)
    windows = [("2s/500ms", 2000, 500, 0), ("1s/1s", 1000, 1000, 0)]
    q, per_window = window_end_query(400, windows, MORE_AGGS, order=order)
    res = swag.run(q, records, watermark_delay=150)
    want_rows, want_late = oracle_for(records, windows, per_window, 400, 150)
    assert_same_rows(res.rows, want_rows, ("k", "window", "window_start"))
    assert want_late and res.late == want_late


def test_window_end_in_order_records() -> None:
    records = sorted(make_records(21, 500, very_late=0.0), key=lambda r: r["t"])
    q, per_window = window_end_query(0, WINDOWS, AGGS, order="in_order")
    res = swag.run(q, records)
    want_rows, want_late = oracle_for(records, WINDOWS, per_window, 0, 0)
    assert want_late == []
    assert_same_rows(res.rows, want_rows, ("k", "window", "window_start"))
    assert res.late == [] and res.late_count == 0


def test_global_key_and_two_key_columns() -> None:
    records = make_records(31, 300)
    for r in records:
        r["k2"] = int(r["v"]) % 2
    q = swag.Query(key=None, time="t", lateness=500).window(1000, n=swag.count(), s=swag.sum("v"))
    res = swag.run(q, records, watermark_delay=200)
    one_key = [dict(r, k="all") for r in records]
    want, late = oracle_window_end(one_key, [("1s/1s", 1000, 1000, 0)], {"n": "count", "s": "sum"}, 500, 200)
    for r in want:
        del r["k"]
    assert_same_rows(res.rows, want, ("window", "window_start"))
    assert late and res.late_count == len(late)

    q2 = swag.Query(key=["k", "k2"], time="t", lateness=500).window(1000, c=swag.collect("v"))
    res2 = swag.run(q2, records, watermark_delay=200)
    combined = [dict(r, k=f"{r['k']}|{r['k2']}") for r in records]
    want2, _ = oracle_window_end(combined, [("1s/1s", 1000, 1000, 0)], {"c": "collect"}, 500, 200)
    for r in want2:
        r["k"], r["k2"] = r["k"].split("|")[0], int(r["k"].split("|")[1])
    assert_same_rows(res2.rows, want2, ("k", "k2", "window", "window_start"))


def test_late_records_are_returned_and_counted() -> None:
    q = swag.Query(key="k", time="t", lateness=100).window(1000, n=swag.count(), c=swag.collect("v"))
    recs = [
        {"k": "a", "t": 500, "v": 1.0},
        {"k": "a", "t": 2500, "v": 2.0},  # watermark 2500: [0, 1000) fired, its state dropped at 1099
        {"k": "a", "t": 900, "v": 3.0},  # too late for [0, 1000): late
        {"k": "a", "t": 1950, "v": 4.0},  # [1000, 2000) fired at watermark 1999, kept until 2099: late too
        {"k": "b", "t": 2450, "v": 5.0},  # on time
    ]
    res = swag.run(q, recs)
    assert res.late == [recs[2], recs[3]]
    assert res.late[0] is recs[2]
    assert res.late_count == 2
    got = {(r["k"], r["window_start"]): (r["n"], r["c"]) for r in res.rows}
    assert got == {("a", 0): (1, [1.0]), ("a", 2000): (1, [2.0]), ("b", 2000): (1, [5.0])}


def test_allowed_lateness_boundary() -> None:
    """A record is used while end - 1 + lateness > watermark, and then emits an updated row."""
    q = swag.Query(key="k", time="t", lateness=100).window(1000, n=swag.count())
    recs = [
        {"k": "a", "t": 10, "v": 1.0},
        {"k": "a", "t": 1098, "v": 1.0},  # watermark 1098: [0, 1000) fires (n=1); 999 + 100 > 1098
        {"k": "a", "t": 20, "v": 1.0},  # still used: updated row n=2
        {"k": "a", "t": 1099, "v": 1.0},  # watermark 1099 = 999 + 100: the window's state is gone
        {"k": "a", "t": 30, "v": 1.0},  # late
    ]
    res = swag.run(q, recs)
    first = [r["n"] for r in res.rows if r["window_start"] == 0]
    assert first == [1, 2]
    assert res.late == [recs[4]] and res.late_count == 1


def test_window_fires_when_watermark_reaches_end_minus_one() -> None:
    q = swag.Query(key="k", time="t").window(1000, n=swag.count())
    recs = [{"k": "a", "t": 5, "v": 1.0}, {"k": "a", "t": 998, "v": 1.0}, {"k": "a", "t": 999, "v": 1.0}]
    res = swag.run(q, recs)
    assert [r["n"] for r in res.rows] == [3]
    # the window fired at watermark 999: a record at 999 arriving after it is late (lateness 0)
    res = swag.run(q, [*recs, {"k": "a", "t": 999, "v": 1.0}])
    assert [r["n"] for r in res.rows] == [3] and res.late_count == 1
    # emission order shows when the window fires: key a's window at watermark 999, before key b's
    # record (allowed lateness) emits its row at once
    q = swag.Query(key="k", time="t", lateness=1000).window(1000, n=swag.count())
    recs = [{"k": "a", "t": 10, "v": 1.0}, {"k": "a", "t": 999, "v": 1.0}, {"k": "b", "t": 500, "v": 1.0}]
    assert [(r["k"], r["n"]) for r in swag.run(q, recs).rows] == [("a", 2), ("b", 1)]
    recs[1]["t"] = 998  # watermark 998: nothing fires; both windows fire at the end
    assert sorted((r["k"], r["n"]) for r in swag.run(q, recs).rows) == [("a", 2), ("b", 1)]


# ---- per_record ----


def test_per_record_time_windows_match_oracle() -> None:
    records = make_records(41, 300, very_late=0.0, jitter=300)
    windows = [("1s", 1000), ("250ms", 250)]
    q = swag.Query(key="k", time="t", lateness="1s", emit="per_record")
    q.window(1000, 250, name="1s", c=swag.collect("v"), m=swag.max("v"))
    q.window(250, name="250ms", s=swag.sum("v"), n=swag.count())
    res = swag.run(q, records, watermark_delay=1000)
    want = []
    for r in oracle_per_record_time(records, windows, {"c": "collect", "m": "max", "s": "sum", "n": "count"}):
        keep = ("c", "m") if r["window"] == "1s" else ("s", "n")
        want.append({c: v for c, v in r.items() if c not in ("c", "m", "s", "n") or c in keep})
    assert res.late == [] and res.late_count == 0
    # one row per record and window, in arrival order within each window
    assert len(want) == 2 * len(records)
    assert_same_rows(res.rows, want, ("window",))


# ---- count windows ----


@pytest.mark.parametrize("emit", ["window_end", "per_record"])
def test_count_windows_match_oracle(emit: str) -> None:
    records = sorted(make_records(51, 300, very_late=0.0), key=lambda r: r["t"])  # in order: arrival = time
    q = swag.Query(key="k", time="t", emit=emit)
    q.count_window(5, c=swag.collect("v"), m=swag.max("v"))
    q.count_window(20, slide=4, s=swag.sum("v"), n=swag.count())
    res = swag.run(q, records)
    want = []
    aggs = {"c": "collect", "m": "max", "s": "sum", "n": "count"}
    for r in oracle_count(records, [("5/1", 5, 1), ("20/4", 20, 4)], aggs, emit == "per_record"):
        keep = ("c", "m") if r["window"] == "5/1" else ("s", "n")
        want.append({c: v for c, v in r.items() if c not in ("c", "m", "s", "n") or c in keep})
    assert_same_rows(res.rows, want, ("k", "window"))


# ---- inputs: datetimes, DataFrames, rejected records, progress ----


def test_datetimes_and_ints_give_the_same_rows() -> None:
    records = make_records(61, 200)
    q, _ = window_end_query(300, WINDOWS[:2], AGGS)
    by_int = swag.run(q, records, watermark_delay=100)
    assert len(by_int.rows) > 50 and by_int.late_count > 0
    late_at = [i for i, r in enumerate(records) if any(r is x for x in by_int.late)]
    epoch = datetime(1970, 1, 1)
    naive = [dict(r, t=epoch + timedelta(milliseconds=r["t"])) for r in records]
    aware = [dict(r, t=datetime.fromtimestamp(r["t"] / 1000, UTC)) for r in records]
    for recs in (naive, aware):
        res = swag.run(q, recs, watermark_delay=timedelta(milliseconds=100))
        assert res.rows == by_int.rows
        # the same records late, returned as given (the datetime records themselves)
        assert [i for i, r in enumerate(recs) if any(r is x for x in res.late)] == late_at
        assert len(res.late) == res.late_count == by_int.late_count


def test_iso_strings_as_times() -> None:
    records = make_records(62, 150)
    q, _ = window_end_query(300, WINDOWS[:2], AGGS)
    by_int = swag.run(q, records, watermark_delay=100)
    assert len(by_int.rows) > 30
    iso = [dict(r, t=datetime.fromtimestamp(r["t"] / 1000, UTC).isoformat().replace("+00:00", "Z")) for r in records]
    assert swag.run(q, iso, watermark_delay=100).rows == by_int.rows


def test_structured_results() -> None:
    q = swag.Query(key="k", time="t").window(
        "1s", m4=swag.m4("v"), mc=swag.maxcount("v"), q=swag.kll("v"), h=swag.hll("u"), b=swag.bloom("u"),
        sd=swag.stddev("v"),
    )
    recs = [{"k": "a", "t": 30, "v": 2.0, "u": "x"}, {"k": "a", "t": 10, "v": 5.0, "u": "y"},
            {"k": "a", "t": 20, "v": 5.0, "u": "x"}, {"k": "b", "t": 5, "v": 1.0, "u": "z"}]  # fmt: skip
    rows = {r["k"]: r for r in swag.run(q, recs, watermark_delay=100).rows}
    a = rows["a"]
    assert a["m4"] == {"first": 5.0, "last": 2.0, "min": 2.0, "max": 5.0}  # time order: 10, 20, 30
    assert a["mc"] == {"value": 5.0, "count": 2}
    assert isinstance(a["q"], swag.KllQuantiles) and a["q"]["n"] == 3 and a["q"].quantile(0.0) == 2.0
    assert round(a["h"]) == 2
    assert isinstance(a["b"], swag.BloomFilter) and a["b"].might_contain("y") and not a["b"].might_contain("z")
    assert a["sd"] == pytest.approx(statistics.stdev([2.0, 5.0, 5.0]))
    assert math.isnan(rows["b"]["sd"])  # one value: NaN (the row cannot go through JSON: converted on its own)


def test_dataframe_input() -> None:
    pd = pytest.importorskip("pandas")
    records = make_records(71, 300)
    q, per_window = window_end_query(200, WINDOWS, AGGS)
    want = swag.run(q, records, watermark_delay=100)
    assert len(want.rows) > 50
    df = pd.DataFrame(records)
    df["t"] = pd.to_datetime(df["t"], unit="ms")
    df["extra"] = "ignored"
    res = swag.run(q, df, watermark_delay="100ms")
    assert res.rows == want.rows
    assert res.late_count == want.late_count > 0
    assert [r["v"] for r in res.late] == [r["v"] for r in want.late]
    assert all(isinstance(r, dict) and r["extra"] == "ignored" for r in res.late)
    out = res.to_pandas()
    assert list(out.columns[:4]) == ["k", "window", "window_start", "window_end"]
    assert len(out) == len(want.rows)
    assert out["s0"].sum() == pytest.approx(sum(r["s0"] for r in want.rows if "s0" in r))
    # int ms times in a DataFrame too
    res2 = swag.run(q, pd.DataFrame(records), watermark_delay=100)
    assert res2.rows == want.rows


def test_rejected_records() -> None:
    q = swag.Query(key="k", time="t").window(1000, s=swag.sum("v"))
    good = [{"k": "a", "t": 10, "v": 1.0}, {"k": "a", "t": 20, "v": 2.0}]
    bad = [
        {"k": None, "t": 15, "v": 1.0},
        {"k": "a", "t": None, "v": 1.0},
        {"k": "a", "t": 16, "v": "three"},
        {"k": "a", "t": 17, "v": float("nan")},
        {"k": "a", "t": 18, "v": object()},
    ]
    res = swag.run(q, [good[0], *bad, good[1]])
    assert [(r["k"], r["s"]) for r in res.rows] == [("a", 3.0)]
    assert len(res.rejected) == len(bad)
    for r in res.rejected:
        assert set(r) == {"record", "reason"} and isinstance(r["reason"], str) and r["reason"], r
    assert [r["record"] for r in res.rejected] == bad
    assert res.late_count == 0


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    records = make_records(81, 100)
    q, _ = window_end_query(0, WINDOWS[:1], {"n": "count"})
    res = swag.run(q, records, progress=True)
    assert len(res.rows) > 10
    assert res.rows == swag.run(q, iter(records)).rows
    assert "swag.run" in capsys.readouterr().err


def test_run_takes_a_json_spec_and_validates() -> None:
    q, _ = window_end_query(0, WINDOWS[:1], {"n": "count"})
    records = make_records(91, 50)
    want = swag.run(q, records).rows
    assert len(want) > 2
    assert swag.run(q.to_json(), records).rows == want
    with pytest.raises(swag.InvalidQueryError) as e:
        swag.run(swag.Query(key="k", time="t").window("1s", "2s", n=swag.count()), records)
    assert str(e.value).startswith("windows[0].slide: ")
    with pytest.raises(swag.SwagError) as e2:
        swag.run(q, [1, 2, 3])
    assert "records[0]" in str(e2.value)

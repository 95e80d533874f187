"""The cross-engine equivalence corpus: seeded record streams, the queries run over them, the
normalization of each engine's rows, and the table of known gaps.

Shared by ``tests/equivalence/test_equiv_local.py`` (the reference against a brute-force oracle),
``tests/spark/test_equiv_spark.py`` (Spark Structured Streaming and batch back-fill) and
``tests/flink/test_equiv_flink.py`` (PyFlink ``aggregate``, ``aggregate_table`` and the SQL function
``swag_window``). Every engine runs the same :class:`swag.Query` over the same records and is compared
with the local executor (``swag.run``) row for row, value for value and type for type.

The tests import this module as ``equivalence.corpus``: ``tests/`` is on ``sys.path`` in both venvs'
pytest runs (pytest puts the directory of ``tests/conftest.py`` there), and ``tests/equivalence`` is
a namespace package.

**Determinism.** Event time and watermarks differ per engine; the streams are built so that every
engine makes the same decisions:

- Each case's records come in *segments*: the Spark stream reads one file per segment (one
  micro-batch each, checked against the previous batch's watermark), the local executor and Flink see
  the records one by one with the watermark ``largest time - delay`` after each record (Flink: a
  declared table watermark ``t - delay`` with ``pipeline.auto-watermark-interval`` 0, which emits the
  watermark after every record that raises it, as the local executor does).
- Within a segment the disorder is smaller than the watermark delay, so no record of the random
  streams is late under any engine's watermark granularity.
- The late records of the lateness case start their own segment and lie far (seconds) from every
  bound their decision depends on, so the 1 ms between Spark's watermark (``S - 1``) and the others'
  does not matter.
- Spark batch back-fill sees no watermark: it is compared with the local executor run with a delay
  larger than the stream (no record late, every window fired once at the end).

**Row shapes.** A query with several windows has, on the engines, every window's aggregate columns in
every row (``null`` for the other windows); the local executor's rows hold their window's only. The
tests assert the foreign columns are null and drop them. Window bounds are epoch ms on Flink and the
local executor, and timestamps on Spark when the time column is a timestamp (docs/spark.md, "Output
schema"); the tests read Spark's as epoch ms after asserting their type.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import swag

BASE = 1_700_000_000_000  # epoch ms, a multiple of every window size and slide used here
FAR = 10**12  # a watermark delay longer than every stream: nothing is late, every window fires at the end


# ---------------------------------------------------------------------------------------------------
# Records


@dataclass
class Case:
    """One query over one stream: ``segments`` of records (dicts ``k``, ``t`` epoch ms or None, ``v``,
    optionally ``k2``), the watermark ``delay`` (ms) of the streaming runs, and whether the engines may
    reorder equal times (``order_free``: only then are the rows compared as multisets per window)."""

    id: str
    query: Callable[[], swag.Query]
    segments: list[list[dict[str, Any]]]
    delay: int
    note: str = ""
    columns: tuple[str, ...] = ("k", "t", "v")

    @property
    def records(self) -> list[dict[str, Any]]:
        return [r for s in self.segments for r in s]


def random_stream(seed: int, n: int, keys: str = "abc", disorder: int = 400, step: int = 120, burst: float = 0.1,
                  equal: float = 0.1, segments: int = 4, values: int = 12) -> list[list[dict[str, Any]]]:
    """``n`` records in ``segments`` arrival segments. Event time advances by random steps of up to
    ``step`` ms; a record lies up to ``disorder`` ms behind the time so far (out of order), with
    probability ``burst`` a run of 3-8 records arrives at one instant, with probability ``equal`` a
    record repeats the previous record's time and key (equal times). Values are positive multiples of
    0.5 below ``values`` (exact sums; ties for min/max/argmin)."""
    rng = random.Random(seed)
    now = BASE + 137
    out: list[dict[str, Any]] = []
    while len(out) < n:
        now += rng.randint(0, step)
        k = rng.choice(keys)
        v = rng.randint(1, 2 * values - 1) / 2
        r = rng.random()
        if r < burst:
            t = now - rng.randint(0, disorder)
            for _ in range(rng.randint(3, 8)):
                out.append({"k": rng.choice(keys), "t": t, "v": rng.randint(1, 2 * values - 1) / 2})
        elif r < burst + equal and out:
            out.append({"k": out[-1]["k"], "t": out[-1]["t"], "v": v})
        else:
            out.append({"k": k, "t": now - rng.randint(0, disorder), "v": v})
    out = out[:n]
    size = -(-n // segments)
    return [out[i : i + size] for i in range(0, n, size)]


def in_order_stream(seed: int, n: int, keys: str = "ab", segments: int = 3) -> list[list[dict[str, Any]]]:
    """Strictly increasing times per key (for per-record emission, whose rows depend on arrival)."""
    rng = random.Random(seed)
    now = BASE + 11
    out = []
    for _ in range(n):
        now += rng.randint(1, 90)
        out.append({"k": rng.choice(keys), "t": now, "v": rng.randint(1, 30) / 2})
    size = -(-n // segments)
    return [out[i : i + size] for i in range(0, n, size)]


NULL_KEY = {"k": None, "v": 2.0}
NAN_VALUE = {"k": "a", "v": float("nan")}
NULL_TIME = {"k": "b", "v": 3.0, "t": None}


def with_bad_records(segments: list[list[dict[str, Any]]], seed: int,
                     bad_records: tuple[dict[str, Any], ...] = (NULL_KEY, NAN_VALUE)) -> list[list[dict[str, Any]]]:
    """The stream with rejected records inside each segment: by default a null key and a NaN value
    (the reasons of ``io.swag.core.plan.RowContract``)."""
    rng = random.Random(seed)
    out = []
    for seg in segments:
        seg = list(seg)
        for bad in bad_records:
            i = rng.randrange(1, len(seg))
            rec = {"k": bad["k"], "t": bad.get("t", seg[i - 1]["t"]), "v": bad["v"]}
            seg.insert(i, rec)
        out.append(seg)
    return out


def lateness_stream() -> list[list[dict[str, Any]]]:
    """Four segments for a query of 2 s windows sliding by 1 s, lateness 3 s, delay 500 ms.

    1. in-order records of keys a and b from BASE to BASE + 9.8 s, then one record at BASE + 10 s:
       the watermark is BASE + 9.5 s (windows ending at or before BASE + 9.5 s have fired);
    2. two records at BASE + 10.05 s and 10.1 s: Spark judges a micro-batch's records against the
       watermark the *previous* batch ran with (its late-events watermark, docs/spark.md), which
       is the one segment 1 raised only from this batch on; the others' watermark becomes 9.6 s;
    3. late records, each far from the decision bounds (a window [s, s + 2 s) still takes records
       while s + 2 s - 1 + 3 s > watermark, i.e. s > BASE + 4.6 s):
       - at BASE + 5.3 s: in windows starting at 4 s (closed for it) and 5 s (open): used, and an
         updated row for window 5 s;
       - at BASE + 6.7 s: windows 5 s and 6 s, both open: two updated rows;
       - at BASE + 2.2 s and BASE + 0.4 s: every window closed: late (returned, counted);
       - a key c record at BASE + 7.1 s: a new key, its windows 6 s and 7 s fire at once (open);
    4. in-order records from BASE + 10.2 s to BASE + 12 s.
    """
    rng = random.Random(61)
    seg1 = []
    t = BASE
    while t < BASE + 9_800:
        seg1.append({"k": rng.choice("ab"), "t": t, "v": float(rng.randint(1, 9))})
        t += rng.randint(150, 350)
    seg1.append({"k": "a", "t": BASE + 10_000, "v": 1.0})
    seg1b = [{"k": "b", "t": BASE + 10_050, "v": 2.0}, {"k": "a", "t": BASE + 10_100, "v": 3.0}]
    seg2 = [
        {"k": "a", "t": BASE + 5_300, "v": 100.0},
        {"k": "b", "t": BASE + 6_700, "v": 200.0},
        {"k": "a", "t": BASE + 2_200, "v": 300.0},
        {"k": "b", "t": BASE + 400, "v": 400.0},
        {"k": "c", "t": BASE + 7_100, "v": 500.0},
    ]
    seg3 = [{"k": rng.choice("ab"), "t": BASE + 10_200 + 200 * i, "v": float(i)} for i in range(10)]
    return [seg1, seg1b, seg2, seg3]


def two_keys(segments: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """Adds a long key column ``k2`` (1 or 2, from the value)."""
    return [[{**r, "k2": 1 + int(r["v"] * 2) % 2} for r in seg] for seg in segments]


# ---------------------------------------------------------------------------------------------------
# Queries


def q_basic() -> swag.Query:
    return (swag.Query(key="k", time="t")
            .window(1000, s1=swag.sum("v"), n1=swag.count(), mx1=swag.max("v"))
            .window(3000, slide=1000, s3=swag.sum("v"), n3=swag.count(), nv3=swag.count("v"), mean3=swag.mean("v"),
                    mn3=swag.min("v"), mx3=swag.max("v")))


def q_order() -> swag.Query:
    """Not commutative: first, last, collect and m4 show any mix-up of event-time or arrival order."""
    return (swag.Query(key="k", time="t", order="out_of_order")
            .window(2000, slide=500, f=swag.first("v"), l=swag.last("v"), c=swag.collect("v"), m=swag.m4("v"))
            .window(1000, f1=swag.first("v"), l1=swag.last("v")))


def q_stats() -> swag.Query:
    return (swag.Query(key="k", time="t")
            .window(4000, slide=1000, sd=swag.stddev("v"), var=swag.variance("v"), gm=swag.geomean("v"),
                    mean=swag.mean("v"))
            .window(2000, offset=500, sd2=swag.stddev("v"), gm2=swag.geomean("v")))


def q_arg() -> swag.Query:
    return (swag.Query(key="k", time="t")
            .window(2000, slide=1000, amin=swag.argmin("v"), amax=swag.argmax("v"), mnc=swag.mincount("v"),
                    mxc=swag.maxcount("v")))


def q_arg_numeric() -> swag.Query:
    """argmin/argmax alone (numeric on every engine, so swag_window takes it too)."""
    return swag.Query(key="k", time="t").window(3000, slide=1000, amin=swag.argmin("v"), amax=swag.argmax("v"))


def q_sketch() -> swag.Query:
    return (swag.Query(key="k", time="t")
            .window(2000, slide=1000, h=swag.hll("v", lgK=8), b=swag.bloom("v", bits=256, hashes=3),
                    cm=swag.countmin("v", width=16, depth=3), kl=swag.kll("v"), med=swag.median("v"),
                    p90=swag.quantile("v", 0.9)))


def q_late() -> swag.Query:
    return (swag.Query(key="k", time="t", lateness=3000)
            .window(2000, slide=1000, s=swag.sum("v"), n=swag.count(), l=swag.last("v"), mx=swag.max("v")))


def q_late_collect() -> swag.Query:
    return swag.Query(key="k", time="t", lateness=3000).window(2000, slide=1000, c=swag.collect("v"))


def q_count_windows() -> swag.Query:
    """A time window and two count windows: three window groups."""
    return (swag.Query(key="k", time="t")
            .window(2000, s=swag.sum("v"))
            .count_window(5, slide=2, cs=swag.sum("v"), cl=swag.last("v"))
            .count_window(3, cmx=swag.max("v")))


def q_processing_time() -> swag.Query:
    """No time column: count windows over the arrival order."""
    return swag.Query(key="k").count_window(4, slide=2, s=swag.sum("v"), mx=swag.max("v"), n=swag.count())


def q_per_record() -> swag.Query:
    return (swag.Query(key="k", time="t", emit="per_record")
            .window(1000, s=swag.sum("v"), mx=swag.max("v"), n=swag.count())
            .window(3000, slide=1000, mean3=swag.mean("v")))


def q_rejected() -> swag.Query:
    return swag.Query(key="k", time="t").window(2000, slide=1000, s=swag.sum("v"), n=swag.count(), mx=swag.max("v"))


def q_two_keys() -> swag.Query:
    return swag.Query(key=["k", "k2"], time="t").window(1500, slide=500, s=swag.sum("v"), mn=swag.min("v"))


def q_global() -> swag.Query:
    return (swag.Query(time="t")
            .window(2000, slide=1000, offset=250, s=swag.sum("v"), n=swag.count(), mx=swag.max("v")))


CASES: list[Case] = [
    Case("basic", q_basic, random_stream(1, 360), delay=500),
    Case("order", q_order, random_stream(2, 300, equal=0.2, burst=0.15), delay=500,
         note="equal times and bursts: non-commutative functions"),
    Case("stats", q_stats, random_stream(3, 300), delay=500),
    Case("arg", q_arg, random_stream(4, 300, values=4), delay=500, note="few distinct values: ties"),
    Case("arg_numeric", q_arg_numeric, random_stream(5, 240, values=4), delay=500),
    Case("sketch", q_sketch, random_stream(6, 300), delay=500),
    Case("late", q_late, lateness_stream(), delay=500),
    Case("late_collect", q_late_collect, lateness_stream(), delay=500),
    Case("count_windows", q_count_windows, random_stream(7, 200), delay=500),
    Case("processing_time", q_processing_time, random_stream(8, 200), delay=500),
    Case("per_record", q_per_record, in_order_stream(9, 240), delay=500),
    Case("rejected", q_rejected, with_bad_records(random_stream(10, 240), 10), delay=500),
    Case("null_time", q_rejected, with_bad_records(random_stream(13, 200), 13, (NULL_TIME, NULL_KEY)), delay=500),
    Case("two_keys", q_two_keys, two_keys(random_stream(11, 240)), delay=500, columns=("k", "k2", "t", "v")),
    Case("global", q_global, random_stream(12, 240), delay=500),
]
BY_ID = {c.id: c for c in CASES}


# ---------------------------------------------------------------------------------------------------
# Known gaps: (engine, case id) -> what differs today. Each is asserted exactly as it is (an error
# naming the feature, a column's type), so the test fails the day the gap closes and the entry must go.
# Engines: spark_stream, spark_batch, flink_datastream, flink_table, flink_sql.


@dataclass(frozen=True)
class Gap:
    """``reason``: why. ``error``: a regular expression the engine's error must match (raised when
    the job is built or when it runs). ``types``: columns whose engine type differs from the
    contract, each with its exact type today (values are still compared, after reading that type).
    ``values``: columns whose every value differs from the reference, each with a regular expression
    every engine value matches today (the column is then not compared). ``null_key_rows``: the
    engine aggregates the records with a null key as a key of their own instead of rejecting them:
    its rows for the null key must be exactly the windows of those records, and they are missing
    from its rejected records."""

    reason: str
    error: str | None = None
    types: dict[str, str] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    null_key_rows: bool = False


KNOWN_GAPS: dict[tuple[str, str], Gap] = {}


def _gap(engines: tuple[str, ...], case: str, gap: Gap) -> None:
    for e in engines:
        KNOWN_GAPS[(e, case)] = gap


# A null event time fails the job on the Table and SQL paths in Flink's own watermark assigner of the
# table's WATERMARK declaration (a rowtime is never null), before swag sees the record
_gap(("flink_table", "flink_sql"), "null_time",
     Gap("a null time fails the job (Flink's rowtime)", error=r"RowTime field should not be null"))
# swag_window: time windows only, a PARTITION BY and an on_time are required
_gap(("flink_sql",), "count_windows", Gap("swag_window runs time windows only",
                                          error=r"swag_window: window '5/2' is a count window"))
_gap(("flink_sql",), "processing_time", Gap("swag_window needs an event time (on_time)",
                                            error=r"Table argument 'input' requires a time attribute"))
_gap(("flink_sql",), "global", Gap("swag_window needs a PARTITION BY (a key)",
                                   error=r"Table argument 'input' requires a PARTITION BY clause"))

# ---------------------------------------------------------------------------------------------------
# The output contract: the type of each output column, by the function that makes it.

LONG, DOUBLE, STRING, TIME, LIST, OBJECT = "long", "double", "string", "time", "list<double>", "object"
FUNCTION_TYPES = {
    "count": LONG, "argmin": TIME, "argmax": TIME,
    "sum": DOUBLE, "mean": DOUBLE, "geomean": DOUBLE, "stddev": DOUBLE, "variance": DOUBLE, "min": DOUBLE,
    "max": DOUBLE, "first": DOUBLE, "last": DOUBLE, "hll": DOUBLE, "median": DOUBLE, "quantile": DOUBLE,
    "collect": LIST,
    "m4": OBJECT, "mincount": OBJECT, "maxcount": OBJECT, "bloom": OBJECT, "countmin": OBJECT, "kll": OBJECT,
}
# Floating-point tolerances (relative), each with its reason; every other value compares exactly.
TOLERANCE = {
    # stddev/variance: Welford-style partials combined in a different order (slices, merged trees) round
    # differently in the last bits
    "stddev": 1e-9, "variance": 1e-9,
    # geomean: a sum of logarithms, exp'd at the end: the summation order changes the last bits
    "geomean": 1e-9,
}  # mean is exact here: the values are multiples of 0.5, so every partial sum is exact


def output_types(q: swag.Query) -> dict[str, str]:
    """The contract's type of every output column of ``q`` (key columns are left out: their type is
    the input's)."""
    # count windows' bounds are record counts: with one in the query, the bound columns are longs
    bound = LONG if any(w.kind == "count" for w in q.windows) else TIME
    out = {"window": STRING, "window_start": bound, "window_end": bound}
    for w in q.windows:
        for name, agg in w.aggregates:
            fn = agg.function
            out[name] = DOUBLE if fn == "kll" and "rank" in agg.options else FUNCTION_TYPES[fn]
    return out


def python_type(v: Any) -> str:
    """The contract type of a local executor value."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return LONG
    if isinstance(v, float):
        return DOUBLE
    if isinstance(v, str):
        return STRING
    if isinstance(v, list):
        return LIST
    if isinstance(v, dict):
        return OBJECT
    return type(v).__name__


# ---------------------------------------------------------------------------------------------------
# Local reference runs and row normalization


def window_columns(q: swag.Query) -> dict[str, set[str]]:
    """Window name -> its aggregate output columns."""
    return {w.name: {name for name, _ in w.aggregates} for w in q.windows}


def local(case: Case, delay: int | None = None, by_time: bool = False) -> swag.RunResult:
    """The local executor's run of the case; ``by_time``: over the records in time order (stable:
    equal times in arrival order), as a batch back-fill takes them."""
    records = case.records
    if by_time:
        records = sorted(records, key=lambda r: (r["t"] is not None, r["t"] if r["t"] is not None else 0))
    return swag.run(case.query(), records, watermark_delay=case.delay if delay is None else delay)


def plain(v: Any) -> Any:
    """A value with sketch results as plain dicts and NaN as the string 'NaN' (NaN != NaN)."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    return v


def row_key(r: dict[str, Any], keys: list[str]) -> tuple:
    return tuple(r.get(k) for k in keys) + (r["window"], r["window_start"], r["window_end"])


def trim(q: swag.Query, rows: list[dict[str, Any]], engine: str) -> list[dict[str, Any]]:
    """Engine rows with the other windows' aggregate columns removed, after asserting they are null."""
    cols = window_columns(q)
    every = set().union(*cols.values())
    out = []
    for r in rows:
        mine = cols[r["window"]]
        foreign = {c: r[c] for c in every - mine if c in r}
        assert all(v is None for v in foreign.values()), f"{engine}: other windows' columns not null: {r}"
        out.append({c: v for c, v in r.items() if c not in foreign})
    return out


def final_rows(q: swag.Query, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last row of each (key, window, start, end): a window's final values (the local executor
    emits a row when a window fires and an updated one per record inside the lateness)."""
    last: dict[tuple, dict[str, Any]] = {}
    for r in rows:
        last[row_key(r, q.key)] = r
    return list(last.values())


def close(a: Any, b: Any, rel: float) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b if rel == 0 else math.isclose(a, b, rel_tol=rel, abs_tol=0.0)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rel) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, rel) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def compare_rows(q: swag.Query, got: list[dict[str, Any]], want: list[dict[str, Any]], engine: str,
                 multiset: bool = False) -> list[str]:
    """Differences between an engine's rows and the reference's (empty: equal). Rows are matched by
    (key, window, start, end); with ``multiset`` a window may have several rows (updates), matched in
    the order of their values. Values compare exactly, with the type, except the functions of
    :data:`TOLERANCE`."""
    tol = {name: TOLERANCE.get(agg.function, 0.0) for w in q.windows for name, agg in w.aggregates}

    def group(rows):
        g: dict[tuple, list[dict[str, Any]]] = {}
        for r in rows:
            g.setdefault(row_key(r, q.key), []).append(r)
        for k, rs in g.items():
            if len(rs) > 1 and not multiset:
                return None, f"{engine}: {len(rs)} rows for {k}: {rs}"
            rs.sort(key=lambda r: json.dumps(plain(r), sort_keys=True, default=str))
        return g, None

    g_got, err = group(got)
    if err:
        return [err]
    g_want, err = group(want)
    assert err is None, err
    problems = []
    for k in sorted(set(g_got) | set(g_want), key=repr):
        a, b = g_got.get(k, []), g_want.get(k, [])
        if len(a) != len(b):
            problems.append(f"{k}: {len(a)} rows, the reference has {len(b)}: {a} vs {b}")
            continue
        for ra, rb in zip(a, b):
            if ra.keys() != rb.keys():
                problems.append(f"{k}: columns {sorted(ra)} vs the reference's {sorted(rb)}")
                continue
            bad = [c for c in rb if not close(ra[c], rb[c], tol.get(c, 0.0))]
            if bad:
                problems.append(f"{k}: " + ", ".join(f"{c}={ra[c]!r} ({type(ra[c]).__name__}), reference "
                                                   f"{rb[c]!r} ({type(rb[c]).__name__})" for c in bad))
    return problems


def reasons(rejected: list[dict[str, Any]]) -> list[str]:
    return sorted(d["reason"] for d in rejected)


def utc(ms: int) -> datetime:
    """Epoch ms as an aware UTC datetime (exact: no float seconds)."""
    return EPOCH + timedelta(milliseconds=ms)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


# ---------------------------------------------------------------------------------------------------
# Engine values and types


def java_text(text: str | None) -> Any:
    """An engine's text form of a structured result (Java ``toString``: ``Result[first=1.0, ...]``,
    ``Bloom{bits=256, ...}``, ``{n=3, ...}``, lists ``[1.0, 2.5]``) as a dict or list of numbers, or the
    text itself when it is none of these."""
    if text is None:
        return None
    m = re.fullmatch(r"[\w$.]*[\[{](.*)[\]}]", text.strip(), re.S)
    if not m:
        return text
    body = m.group(1).strip()
    if not body:
        return [] if text.strip().endswith("]") and "=" not in text else {}
    parts = [p.strip() for p in body.split(", ")]
    if all("=" in p for p in parts):
        return {k: _number(v) for k, v in (p.split("=", 1) for p in parts)}
    return [_number(p) for p in parts]


def _number(s: str) -> Any:
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def check_types(case_id: str, engine: str, q: swag.Query, engine_types: dict[str, str],
                contract_of: Callable[[str, str], str | None]) -> dict[str, str]:
    """Checks the engine's output column types against the contract (``contract_of(column, engine
    type)``: the contract type that engine type stands for, or None). A column listed in the case's
    gap must have exactly the type the gap records; every other column must stand for its contract
    type. Returns the gap's columns (their values are read from that type by the caller)."""
    gap = KNOWN_GAPS.get((engine, case_id))
    gap_types = gap.types if gap else {}
    problems = []
    for col, want in output_types(q).items():
        got = engine_types.get(col)
        if col in gap_types:
            if got != gap_types[col]:
                problems.append(f"{col}: {got}, the known gap says {gap_types[col]} (gap closed? update KNOWN_GAPS)")
        elif contract_of(want, got) != want:
            problems.append(f"{col}: engine type {got} for contract type {want}")
    assert problems == [], f"{engine} {case_id}: " + "; ".join(problems)
    return gap_types


def value_gaps(case_id: str, engine: str) -> dict[str, str]:
    gap = KNOWN_GAPS.get((engine, case_id))
    return gap.values if gap else {}


def drop_value_gaps(case_id: str, engine: str, got: list[dict[str, Any]], want: list[dict[str, Any]]) -> None:
    """Asserts every engine value of a column with a known value gap matches the gap's pattern, then
    drops the column from both sides (it is not compared)."""
    for col, pattern in value_gaps(case_id, engine).items():
        vals = [r[col] for r in got if col in r]
        assert vals and all(isinstance(v, str) and re.fullmatch(pattern, v) for v in vals), (
            f"{engine} {case_id}: {col} no longer matches the known gap {pattern!r}: {vals[:3]} (update KNOWN_GAPS)")
        for r in got + want:
            r.pop(col, None)




def print_timings(engine: str, timings: dict[str, float]) -> None:
    """Each case's wall time and the total (shown with ``pytest -s``)."""
    print(f"\n{engine} equivalence wall times (s): " + ", ".join(f"{k} {v:.1f}" for k, v in timings.items()))
    print(f"{engine} equivalence total: {sum(timings.values()):.1f} s")

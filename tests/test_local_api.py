"""The local Python API against the real Java library (JPype), checked against plain Python."""

from __future__ import annotations

import importlib.metadata
import math
import os
import random
import re
import subprocess
import sys
import tomllib
import zlib
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import swag
from swag import _jvm

ROOT = Path(__file__).resolve().parent.parent
ALGORITHMS = swag.algorithms()
# soe (subtract-on-evict) only runs invertible functions
INVERTIBLE_ONLY = {"soe"}
GENERAL = [a for a in ALGORITHMS if a not in INVERTIBLE_ONLY]


def make(alg: str, fn: str, timed: bool = False, **options: Any) -> Any:
    """An aggregator of a listed algorithm (every listed algorithm must be constructible)."""
    factory = swag.timed_aggregator if timed else swag.aggregator
    return factory(alg, fn, **options)


def assert_no_java_trace(e: pytest.ExceptionInfo[BaseException]) -> None:
    text = str(e.value)
    assert "\tat " not in text and "java.lang." not in text and "Exception:" not in text, text


# ---- names ----


def test_algorithm_and_function_names() -> None:
    assert {"recalc", "soe", "two_stacks", "two_stacks_lite", "daba", "daba_lite"} <= set(ALGORITHMS)
    fns = swag.functions()
    assert {"sum", "max", "argmax", "collect", "m4", "maxcount", "bloom", "countmin", "hll", "kll"} <= set(fns)
    assert all(type(n) is str for n in ALGORITHMS + fns)
    assert len(set(fns)) == len(fns)


def test_the_version_has_one_source() -> None:
    """One version for the wheel and the jars: ``<revision>`` in the root pom (setup.py reads it for
    the wheel; every module's pom uses ``${revision}``); the package reports its distribution's."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["name"] == "swag-windows"  # `swag` on PyPI is an unrelated project
    assert project["dynamic"] == ["version"] and "version" not in project
    revision = re.findall(r"<revision>([^<]+)</revision>", (ROOT / "pom.xml").read_text())
    assert len(revision) == 1
    poms = [p for p in ROOT.glob("**/pom.xml") if "target" not in p.parts and ".venv" not in str(p)]
    assert len(poms) >= 8
    for pom in poms:
        text = pom.read_text()
        assert "<version>${revision}</version>" in text and "SNAPSHOT" not in text, pom
    assert swag.__version__ == importlib.metadata.version("swag-windows") == revision[0]


# ---- differential: random insert/evict sequences against a plain Python recompute ----


def _numbers(rng: random.Random) -> Any:
    x = rng.randint(-20, 20)  # small range: many ties for argmax; integer-valued: exact sums
    return float(x) if rng.random() < 0.5 else x


def _anything(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.15:
        return rng.choice(["a", "b", "ça", ""])
    if r < 0.2:
        return None
    return _numbers(rng)


def _expected(fn: str, window: deque[tuple[int, Any]]) -> Any:
    values = [v for _, v in window]
    if fn == "sum":
        return float(sum(values))
    if fn == "count":
        return len(values)
    if fn == "mean":
        return sum(values) / len(values) if values else math.nan
    if fn == "collect":
        return values
    if not values:
        return None
    m = max(values)
    if fn == "max":
        return float(m)
    if fn == "argmax":
        return next(arg for arg, v in window if v == m)  # the earliest maximum
    raise AssertionError(fn)


def _same(fn: str, got: Any, want: Any) -> bool:
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if fn == "collect":
        return got == want and [type(x) for x in got] == [type(x) for x in want]
    return got == want and type(got) is type(want)


def _run_fifo(agg: swag.Aggregator, fn: str, seed: int, gen: Callable[[random.Random], Any], ops: int = 1200) -> None:
    rng = random.Random(seed)
    window: deque[tuple[int, Any]] = deque()
    seq = 0
    for i in range(ops):
        grow = (i // 150) % 2 == 0  # alternate growing and shrinking phases: the rings resize
        if rng.random() < (0.75 if grow else 0.3):
            v = gen(rng)
            agg.insert(v)
            window.append((seq, v))
            seq += 1
        elif window:
            agg.evict()
            window.popleft()
        else:
            with pytest.raises(swag.EmptyWindowError):
                agg.evict()
        assert len(agg) == len(window)
        got, want = agg.query(), _expected(fn, window)
        assert _same(fn, got, want), f"step {i}: {agg!r} gave {got!r}, expected {want!r}"


@pytest.mark.parametrize("fn", ["max", "sum", "collect", "argmax"])
@pytest.mark.parametrize("alg", GENERAL)
def test_differential_fifo(alg: str, fn: str) -> None:
    agg = make(alg, fn)
    _run_fifo(agg, fn, seed=zlib.crc32(f"{alg}/{fn}".encode()), gen=_anything if fn == "collect" else _numbers)


@pytest.mark.parametrize("fn", ["sum", "count", "mean"])
@pytest.mark.parametrize("alg", sorted(INVERTIBLE_ONLY & set(ALGORITHMS)))
def test_differential_invertible_only(alg: str, fn: str) -> None:
    _run_fifo(make(alg, fn), fn, seed=5, gen=_numbers)


@pytest.mark.parametrize("alg", sorted(INVERTIBLE_ONLY & set(ALGORITHMS)))
def test_invertible_only_algorithm_rejects_max(alg: str) -> None:
    with pytest.raises(swag.IncompatibleFunctionError, match="invertible") as e:
        swag.aggregator(alg, "max")
    assert "'max'" in str(e.value)
    assert_no_java_trace(e)


@pytest.mark.parametrize("fn", ["argmax", "max", "collect"])
@pytest.mark.parametrize("alg", GENERAL)
def test_differential_timed(alg: str, fn: str) -> None:
    """Timed aggregators pass the time as the arg: argmax is the time of the earliest maximum."""
    agg = make(alg, fn, timed=True)
    rng = random.Random(99)
    window: deque[tuple[int, Any]] = deque()
    now = 1_000
    for i in range(800):
        r = rng.random()
        if r < 0.6:
            now += rng.choice([0, 0, 1, 3, 10])  # equal times are allowed
            v = _anything(rng) if fn == "collect" else _numbers(rng)
            agg.insert(now, v)
            window.append((now, v))
        elif r < 0.8:
            cut = now - rng.randint(0, 60)
            want_n = sum(1 for t, _ in window if t <= cut)
            assert agg.evict_up_to(cut) == want_n
            for _ in range(want_n):
                window.popleft()
        elif window:
            agg.evict()
            window.popleft()
        assert len(agg) == len(window)
        if window:
            assert agg.oldest_time() == window[0][0]
            assert agg.youngest_time() == window[-1][0]
        assert agg.times() == [t for t, _ in window]
        got, want = agg.query(), _expected(fn, window)
        assert _same(fn, got, want), f"step {i}: {agg!r} gave {got!r}, expected {want!r}"


def test_argmax_sequence_numbers_count_from_zero() -> None:
    w = swag.aggregator("daba_lite", "argmax")
    assert w.query() is None
    w.extend([4, 9, 2, 9])  # args 0, 1, 2, 3
    assert w.query() == 1
    w.evict()
    w.evict()  # 2, 9 (arg 3) remain
    assert w.query() == 3
    w.extend([1, 10])  # args 4, 5
    assert w.query() == 5


def test_rejected_value_does_not_consume_a_sequence_number() -> None:
    w = swag.aggregator("daba_lite", "argmax")
    w.insert(1.0)  # arg 0
    with pytest.raises(swag.ValueTypeError):
        w.insert("not a number")
    w.insert(5.0)  # the second inserted value: arg 1
    assert w.query() == 1


# ---- errors ----


def test_every_java_algorithm_name_builds_from_python() -> None:
    """Python keeps no list of algorithm names: every name Java's one parser (``io.swag.core.Algorithm``)
    accepts, canonical or alias, builds from Python the aggregator Java names for it, and the listed
    names are Java's canonical ones."""
    parser = _jvm.jclass("io.swag.core.Algorithm")
    names = [str(n) for n in parser.acceptedNames()]
    canonical = {n: str(parser.parse(n).id()) for n in names}
    trees = set(swag.out_of_order_algorithms())
    assert set(ALGORITHMS) | trees | {"adaptive"} == set(canonical.values())
    assert {"reactive", "fiba", "fiba4", "subtract_on_evict", "bfiba"} <= set(names)
    for n in names:
        if n == "adaptive":  # a plan's choice, built by the plan executors only
            with pytest.raises(swag.SwagError, match="adaptive"):
                swag.aggregator(n, "sum")
            continue
        for spelling in (n, n.upper().replace("_", "-")):
            w = swag.aggregator(spelling, "sum")  # sum: subtract-on-evict needs an invertible function
            assert w.algorithm == canonical[n], spelling
            assert isinstance(w, swag.TimedAggregator) == (canonical[n] in trees), spelling
            assert swag.timed_aggregator(spelling, "sum").algorithm == canonical[n], spelling


def test_unknown_algorithm() -> None:
    with pytest.raises(swag.UnknownAlgorithmError) as e:
        swag.aggregator("quick_sort", "max")
    msg = str(e.value)
    assert "quick_sort" in msg and "daba_lite" in msg and "two_stacks" in msg
    assert isinstance(e.value, swag.SwagError) and isinstance(e.value, ValueError)
    assert_no_java_trace(e)
    with pytest.raises(swag.UnknownAlgorithmError, match="quick_sort"):
        swag.timed_aggregator("quick_sort", "max")
    with pytest.raises(swag.UnknownAlgorithmError, match="must be a string"):
        swag.aggregator(3, "max")  # type: ignore[arg-type]


def test_unknown_function() -> None:
    with pytest.raises(swag.UnknownFunctionError) as e:
        swag.aggregator("daba_lite", "maximum")
    msg = str(e.value)
    assert "maximum" in msg and "argmax" in msg and "bloom" in msg
    assert isinstance(e.value, swag.SwagError)
    assert_no_java_trace(e)
    with pytest.raises(swag.UnknownFunctionError, match="must be a string"):
        swag.aggregator("daba_lite", None)  # type: ignore[arg-type]


def test_bad_options() -> None:
    with pytest.raises(swag.InvalidOptionError, match="no option 'size'") as e:
        swag.aggregator("daba_lite", "bloom", size=3)
    assert "bits" in str(e.value) and "hashes" in str(e.value)
    assert_no_java_trace(e)
    with pytest.raises(swag.InvalidOptionError, match="power of two"):
        swag.aggregator("daba_lite", "bloom", bits=1000)
    with pytest.raises(swag.InvalidOptionError, match="takes no options"):
        swag.aggregator("daba_lite", "max", bits=1024)
    with pytest.raises(swag.InvalidOptionError, match="rank"):
        swag.aggregator("daba_lite", "quantile")
    with pytest.raises(swag.InvalidOptionError, match="'k'"):
        swag.aggregator("daba_lite", "kll", k=[1])


def test_wrong_value_type() -> None:
    w = swag.aggregator("two_stacks_lite", "sum")
    w.insert(2)
    with pytest.raises(swag.ValueTypeError) as e:
        w.insert("abc")
    msg = str(e.value)
    assert "'sum'" in msg and '"abc"' in msg
    assert isinstance(e.value, TypeError) and isinstance(e.value, swag.InvalidValueError)
    assert_no_java_trace(e)
    assert len(w) == 1 and w.query() == 2.0  # unchanged
    with pytest.raises(swag.ValueTypeError, match=r"'sum'.*tuple.*\(1, 2\)"):
        w.insert((1, 2))
    with pytest.raises(swag.ValueTypeError, match="'sum'.*null"):
        w.insert(None)
    with pytest.raises(swag.ValueTypeError, match="'sum'"):
        w.extend([1, 2, "x"])
    assert len(w) == 3 and w.query() == 5.0  # extend stops at the rejected value


def test_integer_out_of_long_range() -> None:
    w = swag.aggregator("daba_lite", "collect")
    with pytest.raises(swag.InvalidValueError, match="64-bit"):
        w.insert(2**63)
    w.insert(2**63 - 1)
    w.insert(-(2**63))
    assert w.query() == [2**63 - 1, -(2**63)]


@pytest.mark.parametrize("fn", ["max", "sum", "mean", "kll", "hll", "bloom", "argmax"])
def test_nan_is_rejected(fn: str) -> None:
    w = swag.aggregator("daba_lite", fn)
    w.insert(1.0)
    with pytest.raises(swag.NaNValueError, match="NaN") as e:
        w.insert(float("nan"))
    assert f"'{fn}'" in str(e.value)
    assert isinstance(e.value, swag.InvalidValueError)
    assert_no_java_trace(e)
    assert len(w) == 1


def test_value_out_of_domain() -> None:
    w = swag.aggregator("daba_lite", "geomean")
    with pytest.raises(swag.InvalidValueError, match="geomean.*positive") as e:
        w.insert(-1)
    assert not isinstance(e.value, swag.ValueTypeError)
    w.extend([2, 8])
    assert w.query() == pytest.approx(4.0)


@pytest.mark.parametrize("timed", [False, True])
def test_evict_on_empty_window(timed: bool) -> None:
    w = make("two_stacks", "max", timed=timed)
    with pytest.raises(swag.EmptyWindowError, match="empty window") as e:
        w.evict()
    assert isinstance(e.value, IndexError) and isinstance(e.value, swag.SwagError)
    assert_no_java_trace(e)
    if timed:
        w.insert(5, 1.0)
    else:
        w.insert(1.0)
    w.evict()
    with pytest.raises(swag.EmptyWindowError):
        w.evict()


def test_times_of_empty_window() -> None:
    t = swag.timed_aggregator("daba_lite", "sum")
    with pytest.raises(swag.EmptyWindowError, match="empty"):
        t.oldest_time()
    with pytest.raises(swag.EmptyWindowError, match="empty"):
        t.youngest_time()
    assert t.evict_up_to(10**12) == 0


def test_out_of_order_time() -> None:
    t = swag.timed_aggregator("daba_lite", "sum")
    t.insert(100, 1.0)
    t.insert(100, 2.0)  # equal is in order
    with pytest.raises(swag.OutOfOrderError) as e:
        t.insert(50, 4.0)
    msg = str(e.value)
    assert "50" in msg and "100" in msg and "daba_lite" in msg
    assert isinstance(e.value, swag.SwagError)
    assert_no_java_trace(e)
    assert len(t) == 2 and t.youngest_time() == 100 and t.query() == 3.0


def test_bad_time_type() -> None:
    t = swag.timed_aggregator("daba_lite", "sum")
    with pytest.raises(swag.ValueTypeError, match="time must be"):
        t.insert("12:00", 1.0)
    with pytest.raises(swag.ValueTypeError, match="time must be"):
        t.insert(1.5, 1.0)
    with pytest.raises(swag.InvalidValueError, match="64-bit"):
        t.insert(2**64, 1.0)
    assert len(t) == 0


# ---- the timed aggregator ----


def test_timed_evict_up_to_and_times() -> None:
    t = swag.timed_aggregator("daba_lite", "max")
    t.extend([(10, 3), (20, 7), (20, 1), (30, 5), (45, 2)])
    assert (len(t), t.oldest_time(), t.youngest_time()) == (5, 10, 45)
    assert t.query() == 7.0
    assert t.evict_up_to(9) == 0
    assert t.evict_up_to(20) == 3  # inclusive, both entries at 20
    assert (len(t), t.oldest_time(), t.youngest_time(), t.query()) == (2, 30, 45, 5.0)
    t.evict()
    assert t.times() == [45] and t.query() == 2.0
    assert t.evict_up_to(1000) == 1
    assert len(t) == 0 and t.query() is None


def test_timed_argmax_is_a_time() -> None:
    t = swag.timed_aggregator("two_stacks_lite", "argmax")
    t.extend([(1000, 2.0), (2000, 9.0), (3000, 9.0), (4000, 1.0)])
    assert t.query() == 2000
    t.evict_up_to(2000)
    assert t.query() == 3000


def test_datetime_times() -> None:
    t = swag.timed_aggregator("daba_lite", "count")
    utc = datetime(2016, 1, 1, 0, 0, 1, tzinfo=UTC)
    t.insert(utc, 1)
    assert t.oldest_time() == 1451606401000
    t.insert(datetime(2016, 1, 1, 0, 0, 2, 500), 1)  # naive: read as UTC; sub-ms truncated
    t.insert(datetime(2016, 1, 1, 1, 0, 3, tzinfo=timezone(timedelta(hours=1))), 1)  # 00:00:03 UTC
    assert t.times() == [1451606401000, 1451606402000, 1451606403000]
    assert t.evict_up_to(utc + timedelta(seconds=1)) == 2
    assert t.query() == 1.0


# ---- conversions of inputs and results ----


def test_python_numbers_and_strings() -> None:
    w = swag.aggregator("daba_lite", "collect")
    w.extend([1, 2.5, "s", None, True, Fraction(1, 4), -0.0])
    got = w.query()
    assert got == [1, 2.5, "s", None, 1, 0.25, 0.0]
    assert [type(x) for x in got] == [int, float, str, type(None), int, float, float]
    s = swag.aggregator("daba", "sum")
    s.extend([1, 2.5, True, Fraction(1, 4)])
    assert s.query() == 4.75


def test_numpy_scalars() -> None:
    np = pytest.importorskip("numpy")
    s = swag.aggregator("daba_lite", "sum")
    s.extend([np.float64(1.5), np.int64(2), np.float32(0.25), np.int32(3), np.uint8(4)])
    assert s.query() == 10.75
    c = swag.aggregator("daba_lite", "collect")
    c.extend([np.int64(7), np.float64(0.5), np.str_("x")])
    assert c.query() == [7, 0.5, "x"]
    assert [type(x) for x in c.query()] == [int, float, str]
    with pytest.raises(swag.NaNValueError):
        s.insert(np.float64("nan"))
    t = swag.timed_aggregator("daba_lite", "max")
    t.insert(np.int64(5), np.float32(2.0))
    assert t.oldest_time() == 5 and t.query() == 2.0


def test_empty_results() -> None:
    assert swag.aggregator("daba_lite", "max").query() is None
    assert swag.aggregator("daba_lite", "sum").query() == 0.0
    assert swag.aggregator("daba_lite", "collect").query() == []
    assert swag.aggregator("daba_lite", "m4").query() is None
    assert swag.aggregator("daba_lite", "maxcount").query() is None
    assert math.isnan(swag.aggregator("daba_lite", "mean").query())
    one = swag.aggregator("daba_lite", "stddev")
    one.insert(3)
    assert math.isnan(one.query())


def test_m4() -> None:
    w = swag.aggregator("two_stacks_lite", "m4")
    w.extend([3, 1, 4, 1, 5])
    r = w.query()
    assert type(r) is dict
    assert r == {"first": 3.0, "last": 5.0, "min": 1.0, "max": 5.0}
    assert list(r) == ["first", "last", "min", "max"]
    assert all(type(v) is float for v in r.values())
    w.evict()
    w.evict()
    assert w.query() == {"first": 4.0, "last": 5.0, "min": 1.0, "max": 5.0}


def test_maxcount_and_mincount() -> None:
    mx = swag.aggregator("daba", "maxcount")
    mn = swag.aggregator("daba", "mincount")
    for w in (mx, mn):
        w.extend([3, 5, 2, 5.0, 5])
    assert mx.query() == {"value": 5.0, "count": 3}
    assert type(mx.query()["count"]) is int and type(mx.query()["value"]) is float
    assert mn.query() == {"value": 2.0, "count": 1}
    for _ in range(3):
        mn.evict()
    assert mn.query() == {"value": 5.0, "count": 2}


def test_bloom() -> None:
    w = swag.aggregator("daba_lite", "bloom", bits=4096, hashes=3)
    items: list[Any] = list(range(1, 21)) + ["alice", "bob", 2.5]
    w.extend(items)
    r = w.query()
    assert isinstance(r, swag.BloomFilter) and isinstance(r, dict)
    assert set(r) == {"bits", "hashes", "bits_set", "estimated_distinct"}
    assert r["bits"] == 4096 and r["hashes"] == 3 and type(r["bits_set"]) is int
    assert 3 * len(items) - 10 <= r["bits_set"] <= 3 * len(items)
    assert r["estimated_distinct"] == pytest.approx(len(items), rel=0.2)
    assert all(r.might_contain(x) for x in items)
    assert r.might_contain(5.0)  # 5 and 5.0 are one item
    absent = [r.might_contain(x) for x in range(1000, 1200)] + [r.might_contain(f"x{i}") for i in range(100)]
    assert sum(absent) < 15
    with pytest.raises(swag.ValueTypeError):
        r.might_contain(object())
    for _ in items:
        w.evict()
    empty = w.query()
    assert empty["bits_set"] == 0 and not empty.might_contain(1) and not empty.might_contain("alice")
    assert r.might_contain("alice")  # an earlier result is a snapshot
    assert "BloomFilter(" in repr(r)


@pytest.mark.parametrize("alg", ["soe", "daba_lite"])
def test_countmin(alg: str) -> None:
    w = make(alg, "countmin", width=256, depth=4)
    data: list[Any] = ["a"] * 5 + ["b"] * 2 + [7] * 3 + [7.5]
    w.extend(data)
    r = w.query()
    assert isinstance(r, swag.CountMinSketch)
    assert r == {"width": 256, "depth": 4, "total": 11}
    assert 5 <= r.estimate("a") <= 11 and 2 <= r.estimate("b") <= 11
    assert 3 <= r.estimate(7) == r.estimate(7.0) <= 11
    assert r.estimate(7.5) >= 1
    for _ in range(5):
        w.evict()  # the five "a"
    r2 = w.query()
    assert r2["total"] == 6 and r2.estimate("a") < 5


def test_kll() -> None:
    w = swag.aggregator("daba_lite", "kll")
    empty = w.query()
    assert isinstance(empty, swag.KllQuantiles) and empty == {"n": 0} and math.isnan(empty.quantile(0.5))
    w.extend(range(1, 101))  # n < k = 200: the sketch is exact
    r = w.query()
    assert r == {"n": 100, "min": 1.0, "p50": 50.0, "p90": 90.0, "p95": 95.0, "p99": 99.0, "max": 100.0}
    assert r.n == 100 and type(r["n"]) is int
    assert r.quantile(0.25) == 25.0 and r.quantile(1.0) == 100.0
    with pytest.raises(ValueError, match="rank"):
        r.quantile(1.5)
    for _ in range(50):
        w.evict()
    assert w.query()["min"] == 51.0


def test_quantile_and_median_give_floats() -> None:
    q = swag.aggregator("two_stacks_lite", "quantile", rank=0.95)
    m = swag.aggregator("two_stacks_lite", "median")
    assert m.function == "kll"
    assert math.isnan(q.query())
    for w in (q, m):
        w.extend(range(1, 101))
    assert q.query() == 95.0 and type(q.query()) is float
    assert m.query() == 50.0


def test_hll() -> None:
    w = swag.aggregator("daba_lite", "hll", lgK=12)
    w.extend(list(range(3000)) + list(range(1000)) + [f"user{i}" for i in range(500)])
    est = w.query()
    assert type(est) is float
    assert est == pytest.approx(3500, rel=0.05)
    for _ in range(3000):
        w.evict()
    assert w.query() == pytest.approx(1500, rel=0.05)  # 0..999 again and the 500 strings


def test_first_last() -> None:
    first, last = swag.aggregator("daba", "first"), swag.aggregator("daba", "last")
    for w in (first, last):
        w.extend([4, 8, 15])
        w.evict()
    assert (first.query(), last.query()) == (8.0, 15.0)


# ---- the aggregator objects ----


def test_properties_and_repr() -> None:
    w = swag.aggregator("daba-lite", "max")  # names are normalised by Java
    w.extend([1, 2])
    assert w.algorithm == "daba_lite" and w.function == "max" and len(w) == 2 and bool(w)
    assert repr(w) == "Aggregator('daba_lite', 'max', size=2)"
    assert isinstance(w.stored_partials, int) and w.stored_partials >= 1
    b = swag.aggregator("two_stacks_lite", "bloom", bits=1024)
    assert b.options == {"bits": 1024}
    assert repr(b) == "Aggregator('two_stacks_lite', 'bloom', bits=1024, size=0)" and not b
    t = swag.timed_aggregator("recalc", "sum")
    t.insert(3, 1.0)
    assert repr(t) == "TimedAggregator('recalc', 'sum', size=1)"
    assert isinstance(w, swag.Aggregator) and isinstance(t, swag.TimedAggregator)
    # a one-double function runs on the typed in-order class, a filter on the generic one
    assert str(w.java.getClass().getName()) == "io.swag.core.fifo.DoubleDabaLite"
    assert str(b.java.getClass().getName()) == "io.swag.core.fifo.TwoStacksLite"


# ---- finding the jar, starting the JVM ----


def test_find_jars_without_a_jar(tmp_path: Path) -> None:
    with pytest.raises(swag.SwagSetupError, match="make build") as e:
        _jvm.find_jars(tmp_path)
    assert "mvn" in str(e.value) and "SWAG_JAR" in str(e.value)


def test_find_jars_prefers_swag_core(tmp_path: Path) -> None:
    (tmp_path / "aaa-other.jar").write_bytes(b"")
    (tmp_path / "swag-core-0.1.0-all.jar").write_bytes(b"")
    assert _jvm.find_jars(tmp_path) == [tmp_path / "swag-core-0.1.0-all.jar"]
    (tmp_path / "swag-core.jar").write_bytes(b"")
    assert _jvm.find_jars(tmp_path) == [tmp_path / "swag-core.jar"]


def test_find_jars_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    jar = tmp_path / "x.jar"
    jar.write_bytes(b"")
    monkeypatch.setenv("SWAG_JAR", str(jar))
    assert _jvm.find_jars() == [jar]
    monkeypatch.setenv("SWAG_JAR", str(tmp_path / "missing.jar"))
    with pytest.raises(swag.SwagSetupError, match="missing.jar"):
        _jvm.find_jars()


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if k != "SWAG_JAR"}
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e, timeout=120)


def test_missing_jar_named_in_environment() -> None:
    p = _python("import swag\ntry:\n swag.functions()\nexcept swag.SwagSetupError as e:\n print('SETUP:', e)",
                SWAG_JAR="/nonexistent/swag.jar")
    assert "SETUP:" in p.stdout and "/nonexistent/swag.jar" in p.stdout, p.stdout + p.stderr


def test_jvm_started_without_the_jar() -> None:
    code = (
        "import jpype\njpype.startJVM(classpath=[])\nimport swag\n"
        "try:\n swag.aggregator('daba_lite', 'max')\nexcept swag.SwagSetupError as e:\n print('SETUP:', e)"
    )
    p = _python(code)
    assert "SETUP:" in p.stdout, p.stdout + p.stderr
    assert "already started" in p.stdout and "io.swag.core.Swag" in p.stdout


def test_docstring_examples() -> None:
    import doctest

    import swag.local

    for module in (swag, swag.local):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__

"""The out-of-order aggregators (FiBA and the classic B-tree) through the Python API, against a
plain Python recompute, and the in-order aggregators behind the same interface."""

from __future__ import annotations

import bisect
import random

import pytest

import swag

TREES = ["bfiba4", "bfiba2", "nbfiba4", "bclassic8"]


class Oracle:
    """A sorted list of (time, [values in arrival order])."""

    def __init__(self) -> None:
        self.times: list[int] = []
        self.vals: dict[int, list[float]] = {}

    def insert(self, t: int, v: float) -> None:
        if t not in self.vals:
            bisect.insort(self.times, t)
            self.vals[t] = []
        self.vals[t].append(v)

    def evict(self, t: int) -> bool:
        if t not in self.vals:
            return False
        self.times.remove(t)
        del self.vals[t]
        return True

    def evict_up_to(self, t: int) -> int:
        k = bisect.bisect_right(self.times, t)
        for x in self.times[:k]:
            del self.vals[x]
        del self.times[:k]
        return k

    def collect(self, lo: int | None = None, hi: int | None = None) -> list[float]:
        return [v for t in self.times if (lo is None or t >= lo) and (hi is None or t <= hi) for v in self.vals[t]]


def test_names() -> None:
    names = swag.out_of_order_algorithms()
    assert "nbfiba4" in names and "bclassic4" in names and "bfiba8" in names
    assert "fiba" not in names and "fiba4" not in names  # deprecated aliases: accepted, not listed
    assert not set(names) & set(swag.algorithms())


@pytest.mark.parametrize("algorithm", TREES)
def test_out_of_order_against_python(algorithm: str) -> None:
    rnd = random.Random(algorithm)
    w = swag.timed_aggregator(algorithm, "collect")
    s = swag.timed_aggregator(algorithm, "sum")
    o = Oracle()
    now = 10_000
    nonempty = 0  # range queries whose expected result is not empty
    for _step in range(3000):
        r = rnd.random()
        if r < 0.55:
            t = now - int(rnd.expovariate(1 / 50))  # out of order by a geometric-ish distance
            now += rnd.randint(0, 3)
            v = float(rnd.randint(-50, 50))
            w.insert(t, v)
            s.insert(t, v)
            o.insert(t, v)
        elif r < 0.65 and o.times:
            t = rnd.choice(o.times) if rnd.random() < 0.8 else now + 7  # present or absent
            assert w.evict(t) == o.evict(t) == s.evict(t)
        elif r < 0.7:
            t = now - rnd.randint(100, 400)
            n = o.evict_up_to(t)
            assert w.evict_up_to(t) == n == s.evict_up_to(t)
        elif r < 0.85:
            lo = now - rnd.randint(0, 600)
            hi = lo + rnd.randint(-5, 300)
            want = o.collect(lo, hi)
            nonempty += bool(want)
            assert w.query(lo, hi) == want
            assert s.query(lo, hi) == float(sum(want))
        else:
            assert w.query() == o.collect()
        assert len(w) == len(o.times)
    assert nonempty > 200, f"only {nonempty} range queries over a non-empty range"
    assert o.times, "the trace ends with a non-empty window"
    assert w.oldest_time() == o.times[0] and w.youngest_time() == o.times[-1]


@pytest.mark.parametrize("algorithm", ["bfiba4", "daba_lite"])
def test_bulk_insert(algorithm: str) -> None:
    w = swag.timed_aggregator(algorithm, "collect")
    w.bulk_insert([1, 2, 2, 5], [1.0, 2.0, 3.0, 4.0])
    if algorithm == "bfiba4":
        w.bulk_insert([0, 2, 3], [9.0, 8.0, 7.0])  # interleaves; time 2 combines after older arrivals
        assert w.query() == [9.0, 1.0, 2.0, 3.0, 8.0, 7.0, 4.0]
        assert len(w) == 5
    else:
        w.bulk_insert([5, 6], [8.0, 7.0])
        assert w.query() == [1.0, 2.0, 3.0, 4.0, 8.0, 7.0]
        with pytest.raises(swag.SwagError, match="older"):
            w.bulk_insert([3], [1.0])
    with pytest.raises(ValueError, match="sorted"):
        w.bulk_insert([9, 8], [1.0, 1.0])


def test_min_arity_option() -> None:
    assert swag.timed_aggregator("bfiba", "max", min_arity=8).algorithm == "bfiba8"
    assert swag.timed_aggregator("fiba", "max", min_arity=8).algorithm == "bfiba8"  # deprecated alias of bfiba
    assert swag.timed_aggregator("fiba4", "max", min_arity=2).algorithm == "nbfiba2"  # deprecated alias of nbfiba4
    assert swag.timed_aggregator("bclassic", "max", min_arity=2).algorithm == "bclassic2"
    with pytest.raises(swag.SwagError, match="minArity"):
        swag.timed_aggregator("bfiba", "max", min_arity=3)
    with pytest.raises(swag.SwagError, match="minArity"):
        swag.timed_aggregator("daba_lite", "max", min_arity=4)


def test_argmax_time_out_of_order() -> None:
    w = swag.timed_aggregator("bfiba4", "argmax")
    for t, v in [(50, 1.0), (10, 9.0), (30, 9.0), (20, 3.0)]:
        w.insert(t, v)
    assert w.query() == 10  # earliest of the tied maxima by time, not by arrival
    assert w.query(15, 60) == 30
    w.evict(10)
    assert w.query() == 30


def test_in_order_aggregator_behind_the_same_interface() -> None:
    w = swag.timed_aggregator("daba_lite", "sum")
    for t in [1, 2, 2, 3, 7]:
        w.insert(t, 1.0)
    assert w.query(0, 100) == 5.0  # covers the window
    assert w.query(8, 9) == 0.0  # covers none of it
    with pytest.raises(swag.SwagError, match="whole window"):
        w.query(2, 3)
    assert w.evict(4) is False  # absent
    with pytest.raises(swag.SwagError, match="oldest"):
        w.evict(3)
    assert w.evict(1) is True
    assert w.evict_up_to(2) == 2
    with pytest.raises(swag.OutOfOrderError):
        w.insert(1, 1.0)
    assert len(w) == 2 and w.query() == 2.0


def test_unknown_algorithm_lists_both_families() -> None:
    with pytest.raises(swag.UnknownAlgorithmError) as e:
        swag.timed_aggregator("fibb", "max")
    assert "daba_lite" in str(e.value) and "bfiba4" in str(e.value)


def test_aggregator_with_an_out_of_order_name() -> None:
    w = swag.aggregator("bfiba4", "max")
    assert isinstance(w, swag.TimedAggregator) and w.algorithm == "bfiba4"
    for t, v in [(30, 3.0), (10, 7.0), (20, 5.0), (40, 1.0)]:
        w.insert(t, v)
    assert w.query() == 7.0
    assert w.query(15, 40) == 5.0
    assert w.evict(10) is True and w.evict(11) is False
    assert w.bulk_evict(30) == 2
    assert w.query() == 1.0 and len(w) == 1
    w.bulk_insert([5, 50], [9.0, 2.0])
    assert w.query() == 9.0 and w.oldest_time() == 5 and w.youngest_time() == 50


def test_out_of_order_errors() -> None:
    w = swag.aggregator("bfiba4", "sum")
    with pytest.raises(swag.NaNValueError):
        w.insert(1, float("nan"))
    with pytest.raises(swag.NaNValueError):
        w.bulk_insert([1, 2], [1.0, float("nan")])
    with pytest.raises(swag.ValueTypeError, match="time"):
        w.insert(1.5, 1.0)
    with pytest.raises(swag.ValueTypeError, match="time"):
        w.bulk_insert([1, 2.5], [1.0, 1.0])
    with pytest.raises(swag.InvalidValueError, match="lengths"):
        w.bulk_insert([1, 2, 3], [1.0, 1.0])
    assert len(w) == 0  # nothing was inserted by the rejected calls

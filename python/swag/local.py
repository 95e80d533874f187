"""In-process sliding-window aggregators: thin Python wrappers of the Java ones.

>>> import swag
>>> w = swag.aggregator("daba_lite", "max")
>>> w.extend([3, 1, 4]); w.evict(); w.query()
4.0

Aggregators are not thread-safe (like the Java objects they wrap).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jpype  # type: ignore[import-untyped]

from . import _jvm
from ._convert import from_java, to_java_options, to_java_time, to_java_value, to_time_ms
from ._jvm import JException, translate
from .errors import (
    InvalidValueError,
    NaNValueError,
    OutOfOrderError,
    SwagError,
    UnknownAlgorithmError,
    UnknownFunctionError,
    ValueTypeError,
)

__all__ = [
    "Aggregator",
    "TimedAggregator",
    "aggregator",
    "timed_aggregator",
    "algorithms",
    "out_of_order_algorithms",
    "functions",
]


def algorithms() -> list[str]:
    """The canonical in-order (FIFO) algorithm names (Java ``io.swag.core.Swag.FIFO_ALGORITHMS``).
    Names are parsed by Java (``io.swag.core.Algorithm``), which also accepts aliases:
    ``subtract_on_evict`` (= ``soe``) and the deprecated ``reactive`` (= ``flatfat``)."""
    return [str(a) for a in _jvm.jclass("io.swag.core.Swag").FIFO_ALGORITHMS]


def out_of_order_algorithms() -> list[str]:
    """The canonical out-of-order (B-tree) algorithm names: ``bclassic2/4/8`` (classic B-tree),
    ``nbfiba2/4/8`` (FiBA without bulk operations), ``bfiba2/4/8`` (FiBA with bulk evict and insert)
    (Java ``io.swag.core.Swag.OUT_OF_ORDER_ALGORITHMS``). Also accepted: the family names
    ``bclassic``, ``nbfiba``, ``bfiba`` (min arity 4 or ``min_arity``) and the deprecated aliases
    ``fiba`` (= ``bfiba4``) and ``fiba2/4/8`` (= ``nbfiba2/4/8``)."""
    return [str(a) for a in _jvm.jclass("io.swag.core.Swag").OUT_OF_ORDER_ALGORITHMS]


def functions() -> list[str]:
    """The built-in aggregate function names (Java ``io.swag.core.fn.Functions.names()``)."""
    return [str(f) for f in _jvm.jclass("io.swag.core.fn.Functions").names()]


class _Window:
    """What plain and timed aggregators share."""

    __slots__ = ("_j", "_fn", "_options")

    def __init__(self, java: Any, options: dict[str, Any]) -> None:
        self._j = java
        self._fn = str(java.function().name())
        self._options = dict(options)

    @property
    def algorithm(self) -> str:
        """The algorithm's name, e.g. ``"daba_lite"``."""
        return str(self._j.algorithm())

    @property
    def function(self) -> str:
        """The aggregate function's canonical name, e.g. ``"max"`` (``"kll"`` for ``median``)."""
        return self._fn

    @property
    def options(self) -> dict[str, Any]:
        """The function options this aggregator was made with."""
        return dict(self._options)

    @property
    def stored_partials(self) -> int:
        """How many partial aggregates the algorithm stores now (its space use)."""
        return int(self._j.storedPartials())

    @property
    def java(self) -> Any:
        """The wrapped Java aggregator."""
        return self._j

    def __len__(self) -> int:
        return int(self._j.size())

    def evict(self) -> None:
        """Removes the oldest value; :class:`~swag.EmptyWindowError` if the window is empty."""
        try:
            self._j.evict()
        except JException as e:
            raise translate(e) from None

    def query(self) -> Any:
        """The aggregate of the window, as a plain Python value (``None`` when there is none)."""
        try:
            return from_java(self._j.query())
        except JException as e:
            raise translate(e) from None

    def _describe(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self._options.items())
        return f"{self.algorithm!r}, {self._fn!r}{opts}, size={len(self)}"


class Aggregator(_Window):
    """A FIFO sliding-window aggregator: insert at the young end, evict from the old end.

    For argument functions (``argmin``/``argmax``) the argument of a value is its sequence
    number: the n-th value inserted over the aggregator's life has argument n - 1.
    """

    __slots__ = ()

    def insert(self, value: Any) -> None:
        """Inserts ``value`` (a number or, for functions that take them, a string)."""
        v = to_java_value(value, self._fn)
        try:
            self._j.insert(v)
        except JException as e:
            raise _refused(e, value) from None

    def extend(self, values: Iterable[Any]) -> None:
        """Inserts every value of ``values`` in order (stops at the first rejected value)."""
        ins = self._j.insert
        fn = self._fn
        for value in values:
            v = to_java_value(value, fn)
            try:
                ins(v)
            except JException as e:
                raise _refused(e, value) from None

    def __repr__(self) -> str:
        return f"Aggregator({self._describe()})"


class TimedAggregator(_Window):
    """An aggregator whose values carry event times (``int`` epoch milliseconds, or ``datetime``;
    naive datetimes are read as UTC). ``argmin``/``argmax`` give the time of the extreme value.

    With an in-order algorithm (``daba_lite``, ...) times must be non-decreasing; with an
    out-of-order one (``bfiba4``, ...) values may arrive in any order, any time can be evicted, and
    :meth:`query` takes a time range (window sharing). A value at a time already present is
    combined into that entry, after the older arrivals.
    """

    __slots__ = ()

    def insert(self, time: Any, value: Any) -> None:
        """Inserts ``value`` at ``time``; :class:`~swag.OutOfOrderError` if ``time`` is older than
        :meth:`youngest_time` on an in-order aggregator."""
        t = to_java_time(time)
        v = to_java_value(value, self._fn)
        try:
            self._j.insert(t, v)
        except JException as e:
            raise _refused(e, value, self._older(int(t))) from None

    def extend(self, items: Iterable[tuple[Any, Any]]) -> None:
        """Inserts every ``(time, value)`` pair of ``items`` in order."""
        for time, value in items:
            self.insert(time, value)

    def bulk_insert(self, times: Iterable[Any], values: Iterable[Any]) -> None:
        """Inserts a batch sorted by time (one call into the JVM; FiBA's bulk insert)."""
        ts = [to_time_ms(t) for t in times]
        vs = list(values)
        if len(ts) != len(vs):
            raise InvalidValueError(f"bulk_insert: {len(ts)} times but {len(vs)} values; the lengths must match")
        for i in range(1, len(ts)):
            if ts[i] < ts[i - 1]:
                raise InvalidValueError(
                    f"bulk_insert: times must be sorted, but time {ts[i]} at index {i} < {ts[i - 1]}"
                )
        jl = jpype.JArray(jpype.JLong)(ts)
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vs)
        if numeric and self._fn not in ("collect",):
            for i, v in enumerate(vs):
                if v != v:
                    raise NaNValueError(f"bulk_insert: value at index {i} is NaN; function '{self._fn}' rejects NaN")
            jv = jpype.JArray(jpype.JDouble)([float(v) for v in vs])
        else:
            jv = jpype.JArray(jpype.JObject)([to_java_value(v, self._fn) for v in vs])
        try:
            self._j.bulkInsert(jl, jv, 0, len(ts))
        except JException as e:
            raise _refused(e, _BATCH, bool(ts) and self._older(ts[0])) from None

    def _older(self, time: int) -> bool:
        """Whether ``time`` is older than the youngest time of this in-order aggregator."""
        if not hasattr(self._j, "evictUpTo") or int(self._j.size()) == 0:
            return False
        return time < int(self._j.youngestTime())

    def evict(self, time: Any = None) -> bool | None:  # type: ignore[override]  # also by time
        """Without ``time``: removes the oldest value (:class:`~swag.EmptyWindowError` if empty).
        With ``time``: removes the entry at exactly that time and returns whether there was one."""
        try:
            if time is None:
                if hasattr(self._j, "evictUpTo"):  # in-order: one value, even among equal times
                    self._j.evict()
                else:
                    self._j.evict(self._j.oldestTime())
                return None
            return bool(self._j.evict(to_java_time(time)))
        except JException as e:
            raise translate(e) from None

    def bulk_evict(self, time: Any) -> int:
        """Evicts every entry with time ``<= time`` in one operation (FiBA's bulk evict: amortized
        O(log m) for m entries); returns how many were evicted."""
        return self.evict_up_to(time)

    def evict_up_to(self, time: Any) -> int:
        """Evicts every value with time ``<= time`` (FiBA's bulk evict); returns how many."""
        t = to_java_time(time)
        try:
            return int(self._j.bulkEvict(t))
        except JException as e:
            raise translate(e) from None

    def query(self, start: Any = None, end: Any = None) -> Any:
        """The aggregate of the window, or with ``start``/``end`` of the values with
        ``start <= time <= end`` (either bound may be omitted)."""
        if start is None and end is None:
            return super().query()
        lo = -(2**63) if start is None else to_java_time(start)
        hi = 2**63 - 1 if end is None else to_java_time(end)
        try:
            return from_java(self._j.query(jpype.JLong(lo), jpype.JLong(hi)))
        except JException as e:
            raise translate(e) from None

    def oldest_time(self) -> int:
        """The time of the oldest value (epoch ms); :class:`~swag.EmptyWindowError` if empty."""
        try:
            return int(self._j.oldestTime())
        except JException as e:
            raise translate(e) from None

    def youngest_time(self) -> int:
        """The time of the youngest value (epoch ms); :class:`~swag.EmptyWindowError` if empty."""
        try:
            return int(self._j.youngestTime())
        except JException as e:
            raise translate(e) from None

    def times(self) -> list[int]:
        """The times in the window, oldest first (in-order aggregators only)."""
        if not hasattr(self._j, "times"):
            raise NotImplementedError(f"times() is available for in-order aggregators, not {self.algorithm!r}")
        return [int(t) for t in self._j.times()]

    @property
    def stored_partials(self) -> int:
        """How many partial aggregates the algorithm stores now (in-order aggregators)."""
        if not hasattr(self._j, "storedPartials"):
            raise NotImplementedError(f"stored_partials is reported by in-order aggregators, not {self.algorithm!r}")
        return int(self._j.storedPartials())

    def __repr__(self) -> str:
        return f"TimedAggregator({self._describe()})"


_BATCH = object()  # the value argument of _refused for a batch: no single value to look at


def _refused(e: Any, value: Any, older: bool = False) -> Exception:
    """:func:`translate` of an insert's Java exception. A refused value (a plain Java
    ``IllegalArgumentException``: :class:`InvalidValueError`) gets the subclass its arguments show:
    a time older than an in-order aggregator's youngest (:class:`OutOfOrderError`), a NaN
    (:class:`NaNValueError`), a value that is not a number (:class:`ValueTypeError`)."""
    err = translate(e)
    if type(err) is not InvalidValueError:
        return err
    if older:
        cls: type[SwagError] = OutOfOrderError
    elif value is _BATCH:
        return err
    elif isinstance(value, float) and value != value:
        cls = NaNValueError
    elif value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        cls = ValueTypeError
    else:
        return err
    refined = cls(str(err))
    refined.java_exception = err.java_exception
    return refined


def _create(factory: str, algorithm: str, function: str, options: dict[str, Any]) -> Any:
    if not isinstance(algorithm, str):
        raise UnknownAlgorithmError(
            f"algorithm name must be a string, got {algorithm!r}; known algorithms: {', '.join(algorithms())}"
        )
    if not isinstance(function, str):
        raise UnknownFunctionError(
            f"function name must be a string, got {function!r}; known functions: {', '.join(functions())}"
        )
    swag_class = _jvm.jclass("io.swag.core.Swag")
    jopts = to_java_options(function, options)
    try:
        return getattr(swag_class, factory)(algorithm, function, jopts)
    except JException as e:
        raise translate(e) from None


def aggregator(algorithm: str, function: str, **options: Any) -> Any:
    """An aggregator running ``algorithm`` over ``function`` (see :func:`functions`).

    With an in-order name (:func:`algorithms`, e.g. ``"daba_lite"``) it is a FIFO
    :class:`Aggregator`; with an out-of-order name (:func:`out_of_order_algorithms`, e.g.
    ``"bfiba4"``) it is a :class:`TimedAggregator` taking ``insert(time, value)`` in
    any order, ``evict(time)``, ``bulk_evict(time)``, ``bulk_insert(times, values)`` and
    ``query(t_from, t_to)``. Options configure the function, e.g. ``bloom``: ``bits``,
    ``hashes``; ``countmin``: ``width``, ``depth``; ``hll``: ``lgK``; ``kll``: ``k``, ``rank``;
    and ``min_arity`` (2, 4, 8) the out-of-order trees."""
    if isinstance(algorithm, str) and _is_out_of_order(algorithm):
        return timed_aggregator(algorithm, function, **options)
    return Aggregator(_create("fifo", algorithm, function, options), options)


def _is_out_of_order(algorithm: str) -> bool:
    """Whether ``algorithm`` names a B-tree, by Java's one parser of names (``io.swag.core.Algorithm``)."""
    a = _jvm.jclass("io.swag.core.Algorithm").find(algorithm)
    return a is not None and bool(a.isTree())


def timed_aggregator(algorithm: str, function: str, **options: Any) -> TimedAggregator:
    """Like :func:`aggregator`, with event times (see :class:`TimedAggregator`). ``algorithm`` is
    an in-order name (:func:`algorithms`) or an out-of-order one (:func:`out_of_order_algorithms`,
    e.g. ``"bfiba"``, which also takes ``min_arity=2|4|8``)."""
    if "min_arity" in options:
        options = dict(options)
        options["minArity"] = options.pop("min_arity")
    return TimedAggregator(_create("timed", algorithm, function, options), options)

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

from . import _jvm
from ._convert import from_java, to_java_options, to_java_time, to_java_value
from ._jvm import JException, translate
from .errors import UnknownAlgorithmError, UnknownFunctionError

__all__ = ["Aggregator", "TimedAggregator", "aggregator", "timed_aggregator", "algorithms", "functions"]


def algorithms() -> list[str]:
    """The in-order (FIFO) algorithm names (Java ``io.swag.core.Swag.FIFO_ALGORITHMS``)."""
    return [str(a) for a in _jvm.jclass("io.swag.core.Swag").FIFO_ALGORITHMS]


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
            raise translate(e, "other") from None

    def query(self) -> Any:
        """The aggregate of the window, as a plain Python value (``None`` when there is none)."""
        try:
            return from_java(self._j.query())
        except JException as e:
            raise translate(e, "other") from None

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
            raise translate(e, "insert") from None

    def extend(self, values: Iterable[Any]) -> None:
        """Inserts every value of ``values`` in order (stops at the first rejected value)."""
        ins = self._j.insert
        fn = self._fn
        for value in values:
            v = to_java_value(value, fn)
            try:
                ins(v)
            except JException as e:
                raise translate(e, "insert") from None

    def __repr__(self) -> str:
        return f"Aggregator({self._describe()})"


class TimedAggregator(_Window):
    """A FIFO aggregator whose values carry event times (``int`` epoch milliseconds, or
    ``datetime``; naive datetimes are read as UTC), inserted in non-decreasing time order, so the
    window can be evicted by time. ``argmin``/``argmax`` give the time of the extreme value."""

    __slots__ = ()

    def insert(self, time: Any, value: Any) -> None:
        """Inserts ``value`` at ``time``; :class:`~swag.OutOfOrderError` if ``time`` is older than
        :meth:`youngest_time`."""
        t = to_java_time(time)
        v = to_java_value(value, self._fn)
        try:
            self._j.insert(t, v)
        except JException as e:
            raise translate(e, "insert") from None

    def extend(self, items: Iterable[tuple[Any, Any]]) -> None:
        """Inserts every ``(time, value)`` pair of ``items`` in order."""
        for time, value in items:
            self.insert(time, value)

    def evict_up_to(self, time: Any) -> int:
        """Evicts every value with time ``<= time``; returns how many were evicted."""
        t = to_java_time(time)
        try:
            return int(self._j.evictUpTo(t))
        except JException as e:
            raise translate(e, "other") from None

    def oldest_time(self) -> int:
        """The time of the oldest value (epoch ms); :class:`~swag.EmptyWindowError` if empty."""
        try:
            return int(self._j.oldestTime())
        except JException as e:
            raise translate(e, "other") from None

    def youngest_time(self) -> int:
        """The time of the youngest value (epoch ms); :class:`~swag.EmptyWindowError` if empty."""
        try:
            return int(self._j.youngestTime())
        except JException as e:
            raise translate(e, "other") from None

    def times(self) -> list[int]:
        """The times in the window, oldest first."""
        return [int(t) for t in self._j.times()]

    def __repr__(self) -> str:
        return f"TimedAggregator({self._describe()})"


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
        raise translate(e, "create") from None


def aggregator(algorithm: str, function: str, **options: Any) -> Aggregator:
    """A FIFO aggregator running ``algorithm`` (see :func:`algorithms`) over ``function`` (see
    :func:`functions`). Options configure the function, e.g. ``bloom``: ``bits``, ``hashes``;
    ``countmin``: ``width``, ``depth``; ``hll``: ``lgK``; ``kll``: ``k``, ``rank``."""
    return Aggregator(_create("fifo", algorithm, function, options), options)


def timed_aggregator(algorithm: str, function: str, **options: Any) -> TimedAggregator:
    """Like :func:`aggregator`, with event times (see :class:`TimedAggregator`)."""
    return TimedAggregator(_create("timedFifo", algorithm, function, options), options)

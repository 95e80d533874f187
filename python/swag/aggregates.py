"""Aggregate specs for :class:`swag.Query`: ``swag.max("duration")``, ``swag.quantile("x", 0.95)``, ...

Each helper returns an :class:`Aggregate` (function name, input column, options); the output
column's name is the keyword it is given in :meth:`swag.Query.window`:

>>> import swag
>>> swag.quantile("duration", 0.95)
Aggregate(function='quantile', column='duration', options={'rank': 0.95})

Only obviously wrong arguments (a column name that is not a string, an option that is not a
number) are rejected here; everything else (unknown functions, bad option values, a function not
applicable to a column's type) is checked by Java when the query is validated.

This module defines functions called ``max``, ``min`` and ``sum``: it does not use the built-ins.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

from .errors import query_error

__all__ = [
    "Aggregate",
    "max",
    "min",
    "sum",
    "count",
    "mean",
    "geomean",
    "stddev",
    "variance",
    "argmin",
    "argmax",
    "first",
    "last",
    "m4",
    "collect",
    "maxcount",
    "mincount",
    "hll",
    "bloom",
    "countmin",
    "quantile",
    "median",
    "kll",
    "udaf",
]


@dataclass(frozen=True)
class Aggregate:
    """One aggregate of a window: ``function`` (a name of :func:`swag.functions`) over ``column``
    (``None`` only for ``count``: count records), configured by ``options``."""

    function: str
    column: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.function, str) or not self.function.strip():
            raise query_error("function", self.function, "expected a function name")
        # canonical like Java's AggregateSpec: trimmed, lower case
        object.__setattr__(self, "function", self.function.strip().lower())
        fn = self.function
        if self.column is not None and (not isinstance(self.column, str) or not self.column):
            raise query_error(f"{fn}.column", self.column, "expected a column name (a non-empty string) or None")
        if not isinstance(self.options, dict):
            raise query_error(f"{fn}.options", self.options, "expected a dict of options")
        for key, value in self.options.items():
            if not isinstance(key, str):
                raise query_error(f"{fn}.options", key, "option names are strings")
            if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
                raise query_error(f"{fn}.options.{key}", value, "expected a number or a string")
            if isinstance(value, numbers.Real) and not math.isfinite(value):
                raise query_error(f"{fn}.options.{key}", repr(value), "expected a finite number")
        # a private copy with plain Python numbers (numpy scalars are not JSON-serializable)
        clean = {k: (v if isinstance(v, str) else _plain_number(v)) for k, v in self.options.items()}
        object.__setattr__(self, "options", clean)

    def to_dict(self) -> dict[str, Any]:
        """The ``aggregates[]`` entry of the JSON spec without its ``output`` field."""
        return {"function": self.function, "column": self.column, "options": dict(self.options)}


def _plain_number(v: Any) -> int | float:
    if isinstance(v, numbers.Integral):
        return int(v)
    return float(v)


def _opts(**options: Any) -> dict[str, Any]:
    return {k: v for k, v in options.items() if v is not None}


def max(column: str) -> Aggregate:  # noqa: A001 - swag.max is the public name
    """The largest value."""
    return Aggregate("max", column)


def min(column: str) -> Aggregate:  # noqa: A001
    """The smallest value."""
    return Aggregate("min", column)


def sum(column: str) -> Aggregate:  # noqa: A001
    """The sum of the values (a double)."""
    return Aggregate("sum", column)


def count(column: str | None = None) -> Aggregate:
    """The number of records (``column=None``) or of values of ``column``."""
    return Aggregate("count", column)


def mean(column: str) -> Aggregate:
    """The arithmetic mean."""
    return Aggregate("mean", column)


def geomean(column: str) -> Aggregate:
    """The geometric mean."""
    return Aggregate("geomean", column)


def stddev(column: str) -> Aggregate:
    """The sample standard deviation."""
    return Aggregate("stddev", column)


def variance(column: str) -> Aggregate:
    """The sample variance."""
    return Aggregate("variance", column)


def argmin(column: str) -> Aggregate:
    """The event time of the smallest value (the earliest wins ties)."""
    return Aggregate("argmin", column)


def argmax(column: str) -> Aggregate:
    """The event time of the largest value (the earliest wins ties)."""
    return Aggregate("argmax", column)


def first(column: str) -> Aggregate:
    """The first value."""
    return Aggregate("first", column)


def last(column: str) -> Aggregate:
    """The last value."""
    return Aggregate("last", column)


def m4(column: str) -> Aggregate:
    """First, last, min and max (a dict)."""
    return Aggregate("m4", column)


def collect(column: str) -> Aggregate:
    """The values as a list."""
    return Aggregate("collect", column)


def maxcount(column: str) -> Aggregate:
    """The largest value and how often it occurs (a dict)."""
    return Aggregate("maxcount", column)


def mincount(column: str) -> Aggregate:
    """The smallest value and how often it occurs (a dict)."""
    return Aggregate("mincount", column)


def hll(column: str, lgK: int = 12) -> Aggregate:  # noqa: N803 - the Java option's name
    """A distinct-count estimate (HyperLogLog with 2^lgK buckets)."""
    return Aggregate("hll", column, {"lgK": lgK})


def bloom(column: str, bits: int = 2048, hashes: int = 4) -> Aggregate:
    """A Bloom filter of the values (the defaults hold 256 distinct values at 2.4% false positives;
    each stored partial is ``bits / 8`` bytes)."""
    return Aggregate("bloom", column, {"bits": bits, "hashes": hashes})


def countmin(column: str, width: int = 128, depth: int = 3) -> Aggregate:
    """A count-min sketch of the values."""
    return Aggregate("countmin", column, {"width": width, "depth": depth})


def quantile(column: str, rank: float, k: int | None = None) -> Aggregate:
    """The value at normalized ``rank`` in [0, 1] (KLL sketch; ``k`` its accuracy, default 200)."""
    return Aggregate("quantile", column, _opts(k=k, rank=rank))


def median(column: str, k: int | None = None) -> Aggregate:
    """The median (KLL sketch)."""
    return Aggregate("median", column, _opts(k=k))


def kll(column: str, k: int | None = None) -> Aggregate:
    """A KLL quantile sketch of the values (a :class:`swag.KllQuantiles`)."""
    return Aggregate("kll", column, _opts(k=k))


def udaf(cls: str, column: str, **params: Any) -> Aggregate:
    """A user-defined aggregate function: the JVM class ``cls`` (fully qualified, implementing
    ``io.swag.core.AggregateFunction``) over ``column``, constructed with ``params`` (docs/udaf.md).
    The jar that holds it must be on every engine's class path: ``swag.add_jars(path)`` before the
    first query (local JVM, ``swag.spark.session()`` and ``swag.flink`` pass it on)."""
    if not isinstance(cls, str) or not cls.strip():
        raise query_error("udaf.class", cls, "expected the fully qualified name of a JVM class")
    if "class" in params:
        raise query_error("udaf.class", params["class"], "give the class as the first argument, not as a parameter")
    return Aggregate("udaf", column, {"class": cls, **params})

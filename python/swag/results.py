"""Python forms of structured results (``io.swag.core.fn.Structured``).

M4 and ``mincount``/``maxcount`` results become plain dicts. Sketch results (Bloom filter,
count-min, KLL quantiles) become dict subclasses: the dict holds the result's fields (what
``toMap()`` gives in Java), and methods query the sketch itself (kept as ``.java``).
"""

from __future__ import annotations

import numbers
from typing import Any

from . import _jvm
from .errors import ValueTypeError


class SketchResult(dict):  # type: ignore[type-arg]
    """The fields of a sketch result, plus the Java sketch object as :attr:`java`."""

    def __init__(self, fields: dict[str, Any], java: Any) -> None:
        super().__init__(fields)
        self.java = java

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict.__repr__(self)})"

    def _item(self, item: Any, what: str) -> Any:
        """``item`` converted like an inserted value, boxed (the Java methods take an Object)."""
        if isinstance(item, numbers.Integral):
            return _jvm.jclass("java.lang.Long")(_jvm.java_long(int(item), f"{what} got integer"))
        if isinstance(item, numbers.Real):
            return _jvm.jclass("java.lang.Double")(float(item))
        if isinstance(item, str):
            return str(item)
        raise ValueTypeError(f"{what} takes a number or a string, got {type(item).__name__} value {item!r}")


class BloomFilter(SketchResult):
    """A Bloom filter of the window's values: keys ``bits``, ``hashes``, ``bits_set``,
    ``estimated_distinct``."""

    def might_contain(self, item: Any) -> bool:
        """False means ``item`` was certainly not in the window (``5`` and ``5.0`` are one item)."""
        return bool(self.java.mightContain(self._item(item, "bloom might_contain")))


class CountMinSketch(SketchResult):
    """A count-min sketch of the window's values: keys ``width``, ``depth``, ``total``."""

    def estimate(self, item: Any) -> int:
        """An estimate of how often ``item`` is in the window (never below the true count)."""
        return int(self.java.estimate(self._item(item, "countmin estimate")))


class KllQuantiles(SketchResult):
    """A KLL quantile sketch of the window: keys ``n`` and, when not empty, ``min``, ``p50``,
    ``p90``, ``p95``, ``p99``, ``max``."""

    def quantile(self, rank: float) -> float:
        """The value at normalized ``rank`` in [0, 1] (inclusive search; NaN when empty)."""
        r = float(rank)
        if not 0.0 <= r <= 1.0:
            raise ValueError(f"rank must be in [0, 1], got {rank!r}")
        return float(self.java.quantile(r))

    @property
    def n(self) -> int:
        return int(self.java.n())


_WRAPPERS = {
    "io.swag.core.fn.Bloom$Filter": BloomFilter,
    "io.swag.core.fn.CountMin$Sketch": CountMinSketch,
    "io.swag.core.fn.Kll$Quantiles": KllQuantiles,
}


def wrap_structured(x: Any, fields: dict[str, Any]) -> dict[str, Any]:
    """The Python form of the structured result ``x`` whose fields, converted, are ``fields``."""
    cls = _WRAPPERS.get(str(x.getClass().getName()))
    return fields if cls is None else cls(fields, x)

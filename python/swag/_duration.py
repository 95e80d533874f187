"""Durations: ``"90s"``, ``"1min"``, ``"1h"``, ``"1d"``, ``"250ms"``, ints (milliseconds) and
:class:`datetime.timedelta`, to and from milliseconds."""

from __future__ import annotations

import numbers
import re
from datetime import timedelta
from typing import Any

from .errors import query_error

# longest unit first: the name of a duration uses the largest unit that divides it
UNITS: tuple[tuple[str, int], ...] = (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1_000), ("ms", 1))
_ALIASES = {
    "ms": 1,
    "s": 1_000,
    "sec": 1_000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
}
_PATTERN = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]*)\s*$")


def to_ms(value: Any, field: str) -> int:
    """``value`` as whole milliseconds; :class:`~swag.InvalidQueryError` naming ``field`` otherwise.

    Signs are kept (Java rejects negative sizes with its own message)."""
    if isinstance(value, bool):
        raise query_error(field, value, "expected a duration")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, timedelta):
        ms, rest = divmod(value, timedelta(milliseconds=1))
        if rest:
            raise query_error(field, str(value), "not a whole number of milliseconds")
        return int(ms)
    if isinstance(value, str):
        m = _PATTERN.match(value.lower())
        unit = _ALIASES.get(m.group(2) or "ms") if m else None
        if m is None or unit is None:
            raise query_error(field, value, "not a duration (examples: '250ms', '90s', '1min', '1h', '1d')")
        number = m.group(1)
        if "." in number:
            scaled = float(number) * unit
            if scaled != round(scaled):
                raise query_error(field, str(value), "not a whole number of milliseconds")
            return int(round(scaled))
        return int(number) * unit
    raise query_error(
        field, value, "expected a duration (an int of milliseconds, a string like '90s' or a datetime.timedelta)"
    )


def name(ms: int) -> str:
    """``ms`` in the largest unit that divides it: ``3600000 -> "1h"``, ``90000 -> "90s"``."""
    if ms == 0:
        return "0ms"
    for unit, size in UNITS:
        if ms % size == 0:
            return f"{ms // size}{unit}"
    raise AssertionError("unreachable: 1 ms divides every integer")

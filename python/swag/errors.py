"""Exceptions raised by the swag Python API.

Everything a caller can get wrong (names, options, values, times, evicting from an empty window)
raises a subclass of :class:`SwagError`, which is a :class:`ValueError`. Java exceptions never leak
through: the Java message is kept, the Java stack trace is not (the Java exception object is still
available as ``err.java_exception`` for debugging).
"""

from __future__ import annotations

import json
from typing import Any


class SwagError(ValueError):
    """Base class of the errors caused by a call's arguments."""

    java_exception: Any = None


class UnknownAlgorithmError(SwagError):
    """The algorithm name is not known; the message lists the known names."""


class UnknownFunctionError(SwagError):
    """The aggregate function name is not known; the message lists the known names."""


class InvalidOptionError(SwagError):
    """A function option is unknown or has a bad value."""


class IncompatibleFunctionError(SwagError):
    """The algorithm cannot run this function (e.g. ``soe`` needs an invertible function)."""


class InvalidValueError(SwagError):
    """The function rejected an inserted value; the aggregator is unchanged."""


class ValueTypeError(InvalidValueError, TypeError):
    """A value of a type the function does not take (e.g. a string into ``sum``)."""


class NaNValueError(InvalidValueError):
    """A NaN value: it has no place in an order, so aggregates would depend on insertion order."""


class EmptyWindowError(SwagError, IndexError):
    """Evicting from (or asking the times of) an empty window."""


class OutOfOrderError(SwagError):
    """A time older than the youngest time, inserted into an in-order (FIFO) aggregator."""


class InvalidQueryError(SwagError):
    """A query spec that does not validate. The message starts with the field path and names the
    value, e.g. ``windows[1].slide: 7200000 > size 3600000; ...``; :attr:`field` is that path."""

    @property
    def field(self) -> str | None:
        """The field path the message starts with (``"windows[1].slide"``), if it has one."""
        head, sep, _ = str(self).partition(": ")
        return head if sep and " " not in head else None


class UnknownQueryFunctionError(InvalidQueryError, UnknownFunctionError):
    """A query names an aggregate function that does not exist; the message lists the known ones."""


def query_error(path: str, value: Any, message: str, cls: type[InvalidQueryError] = InvalidQueryError) -> Any:
    """An error in the style of Java's query validation: ``<path>: <value as JSON>; <message>``."""
    try:
        shown = json.dumps(value, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        shown = f"{value!r} ({type(value).__name__})"
    if len(shown) > 200:
        shown = shown[:197] + "..."
    return cls(f"{path}: {shown}; {message}")


class SwagSetupError(RuntimeError):
    """The swag jar or a suitable JVM cannot be found or started."""


class SwagInternalError(RuntimeError):
    """An unexpected Java exception (a bug in swag rather than in the call)."""

    java_exception: Any = None


__all__ = [
    "SwagError",
    "UnknownAlgorithmError",
    "UnknownFunctionError",
    "InvalidOptionError",
    "IncompatibleFunctionError",
    "InvalidValueError",
    "ValueTypeError",
    "NaNValueError",
    "EmptyWindowError",
    "OutOfOrderError",
    "InvalidQueryError",
    "UnknownQueryFunctionError",
    "SwagSetupError",
    "SwagInternalError",
]

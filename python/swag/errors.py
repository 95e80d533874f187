"""Exceptions raised by the swag Python API.

Everything a caller can get wrong (names, options, values, times, evicting from an empty window)
raises a subclass of :class:`SwagError`, which is a :class:`ValueError`. Java exceptions never leak
through: the Java message is kept, the Java stack trace is not (the Java exception object is still
available as ``err.java_exception`` for debugging).

Every front-end (the local API through JPype, ``swag.spark`` through py4j, Spark Connect, which
receives only the server's error class and text, and ``swag.flink``) turns a Java exception into a
Python one with :func:`from_java`, from the Java class name and message alone. swag's Java errors
(``io.swag.core.SwagException`` and ``SwagFailure``) start their message with their kind,
``[SWAG_<KIND>] ``; :data:`KIND_CLASSES` maps each kind to its class here and the prefix is
dropped from the Python message. See docs/query-spec.md, "Errors".
"""

from __future__ import annotations

import json
import re
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


class InvalidInputError(InvalidQueryError):
    """The input does not fit the query: a column it reads is missing or has the wrong type, or the
    stream has no watermark on the time column. The message names the column."""


class IncompatibleStateError(SwagError):
    """Restored state (a checkpoint or savepoint) does not fit the query's plan: restore with the
    query the state was written with."""


class UserFunctionError(SwagError):
    """A user-defined aggregate function (``swag.udaf``) failed outside ``lift``; the message names
    its class, column and method."""


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
    """An unexpected Java exception (a bug in swag rather than in the call): any Java exception
    that :func:`from_java` does not map, on every front-end. The message is
    ``<Java class>: <Java message>``."""

    java_exception: Any = None


#: The class of each kind of ``io.swag.core.SwagException`` (the ``[SWAG_<KIND>]`` message prefix).
KIND_CLASSES: dict[str, type[Exception]] = {
    "INVALID_QUERY": InvalidQueryError,
    "UNKNOWN_QUERY_FUNCTION": UnknownQueryFunctionError,
    "INVALID_INPUT": InvalidInputError,
    "UNKNOWN_ALGORITHM": UnknownAlgorithmError,
    "UNKNOWN_FUNCTION": UnknownFunctionError,
    "INVALID_OPTION": InvalidOptionError,
    "INCOMPATIBLE_FUNCTION": IncompatibleFunctionError,
    "SETUP": SwagSetupError,
    "STATE": IncompatibleStateError,
    "USER_FUNCTION": UserFunctionError,
    "REJECTED_RECORD": InvalidValueError,
}

#: Java exceptions without a kind that have a class here: an empty window, an operation the
#: aggregator does not support, and a function refusing a value (the only plain
#: ``IllegalArgumentException`` swag throws by contract; engines make such records rejected rows).
JAVA_CLASSES: dict[str, type[Exception]] = {
    "java.util.NoSuchElementException": EmptyWindowError,
    "java.lang.UnsupportedOperationException": SwagError,
    "java.lang.IllegalArgumentException": InvalidValueError,
}

_PREFIX = re.compile(r"\[SWAG_([A-Z_]+)\] ")


def java_kind(message: str | None) -> tuple[str | None, str]:
    """The kind a Java message starts with (``None`` if none) and the message without the prefix.
    The same form as Java's ``SwagException.kindOf`` and ``SwagException.text``."""
    text = "" if message is None else str(message)
    m = _PREFIX.match(text)
    if m is None or m.group(1) not in KIND_CLASSES:
        return None, text
    return m.group(1), text[m.end():]


def from_java(java_class: str, message: str | None) -> SwagError | SwagSetupError | SwagInternalError:
    """The Python exception for a Java exception of class ``java_class`` with ``message``: the one
    mapping every front-end uses. A kind prefix decides (:data:`KIND_CLASSES`; the message loses
    the prefix), then the class (:data:`JAVA_CLASSES`); anything else is a
    :class:`SwagInternalError` ``"<class>: <message>"``."""
    kind, text = java_kind(message)
    if kind is not None:
        return KIND_CLASSES[kind](text)  # type: ignore[return-value]
    cls = JAVA_CLASSES.get(java_class)
    if cls is not None:
        return cls(text or java_class)  # type: ignore[return-value]
    return SwagInternalError(f"{java_class}: {text}" if text else java_class)


def java_causes(e: Any) -> list[tuple[str, str | None]]:
    """``(class name, message)`` of a Java exception object and its causes, outermost first (JPype
    and py4j objects alike)."""
    chain: list[tuple[str, str | None]] = []
    t = e
    while t is not None and len(chain) < 16:
        msg = t.getMessage()
        chain.append((str(t.getClass().getName()), None if msg is None else str(msg)))
        t = t.getCause()
    return chain


def from_java_chain(chain: list[tuple[str, str | None]]) -> SwagError | SwagSetupError | SwagInternalError:
    """:func:`from_java` of an exception and its causes (outermost first, as ``(class, message)``):
    the first with a kind prefix, else the outermost. Engines wrap swag's exception in their own
    (a job failure, a planner exception); the kind is the swag one's."""
    for cls, msg in chain:
        if java_kind(msg)[0] is not None:
            return from_java(cls, msg)
    return from_java(*chain[0]) if chain else SwagInternalError("a Java error without a class")


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
    "InvalidInputError",
    "IncompatibleStateError",
    "UserFunctionError",
    "SwagSetupError",
    "SwagInternalError",
    "from_java",
]

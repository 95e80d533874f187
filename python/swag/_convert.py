"""Conversions between Python values and Java values.

Inputs: ``float`` (and other real numbers, e.g. numpy floats) go to the ``double`` overloads, ``int``
(and other integers, e.g. numpy ints; ``bool`` counts as ``0``/``1``) to the ``long`` overloads,
``str`` and ``None`` to the ``Object`` overloads. Results: boxed numbers become ``float``/``int``,
Java lists become lists, ``io.swag.core.fn.Structured`` results become dicts (sketch results become
dict subclasses that keep their methods, see :mod:`swag.results`), ``null`` becomes ``None``.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import jpype  # type: ignore[import-untyped]

from . import _jvm
from .errors import InvalidOptionError, InvalidValueError, ValueTypeError
from .results import wrap_structured

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EPOCH_NAIVE = datetime(1970, 1, 1)
_MS = timedelta(milliseconds=1)

JDouble = jpype.JDouble
JLong = jpype.JLong


def to_java_value(value: Any, function: str) -> Any:
    """``value`` as an argument that selects exactly one Java ``insert`` overload."""
    t = type(value)
    if t is float:
        return JDouble(value)
    if t is int:
        return _jvm.java_long(value, f"function '{function}' got integer")
    if t is str or value is None:
        return value
    if isinstance(value, numbers.Integral):  # bool, numpy ints, ...
        return _jvm.java_long(int(value), f"function '{function}' got integer")
    if isinstance(value, numbers.Real):  # numpy floats, Fraction, ...
        return JDouble(float(value))
    if isinstance(value, str):
        return str(value)
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    raise ValueTypeError(
        f"function '{function}' cannot take {type(value).__name__} value {text}; "
        "values must be numbers (int, float) or strings"
    )


def to_time_ms(time: Any) -> int:
    """An event time as epoch milliseconds: an ``int`` is taken as is; a ``datetime`` is converted
    (naive datetimes are read as UTC)."""
    if isinstance(time, datetime):
        if time.tzinfo is None:
            return (time - _EPOCH_NAIVE) // _MS
        return (time - _EPOCH) // _MS
    if isinstance(time, numbers.Integral):
        t = int(time)
        if _jvm.LONG_MIN <= t <= _jvm.LONG_MAX:
            return t
        raise InvalidValueError(f"time {t} does not fit in a signed 64-bit integer (Java long)")
    raise ValueTypeError(
        f"time must be an int (epoch milliseconds) or a datetime, got {type(time).__name__} value {time!r}"
    )


def to_java_time(time: Any) -> Any:
    return JLong(to_time_ms(time))


def to_java_options(function: str, options: Mapping[str, Any]) -> Any:
    """Function options as a ``java.util.Map<String, Object>``."""
    m = _jvm.jclass("java.util.HashMap")()
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
            raise InvalidOptionError(
                f"function '{function}' option '{key}' must be a number or a string, got {value!r}"
            )
        if isinstance(value, numbers.Integral):
            v: Any = _jvm.jclass("java.lang.Long")(_jvm.java_long(int(value), f"function '{function}' option '{key}' got"))
        elif isinstance(value, numbers.Real):
            v = _jvm.jclass("java.lang.Double")(float(value))
        else:
            v = str(value)
        m.put(str(key), v)
    return m


@functools.cache
def _classes() -> tuple[Any, ...]:
    j = _jvm.jclass
    return (
        (j("java.lang.Double"), j("java.lang.Float")),
        (j("java.lang.Long"), j("java.lang.Integer"), j("java.lang.Short"), j("java.lang.Byte")),
        j("java.lang.Boolean"),
        j("java.lang.String"),
        j("io.swag.core.fn.Structured"),
        j("java.util.List"),
        j("java.util.Map"),
    )


def from_java(x: Any) -> Any:
    """A Java result as a plain Python value (see the module docstring)."""
    if x is None:
        return None
    t = type(x)
    if t is str or t is float or t is int or t is bool:
        return x
    floats, ints, boolean, string, structured, jlist, jmap = _classes()
    if isinstance(x, floats):
        return float(x)
    if isinstance(x, ints):
        return int(x)
    if isinstance(x, boolean):
        return bool(x)
    if isinstance(x, string):
        return str(x)
    if isinstance(x, structured):
        return wrap_structured(x, {str(k): from_java(v) for k, v in x.toMap().items()})
    if isinstance(x, jlist):
        return [from_java(e) for e in x]
    if isinstance(x, jmap):
        return {from_java(k): from_java(v) for k, v in x.items()}
    if isinstance(x, jpype.JArray):
        return [from_java(e) for e in x]
    return x

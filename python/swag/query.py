"""The query builder: windows and aggregates per key, as the JSON spec of ``docs/query-spec.md``.

>>> import swag
>>> q = (swag.Query(key="start_station", time="start_time", lateness="1h")
...      .window("1h", slide="1min", max_trip=swag.max("duration"), p95=swag.quantile("duration", 0.95))
...      .count_window(100, n=swag.count()))
>>> q.windows[0].name
'1h/1min'

The rules (validation, planning, execution) live once, in Java (``io.swag.core.plan``): Python
builds the canonical JSON (:meth:`Query.to_json`, the same text as Java's ``QuerySpec.toJson()``)
and Java validates it when the query is used (:meth:`Query.validate`, :meth:`Query.explain`,
:func:`swag.run`). Only arguments that cannot even be written as JSON of the right shape (a column
name that is not a string, a duration like ``"5 parsecs"``) are rejected in Python, with messages
in the same style: the field path, then the value.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import _duration, _jvm
from .aggregates import Aggregate
from .errors import InvalidQueryError, query_error

__all__ = ["Query", "Window", "VERSION"]

VERSION = 1
_PY_TYPES: dict[type, str] = {float: "double", int: "long", str: "string", bool: "boolean", datetime: "timestamp"}
_TOP_FIELDS = ("version", "key", "time", "lateness_ms", "order", "emit", "columns", "windows")
_WINDOW_FIELDS = ("name", "kind", "size", "slide", "offset", "aggregates")
_AGG_FIELDS = ("output", "function", "column", "options")


def _column_name(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise query_error(field, value, "expected a column name (a string)")
    return value


def _int(value: Any, field: str) -> int:
    """An integer (integral floats too, as Java reads them)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 9.0e15:
        return int(value)
    raise query_error(field, value, "expected an integer")


def default_window_name(kind: str, size: int, slide: int) -> str:
    """``"<size>/<slide>"``: with units for time windows (``"1h/1min"``, Java's
    ``WindowSpec.defaultName``), plain record counts for count windows (``"100/1"``)."""
    if kind == "count":
        return f"{size}/{slide}"
    return f"{_duration.name(size)}/{_duration.name(slide)}"


def _java_sorted(d: Mapping[str, Any]) -> dict[str, Any]:
    """``d`` sorted by key as Java's ``TreeMap<String, ...>`` sorts (UTF-16 code units)."""
    return {k: d[k] for k in sorted(d, key=lambda k: k.encode("utf-16-be", "surrogatepass"))}


@dataclass(frozen=True)
class Window:
    """One window of a query: ``kind`` ``"time"`` (size/slide/offset in ms) or ``"count"``
    (records), and its aggregates as ``(output name, Aggregate)`` pairs in order."""

    name: str
    kind: str
    size: int
    slide: int
    offset: int
    aggregates: tuple[tuple[str, Aggregate], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "size": self.size,
            "slide": self.slide,
            "offset": self.offset,
            "aggregates": [
                {"output": out, "function": agg.function, "column": agg.column, "options": _java_sorted(agg.options)}
                for out, agg in self.aggregates
            ],
        }


class Query:
    """A sliding-window query: per ``key``, over event time ``time``, one or more windows.

    ``key``: a column name, a list of them, or ``None`` (one global key). ``time``: the event-time
    column, ``None`` for processing time (arrival order). ``lateness``: how long after a window
    fires records are still added to it (a duration: ``"90s"``, ``"1min"``, ``"1h"``, ``"1d"``,
    ``"250ms"``, an int of milliseconds or a :class:`~datetime.timedelta`). ``order``:
    ``"in_order"``, ``"out_of_order"`` or ``"unknown"``. ``emit``: ``"window_end"`` (a row per key
    when a window closes) or ``"per_record"`` (a row per record and window). ``columns``: optional
    column types (``"double"``, ``"long"``, ``"string"``, ``"boolean"``, ``"timestamp"``, or the
    Python types ``float``, ``int``, ``str``, ``bool``, ``datetime``).

    :meth:`window` and :meth:`count_window` add windows to this query and return it (chainable).
    """

    def __init__(
        self,
        key: str | Iterable[str] | None = None,
        time: str | None = None,
        lateness: Any = 0,
        order: str = "unknown",
        emit: str = "window_end",
        columns: Mapping[str, Any] | None = None,
    ) -> None:
        if key is None:
            keys: list[str] = []
        elif isinstance(key, str):
            keys = [key]
        else:
            keys = [_column_name(k, f"key[{i}]") for i, k in enumerate(key)]
        self.key: list[str] = keys
        self.time: str | None = None if time is None else _column_name(time, "time")
        self.lateness_ms: int = _duration.to_ms(lateness, "lateness_ms")
        for field, value in (("order", order), ("emit", emit)):
            if not isinstance(value, str):
                raise query_error(field, value, "expected a string")
        self.order: str = order
        self.emit: str = emit
        self.columns: dict[str, str] = {}
        if columns is not None:
            if not isinstance(columns, Mapping):
                raise query_error("columns", columns, "expected a mapping of column name to type")
            for name, typ in columns.items():
                _column_name(name, "columns")
                self.columns[name] = self._type_name(typ, f"columns.{name}")
        self.windows: list[Window] = []

    @staticmethod
    def _type_name(typ: Any, field: str) -> str:
        if isinstance(typ, str):
            return typ
        if isinstance(typ, type) and typ in _PY_TYPES:
            return _PY_TYPES[typ]
        raise query_error(
            field, typ, "expected a column type: 'double', 'long', 'string', 'boolean', 'timestamp', or float, int, "
            "str, bool, datetime"
        )

    # ---- building ----

    def _aggregates(self, index: int, aggregates: Mapping[str, Any]) -> tuple[tuple[str, Aggregate], ...]:
        out = []
        for output, agg in aggregates.items():
            if not isinstance(agg, Aggregate):
                raise query_error(
                    f"windows[{index}].aggregates.{output}",
                    agg,
                    "expected an aggregate: swag.max(column), swag.count(), swag.quantile(column, rank), ...",
                )
            out.append((output, agg))
        return tuple(out)

    def window(
        self, size: Any, /, slide: Any = None, offset: Any = 0, name: str | None = None, **aggregates: Aggregate
    ) -> Query:
        """Adds a time window of ``size`` sliding by ``slide`` (default ``size``: tumbling), its
        starts shifted by ``offset``; ``name`` defaults to ``"<size>/<slide>"`` (``"1h/1min"``).
        Keyword arguments are the aggregates, named by their output columns:
        ``.window("1h", "1min", top=swag.max("duration"))`` (``size`` is positional-only, so it can
        name an output; ``slide``, ``offset`` and ``name`` cannot). Returns this query."""
        i = len(self.windows)
        size_ms = _duration.to_ms(size, f"windows[{i}].size")
        slide_ms = size_ms if slide is None else _duration.to_ms(slide, f"windows[{i}].slide")
        offset_ms = _duration.to_ms(offset, f"windows[{i}].offset")
        return self._add("time", size_ms, slide_ms, offset_ms, name, aggregates)

    def count_window(self, n: int, /, slide: int = 1, name: str | None = None, **aggregates: Aggregate) -> Query:
        """Adds a count window: the last ``n`` records of each key, emitted every ``slide``
        records; ``name`` defaults to ``"last<n>"`` (``"last<n>/<slide>"``). Returns this query."""
        i = len(self.windows)
        return self._add("count", _int(n, f"windows[{i}].size"), _int(slide, f"windows[{i}].slide"), 0, name, aggregates)

    def _add(self, kind: str, size: int, slide: int, offset: int, name: Any, aggregates: Mapping[str, Any]) -> Query:
        i = len(self.windows)
        if name is None:
            name = default_window_name(kind, size, slide)
        elif not isinstance(name, str):
            raise query_error(f"windows[{i}].name", name, "expected a string")
        self.windows.append(Window(name, kind, size, slide, offset, self._aggregates(i, aggregates)))
        return self

    # ---- JSON ----

    def to_dict(self) -> dict[str, Any]:
        """The spec as a dict in canonical order: fields in the order of ``docs/query-spec.md``,
        ``columns`` and ``options`` sorted by name."""
        return {
            "version": VERSION,
            "key": list(self.key),
            "time": self.time,
            "lateness_ms": self.lateness_ms,
            "order": self.order,
            "emit": self.emit,
            "columns": _java_sorted(self.columns),
            "windows": [w.to_dict() for w in self.windows],
        }

    def to_json(self) -> str:
        """The canonical JSON spec, the same text as Java's ``QuerySpec.toJson()``: compact (no
        whitespace), ASCII only, fields in the documented order, ``columns`` and ``options``
        sorted by name, defaults filled in."""
        try:
            return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=True, allow_nan=False)
        except ValueError as e:  # NaN or infinite option values
            raise InvalidQueryError(f"options: {e}") from None  # NaN/infinity: unreachable via Aggregate

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> Query:
        """The query of a JSON spec (a string, or the parsed dict); missing optional fields take
        their defaults. The shape is checked here, the rules by Java when the query is used."""
        if isinstance(text, Mapping):
            d: Any = text
        else:
            try:
                d = json.loads(text)
            except json.JSONDecodeError as e:
                raise InvalidQueryError(f"query spec: invalid JSON: {e}") from None
        if not isinstance(d, Mapping):
            raise query_error("query spec", d, "expected a JSON object")
        _no_unknown(d, _TOP_FIELDS, "")
        version = d.get("version", VERSION)
        if version != VERSION or isinstance(version, bool):
            raise query_error("version", version, f"only version {VERSION} is supported")
        key = d.get("key") or []
        if isinstance(key, str):
            key = [key]
        if not isinstance(key, list):
            raise query_error("key", key, "expected a list of column names")
        q = cls(
            key=key,
            time=d.get("time"),
            lateness=_int(0 if d.get("lateness_ms") is None else d["lateness_ms"], "lateness_ms"),
            order=d.get("order") or "unknown",
            emit=d.get("emit") or "window_end",
            columns=d.get("columns") or {},
        )
        windows = d.get("windows") or []
        if not isinstance(windows, list):
            raise query_error("windows", windows, "expected a list of windows")
        for i, w in enumerate(windows):
            q.windows.append(_window_from_dict(w, i))
        return q

    # ---- Java: validation, plan ----

    def _java_spec(self) -> Any:
        """The Java ``io.swag.core.plan.QuerySpec`` (validated by Java)."""
        spec_class = _jvm.jclass("io.swag.core.plan.QuerySpec")
        try:
            return spec_class.fromJson(self.to_json())
        except _jvm.JException as e:
            raise _jvm.translate(e) from None

    def _java_plan(self) -> Any:
        planner = _jvm.jclass("io.swag.core.plan.Planner")
        spec = self._java_spec()
        try:
            return planner.plan(spec)
        except _jvm.JException as e:
            raise _jvm.translate(e) from None

    def validate(self) -> Query:
        """Has Java validate the spec: :class:`~swag.InvalidQueryError` (message: field path and
        value) if it is not valid. Returns this query."""
        self._java_spec()
        return self

    def canonical_json(self) -> str:
        """Java's canonical JSON of this spec (``QuerySpec.fromJson(to_json()).toJson()``)."""
        return str(self._java_spec().toJson())

    def explain(self) -> str:
        """The plan Java chooses (algorithm, slices, shared windows) and why, as text."""
        return str(self._java_plan().explain())

    def plan_json(self) -> str:
        """The plan as JSON (Java's ``Plan.toJson()``)."""
        return str(self._java_plan().toJson())

    # ---- misc ----

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Query) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"Query.from_json({self.to_json()!r})"


def _no_unknown(d: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
    for k in d:
        if k not in known:
            where = f"{path}.{k}" if path else str(k)
            raise query_error(where, d[k], f"unknown field; known fields: {', '.join(known)}")


def _window_from_dict(w: Any, i: int) -> Window:
    path = f"windows[{i}]"
    if not isinstance(w, Mapping):
        raise query_error(path, w, "expected a window object")
    _no_unknown(w, _WINDOW_FIELDS, path)
    kind = w.get("kind", "time")
    if not isinstance(kind, str):
        raise query_error(f"{path}.kind", kind, "expected a string")
    size = _int(w.get("size"), f"{path}.size")
    slide = _int(w.get("slide", size), f"{path}.slide")  # as in Java: a missing slide is the size, also for count windows
    offset = _int(w.get("offset", 0), f"{path}.offset")
    name = w.get("name")
    if name is None:
        name = default_window_name(kind, size, slide)
    elif not isinstance(name, str):
        raise query_error(f"{path}.name", name, "expected a string")
    aggs = w.get("aggregates", [])
    if not isinstance(aggs, list):
        raise query_error(f"{path}.aggregates", aggs, "expected a list of aggregates")
    out = []
    for j, a in enumerate(aggs):
        apath = f"{path}.aggregates[{j}]"
        if not isinstance(a, Mapping):
            raise query_error(apath, a, "expected an aggregate object")
        _no_unknown(a, _AGG_FIELDS, apath)
        output = a.get("output")
        if not isinstance(output, str):
            raise query_error(f"{apath}.output", output, "expected a string")
        function, column, options = a.get("function"), a.get("column"), a.get("options") or {}
        if not isinstance(function, str):
            raise query_error(f"{apath}.function", function, "expected a function name")
        if column is not None and not isinstance(column, str):
            raise query_error(f"{apath}.column", column, "expected a column name or null")
        if not isinstance(options, Mapping):
            raise query_error(f"{apath}.options", options, "expected an object")
        out.append((output, Aggregate(function, column, dict(options))))
    return Window(name, kind, size, slide, offset, tuple(out))

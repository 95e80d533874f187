"""Running a :class:`swag.Query` without an engine, over an iterable of records (``swag.run``).

>>> import swag
>>> q = swag.Query(key="k", time="t").window(1000, s=swag.sum("v"))
>>> swag.run(q, [{"k": "a", "t": 5, "v": 1.0}, {"k": "a", "t": 7, "v": 2.0}]).rows
[{'k': 'a', 'window': '1s/1s', 'window_start': 0, 'window_end': 1000, 's': 3.0}]

Records are processed in arrival order by Java's ``io.swag.core.plan.LocalExecutor`` (the same
executor semantics as on the engines, see ``docs/query-spec.md``), with a bounded-out-of-orderness
watermark: after each record, the largest event time seen so far minus ``watermark_delay``. At the
end every window is flushed.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import jpype  # type: ignore[import-untyped]

from . import _duration, _jvm
from ._convert import from_java, to_time_ms
from ._jvm import LONG_MAX, LONG_MIN
from .errors import InvalidValueError, SwagError
from .query import Query

__all__ = ["run", "RunResult"]

_DRAIN_EVERY = 4096  # records between takeRows() calls: keeps the Java-side output buffer small
_ARRIVAL = "\u0000swag.arrival"  # an extra column of the fast path's rows: the record's arrival index


@dataclass
class RunResult:
    """What :func:`swag.run` returns.

    ``rows``: the output rows in emission order, dicts as the Java rows (key columns, ``window``,
    ``window_start``, ``window_end``, the aggregates) with plain Python values. ``late``: the
    records too late for every window they belong to, as given (dicts; rows of a DataFrame become
    dicts). ``late_count``: how many. ``rejected``: the records Java could not use (null key or
    time, bad values), each ``{"record": <the record as given>, "reason": <why>}``.
    """

    rows: list[dict[str, Any]] = field(default_factory=list)
    late: list[Any] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    late_count: int = 0

    def to_pandas(self) -> Any:
        """The rows as a :class:`pandas.DataFrame` (needs pandas)."""
        try:
            import pandas as pd  # type: ignore[import-untyped]
        except ImportError:
            raise ImportError("RunResult.to_pandas() needs pandas: pip install pandas") from None
        return pd.DataFrame(self.rows)


def _columns(q: Query) -> list[str]:
    """The input columns the executor reads, in the fixed order of the fast path's rows."""
    out: list[str] = []
    for c in [*q.key, q.time, *(a.column for w in q.windows for _, a in w.aggregates)]:
        if c is not None and c not in out:
            out.append(c)
    return out


class _Unconvertible(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _value(v: Any, column: str) -> Any:
    """A record value as JPype passes it into an ``Object[]`` (int -> Long, float -> Double, ...)."""
    t = type(v)
    if v is None or t is float or t is str or t is bool:
        return v
    if t is int:
        if LONG_MIN <= v <= LONG_MAX:
            return v
        raise _Unconvertible(f"column '{column}': integer {v} does not fit in a Java long")
    if isinstance(v, datetime):
        return to_time_ms(v)
    if isinstance(v, numbers.Integral):
        return _value(int(v), column)
    if isinstance(v, numbers.Real):
        return float(v)
    if isinstance(v, str):
        return str(v)
    text = repr(v)
    if len(text) > 60:
        text = text[:57] + "..."
    raise _Unconvertible(f"column '{column}': {type(v).__name__} value {text} is not a number, string or time")


def _time(v: Any, column: str) -> Any:
    """An event time as epoch ms (an int), or None when missing. Python parses every form (so the
    watermark sees the same time as Java): ints, integral floats, datetimes (naive = UTC), strings
    holding an integer or an ISO-8601 date-time."""
    t = type(v)
    if v is None or t is int:
        return v
    if t is float and v != v:  # NaN: a missing value (pandas)
        return None
    if isinstance(v, datetime):
        return to_time_ms(v)
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return _value(int(v), column)
    if isinstance(v, numbers.Real) and not isinstance(v, bool) and float(v).is_integer():
        return _value(int(float(v)), column)
    if isinstance(v, str):
        try:
            return _value(int(v.strip()), column)
        except ValueError:
            pass
        try:
            return to_time_ms(datetime.fromisoformat(v.strip()))
        except ValueError:
            pass
    text = f'"{v}"' if isinstance(v, str) else f"{type(v).__name__} {v!r}"  # as Java's RowContract.badTime
    if len(text) > 60:
        text = text[:57] + "..."
    raise _Unconvertible(f"time column '{column}': unparsable time {text} (epoch ms, a timestamp or an ISO-8601 string)")


def _rows_from_java(rows: Any) -> list[dict[str, Any]]:
    """Java rows (``List<Map<String, Object>>``) as dicts. Fast path: one call to Java's canonical
    JSON writer (``io.swag.core.plan.Json``) for the whole batch and ``json.loads``, about 20x
    faster than walking the maps through JPype; rows JSON cannot hold (NaN, sketch results) are
    converted one by one with :func:`swag._convert.from_java`."""
    if rows.isEmpty():
        return []
    write = _jvm.jclass("io.swag.core.plan.Json").write
    try:
        return json.loads(str(write(rows)))  # type: ignore[no-any-return]
    except _jvm.JException:
        pass
    out = []
    for r in rows:
        try:
            out.append(json.loads(str(write(r))))
        except _jvm.JException:
            out.append(from_java(r))
    return out


def _is_dataframe(records: Any) -> bool:
    return type(records).__module__.split(".")[0] == "pandas" and hasattr(records, "columns")


def _dataframe_rows(df: Any, cols: Sequence[str]) -> Iterator[list[Any]]:
    """The DataFrame's needed columns as lists of Python values, zipped into rows (datetime
    columns as epoch ms; missing values as None)."""
    import pandas as pd

    lists = []
    for c in cols:
        s = df[c]
        if pd.api.types.is_datetime64_any_dtype(s.dtype):
            if getattr(s.dt, "tz", None) is not None:
                s = s.dt.tz_convert("UTC").dt.tz_localize(None)
            values = (s.to_numpy(dtype="datetime64[ns]").astype("int64") // 1_000_000).tolist()
        else:
            values = s.tolist()
        missing_mask = s.isna()
        if missing_mask.any():
            values = [None if m else v for v, m in zip(values, missing_mask.tolist(), strict=True)]
        lists.append(values)
    return (list(r) for r in zip(*lists, strict=True))


_FAILED = "record rejected (on_error=fail): "  # OnError's message, Java and Python alike


def run(
    query: Query | str,
    records: Iterable[Any],
    watermark_delay: Any = 0,
    progress: bool = False,
    on_error: str = "reject",
) -> RunResult:
    """Runs ``query`` (a :class:`~swag.Query` or its JSON) over ``records`` (dicts, or a pandas
    DataFrame) in arrival order with Java's ``LocalExecutor``. After each record the watermark
    advances to the largest event time seen minus ``watermark_delay`` (a duration, default 0); at
    the end every window is flushed.

    Event times are epoch milliseconds (ints), datetimes (naive ones are read as UTC) or ISO-8601
    strings. ``progress=True`` shows a tqdm progress bar. The query is validated by Java first
    (:class:`~swag.InvalidQueryError`). See :class:`RunResult` for what comes back.

    ``on_error``: ``"reject"`` (default) returns rejected records with their reasons in
    ``RunResult.rejected``; ``"fail"`` raises :class:`~swag.InvalidValueError` at the first one.
    """
    q = query if isinstance(query, Query) else Query.from_json(query)
    delay = _duration.to_ms(watermark_delay, "watermark_delay")
    if delay < 0:
        raise SwagError(f"watermark_delay: {delay}; must be >= 0")
    plan = q._java_plan()
    cols = _columns(q)
    order = _jvm.jclass("java.util.ArrayList")()
    for c in [*cols, _ARRIVAL]:  # the arrival index rides along: late/rejected records map back to the originals
        order.add(c)
    try:
        ex = _jvm.jclass("io.swag.core.plan.LocalExecutor")(plan, order)
        ex.onError(_jvm.jclass("io.swag.core.plan.OnError").parse("on_error", on_error))
    except _jvm.JException as e:
        raise _jvm.translate(e) from None
    fail = on_error.strip().lower() == "fail"

    frame = _is_dataframe(records)
    if frame:  # the engines' rule and message for an input without a column the query reads
        names = _jvm.jclass("java.util.ArrayList")()
        for c in records.columns:  # type: ignore[attr-defined]
            names.add(str(c))
        try:
            _jvm.jclass("io.swag.core.plan.RowContract").requireColumns(plan.spec(), names)
        except _jvm.JException as e:
            raise _jvm.translate(e) from None
    source: Iterable[Any] = _dataframe_rows(records, cols) if frame else records
    if progress:
        from tqdm.auto import tqdm  # type: ignore[import-untyped]

        total = len(records) if hasattr(records, "__len__") else None  # type: ignore[arg-type]
        source = tqdm(source, total=total, unit="rec", desc="swag.run")

    result = RunResult()
    out_rows = result.rows
    t_index = cols.index(q.time) if q.time is not None else -1
    process, advance = ex.process, ex.advanceWatermark
    obj_array = jpype.JArray(jpype.JObject)
    watermark = top = LONG_MIN
    chunk: list[Any] = []  # the records since the last drain (None for DataFrame rows)
    chunk_start = 0
    py_rejected: list[tuple[int, str]] = []  # records Python could not even pass to Java

    def original(i: int) -> Any:
        if frame:
            return dict(records.iloc[i].to_dict())  # type: ignore[attr-defined]
        return chunk[i - chunk_start]

    def drain() -> None:
        out_rows.extend(_rows_from_java(ex.takeRows()))
        for r in ex.takeLate():
            result.late.append(original(int(r.get(_ARRIVAL))))
        rejected = [(int(r.get("record").get(_ARRIVAL)), str(r.get("reason"))) for r in ex.takeRejected()]
        for i, reason in sorted(rejected + py_rejected):
            result.rejected.append({"record": original(i), "reason": reason})
        py_rejected.clear()

    for i, rec in enumerate(source):
        chunk.append(None if frame else rec)
        try:
            if frame:
                values = rec
                for j, v in enumerate(values):
                    if j == t_index:
                        values[j] = _time(v, cols[j])
                    elif type(v) is not float and type(v) is not int and type(v) is not str:
                        values[j] = _value(v, cols[j])
            else:
                get = rec.get
                values = [_time(get(c), c) if k == t_index else _value(get(c), c) for k, c in enumerate(cols)]
        except _Unconvertible as e:
            if fail:
                raise InvalidValueError(f"{_FAILED}{e.reason}; record: {rec!r}") from None
            py_rejected.append((i, e.reason))
            continue
        except AttributeError:
            raise SwagError(
                f"records[{i}]: {type(rec).__name__} {rec!r}; expected a dict (or a DataFrame of records)"
            ) from None
        values.append(i)
        try:
            process(obj_array(values))
        except _jvm.JException as e:
            err = _jvm.translate(e)
            if fail and isinstance(err, InvalidValueError) and str(err).startswith(_FAILED):
                # the record as the caller gave it (Java's carries the arrival index)
                reason = str(err)[len(_FAILED):].rsplit("; record: ", 1)[0]
                raise InvalidValueError(f"{_FAILED}{reason}; record: {original(i)!r}") from None
            raise err from None
        if t_index >= 0:
            t = values[t_index]
            if t is not None and t > top:
                top = t
                if top - delay > watermark:
                    watermark = top - delay
                    advance(watermark)
        if len(chunk) == _DRAIN_EVERY:
            drain()
            chunk.clear()
            chunk_start = i + 1
    ex.finish()
    drain()
    result.late_count = int(ex.lateCount())
    return result

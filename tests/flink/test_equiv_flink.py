"""Cross-engine equivalence, Flink: every case of tests/equivalence/corpus.py through PyFlink's
``swag.flink.aggregate`` (DataStream), ``swag.flink.aggregate_table`` (Table API) and the SQL process
table function ``swag_window``, against the local executor row for row, value for value and type for
type (the corpus's module docstring: determinism, row shapes; its KNOWN_GAPS: what differs today,
asserted exactly).

All three read one table per case: the records (``k``, ``t_ms`` epoch ms, ``v``), the event time
``t = TO_TIMESTAMP_LTZ(t_ms, 3)`` and a declared watermark ``t - delay``. With
``pipeline.auto-watermark-interval`` 0 the planner's watermark assigner emits the watermark after
every record that raises it (no periodic timer), so each record meets the watermark ``largest time
so far - delay`` as in the local executor (``swag.run(..., watermark_delay=delay)``), whatever the
timing; the end of the bounded input fires every window. ``aggregate`` gets the table as a DataStream
(``swag.flink.to_data_stream``: the same watermarks). Rows are compared as multisets per window: every
path emits a row when a window fires and an updated row per record within the lateness, as the local
executor does, but rows firing at one watermark may come out in another order.

The paths of a case run as one Flink job (their outputs collected with ``collectAsync``, then one
``execute``); a path whose known gap is an error runs alone.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from typing import Any

import pytest

from engine_guard import require_flink_jar, require_modules

require_modules("SWAG_REQUIRE_FLINK", "`make venv-flink` installs apache-flink==2.3.0 into .venv-flink (Python 3.11)",
                "pyflink")

from pyflink.common import Row, Types, WatermarkStrategy  # noqa: E402
from pyflink.common.watermark_strategy import TimestampAssigner  # noqa: E402
from pyflink.datastream import StreamExecutionEnvironment  # noqa: E402
from pyflink.table import Schema, StreamTableEnvironment  # noqa: E402

import swag  # noqa: E402
import swag.flink  # noqa: E402
from equivalence.corpus import (  # noqa: E402
    BY_ID,
    CASES,
    DOUBLE,
    KNOWN_GAPS,
    LIST,
    LONG,
    OBJECT,
    STRING,
    TIME,
    check_types,
    compare_rows,
    drop_value_gaps,
    java_text,
    local,
    output_types,
    print_timings,
    trim,
)

pytestmark = pytest.mark.flink

TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def _print_timings():
    """Prints each case's wall time after the module (shown with ``pytest -s``)."""
    yield
    print_timings("flink", TIMINGS)


_TYPES = {"k": Types.STRING(), "k2": Types.LONG(), "t": Types.LONG(), "v": Types.DOUBLE()}
_SQL_TYPES = {"k": "STRING", "k2": "BIGINT", "t": "BIGINT", "v": "DOUBLE"}


@pytest.fixture(scope="module", autouse=True)
def _jar() -> None:
    require_flink_jar()


def _new_env() -> StreamExecutionEnvironment:
    """A fresh environment per job: a job that failed to build leaves its transformations behind."""
    e = StreamExecutionEnvironment.get_execution_environment()
    e.set_parallelism(1)
    e.set_python_executable(sys.executable)
    e.get_config().set_auto_watermark_interval(0)
    return e


def _names(case) -> list[str]:
    return ["t_ms" if c == "t" else c for c in case.columns]


def _table(env, t_env, case):
    names = _names(case)
    rows = [Row(*[r.get(c) for c in case.columns]) for r in case.records]
    ds = env.from_collection(rows, type_info=Types.ROW_NAMED(names, [_TYPES[c] for c in case.columns]))
    b = Schema.new_builder()
    for n, c in zip(names, case.columns):
        b = b.column(n, _SQL_TYPES[c])
    b = b.column_by_expression("t", "TO_TIMESTAMP_LTZ(t_ms, 3)")
    b = b.watermark("t", f"t - INTERVAL '{case.delay / 1000:.3f}' SECOND")
    return t_env.from_data_stream(ds, b.build())


def _named(ds, case):
    """The table's DataStream typed as named Rows (``Types.ROW_NAMED``, as ``aggregate`` requires):
    the conversion's output type is set before anything reads it (its Rows are the same objects;
    ``t`` is an ``Instant``)."""
    from pyflink.datastream import DataStream

    names = _names(case) + ["t"]
    info = Types.ROW_NAMED(names, [_TYPES[c] for c in case.columns] + [Types.INSTANT()])
    ds._j_data_stream.getTransformation().setOutputType(info.get_java_type_info())
    return DataStream(ds._j_data_stream)


class _Ts(TimestampAssigner):
    """The record's ``t`` (0 for a null time: the operator rejects the record by its time column)."""

    def extract_timestamp(self, value, record_timestamp):  # noqa: ANN001, ANN201
        return value[1] if value[1] is not None else 0


def _epoch_stream(env, case):
    """The records as a DataStream of named Rows with ``t`` in epoch ms, for a case with null times
    (which the table's rowtime cannot hold): watermarks from a WatermarkStrategy, which with
    ``pipeline.auto-watermark-interval`` 0 emits none until the end of the input (every window fires
    then; no record is late, as in the local run, whose disorder stays within the delay)."""
    rows = [Row(*[r.get(c) for c in case.columns]) for r in case.records]
    ds = env.from_collection(rows, type_info=Types.ROW_NAMED(list(case.columns), [_TYPES[c] for c in case.columns]))
    return ds.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(_Ts()))


def _py(v: Any) -> Any:
    """A Java value from a collected row as a Python value (Instants as epoch ms)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    cls = str(v.getClass().getName())
    if cls == "java.time.Instant":
        return int(v.toEpochMilli())
    if cls == "java.time.LocalDateTime":
        return int(v.toInstant(v.getClass().forName("java.time.ZoneOffset").getField("UTC").get(None)).toEpochMilli())
    if cls == "org.apache.flink.types.Row":
        return [_py(v.getField(i)) for i in range(v.getArity())]
    if cls.startswith("java.util.") and "Map" in cls:
        return {str(k): _py(v.get(k)) for k in v.keySet()}
    return str(v.toString())


class _Collector:
    """Java ``collectAsync`` iterators of one environment, drained after one ``execute``."""

    def __init__(self) -> None:
        self.its: dict[str, Any] = {}
        self.names: dict[str, list[str]] = {}

    def add(self, name: str, j_stream, fields: list[str]) -> None:
        self.its[name] = j_stream.collectAsync()
        self.names[name] = fields

    def run(self, env) -> dict[str, list[dict]]:
        env.execute("swag-equivalence")
        out = {}
        for name, it in self.its.items():
            rows = []
            while it.hasNext():
                r = it.next()
                rows.append(dict(zip(self.names[name], (_py(r.getField(i)) for i in range(r.getArity())))))
            it.close()
            out[name] = rows
        return out


def _table_types(table) -> dict[str, str]:
    """Column -> its SQL type as Flink prints it (``BIGINT``, ``STRING``, ``DOUBLE``;
    nullability left out)."""
    cols = table._j_table.getResolvedSchema().getColumns()
    return {str(c.getName()): re.sub(r" NOT NULL| \*ROWTIME\*", "", str(c.getDataType().toString())) for c in cols}


def _stream_type_names(j_stream) -> dict[str, str]:
    rt = j_stream.getType()
    return {str(n): str(rt.getTypeAt(i).toString()) for i, n in enumerate(rt.getFieldNames())}


def _contract_of(flavour: str):
    """Engine type name -> contract type, per path (DataStream TypeInformation or SQL type names)."""
    if flavour == "stream":
        names = {"Long": LONG, "Double": DOUBLE, "String": STRING}
    else:
        names = {"BIGINT": LONG, "DOUBLE": DOUBLE, "STRING": STRING}

    def contract_of(want: str, got: str | None) -> str | None:
        c = names.get(got or "")
        if want == TIME and c == LONG:  # window bounds, argmin, argmax: epoch ms on Flink
            return TIME
        if want in (OBJECT, LIST) and c == STRING:  # structures and lists as JSON text (docs/query-spec.md)
            return want
        return c

    return contract_of


def _null_key_gap(case, engine: str, rows: list[dict]) -> list[dict]:
    """For a gap with ``null_key_rows``: asserts the engine's rows of the null key are the windows of
    the null-key records (the local executor over them with a stand-in key) and returns the other rows."""
    gap = KNOWN_GAPS.get((engine, case.id))
    if not (gap and gap.null_key_rows):
        return rows
    q = case.query()
    stand_in = "\u0000null"
    recs = [{**r, "k": stand_in} for r in case.records if r["k"] is None]
    want = [{**r, "k": None} for r in swag.run(q, recs, watermark_delay=case.delay).rows]
    nulls = [r for r in rows if r["k"] is None]
    for r in want:
        for c, t in gap.types.items():
            if t == "DOUBLE" and c in r:
                r[c] = float(r[c])
    assert nulls and compare_rows(q, nulls, want, engine, multiset=True) == [], (
        f"{engine} {case.id}: the null key's rows are not the known gap's (gap closed? update KNOWN_GAPS)")
    return [r for r in rows if r["k"] is not None]


def _compare(case, engine: str, rows: list[dict], gap_types: dict[str, str]) -> None:
    q = case.query()
    want = [dict(r) for r in local(case).rows]
    rows = _null_key_gap(case, engine, rows)
    types = output_types(q)
    rows = trim(q, rows, engine)
    texts = {c for c, t in types.items() if t in (OBJECT, LIST) and c not in gap_types}
    for r in rows:
        for c in list(r):
            if c in gap_types and isinstance(r[c], str):
                r[c] = java_text(r[c])
            elif c in texts and isinstance(r[c], str):
                r[c] = json.loads(r[c])
    drop_value_gaps(case.id, engine, rows, want)
    problems = compare_rows(q, rows, want, engine, multiset=True)
    assert problems == [], f"{engine} {case.id}: {len(problems)} differences, first: " + "\n".join(problems[:5])


def nan(v: Any) -> Any:
    """NaN as the string 'NaN' (NaN != NaN)."""
    return "NaN" if isinstance(v, float) and math.isnan(v) else v


def _check_side(case, engine: str, late: list[tuple], rejected: list[tuple]) -> None:
    """Late records as (k, t, v) and rejected ones as (reason, k, t, v) against the local executor's."""
    ref = local(case)
    want_late = sorted((r["k"], r["t"], r["v"]) for r in ref.late)
    want_rej = sorted((d["reason"], d["record"]["k"], d["record"]["t"], nan(d["record"]["v"])) for d in ref.rejected)
    assert sorted(late) == want_late, f"{engine} {case.id}: late records"
    assert sorted((r, k, t, nan(v)) for r, k, t, v in rejected) == want_rej, f"{engine} {case.id}: rejected"


def _gap_error(engine: str, case_id: str, build) -> Any:
    """``build()``, or for a known gap with an error, that error (then None). The error's text is
    matched with its Java causes (a failed job's reason is a cause of the JobExecutionException)."""
    gap = KNOWN_GAPS.get((engine, case_id))
    if not (gap and gap.error):
        return build()
    try:
        build()
    except AssertionError:
        raise
    except Exception as e:  # noqa: BLE001 - Py4J or swag errors
        assert re.search(gap.error, str(e)), f"{engine} {case_id}: error {e!s:.500} does not match the gap {gap.error!r}"
        return None
    raise AssertionError(f"{engine} {case_id}: built without the error of the known gap ({gap.reason}): remove it "
                         "from KNOWN_GAPS")


def _sql(case) -> str:
    q = case.query()
    part = f" PARTITION BY ({', '.join(q.key)})" if q.key else ""
    on_time = ", on_time => DESCRIPTOR(t)" if q.time else ""
    return f"SELECT * FROM swag_window(input => TABLE src{part}{on_time}, query => '{q.to_json()}')"


PATHS = ("flink_datastream", "flink_table", "flink_sql")


@pytest.mark.parametrize("case_id", [c.id for c in CASES])
def test_flink_paths_equal_the_local_executor(case_id: str) -> None:
    """The paths of a case without a known error run as one job; a path whose known gap is an error
    is built and run alone, and that error asserted."""
    case = BY_ID[case_id]
    started = time.monotonic()
    try:
        env = _new_env()
        t_env = _t_env(env)
        col = _Collector()
        checks = []
        for engine in PATHS:
            gap = KNOWN_GAPS.get((engine, case_id))
            if gap and gap.error:
                _gap_error(engine, case_id, lambda engine=engine: _run_alone(engine, case))
            else:
                checks.append(_build(env, t_env, col, engine, case))
        got = col.run(env) if checks else {}
        for check in checks:
            check(got)
    finally:
        TIMINGS[case_id] = time.monotonic() - started


def _t_env(env):
    t_env = StreamTableEnvironment.create(env)
    t_env.get_config().set("pipeline.auto-watermark-interval", "0 ms")
    return t_env


def _run_alone(engine: str, case) -> None:
    env = _new_env()
    col = _Collector()
    check = _build(env, _t_env(env), col, engine, case)
    check(col.run(env))


def _build(env, t_env, col, engine: str, case):
    """Adds ``engine``'s pipeline for ``case`` to ``env``; returns the check of its collected outputs
    (rows, late and rejected records against the local executor's)."""
    q = case.query()
    case_id = case.id
    path = engine
    if engine == "flink_datastream" and any(r["t"] is None for r in case.records):
        path = "flink_datastream_epoch"
    inputs = _names(case) + ["t"]
    p = engine + "."
    sql_types: dict[str, str] = {}
    gap_types: dict[str, str] = {}
    if path == "flink_datastream":
        ds = _named(swag.flink.to_data_stream(t_env, _table(env, t_env, case)), case)
        out, late, rejected = swag.flink.aggregate(ds, q, late=True, rejected=True)
        types = _stream_type_names(out._j_data_stream)
        gap_types = check_types(case_id, engine, q, types, _contract_of("stream"))
        col.add(p + "rows", out._j_data_stream, list(types))
        col.add(p + "late", late._j_data_stream, inputs)
        col.add(p + "rejected", rejected._j_data_stream, ["reason", "record"])
    elif path == "flink_datastream_epoch":
        out, rejected = swag.flink.aggregate(_epoch_stream(env, case), q, rejected=True)
        types = _stream_type_names(out._j_data_stream)
        gap_types = check_types(case_id, engine, q, types, _contract_of("stream"))
        col.add(p + "rows", out._j_data_stream, list(types))
        col.add(p + "rejected", rejected._j_data_stream, ["reason", "record"])
    elif path == "flink_table":
        res, late, rejected = swag.flink.aggregate_table(t_env, _table(env, t_env, case), q, late=True, rejected=True)
        types = _table_types(res)
        gap_types = check_types(case_id, engine, q, types, _contract_of("table"))
        for name, table in (("rows", res), ("late", late), ("rejected", rejected)):
            col.add(p + name, swag.flink.to_data_stream(t_env, table)._j_data_stream, list(_table_types(table)))
    else:
        swag.flink.register_functions(t_env)
        t_env.create_temporary_view("src", _table(env, t_env, case))
        res = t_env.sql_query(_sql(case))
        sql_types = _table_types(res)
        col.add(p + "rows", swag.flink.to_data_stream(t_env, res)._j_data_stream, list(sql_types))

    def check(got: dict[str, list[dict]]) -> None:
        if path == "flink_sql":
            sql_gap_types = check_types(case_id, engine, q, sql_types, _contract_of("table"))
            rows, late_rows, rejected_rows = [], [], []
            for r in got[p + "rows"]:
                if r["window"] == "late":
                    late_rows.append(r)
                elif r["window"] == "rejected":
                    rejected_rows.append(r)
                else:
                    assert r.pop("reason") is None and r.pop("record") is None
                    r.pop("rowtime", None)
                    rows.append(r)
            _compare(case, engine, rows, sql_gap_types)
            _check_sql_side(case, late_rows, rejected_rows)
            return
        rows = got[p + "rows"]
        for r in rows:
            r.pop("rowtime", None)
        _compare(case, engine, rows, gap_types)
        late_recs = [(r["k"], r["t_ms"], r["v"]) for r in got.get(p + "late", [])]
        if path == "flink_table":
            rejected_recs = [(r["reason"], r["k"], r["t_ms"], r["v"]) for r in got[p + "rejected"]]
        else:  # the DataStream paths: (reason, record)
            rejected_recs = [(r["reason"], r["record"][0], r["record"][1], r["record"][2]) for r in got[p + "rejected"]]
        _check_side(case, engine, late_recs, rejected_recs)

    return check


def _check_sql_side(case, late: list[dict], rejected: list[dict]) -> None:
    """swag_window's late and rejected rows: the record's key columns, its time, and the record itself
    (``record``: the input row as JSON-like text, the time as ``t_ms``)."""
    ref = local(case)
    q = case.query()

    def rec(r: dict) -> tuple:
        d = json.loads(r["record"])
        return d.get("k"), d["t_ms"], nan(d["v"])

    assert sorted((r[q.key[0]] if q.key else None, r["window_start"]) for r in late) == sorted(
        (d.get(q.key[0]) if q.key else None, d["t"]) for d in ref.late), f"flink_sql {case.id}: late"
    assert sorted(rec(r) for r in late) == sorted((d.get("k"), d["t"], nan(d["v"])) for d in ref.late), (
        f"flink_sql {case.id}: late records")
    gap = KNOWN_GAPS.get(("flink_sql", case.id))
    ref_rejected = [d for d in ref.rejected if not (gap and gap.null_key_rows and d["record"]["k"] is None)]
    assert sorted((r["reason"], r["window_start"]) for r in rejected) == sorted(
        (d["reason"], d["record"]["t"]) for d in ref_rejected), f"flink_sql {case.id}: rejected"
    assert sorted((r["reason"],) + rec(r) for r in rejected) == sorted(
        (d["reason"], d["record"].get("k"), d["record"]["t"], nan(d["record"]["v"])) for d in ref_rejected), (
        f"flink_sql {case.id}: rejected records")

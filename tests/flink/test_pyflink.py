"""PyFlink front-end (swag.flink) on a local mini cluster; needs apache-flink (``.venv-flink``) and
the swag-flink jar (``make build``). Skipped where PyFlink is not installed, except under
``SWAG_REQUIRE_FLINK=1`` (set by ``make test``), where a missing PyFlink or jar fails the run."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from engine_guard import require_flink_jar, require_modules

require_modules("SWAG_REQUIRE_FLINK", "`make venv-flink` installs apache-flink==2.3.0 into .venv-flink (Python 3.11)",
                "pyflink")

from pyflink.common import Row, Types, WatermarkStrategy  # noqa: E402
from pyflink.common.watermark_strategy import TimestampAssigner  # noqa: E402
from pyflink.datastream import StreamExecutionEnvironment  # noqa: E402
from pyflink.table import Schema, StreamTableEnvironment  # noqa: E402
from pyflink.table.expressions import col  # noqa: E402

import swag  # noqa: E402
import swag.flink  # noqa: E402

pytestmark = pytest.mark.flink

NAMES = ["k", "ts", "v"]
TYPES = [Types.STRING(), Types.LONG(), Types.DOUBLE()]


def _rows(n: int = 400, seed: int = 7) -> list[tuple[str, int, float]]:
    r = random.Random(seed)
    t = 0
    out = []
    for _ in range(n):
        t += r.randrange(0, 40)
        out.append((f"k{r.randrange(3)}", t, float(r.randrange(100))))
    return out


class _Ts(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):  # noqa: ANN001, ANN201
        return value[1]


@pytest.fixture(scope="module")
def env() -> StreamExecutionEnvironment:
    require_flink_jar()
    e = StreamExecutionEnvironment.get_execution_environment()
    e.set_parallelism(1)
    e.set_python_executable(sys.executable)  # the Python workers need this venv's pyflink
    return e


def _query() -> swag.Query:
    return swag.Query(key="k", time="ts").window(500, slide=100, top=swag.max("v"), n=swag.count(), s=swag.sum("v"))


def _stream(env: StreamExecutionEnvironment, rows: list[tuple[str, int, float]]):  # noqa: ANN202
    ds = env.from_collection([Row(*r) for r in rows], type_info=Types.ROW_NAMED(NAMES, TYPES))
    return ds.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(_Ts())
    )


def _key(d: dict) -> tuple:
    return (d["k"], d["window_start"], d["window_end"])


def _windows(out: Any) -> dict[tuple, tuple]:
    """(key, start, end) -> (top, n, s) of the rows of a swag DataStream, run to the end."""
    got = {}
    with out.execute_and_collect() as it:
        for r in it:
            d = r.as_dict() if hasattr(r, "as_dict") else dict(zip(r._fields, r))
            got[_key(d)] = (d["top"], d["n"], d["s"])
    return got


def _local_windows(rows: list[tuple[str, int, float]]) -> dict[tuple, tuple]:
    """The same windows from the local executor."""
    return {
        _key(d): (d["top"], d["n"], d["s"])
        for d in swag.run(_query(), [dict(zip(NAMES, r)) for r in rows]).rows
    }


def test_aggregate_equals_the_local_executor(env: StreamExecutionEnvironment) -> None:
    rows = _rows()
    want = _local_windows(rows)
    assert len(want) > 50
    assert _windows(swag.flink.aggregate(_stream(env, rows), _query())) == want


def test_a_small_key_cache_gives_the_same_rows(env: StreamExecutionEnvironment) -> None:
    """cache_max_keys=1: every change of key writes the old key to state and rebuilds the new one."""
    rows = _rows()
    want = _local_windows(rows)
    assert len({k[0] for k in want}) > 1 and len(want) > 50
    assert _windows(swag.flink.aggregate(_stream(env, rows), _query(), cache_max_keys=1)) == want
    with pytest.raises(swag.InvalidQueryError, match="cache_max_keys: 0"):
        swag.flink.aggregate(_stream(env, rows), _query(), cache_max_keys=0)


def test_executed_plan_is_the_explained_plan(env: StreamExecutionEnvironment) -> None:
    """The operator's read-back of what it built (one per subtask, from the job's accumulators) runs
    the plan explain() prints: two windows sharing one B-tree (range queries), arity 8; max is
    mergeable, so the operator keeps each key's records combined per slice of the gcd (100 ms), in
    its state and its tree, as explain() says for engines with state (the local executor does not
    slice at 100 ms)."""
    q = (swag.Query(key="k", time="ts", order="out_of_order")
         .window(500, slide=100, name="short", top=swag.max("v")).window(2000, slide=100, name="long", top2=swag.max("v")))
    explain = q.explain()
    assert "  algorithm: bfiba8\n" in explain and "  min arity: 8\n" in explain
    assert "  slices, local executor (in memory): gcd 100 ms, not used\n" in explain
    assert "  slices, engines with state (Flink operator and swag_window, Spark): used, " in explain
    assert "eviction bounded by: long; range queries: short\n" in explain
    out = swag.flink.aggregate(_stream(env, _rows()), q)
    rows = out._j_data_stream.collectAsync()  # Java's collectAsync + execute: the rows and the job's result
    result = env.execute("swag-executed-plan")
    n = 0
    while rows.hasNext():
        rows.next()
        n += 1
    rows.close()
    assert n > 50, "the query emitted rows"
    plans = swag.flink.executed_plans(result)
    assert len(plans) == 1, plans  # parallelism 1: one subtask
    (g,) = plans[0]["groups"]
    assert (g["algorithm"], g["tree"], g["min_arity"], g["adaptive"]) == ("bfiba8", "bfiba8", 8, False), g
    assert (g["slicing"], g["slice_ms"]) == (True, 100), g
    assert plans[0]["engine"]["state"] == "slices", plans[0]
    assert (g["window_names"], g["eviction_window"], g["range_query_windows"]) == (["short", "long"], 1, [0]), g


def test_calls_served_by_a_fresh_gateway_thread_find_the_jar(env: StreamExecutionEnvironment) -> None:
    # py4j resolves classes with the serving Java thread's context class loader, and PyFlink may serve
    # a later call on another thread (this failed in CI after a job had run); simulate a fresh thread
    from pyflink.java_gateway import get_gateway

    jvm = get_gateway().jvm
    swag.flink.aggregate(_stream(env, _rows(5)), _query())  # the environment already has the jar
    jvm.Thread.currentThread().setContextClassLoader(jvm.ClassLoader.getSystemClassLoader())
    assert not isinstance(jvm.io.swag.flink.SwagWindows, type(jvm.java.lang.String))  # really gone
    rows = _rows(60)
    out = swag.flink.aggregate(_stream(env, rows), _query())
    with out.execute_and_collect() as it:
        got = {_key(r.as_dict()) for r in it}
    want = {_key(d) for d in swag.run(_query(), [dict(zip(NAMES, r)) for r in rows]).rows}
    assert len(want) > 10
    assert got == want


def test_aggregate_late_output(env: StreamExecutionEnvironment) -> None:  # (env: the jar check)
    # The input comes through a table whose watermark is declared in its schema: the planner's
    # watermark assigner emits a watermark as soon as it is more than the auto-watermark interval
    # (200 ms of event time) ahead of the last one, not only periodically (as a DataStream
    # WatermarkStrategy does, where whether a record is late would depend on timing). The records
    # inserted seconds behind are then late whatever the timing. The Python map that names the
    # columns runs one record per bundle, so that it forwards each watermark before the next record.
    from pyflink.common import Configuration

    conf = Configuration()
    conf.set_integer("python.fn-execution.bundle.size", 1)
    e = StreamExecutionEnvironment.get_execution_environment(conf)
    e.set_parallelism(1)
    e.set_python_executable(sys.executable)
    rows = _rows(200)
    lates = [("k0", 0, 1.0), ("k1", 5, 2.0), ("k2", rows[100][1] - 2_000, 3.0)]
    rows = rows[:150] + [lates[0]] + rows[150:] + lates[1:]
    t_env, table = _table(e, rows, watermark="rt - INTERVAL '0.001' SECOND")
    named = swag.flink.to_data_stream(t_env, table).map(lambda r: Row(k=r[0], ts=r[1], v=r[2]),
                                            output_type=Types.ROW_NAMED(NAMES, TYPES))
    out, late = swag.flink.aggregate(named, _query(), late=True)
    with late.execute_and_collect() as it:
        got = sorted(tuple(r) for r in it)
    assert got == sorted(lates)
    # the same records are late for the engine-free executor (watermark: the largest time - 1 ms)
    ref = swag.run(_query(), [dict(zip(NAMES, r)) for r in rows], watermark_delay=1)
    assert sorted(tuple(d[c] for c in NAMES) for d in ref.late) == sorted(lates)


def _bad_rows() -> tuple[list[tuple[Any, int, float]], list[tuple[str, tuple]]]:
    """A stream with a null key and a NaN value inside, and what the local executor rejects of it:
    (reason, (k, ts, v)) with NaN written as the string 'nan' (NaN != NaN)."""
    rows: list[tuple[Any, int, float]] = list(_rows(120))
    rows = rows[:30] + [(None, rows[30][1], 1.0), ("k1", rows[40][1], float("nan"))] + rows[30:]
    ref = swag.run(_query(), [dict(zip(NAMES, r)) for r in rows])
    want = sorted((d["reason"], _plain(tuple(d["record"][c] for c in NAMES))) for d in ref.rejected)
    assert len(want) == 2, want
    return rows, want


def _plain(record: tuple) -> tuple:
    return tuple("nan" if isinstance(x, float) and x != x else x for x in record)


@pytest.mark.parametrize("key_layout", ["value", "row"])
def test_aggregate_rejected_output_equals_the_local_executor(env: StreamExecutionEnvironment, key_layout: str) -> None:
    """Under both key layouts: the null key and the NaN rejected with the local executor's reasons,
    and the other rows' windows the local executor's."""
    rows, want = _bad_rows()
    out, rejected = swag.flink.aggregate(_stream(env, rows), _query(), rejected=True, key_layout=key_layout)
    with rejected.execute_and_collect() as it:
        got = sorted((r[0], _plain(tuple(r[1]))) for r in it)
    assert got == want
    good = [r for r in rows if r[0] is not None and r[2] == r[2]]
    assert _windows(swag.flink.aggregate(_stream(env, rows), _query(), key_layout=key_layout)) == _local_windows(good)


def test_an_unknown_key_layout_is_an_invalid_query(env: StreamExecutionEnvironment) -> None:
    with pytest.raises(swag.InvalidQueryError, match="key_layout"):
        swag.flink.aggregate(_stream(env, _rows(10)), _query(), key_layout="tuple")


@pytest.mark.parametrize("firing", ["paced", "watermark"])
def test_both_firings_give_the_local_executors_windows(env: StreamExecutionEnvironment, firing: str) -> None:
    rows = _rows(400)
    assert _windows(swag.flink.aggregate(_stream(env, rows), _query(), firing=firing)) == _local_windows(rows)


def test_an_unknown_firing_is_an_invalid_query(env: StreamExecutionEnvironment) -> None:
    with pytest.raises(swag.InvalidQueryError, match="firing"):
        swag.flink.aggregate(_stream(env, _rows(10)), _query(), firing="eager")


def test_aggregate_table_late_and_rejected_tables(env: StreamExecutionEnvironment) -> None:
    rows, want = _bad_rows()
    t_env, table = _table(env, rows)
    q = swag.Query(key="k", time="rt").window(500, slide=100, top=swag.max("v"), n=swag.count(), s=swag.sum("v"))
    res, late, rejected = swag.flink.aggregate_table(t_env, table, q, late=True, rejected=True)
    assert late.get_schema().get_field_names() == ["k", "ts", "v", "rt"]
    assert rejected.get_schema().get_field_names() == ["reason", "k", "ts", "v", "rt"]
    with swag.flink.execute(t_env, rejected.select(col("reason"), col("k"), col("ts"), col("v"))).collect() as it:
        got = sorted((r[0], _plain((r[1], r[2], r[3]))) for r in it)
    assert got == want
    with swag.flink.execute(t_env, late.select(col("k"), col("ts"), col("v"))).collect() as it:
        assert list(it) == []  # in order: nothing late


@pytest.mark.parametrize("path", ["aggregate", "aggregate_table"])
def test_on_error_fail_fails_the_job_with_the_reason(env: StreamExecutionEnvironment, path: str) -> None:
    rows, want = _bad_rows()
    first_reason = want[0][0] if want else None
    assert first_reason, "the bad rows make rejected records"
    if path == "aggregate":
        out = swag.flink.aggregate(_stream(env, rows), _query(), on_error="fail")
        with pytest.raises(Exception, match=r"record rejected \(on_error=fail\)"):
            with out.execute_and_collect() as it:
                list(it)
    else:
        t_env, table = _table(env, rows)
        q = swag.Query(key="k", time="rt").window(500, slide=100, top=swag.max("v"), n=swag.count(), s=swag.sum("v"))
        res = swag.flink.aggregate_table(t_env, table, q, on_error="fail")
        with pytest.raises(Exception, match=r"record rejected \(on_error=fail\)"):
            with swag.flink.execute(t_env, res).collect() as it:
                list(it)


def test_on_error_names_a_bad_value(env: StreamExecutionEnvironment) -> None:
    with pytest.raises(swag.InvalidQueryError, match="on_error: 'ignore' is not one of"):
        swag.flink.aggregate(_stream(env, _rows(5)), _query(), on_error="ignore")


def test_stream_without_watermarks_is_an_error(env: StreamExecutionEnvironment) -> None:
    ds = env.from_collection([Row(*r) for r in _rows(5)], type_info=Types.ROW_NAMED(NAMES, TYPES))
    with pytest.raises(swag.InvalidInputError, match="^input: the stream has no watermarks"):
        swag.flink.aggregate(ds, _query())


def test_missing_time_column_is_an_error(env: StreamExecutionEnvironment) -> None:
    q = swag.Query(key="k", time="when").window(500, top=swag.max("v"))
    with pytest.raises(swag.InvalidInputError) as e:
        swag.flink.aggregate(_stream(env, _rows(5)), q)
    assert str(e.value) == "time column 'when' is not a column of the input; its columns are [k, ts, v]"


def test_the_same_errors_as_the_other_front_ends(env: StreamExecutionEnvironment) -> None:
    """The cross-front-end cases (tests/error_cases.py) through py4j: the DataStream and Table paths."""
    from error_cases import (
        BAD_INPUT,
        BAD_INPUT_CLASS,
        BAD_INPUT_MESSAGE,
        BAD_QUERY,
        BAD_QUERY_CLASS,
        BAD_QUERY_MESSAGE,
        COLUMNS,
        check,
    )

    assert NAMES == COLUMNS
    for spec, cls, message in [(BAD_QUERY, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE),
                               (BAD_INPUT, BAD_INPUT_CLASS, BAD_INPUT_MESSAGE)]:
        with pytest.raises(swag.SwagError) as e:
            swag.flink.aggregate(_stream(env, _rows(5)), swag.Query.from_json(spec))
        check(e.value, cls, message)
        assert e.value.java_exception is not None
    t_env, table = _table(env, _rows(5))
    with pytest.raises(swag.SwagError) as e:
        swag.flink.aggregate_table(t_env, table, swag.Query.from_json(BAD_QUERY))
    check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)


def test_wrong_column_type_is_an_error(env: StreamExecutionEnvironment) -> None:
    q = swag.Query(key="v", time="ts").window(500, top=swag.max("k"))
    with pytest.raises(swag.InvalidQueryError, match="needs numbers but column 'k' is a string"):
        swag.flink.aggregate(_stream(env, _rows(5)), q)


def _table(env: StreamExecutionEnvironment, rows: list[tuple[str, int, float]], watermark: str = "rt"):  # noqa: ANN202
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([Row(*r) for r in rows], type_info=Types.ROW_NAMED(NAMES, TYPES))
    table = t_env.from_data_stream(
        ds,
        Schema.new_builder()
        .column("k", "STRING")
        .column("ts", "BIGINT")
        .column("v", "DOUBLE")
        .column_by_expression("rt", "TO_TIMESTAMP_LTZ(ts, 3)")
        .watermark("rt", watermark)
        .build(),
    )
    return t_env, table


def test_aggregate_table(env: StreamExecutionEnvironment) -> None:
    rows = _rows()
    t_env, table = _table(env, rows)
    q = swag.Query(key="k", time="rt").window(500, slide=100, top=swag.max("v"), n=swag.count())
    res = swag.flink.aggregate_table(t_env, table, q)
    assert res.get_schema().get_field_names()[:6] == ["k", "window", "window_start", "window_end", "top", "n"]
    got = set()
    res = res.select(*[col(c) for c in ["k", "window", "window_start", "window_end", "top", "n"]])
    with swag.flink.execute(t_env, res).collect() as it:
        for r in it:
            got.add((r[0], r[2], r[3], r[4], r[5]))
    q2 = swag.Query(key="k", time="ts").window(500, slide=100, top=swag.max("v"), n=swag.count())
    want = {
        (d["k"], d["window_start"], d["window_end"], d["top"], d["n"])
        for d in swag.run(q2, [dict(zip(NAMES, r)) for r in rows]).rows
    }
    assert len(want) > 50
    assert got == want


def test_register_functions_over(env: StreamExecutionEnvironment) -> None:
    rows = _rows(300)
    t_env, table = _table(env, rows)
    names = swag.flink.register_functions(t_env)
    assert "swag_max" in names and "swag_quantile" in names
    t_env.create_temporary_view("t", table)
    # swag.flink.execute_sql, not t_env.execute_sql: PyFlink may run this call on a Java thread other
    # than the one that created t_env, where Flink's planner fails ("metadataHandlerProvider")
    res = swag.flink.execute_sql(
        t_env,
        "SELECT MAX(v) OVER w, swag_max(v) OVER w, MIN(v) OVER w, swag_min(v) OVER w FROM t "
        "WINDOW w AS (PARTITION BY k ORDER BY rt ROWS BETWEEN 5 PRECEDING AND CURRENT ROW)",
    )
    n = 0
    with res.collect() as it:
        for r in it:
            assert r[0] == r[1] and r[2] == r[3], r
            n += 1
    assert n == 300


def test_aggregate_table_errors(env: StreamExecutionEnvironment) -> None:
    t_env, table = _table(env, _rows(5))
    q = swag.Query(key="k", time="when").window(500, top=swag.max("v"))
    with pytest.raises(swag.InvalidInputError, match="^time column 'when' is not a column of the input"):
        swag.flink.aggregate_table(t_env, table, q)
    # a time column without a watermark declared on it
    q = swag.Query(key="k", time="ts").window(500, top=swag.max("v"))
    with pytest.raises(swag.InvalidInputError, match="no watermark on column 'ts'"):
        swag.flink.aggregate_table(t_env, table, q)
    # max of a STRING column
    q = swag.Query(key="v", time="rt").window(500, top=swag.max("k"))
    with pytest.raises(swag.InvalidQueryError, match="needs numbers but column 'k' is a string"):
        swag.flink.aggregate_table(t_env, table, q)

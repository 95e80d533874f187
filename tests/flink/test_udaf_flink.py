"""User-defined aggregate functions on Flink through PyFlink: the example jar (registered with
swag.add_jars by tests/conftest.py, added to the job by swag.flink) on the DataStream operator and
the SQL ``swag_window`` function, against an independent recompute; refused values do not fail the job."""

from __future__ import annotations

import sys

import pytest

from engine_guard import require_flink_jar, require_modules

require_modules("SWAG_REQUIRE_FLINK", "`make venv-flink` installs apache-flink==2.3.0 into .venv-flink (Python 3.11)",
                "pyflink")

from pyflink.common import Duration, Row, Types, WatermarkStrategy  # noqa: E402
from pyflink.common.watermark_strategy import TimestampAssigner  # noqa: E402
from pyflink.datastream import StreamExecutionEnvironment  # noqa: E402
from pyflink.table import Schema, StreamTableEnvironment  # noqa: E402
from pyflink.table.expressions import col  # noqa: E402

import swag  # noqa: E402
import swag.flink  # noqa: E402
from udaf_cases import TREND, assert_matches, expected, query, require_jar, trace  # noqa: E402

pytestmark = pytest.mark.flink

NAMES = ["k", "t", "v"]
TYPES = [Types.STRING(), Types.LONG(), Types.DOUBLE()]


class _Ts(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):  # noqa: ANN001, ANN201
        return value[1]


@pytest.fixture(scope="module")
def env() -> StreamExecutionEnvironment:
    require_jar()
    require_flink_jar()
    e = StreamExecutionEnvironment.get_execution_environment()
    e.set_parallelism(1)
    e.set_python_executable(sys.executable)
    return e


def _stream(env, recs):  # noqa: ANN001, ANN202
    ds = env.from_collection([Row(r["k"], r["t"], r["v"]) for r in recs], type_info=Types.ROW_NAMED(NAMES, TYPES))
    return ds.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(5_000)).with_timestamp_assigner(_Ts())
    )


def test_datastream_matches_an_independent_recompute(env) -> None:  # noqa: ANN001
    recs = trace(9)
    out = swag.flink.aggregate(_stream(env, recs), query())
    got = {}
    with out.execute_and_collect() as it:
        for r in it:
            d = r.as_dict() if hasattr(r, "as_dict") else dict(zip(r._fields, r))
            got[(d["k"], d["window_start"])] = (d["top"], d["trend"], d["head"])
    assert_matches(got, recs)  # the 3 records with an infinite value are rejected, not in any window


def test_swag_window_sql_function_with_a_numeric_udaf(env) -> None:  # noqa: ANN001
    recs = [r for r in trace(10) if abs(r["v"]) != float("inf")]
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection([Row(r["k"], r["t"], r["v"]) for r in recs], type_info=Types.ROW_NAMED(NAMES, TYPES))
    table = t_env.from_data_stream(
        ds,
        Schema.new_builder()
        .column("k", "STRING")
        .column("t", "BIGINT")
        .column("v", "DOUBLE")
        .column_by_expression("rt", "TO_TIMESTAMP_LTZ(t, 3)")
        .watermark("rt", "rt - INTERVAL '5' SECOND")
        .build(),
    )
    q = swag.Query(key="k", time="rt").window(4_000, slide=1_000, trend=swag.udaf(TREND, "v"), head=swag.first("v"))
    res = swag.flink.aggregate_table(t_env, table, q)
    res = res.select(*[col(c) for c in ["k", "window_start", "trend", "head"]])
    got = {}
    with swag.flink.execute(t_env, res).collect() as it:
        for r in it:
            got[(r[0], r[1])] = (r[2], r[3])
    want = expected(recs)
    assert len(want) > 40
    assert got.keys() == want.keys()
    for key, (_, trend, head) in want.items():
        assert got[key][0] == pytest.approx(trend, abs=1e-9), key
        assert got[key][1] == head, key

"""PyFlink SQL with swag: the ``swag_window`` table function and OVER aggregates.

    python examples/flink_sql.py [--rows N]                 (in a venv with apache-flink 2.3)

``swag.flink.register_functions`` registers swag's SQL functions in a table environment:

* ``swag_window``, a table function: sliding windows of any swag query per partition, one typed
  column per aggregate, late and rejected records as rows (``window = 'late' / 'rejected'``);
* ``swag_max``, ``swag_quantile``, ... for OVER windows: a running aggregate per row over the rows
  before it, which Flink's own MAX and percentile cannot give for a RANGE frame at this cost.

The table is the 2013 flights (``flights_data.py``) with a watermark 4 hours behind the scheduled
departure. SQL goes through ``swag.flink.execute_sql`` (PyFlink may serve a call on another Java
thread, where Flink's planner needs a thread-local that this helper sets).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import Schema, StreamTableEnvironment

import swag
import swag.flink
from flights_data import departures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=50_000, help="the first N records (default: 50,000)")
    a = p.parse_args()

    records = [Row(*r) for r in departures(a.rows)]

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_python_executable(sys.executable)
    t_env = StreamTableEnvironment.create(env)
    ds = env.from_collection(records, type_info=Types.ROW_NAMED(["origin", "ts", "dep_delay"],
                                                                [Types.STRING(), Types.LONG(), Types.DOUBLE()]))
    flights_table = t_env.from_data_stream(
        ds, Schema.new_builder().column("origin", "STRING").column("ts", "BIGINT").column("dep_delay", "DOUBLE")
        .column_by_expression("sched_dep", "TO_TIMESTAMP_LTZ(ts, 3)")
        .watermark("sched_dep", "sched_dep - INTERVAL '4' HOUR").build())
    t_env.create_temporary_view("flights", flights_table)
    print("registered:", ", ".join(swag.flink.register_functions(t_env)))

    # 1. swag_window: a 1-hour window sliding by 15 minutes per origin, with 30 minutes of lateness
    q = (swag.Query(key="origin", time="sched_dep", lateness="30min")
         .window("1h", slide="15min", max_delay=swag.max("dep_delay"), p95_delay=swag.quantile("dep_delay", 0.95)))
    sql = (f"SELECT origin, `window`, window_start, max_delay, p95_delay, reason FROM swag_window("
           f"input => TABLE flights PARTITION BY origin, on_time => DESCRIPTOR(sched_dep), query => '{q.to_json()}')")
    kinds: Counter[str] = Counter()
    worst = None
    with swag.flink.execute_sql(t_env, sql).collect() as it:
        for origin, window, start, max_delay, p95, _reason in it:
            kind = window if window in ("late", "rejected") else "window"
            kinds[kind] += 1
            if kind == "window" and (worst is None or max_delay > worst[2]):
                worst = (origin, start, max_delay, p95)
    print(f"swag_window: {kinds['window']:,} windows, {kinds['late']:,} late, {kinds['rejected']:,} rejected rows")
    print(f"  worst hour: {worst}")

    # 2. OVER: for every flight, the max and p95 delay of its airport's flights in the hour before it
    over = ("SELECT origin, ts, dep_delay, swag_max(dep_delay) OVER w AS max_1h, "
            "swag_quantile(dep_delay, 0.95) OVER w AS p95_1h FROM flights "
            "WINDOW w AS (PARTITION BY origin ORDER BY sched_dep "
            "RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)")
    n, above = 0, 0
    with swag.flink.execute_sql(t_env, over).collect() as it:
        for _origin, _when, delay, _max_1h, p95_1h in it:
            n += 1
            if delay is not None and p95_1h is not None and delay > p95_1h:
                above += 1
    print(f"OVER: {n:,} rows; {above:,} flights left later than the p95 of their airport's last hour")


if __name__ == "__main__":
    main()

"""PyFlink DataStream with swag: windows, late and rejected records as three streams.

    python examples/flink_datastream.py [--rows N]          (in a venv with apache-flink 2.3)

The 2013 flights (``flights_data.py``) arrive in departure order with a watermark 4 hours behind
the largest scheduled departure seen. Per origin airport, swag keeps a 1-hour window sliding by 15
minutes (max and p95 of the departure delay) with 30 minutes of allowed lateness.
``swag.flink.aggregate(..., late=True, rejected=True)`` returns the windows and two side outputs:
records too late for every window, and records swag refused (here: cancelled flights, whose delay
is null), each with its reason.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment

import swag
import swag.flink
from flights_data import departures

NAMES = ["origin", "sched_dep", "dep_delay"]
TYPES = [Types.STRING(), Types.LONG(), Types.DOUBLE()]


class ByScheduledDeparture(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):  # noqa: ANN001, ANN201
        return value[1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=50_000, help="the first N records of the stream (default: 50,000)")
    a = p.parse_args()

    records = [Row(*r) for r in departures(a.rows)]

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.set_python_executable(sys.executable)
    stream = env.from_collection(records, type_info=Types.ROW_NAMED(NAMES, TYPES)).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_hours(4))
        .with_timestamp_assigner(ByScheduledDeparture()))

    q = (swag.Query(key="origin", time="sched_dep", lateness="30min")
         .window("1h", slide="15min", max_delay=swag.max("dep_delay"), p95_delay=swag.quantile("dep_delay", 0.95)))
    windows, late, rejected = swag.flink.aggregate(stream, q, late=True, rejected=True)

    # one job for the three outputs: each becomes (kind, text) and the three are collected together
    tagged = Types.TUPLE([Types.STRING(), Types.STRING()])
    everything = windows.map(lambda r: ("window", f"{r.origin} {r.window_start} {r.max_delay} {r.p95_delay}"),
                             output_type=tagged).union(
        late.map(lambda r: ("late", str(r)), output_type=tagged),
        rejected.map(lambda r: ("rejected", str(r)), output_type=tagged))
    kinds: Counter[str] = Counter()
    worst = (-1.0, "")
    samples: dict[str, str] = {}
    with everything.execute_and_collect() as it:
        for kind, text in it:
            kinds[kind] += 1
            samples.setdefault(kind, text)
            if kind == "window" and float(text.split()[2]) > worst[0]:
                worst = (float(text.split()[2]), text)
    print(f"{len(records):,} records: {kinds['window']:,} windows, {kinds['late']:,} late, "
          f"{kinds['rejected']:,} rejected")
    print(f"worst hour (origin, window start ms, max, p95): {worst[1]}")
    for kind in ("late", "rejected"):
        if kind in samples:
            print(f"a {kind} record: {samples[kind]}")


if __name__ == "__main__":
    main()

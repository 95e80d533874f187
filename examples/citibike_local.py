"""Citi Bike trips through swag's local Python API: a 1-hour sliding window per start station.

    python examples/citibike_local.py                       # the sample shipped in the package
    python examples/citibike_local.py ../shared/data/citibike/JC-2016*.csv.gz

For every trip (in start-time order) the window of its start station first drops the trips that
started an hour or more earlier, then takes the new trip; afterwards it answers max / mean /
stddev / p95 of the trip durations and the number of distinct bikes in constant time per step
(DABA Lite: worst-case O(1) combines per insert and evict). ``python -m swag_apps demo --engine local`` is the
fuller version of this script.
"""

from __future__ import annotations

import sys
from typing import Any

import swag
from swag_apps.citibike import SAMPLE, read_trips, resolve_paths
from swag_apps.local_demo import fmt_duration, fmt_time

HOUR_MS = 3600 * 1000


def main(args: list[str]) -> None:
    trips, _ = read_trips(resolve_paths(args) if args else [SAMPLE])  # sorted by start time
    windows: dict[str, dict[str, swag.TimedAggregator]] = {}
    busiest: dict[str, tuple[int, int, dict[str, Any]]] = {}  # station -> (trips, time, results)

    for trip in trips:
        w = windows.get(trip.station)
        if w is None:
            w = windows[trip.station] = {
                "max": swag.timed_aggregator("daba_lite", "max"),
                "mean": swag.timed_aggregator("daba_lite", "mean"),
                "stddev": swag.timed_aggregator("daba_lite", "stddev"),
                "p95": swag.timed_aggregator("daba_lite", "quantile", rank=0.95),
                "bikes": swag.timed_aggregator("daba_lite", "hll"),
            }
        for name, agg in w.items():
            agg.evict_up_to(trip.start_ms - HOUR_MS)  # the window is (t - 1 h, t]
            agg.insert(trip.start_ms, trip.bike_id if name == "bikes" else trip.duration_s)
        n = len(w["max"])
        if n > busiest.get(trip.station, (0, 0, {}))[0]:
            busiest[trip.station] = (n, trip.start_ms, {k: a.query() for k, a in w.items()})

    print(f"{len(trips)} trips, {len(windows)} start stations; the busiest hour of the top 5:")
    top = sorted(busiest.items(), key=lambda kv: -kv[1][0])[:5]
    for station, (n, t, r) in top:
        print(
            f"  {station:<22} {n:3d} trips in the hour up to {fmt_time(t)}: "
            f"max {fmt_duration(r['max'])}, mean {fmt_duration(r['mean'])} "
            f"(sd {fmt_duration(r['stddev'])}), p95 {fmt_duration(r['p95'])}, "
            f"~{r['bikes']:.0f} bikes"
        )


if __name__ == "__main__":
    main(sys.argv[1:])

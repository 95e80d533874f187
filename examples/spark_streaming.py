"""PySpark Structured Streaming with swag: Parquet files -> swag windows -> Parquet.

    python examples/spark_streaming.py [--rows N] [--batches B] [--out DIR]

The flights of 2013 (``flights_data.py``) are written as B Parquet files in arrival order and read
back as a stream, one file per micro-batch, with a watermark of 4 hours. Per origin airport, swag
keeps a 1-hour window sliding by 15 minutes (max, p95 and mean of the departure delay) and a 1-day
window sliding by 1 hour (max delay, distinct destinations), with 1 hour of allowed lateness.
``late="keep"`` returns late and rejected records as rows beside the windows; each batch's counts
are in the query's observed metrics. Results go to ``DIR/windows`` (Parquet).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import swag
import swag.spark
from flights_data import flights


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=None, help="the first N records of the stream (default: all)")
    p.add_argument("--batches", type=int, default=12)
    p.add_argument("--out", type=Path, default=Path("swag-example-streaming"))
    a = p.parse_args()

    shutil.rmtree(a.out, ignore_errors=True)
    df = flights(a.rows)
    per = -(-len(df) // a.batches)
    (a.out / "input").mkdir(parents=True)
    for i in range(a.batches):  # Spark reads Parquet timestamps in micro- or milliseconds
        df.iloc[i * per:(i + 1) * per].to_parquet(a.out / "input" / f"part-{i:03d}.parquet", index=False,
                                                  coerce_timestamps="us", allow_truncated_timestamps=True)

    q = (swag.Query(key="origin", time="sched_dep", lateness="1h")
         .window("1h", slide="15min", max_delay=swag.max("dep_delay"),
                 p95_delay=swag.quantile("dep_delay", 0.95), mean_delay=swag.mean("dep_delay"))
         .window("1d", slide="1h", max_delay_1d=swag.max("dep_delay"), destinations=swag.hll("dest")))
    print(q.explain())

    spark = swag.spark.session("swag-example-streaming")
    spark.sparkContext.setLogLevel("ERROR")
    spark.conf.set("spark.sql.streaming.numRecentProgressUpdates", str(2 * a.batches + 10))
    stream = (spark.readStream.option("maxFilesPerTrigger", 1)
              .schema("origin STRING, carrier STRING, sched_dep TIMESTAMP, dep_delay DOUBLE, dest STRING")
              .parquet(str(a.out / "input")).withWatermark("sched_dep", "4 hours"))
    out = swag.spark.aggregate(stream, q, late="keep")
    query = (out.writeStream.format("parquet").option("path", str(a.out / "windows"))
             .option("checkpointLocation", str(a.out / "checkpoint")).outputMode("append")
             .trigger(availableNow=True).start())
    query.awaitTermination()

    late = rejected = windows = 0
    for progress in query.recentProgress:
        m = swag.spark.observed_metrics(progress)
        if m:
            late, rejected, windows = late + m["late"], rejected + m["rejected"], windows + m["windows"]
            print(f"batch {progress['batchId']:3d}: {progress['numInputRows']:7,} records, "
                  f"{m['windows']:6,} windows, {m['late']:4,} late, {m['rejected']:5,} rejected")
    print(f"total: {len(df):,} records, {windows:,} windows, {late:,} late, {rejected:,} rejected")

    result, others = swag.spark.split(spark.read.parquet(str(a.out / "windows")))
    print("the worst hours at each airport:")
    (result.filter(result.window == "1h/15min").orderBy(result.max_delay.desc())
     .select("origin", "window_start", "max_delay", "p95_delay").show(5, truncate=False))
    print("late and rejected records, with the reason:")
    others.groupBy("swag_kind", "swag_reason").count().orderBy("swag_kind").show(truncate=False)
    spark.stop()


if __name__ == "__main__":
    main()

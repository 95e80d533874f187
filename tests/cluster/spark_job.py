"""The Spark driver of the cluster tests, run as its own process (one SparkContext per process):
``swag.spark.aggregate`` over a directory of JSON-lines files (one file per micro-batch), written to a
Parquet file sink (exactly-once through its metadata log and the checkpoint).

    python spark_job.py --master spark://127.0.0.1:P --input DIR --out DIR --checkpoint DIR [--partitions 4]

Prints one JSON line ``{"batches": ..., "late": ..., "rejected": ..., "windows": ...}`` at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "spark"))

from spark_helpers import SCHEMA, metric_sums  # noqa: E402

import swag  # noqa: E402
import swag.spark  # noqa: E402


def query() -> swag.Query:
    return swag.Query(key="k", time="ts", lateness="2s").window(
        "10s", slide="2s", name="w", mx=swag.max("v"), n=swag.count(), s=swag.sum("v")
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--master", required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--executor-memory", default="640m")
    a = ap.parse_args()
    conf = {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.memory": "768m",
        "spark.executor.memory": a.executor_memory,
        "spark.executor.cores": "1",
        "spark.cores.max": "2",
        "spark.task.maxFailures": "8",
        "spark.sql.streaming.minBatchesToRetain": "100",
        "spark.network.timeout": "30s",
        "spark.network.timeoutInterval": "10s",
        "spark.executor.heartbeatInterval": "3s",
        "spark.storage.blockManagerHeartbeatTimeoutMs": "30000",
    }
    spark = swag.spark.session("swag-cluster-test", master=a.master, shuffle_partitions=a.partitions, conf=conf)
    spark.sparkContext.setLogLevel("WARN")
    from pyspark.sql import functions as F

    df = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(a.input)
    df = df.select("k", "v", F.timestamp_millis("t").alias("ts")).withWatermark("ts", "5 seconds")
    out = swag.spark.aggregate(df, query())
    out = out.select(*[F.unix_millis(F.col(c)).alias(c) if c in ("window_start", "window_end") else F.col(c)
                       for c in out.columns])
    sq = (out.writeStream.format("parquet").outputMode("append").option("path", a.out)
          .option("checkpointLocation", a.checkpoint).trigger(availableNow=True).start())
    t0 = time.time()
    ok = sq.awaitTermination(a.timeout)
    if not ok:
        sq.stop()
        raise SystemExit(f"timeout after {a.timeout}s")
    if sq.exception() is not None:
        raise SystemExit(f"query failed: {sq.exception()}")
    progress = list(sq.recentProgress)
    sums = metric_sums(progress)
    print(json.dumps({"batches": len(progress), "seconds": time.time() - t0, **sums}), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()

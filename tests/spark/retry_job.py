"""Task retries in Spark local mode (run by test_task_retry.py in its own process: retries need the
master ``local[2,4]``, and a process has one SparkContext).

For a query swag runs on records (with ``collect``) and one it pre-aggregates, the same micro-batches
go through the swag operator twice: once plainly, once with a step after the operator, in the same
task, that fails the first attempt of every task after swag has updated its state and its
executor-side cache. Spark retries each failed task from the state store's last committed version.
Prints one JSON object: per query, both runs' rows, observed metric sums and the failures injected.

Usage: python retry_job.py WORKDIR
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from pyspark import TaskContext
from pyspark.sql import functions as F
from spark_helpers import make_batches, metric_sums, millis, source, write_batches

import swag
import swag.spark


def query(pre: bool) -> swag.Query:
    q = swag.Query(key="k", time="ts", lateness="5s")
    if pre:
        return q.window("20s", slide="10s", mx=swag.max("v"), sd=swag.stddev("v"), avg=swag.mean("v"))
    return q.window("20s", slide="10s", mx=swag.max("v"), avg=swag.mean("v"), c=swag.collect("v"))


def fail_first_attempt(marks: str):
    def f(k: str) -> str:
        tc = TaskContext.get()
        if tc is not None and tc.attemptNumber() == 0:
            path = os.path.join(marks, f"stage{tc.stageId()}-part{tc.partitionId()}")
            with open(path, "w") as fh:
                fh.write(k)
            raise RuntimeError(f"injected failure of task {tc.stageId()}.{tc.partitionId()} attempt 0")
        return k

    return F.udf(f, "string")


def run(spark, work: Path, pre: bool, fail: bool) -> tuple[list, dict]:
    name = f"{'pre' if pre else 'rec'}-{'fail' if fail else 'plain'}"
    df = swag.spark.aggregate(source(spark, work / "in"), query(pre))
    if fail:
        marks = work / "marks" / name
        marks.mkdir(parents=True)
        df = df.withColumn("k", fail_first_attempt(str(marks))(F.col("k")))
    sq = (df.writeStream.format("parquet").option("path", str(work / name / "out"))
          .option("checkpointLocation", str(work / name / "ck")).outputMode("append")
          .trigger(availableNow=True).start())
    sq.awaitTermination(300)
    if sq.exception() is not None:
        raise RuntimeError(str(sq.exception()))
    rows = millis(spark.read.parquet(str(work / name / "out")), "window_start", "window_end").collect()
    out = sorted(json.dumps(r.asDict(), sort_keys=True) for r in rows)
    return out, metric_sums(list(sq.recentProgress))


def main() -> None:
    work = Path(sys.argv[1])
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the failing step is a Python UDF
    spark = swag.spark.session("swag-retry", master="local[2,4]", shuffle_partitions=2)
    spark.sparkContext.setLogLevel("OFF")
    write_batches(work / "in", make_batches(11, files=4, per_file=500))
    result = {}
    for pre in (False, True):
        plain, plain_metrics = run(spark, work, pre, fail=False)
        retried, retried_metrics = run(spark, work, pre, fail=True)
        marks = sorted(p.name for p in (work / "marks" / f"{'pre' if pre else 'rec'}-fail").iterdir())
        result["pre" if pre else "records"] = {
            "plain": plain, "retried": retried, "plain_metrics": plain_metrics,
            "retried_metrics": retried_metrics, "failures": marks,
        }
    spark.stop()
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()

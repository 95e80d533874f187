"""The demo pipeline's micro-batch files are readable by Spark with the pipeline's schema (pandas
writes nanosecond timestamps by default, which Spark 4 refuses as TIMESTAMP)."""

from __future__ import annotations

import pandas as pd

from swag_apps import pipeline_spark


def test_batch_files_read_back_with_timestamp_schema(spark, tmp_path):
    df = pd.DataFrame({
        "origin": ["JFK", "EWR", "JFK"],
        "sched_dep": pd.to_datetime(["2013-01-01 05:15:00.123456789", "2013-01-01 05:29:00", "2013-01-01 06:00:00"],
                                    format="ISO8601"),
        "dep_delay": [2.0, -4.0, 11.0],
    })
    pipeline_spark._write_batches(df, tmp_path, 2)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["part-00000.parquet", "part-00001.parquet"]
    rows = spark.read.schema("origin STRING, sched_dep TIMESTAMP, dep_delay DOUBLE").parquet(str(tmp_path)).collect()
    got = sorted((r.origin, r.sched_dep.replace(tzinfo=None), r.dep_delay) for r in rows)
    want = sorted((o, t.to_pydatetime(), d)
                  for o, t, d in zip(df.origin, df.sched_dep.dt.floor("us"), df.dep_delay))
    assert got == want

"""Helpers for the Spark connector tests: seeded out-of-order data written one JSON file per
micro-batch, streaming runs over it (file source, ``maxFilesPerTrigger=1``, ``availableNow``),
and rows normalized to plain Python values for comparison."""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

BASE = 1_700_000_040_000  # epoch ms, a multiple of 60 s
SCHEMA = "k STRING, t LONG, v DOUBLE"


def make_batches(seed: int, files: int = 6, per_file: int = 200, keys: str = "abcd") -> list[list[dict[str, Any]]]:
    """``files`` batches of records in arrival order: event times run ahead by random steps, most a
    little out of order (up to 3 s behind), ~5% far behind (8 to 120 s: late for some windows,
    some for all).
    Times are distinct per key; values are small integers as floats (exact sums)."""
    rng = random.Random(seed)
    used: dict[str, set[int]] = {k: set() for k in keys}
    now = BASE + 1_000
    out = []
    for _ in range(files):
        batch = []
        for _ in range(per_file):
            now += rng.randint(0, 200)
            r = rng.random()
            if r < 0.05:
                t = now - rng.randint(8_000, 120_000)
            elif r < 0.6:
                t = now - rng.randint(0, 3_000)
            else:
                t = now
            k = rng.choice(keys)
            while t in used[k]:
                t += 1
            used[k].add(t)
            batch.append({"k": k, "t": t, "v": float(rng.randint(-20, 20))})
        out.append(batch)
    return out


def flush_batches(last: int) -> list[list[dict[str, Any]]]:
    """Two batches of one record of key ``zz`` far ahead: the second batch runs with the watermark
    the first one raised, so every window of the data before fires (no reliance on no-data batches)."""
    t = last + 600_000
    return [[{"k": "zz", "t": t, "v": 0.0}], [{"k": "zz", "t": t + 1, "v": 0.0}]]


def write_batches(directory: Path, batches: list[list[dict[str, Any]]], first: int = 0) -> None:
    """One JSON-lines file per batch, numbered from ``first``, with increasing modification times
    (the file source orders files by modification time)."""
    directory.mkdir(parents=True, exist_ok=True)
    for i, batch in enumerate(batches, start=first):
        p = directory / f"part-{i:04d}.json"
        with open(p, "w") as f:
            for r in batch:
                f.write(json.dumps(r) + "\n")
        os.utime(p, (1_600_000_000 + 10 * i, 1_600_000_000 + 10 * i))


def source(spark, directory: Path, delay: str = "5 seconds", schema: str = SCHEMA):
    """The streaming input: one file per micro-batch, ``ts`` = timestamp of ``t`` (epoch ms), watermark."""
    from pyspark.sql import functions as F

    df = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).json(str(directory))
    cols = [c for c in df.columns if c != "t"]
    df = df.select(*cols, F.timestamp_millis("t").alias("ts"))
    return df.withWatermark("ts", delay) if delay else df


def run_available(df, name: str, checkpoint: Path, mode: str = "append", timeout: float = 240):
    """Runs ``df`` to a memory sink over all files available now; returns (rows, progress list)."""
    return finish(start_available(df, name, checkpoint, mode), timeout)


def start_available(df, name: str, checkpoint: Path, mode: str = "append"):
    """Starts ``df`` to a memory sink named ``name`` over all files available now (see :func:`finish`)."""
    return (
        df.writeStream.format("memory")
        .queryName(name)
        .outputMode(mode)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )


def finish(sq, timeout: float = 240):
    """Waits for a query started by :func:`start_available`; returns (output table, progress list)."""
    try:
        assert sq.awaitTermination(timeout), f"{sq.name}: did not finish in {timeout}s"
        if sq.exception() is not None:
            raise AssertionError(f"{sq.name}: {sq.exception()}")
        progress = list(sq.recentProgress)
    finally:
        sq.stop()
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession().table(sq.name), progress


def millis(df, *cols: str):
    """``df`` with the timestamp columns ``cols`` as epoch ms (collect() would use the local zone)."""
    from pyspark.sql import functions as F

    return df.select(*[F.unix_millis(F.col(c)).alias(c) if c in cols else F.col(c) for c in df.columns])


def metric_sums(progress: list[dict[str, Any]], name: str = "swag") -> dict[str, int]:
    """The observed metrics ``name`` summed over every micro-batch's progress."""
    tot = {"late": 0, "rejected": 0, "windows": 0}
    for p in progress:
        m = (p.get("observedMetrics") or {}).get(name)
        if m:
            for k in tot:
                tot[k] += int(m[k])
    return tot


def close(a: Any, b: Any, rel: float = 1e-9) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=rel, abs_tol=1e-9)
    return a == b


def by_window(rows, fields: Callable[[Any], dict[str, Any]], key=("k", "window_start", "window_end")):
    """Rows as {(k, start, end): values}, asserting no (key, window) appears twice."""
    out: dict[tuple, dict[str, Any]] = {}
    for r in rows:
        d = r.asDict(recursive=True)
        wk = tuple(d[c] for c in key)
        assert wk not in out, f"(key, window) {wk} emitted twice: {out[wk]} and {fields(d)}"
        out[wk] = fields(d)
    return out


def diff(actual: dict, expected: dict, cmp=None) -> list[str]:
    """Differences between two {window: values} maps (empty list: equal)."""
    problems = []
    for wk in sorted(set(actual) | set(expected), key=repr):
        if wk not in actual:
            problems.append(f"missing {wk}: expected {expected[wk]}")
        elif wk not in expected:
            problems.append(f"extra {wk}: {actual[wk]}")
        else:
            a, e = actual[wk], expected[wk]
            bad = [c for c in e if not (cmp or close)(a.get(c), e[c]) and not _both_close(c, a.get(c), e[c], cmp)]
            if bad:
                problems.append(f"{wk}: {', '.join(f'{c}={a.get(c)!r} expected {e[c]!r}' for c in bad)}")
    return problems


def _both_close(c: str, a: Any, e: Any, cmp) -> bool:
    if isinstance(a, list) and isinstance(e, list):
        return len(a) == len(e) and all(close(x, y) for x, y in zip(a, e))
    return False


def watermarks(progress: list[dict[str, Any]]) -> dict[int, int]:
    """batch id -> the watermark (epoch ms) the batch ran with (its eviction watermark)."""
    from datetime import datetime

    out = {}
    for p in progress:
        w = p["eventTime"].get("watermark")
        out[p["batchId"]] = int(datetime.fromisoformat(w.replace("Z", "+00:00")).timestamp() * 1000)
    return out

"""Soak run of swag on a real Spark standalone cluster (a Master + 2 Workers of 1 core, 127.0.0.1).

    python tests/cluster/soak_spark.py --minutes 10 --out docs/figures   (make soak SOAK_MINUTES=10)

The driver is this process (``swag.spark.aggregate`` streaming, RocksDB state store, 4 shuffle
partitions, a Parquet file sink: exactly once through its metadata log and the checkpoint).

1. capacity: ``--probe-files`` Parquet files of ``--probe-per-file`` records written ahead, read one
   file per micro-batch; capacity = the median records/s of the micro-batches after the first three
   (records / Spark's ``triggerExecution`` time);
2. soak: a generator thread writes one Parquet file every ``--interval`` seconds (``--load`` x
   capacity records/s, event time advancing with the wall clock, each record up to 3 s out of
   order, watermark delay 5 s, allowed lateness 2 s); the query triggers every ``--interval`` s and
   takes up to 4 files per micro-batch. Every 10 s: the executors' heap used (``jstat -gc`` of the
   ``CoarseGrainedExecutorBackend`` JVMs), the driver's heap, the state store (``numRowsTotal``,
   ``memoryUsedBytes`` of the latest progress) and the state directory's size on disk;
3. checks: heap and state plateau (mean of the last third <= 1.5 x mean of the middle third), every
   (key, window) whose end is at least 20 s before the last event time present exactly once in the
   committed output, and equal (max, count exactly; sum to 1e-9) to the engine-free executor
   ``swag.run`` over the first ``--oracle-records`` records (the windows they determine completely);
4. latency from record to window: a window of end ``e`` can fire once a micro-batch has read a
   record with time >= e + lateness + delay (Spark's watermark is the largest event time seen minus
   the delay; swag fires at window end - 1 + lateness). Latency = the wall time the sink committed
   the window's micro-batch (the mtime of its ``_spark_metadata`` entry) - the wall time the input
   file holding the first such record was published. p50 and p99 are reported.

Writes <out>/soak-spark.json and <out>/soak-spark-memory.png.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import clusters  # noqa: E402

KEYS = 64
DISORDER = 3000
DELAY = 5000
LATENESS = 2000
SIZE, SLIDE = 10_000, 2_000


def query():  # noqa: ANN201
    import swag

    return swag.Query(key="k", time="ts", lateness=f"{LATENESS}ms").window(
        f"{SIZE}ms", slide=f"{SLIDE}ms", name="w", mx=swag.max("v"), n=swag.count(), s=swag.sum("v")
    )


def records(i0: int, n: int, t0: int, step: float) -> dict:
    """Records i0 .. i0 + n - 1: key ``k<i % KEYS>``, time t0 + i * step - (0..DISORDER), value 0..999."""
    import numpy as np

    i = np.arange(i0, i0 + n, dtype=np.int64)
    h = (i * np.int64(-7046029254386353131)) ^ ((i * np.int64(-7046029254386353131)) >> np.int64(29))
    t = t0 + (i * step).astype(np.int64) - np.abs(h) % DISORDER
    return {"k": np.char.add("k", (i % KEYS).astype(str)), "t": t, "v": (np.abs(h >> np.int64(7)) % 1000).astype(float)}


def write_file(directory: Path, idx: int, cols: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = directory / f".part-{idx:06d}.tmp"
    pq.write_table(pa.table(cols), tmp)
    tmp.rename(directory / f"part-{idx:06d}.parquet")  # Spark ignores names starting with "."


class Generator(threading.Thread):
    """Publishes one file per ``interval`` seconds of ``rate`` x ``interval`` records."""

    def __init__(self, directory: Path, rate: int, interval: float, t0: int) -> None:
        super().__init__(daemon=True)
        self.directory, self.rate, self.interval, self.t0 = directory, rate, interval, t0
        self.per_file = int(rate * interval)
        self.log: list[dict] = []  # per file: first record, count, max time, wall ms published
        self.stop_flag = threading.Event()

    def run(self) -> None:
        start = time.monotonic()
        idx = 0
        while not self.stop_flag.is_set():
            i0 = idx * self.per_file
            cols = records(i0, self.per_file, self.t0, 1000.0 / self.rate)
            write_file(self.directory, idx, cols)
            self.log.append({"first": i0, "n": self.per_file, "max_t": int(cols["t"].max()),
                             "wall_ms": int(time.time() * 1000)})
            idx += 1
            time.sleep(max(0.0, start + idx * self.interval - time.monotonic()))


def start_query(spark, inp: Path, out: Path, ck: Path, interval: float | None, max_files: int):  # noqa: ANN001, ANN201
    from pyspark.sql import functions as F

    import swag.spark

    df = (spark.readStream.schema("k STRING, t LONG, v DOUBLE").option("maxFilesPerTrigger", max_files)
          .parquet(str(inp)))
    df = df.select("k", "v", F.timestamp_millis("t").alias("ts")).withWatermark("ts", f"{DELAY} milliseconds")
    res = swag.spark.aggregate(df, query())
    res = res.select(*[F.unix_millis(F.col(c)).alias(c) if c in ("window_start", "window_end") else F.col(c)
                       for c in res.columns])
    w = res.writeStream.format("parquet").outputMode("append").option("path", str(out)).option(
        "checkpointLocation", str(ck))
    w = w.trigger(processingTime=f"{interval} seconds") if interval else w.trigger(availableNow=True)
    return w.start()


def naive(cols: dict, horizon: int) -> dict:
    """(key, start, end) -> (max, count, sum) of every window ending at or before ``horizon``."""
    import pandas as pd

    df = pd.DataFrame(cols)
    parts = []
    for j in range(SIZE // SLIDE):
        parts.append(df.assign(start=(df["t"] // SLIDE) * SLIDE - j * SLIDE))
    x = pd.concat(parts)
    g = x.groupby(["k", "start"])["v"].agg(["max", "count", "sum"]).reset_index()
    g = g[g["start"] + SIZE <= horizon]
    return {(r.k, int(r.start), int(r.start) + SIZE): (float(r.max), int(r.count), float(r.sum))
            for r in g.itertuples(index=False)}


def executor_heaps() -> list[int]:
    """Heap used (bytes) of each executor JVM on this machine, from ``jstat -gc``."""
    pids = subprocess.run(["pgrep", "-f", "CoarseGrainedExecutorBackend"], capture_output=True, text=True).stdout.split()
    out = []
    for pid in pids:
        r = subprocess.run(["jstat", "-gc", pid], capture_output=True, text=True)
        lines = r.stdout.split("\n")
        if r.returncode != 0 or len(lines) < 2:
            continue
        cols = dict(zip(lines[0].split(), lines[1].split()))
        out.append(int(sum(float(cols[c]) for c in ("S0U", "S1U", "EU", "OU")) * 1024))
    return out


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def committed(out: Path) -> list[tuple[float, str]]:
    """(commit wall time ms, file path) of every file the sink committed, from its metadata log: each
    path once, timed by the first log entry naming it (its batch's, or a ``.compact`` file that
    repeats every earlier entry once the batch's own was cleaned up)."""
    meta = out / "_spark_metadata"
    res = []
    seen = set()
    for f in sorted(meta.iterdir(), key=lambda p: int(p.name.split(".")[0]) if p.name.split(".")[0].isdigit() else -1):
        if not f.name.split(".")[0].isdigit():
            continue
        wall = f.stat().st_mtime * 1000
        for line in f.read_text().splitlines()[1:]:
            e = json.loads(line)
            if e.get("action", "add") == "add" and e["path"] not in seen:
                seen.add(e["path"])
                res.append((wall, e["path"].replace("file://", "")))
    return res


def main() -> None:  # noqa: C901, PLR0915
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--load", type=float, default=0.7, help="fraction of the measured capacity")
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between input files and triggers")
    ap.add_argument("--probe-files", type=int, default=12)
    ap.add_argument("--probe-per-file", type=int, default=100_000)
    ap.add_argument("--oracle-records", type=int, default=2_000_000)
    ap.add_argument("--out", default="docs/figures")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--replot", default=None, help="only redraw the PNG from a soak-spark.json")
    a = ap.parse_args()
    if a.replot:
        res = json.loads(Path(a.replot).read_text())
        plot(res["samples"], Path(a.replot).with_name("soak-spark-memory.png"), res)
        return
    outdir = Path(a.out)
    outdir.mkdir(parents=True, exist_ok=True)
    work = Path(a.workdir or tempfile.mkdtemp(prefix="swag-soak-spark-"))
    c = clusters.SparkCluster(work / "spark", workers=2, cores=1, memory="1g")
    res: dict = {"engine": "spark", "minutes": a.minutes, "interval_s": a.interval, "load": a.load,
                 "uptime_start": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()}
    gen = None
    try:
        c.start()
        os.environ.update({k: v for k, v in c.driver_env().items() if k.startswith(("SPARK_LOCAL", "PYSPARK"))})
        os.environ.pop("SPARK_HOME", None)
        import swag.spark

        spark = swag.spark.session("swag-soak", master=c.master_url, shuffle_partitions=4, conf={
            "spark.driver.host": clusters.HOST, "spark.driver.bindAddress": clusters.HOST,
            "spark.driver.memory": "1g", "spark.executor.memory": "768m", "spark.executor.cores": "1",
            "spark.cores.max": "2", "spark.sql.streaming.numRecentProgressUpdates": "100000",
            "spark.sql.streaming.minBatchesToRetain": "20"})
        spark.sparkContext.setLogLevel("WARN")
        # 1. capacity
        probe_in = work / "probe-in"
        probe_in.mkdir()
        t0 = 1_700_000_000_000
        for f in range(a.probe_files):
            write_file(probe_in, f, records(f * a.probe_per_file, a.probe_per_file, t0, 1.0))
        sq = start_query(spark, probe_in, work / "probe-out", work / "probe-ck", None, 1)
        sq.awaitTermination()
        prog = [p for p in map(json.loads, (p.json for p in sq.recentProgress)) if p["numInputRows"] > 0]
        rates = [p["numInputRows"] * 1000 / max(1, p["durationMs"]["triggerExecution"]) for p in prog[3:]]
        cap = statistics.median(rates)
        rate = int(cap * a.load)
        res.update(capacity_rps=int(cap), probe_batch_rps=[round(r) for r in rates], rate_rps=rate)
        print(f"capacity {cap:.0f} records/s (probe batches of {a.probe_per_file}); soak at {rate}/s "
              f"for {a.minutes} min", flush=True)
        # 2. soak
        inp, out, ck = work / "in", work / "out", work / "ck"
        inp.mkdir()
        gen = Generator(inp, rate, a.interval, int(time.time() * 1000))
        gen.start()
        sq = start_query(spark, inp, out, ck, a.interval, 4)
        jvm_rt = spark.sparkContext._jvm.java.lang.Runtime.getRuntime()
        samples = []
        t_start = time.monotonic()
        while time.monotonic() - t_start < a.minutes * 60:
            time.sleep(10)
            assert sq.isActive, f"query stopped: {sq.exception()}"
            lp = sq.lastProgress or {}
            so = (lp.get("stateOperators") or [{}])[0]
            s = {"t": round(time.monotonic() - t_start, 1), "heap": executor_heaps(),
                 "driver_heap": int(jvm_rt.totalMemory() - jvm_rt.freeMemory()),
                 "state_rows": int(so.get("numRowsTotal", 0)), "state_mem": int(so.get("memoryUsedBytes", 0)),
                 "state_disk": du(ck / "state"), "files": len(gen.log),
                 "batches": int(lp.get("batchId", -1)) + 1}
            samples.append(s)
            print(json.dumps(s), flush=True)
        gen.stop_flag.set()
        gen.join()
        # let the query read what was published, then stop it
        deadline = time.monotonic() + 300
        published = sum(f["n"] for f in gen.log)
        while time.monotonic() < deadline:
            done = sum(p.numInputRows for p in sq.recentProgress)
            if done >= published:
                break
            time.sleep(2)
        progress = [json.loads(p.json) for p in sq.recentProgress]
        sq.stop()
        spark.stop()
    finally:
        if gen is not None:
            gen.stop_flag.set()
        c.stop()
    res["uptime_end"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    data = [p for p in progress if p["numInputRows"] > 0]
    res["records"] = sum(p["numInputRows"] for p in progress)
    res["published"] = published
    res["achieved_rps"] = round(res["records"] / (a.minutes * 60), 1)
    res["batches"] = len(progress)
    res["batch_ms_p50"] = statistics.median(p["durationMs"]["triggerExecution"] for p in data)
    res["batch_ms_max"] = max(p["durationMs"]["triggerExecution"] for p in data)
    late = sum(int((p.get("observedMetrics") or {}).get("swag", {}).get("late", 0)) for p in progress)
    rejected = sum(int((p.get("observedMetrics") or {}).get("swag", {}).get("rejected", 0)) for p in progress)
    res.update(late=late, rejected=rejected)
    # 3. output
    import pyarrow.parquet as pq

    rows: dict = {}
    first_commit: dict = {}
    doubled = 0
    for wall, path in committed(out):
        t = pq.read_table(path).to_pydict()
        for k, ws, we, mx, n, s in zip(t["k"], t["window_start"], t["window_end"], t["mx"], t["n"], t["s"]):
            key = (k, int(ws), int(we))
            doubled += key in rows
            rows[key] = (mx, int(n), s)
            first_commit.setdefault(key, wall)
    max_t = max(f["max_t"] for f in gen.log)
    last_end = max_t - DELAY - LATENESS - 20_000
    t_first = gen.t0 - DISORDER
    expected = {(f"k{k}", e - SIZE, e) for k in range(KEYS)
                for e in range((t_first // SLIDE + 1) * SLIDE, last_end + 1, SLIDE)}
    missing = expected - set(rows)
    # latency
    file_max = []
    m = -1 << 62
    for f in gen.log:
        m = max(m, f["max_t"])
        file_max.append(m)
    lat = []
    for key in expected & set(rows):
        j = bisect.bisect_left(file_max, key[2] + LATENESS + DELAY)
        if j < len(gen.log):
            lat.append(first_commit[key] - gen.log[j]["wall_ms"])
    lat.sort()
    res.update(windows=len(rows), expected=len(expected), missing=len(missing), doubled=doubled,
               latency_ms_p50=round(lat[len(lat) // 2]) if lat else None,
               latency_ms_p99=round(lat[int(len(lat) * 0.99)]) if lat else None)
    # values against a naive recompute (pandas: every record into each of its SIZE / SLIDE windows)
    want = naive(records(0, min(a.oracle_records, published), gen.t0, 1000.0 / rate),
                 min(last_end, gen.t0 + int(min(a.oracle_records, published) * 1000.0 / rate) - DISORDER - 1))
    wrong = [k for k, v in want.items() if k not in rows or rows[k][0] != v[0] or rows[k][1] != v[1]
             or abs(rows[k][2] - v[2]) > 1e-9 * max(1.0, abs(v[2]))]
    res.update(compared_with_naive=len(want), differing=len(wrong), differing_examples=[
        [list(k), rows.get(k), want[k]] for k in wrong[:3]])

    def third(xs: list[float], i: int) -> float:
        n = len(xs)
        part = xs[i * n // 3:(i + 1) * n // 3]
        return sum(part) / max(1, len(part))

    heaps = [sum(s["heap"]) for s in samples]
    disk = [s["state_disk"] for s in samples]
    srows = [s["state_rows"] for s in samples]
    res["heap_plateau"] = third(heaps, 2) <= 1.5 * third(heaps, 1)
    res["state_plateau"] = third(disk, 2) <= 1.5 * third(disk, 1) and third(srows, 2) <= 1.5 * third(srows, 1)
    res["samples"] = samples
    (outdir / "soak-spark.json").write_text(json.dumps(res, indent=1))
    plot(samples, outdir / "soak-spark-memory.png", res)
    print(json.dumps({k: v for k, v in res.items() if k not in ("samples", "probe_batch_rps")}), flush=True)
    if missing:
        print("missing, e.g.", sorted(missing)[:5], flush=True)
    ok = (bool(expected) and len(samples) >= 3 and not missing and not doubled and not wrong and len(want) > 1000
          and res["heap_plateau"]
          and res["state_plateau"] and late == 0 and rejected == 0)
    sys.exit(0 if ok else 1)


def plot(samples: list[dict], path: Path, res: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [s["t"] / 60 for s in samples]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    n = max(len(s["heap"]) for s in samples)
    for i in range(n):
        ax.plot(t, [s["heap"][i] / 2**20 if i < len(s["heap"]) else float("nan") for s in samples],
                label=f"executor {i} heap used")
    ax.plot(t, [s["driver_heap"] / 2**20 for s in samples], label="driver heap used", linestyle=":")
    ax.set_xlabel("minutes")
    ax.set_ylabel("heap used, MiB")
    ax2 = ax.twinx()
    ax2.plot(t, [s["state_disk"] / 2**20 for s in samples], label="state on disk (checkpoint)", linestyle="--",
             color="green")
    ax2.set_ylabel("state on disk, MiB")
    ax2.set_ylim(bottom=0)
    ax2.legend(fontsize=8, loc="lower right")
    ax.set_title(f"swag on Spark, {res['rate_rps']} records/s (capacity {res['capacity_rps']}/s)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()

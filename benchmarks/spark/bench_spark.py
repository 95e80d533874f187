"""Engine benchmarks of swag on Spark (docs/benchmarks-spark.md), one Spark session per run.

``python benchmarks/spark/bench_spark.py throughput`` -- records/s and state size of the swag operator vs
Spark's built-in ``groupBy(k, window(ts, size, slide)).agg(max, stddev)`` (same watermark, append
mode, RocksDB state store for both), for window/slide = 1, 10, 100, 1,000, 10,000. Same source
(Parquet files, one per micro-batch, ``maxFilesPerTrigger=1``) and sink (``noop``) for both. The
built-in turns every record into window/slide rows, so at large ratios it gets fewer records per
file (``--builtin-budget`` exploded rows per file); records/s is what each engine achieved.

``python benchmarks/spark/bench_spark.py window-size`` -- the swag operator's per-batch time at window sizes of
10^3..10^6 entries per key (one key, one record per ms): a fill phase of large batches, then
``--batches`` measured batches of ``--batch`` records (each also evicts ``--batch`` entries).

``python benchmarks/spark/bench_spark.py ceiling`` -- swag's records/s against the engine's ceiling: the same
streaming pipeline with a processor that reads every row and emits nothing (engine ``noop``,
``io.swag.spark.bench.NoOpPipeline`` from benchmarks/spark/NoOpPipeline.java, ``--bench-jar``),
engines alternating in each round, with the per-batch breakdown of ``durationMs`` and the state
operator's own time.

``python benchmarks/spark/bench_spark.py plot`` -- the PNG from the two JSON files.

Times are Spark's own per-batch ``durationMs.triggerExecution`` from the query progress; the first
data batch of each run (JIT, code generation, state store start) is left out of the rates.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BASE = 1_700_000_000_000  # epoch ms
SLIDE_MS = 1_000


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _session(driver_memory: str, extra: Sequence[str] = (), jars: Sequence[str] = ()) -> Any:
    import swag.spark

    conf = {"spark.driver.memory": driver_memory, "spark.sql.streaming.numRecentProgressUpdates": "1000"}
    for kv in extra:
        k, sep, v = kv.partition("=")
        if not sep or not k:
            raise SystemExit(f"--conf: expected KEY=VALUE, got {kv!r}")
        conf[k] = v
    spark = swag.spark.session("swag-bench", shuffle_partitions=2, conf=conf, jars=list(jars) or None)
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def write_files(directory: Path, sizes: Sequence[int], keys: int, step_ms: int, disorder_ms: int, seed: int) -> int:
    """Parquet files ``part-00000..`` of ``sizes[i]`` records: key ``k<i % keys>``, time ``BASE + i *
    step_ms`` minus a random 0..disorder_ms, value uniform in [0, 1000). Returns the record count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    i = 0
    for f, n in enumerate(sizes):
        ks = [f"k{(i + j) % keys}" for j in range(n)]
        ts = [BASE + (i + j) * step_ms - (rng.randint(0, disorder_ms) if disorder_ms else 0) for j in range(n)]
        vs = [rng.random() * 1000.0 for _ in range(n)]
        p = directory / f"part-{f:05d}.parquet"
        pq.write_table(pa.table({"k": ks, "t": ts, "v": vs}), p)
        os.utime(p, (1_600_000_000 + 10 * f,) * 2)  # the file source orders by modification time
        i += n
    return i


def _source(spark: Any, directory: Path, delay_ms: int) -> Any:
    from pyspark.sql import functions as F

    df = spark.readStream.schema("k STRING, t LONG, v DOUBLE").option("maxFilesPerTrigger", 1).parquet(str(directory))
    return df.select("k", F.timestamp_millis("t").alias("ts"), "v").withWatermark("ts", f"{delay_ms} milliseconds")


FUNCTIONS = ("max-stddev", "sketches")
ENGINES = ("swag", "swag-off", "builtin", "noop")


def _engines(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    bad = [n for n in names if n not in ENGINES]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"--engines: {', '.join(bad) or repr(text)} not one of {', '.join(ENGINES)}")
    return names


def _swag(df: Any, size_ms: int, slide_ms: int, preaggregate: str = "auto", functions: str = "max-stddev") -> Any:
    import swag
    import swag.spark

    fns = ({"mx": swag.max("v"), "sd": swag.stddev("v")} if functions == "max-stddev"
           else {"distinct": swag.hll("v"), "p95": swag.quantile("v", 0.95)})
    q = swag.Query(key="k", time="ts", lateness=0).window(size_ms, slide=slide_ms, **fns)
    return swag.spark.aggregate(df, q, preaggregate=preaggregate)  # type: ignore[arg-type]


def _builtin(df: Any, size_ms: int, slide_ms: int, functions: str = "max-stddev") -> Any:
    """Spark's own sliding window. ``sketches``: approx_count_distinct with rsd 0.016 and
    percentile_approx with accuracy 100, about the errors of swag's hll (lgK 12: 1.6%) and kll
    (k 200: 1.3% rank error); Spark's defaults (rsd 0.05, accuracy 10,000) differ."""
    from pyspark.sql import functions as F

    w = F.window("ts", f"{size_ms} milliseconds", f"{slide_ms} milliseconds")
    if functions == "sketches":
        return df.groupBy("k", w).agg(F.approx_count_distinct("v", 0.016).alias("distinct"),
                                      F.percentile_approx("v", 0.95, 100).alias("p95"))
    return df.groupBy("k", w).agg(F.max("v").alias("mx"), F.stddev("v").alias("sd"))


def _run(df: Any, checkpoint: Path) -> list[dict[str, Any]]:
    sq = (df.writeStream.format("noop").outputMode("append").option("checkpointLocation", str(checkpoint))
          .trigger(availableNow=True).start())
    sq.awaitTermination()
    if sq.exception() is not None:
        raise RuntimeError(str(sq.exception()))
    return [json.loads(p.json) if hasattr(p, "json") else p for p in sq.recentProgress]


def _summary(progress: list[dict[str, Any]], skip: int = 1) -> dict[str, Any]:
    data = [p for p in progress if p["numInputRows"] > 0]
    timed = data[skip:] if len(data) > skip else data
    rows = sum(p["numInputRows"] for p in timed)
    ms = sum(p["durationMs"]["triggerExecution"] for p in timed)
    ops = [p["stateOperators"][0] for p in progress if p.get("stateOperators")]
    obs = [(p.get("observedMetrics") or {}).get("swag") for p in progress]
    return {
        "batches": len(data),
        "records": sum(p["numInputRows"] for p in data),
        "timed_records": rows,
        "timed_ms": ms,
        "records_per_s": round(rows / (ms / 1000.0), 1) if ms else None,
        "batch_ms": [p["durationMs"]["triggerExecution"] for p in data],
        "state_rows_max": max((o.get("numRowsTotal", 0) for o in ops), default=None),
        "state_bytes_max": max((o.get("memoryUsedBytes", 0) for o in ops), default=None),
        "late": sum(int(o["late"]) for o in obs if o),
        "windows": sum(int(o["windows"]) for o in obs if o) if any(obs) else None,
    }


def _state_conf(spark: Any) -> dict[str, str | None]:
    """The state store settings both engines ran with (recorded in the result JSON)."""
    import swag.spark

    return {k: spark.conf.get(k, None) for k in (swag.spark.PROVIDER_CONF, swag.spark.CHANGELOG_CONF)}


def _machine() -> dict[str, Any]:
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "java": java[0] if java else "?",
        "python": platform.python_version(),
    }


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _result(kind: str, args: argparse.Namespace, load_before: str, results: list[dict[str, Any]],
            **extra: Any) -> dict[str, Any]:
    """A result file's content: what ran, where, under what load, and the figures."""
    params = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items() if k != "func"}
    return {"kind": kind, "machine": _machine(), "load_before": load_before, "load_after": _uptime(),
            "command": " ".join(sys.argv), "params": params, **extra, "results": results}


def throughput(args: argparse.Namespace) -> dict[str, Any]:
    spark = _session(args.driver_memory, args.conf)
    session_conf = _state_conf(spark)
    root = Path(tempfile.mkdtemp(prefix="swag-bench-spark-"))
    results: list[dict[str, Any]] = []
    load_before = _uptime()
    try:
        for ratio in args.ratios:
            size = ratio * SLIDE_MS
            for engine in args.engines:
                is_swag = engine.startswith("swag")
                per_file = args.per_file if is_swag else max(1, min(args.per_file, args.builtin_budget // ratio))
                files = args.files if is_swag or ratio < 10_000 else min(args.files, args.builtin_files_large)
                d = root / f"in-{engine}-{ratio}"
                write_files(d, [per_file] * files, args.keys, args.step_ms, args.disorder_ms, seed=ratio)
                df = _source(spark, d, args.disorder_ms)
                # "swag-off": swag with preaggregate="off" (records through the shuffle), beside "swag"
                pre = "off" if engine == "swag-off" else args.preaggregate
                out = (_swag(df, size, SLIDE_MS, pre, args.functions) if is_swag
                       else _builtin(df, size, SLIDE_MS, args.functions))
                t0 = time.perf_counter()
                s = _summary(_run(out, root / f"ck-{engine}-{ratio}"))
                s.update(engine=engine, ratio=ratio, size_ms=size, slide_ms=SLIDE_MS, per_file=per_file, files=files,
                         wall_s=round(time.perf_counter() - t0, 2))
                results.append(s)
                _log(f"ratio {ratio:>6} {engine:>7}: {s['records_per_s']} records/s over {s['timed_records']} records, "
                     f"state rows {s['state_rows_max']}, state bytes {s['state_bytes_max']}, late {s['late']}")
                shutil.rmtree(d, ignore_errors=True)
    finally:
        spark.stop()
        shutil.rmtree(root, ignore_errors=True)
    return _result("throughput", args, load_before, results, session=session_conf)


BATCH_PARTS = ("addBatch", "queryPlanning", "getBatch", "latestOffset", "walCommit", "commitOffsets", "triggerExecution")


def _noop(spark: Any, df: Any) -> Any:
    """The ceiling pipeline (engine ``noop``): NoOpPipeline.noop over (k, ts, v)."""
    from pyspark.sql import DataFrame

    return DataFrame(spark._jvm.io.swag.spark.bench.NoOpPipeline.noop(df._jdf, "k", "ts", "v"), spark)


def _breakdown(progress: list[dict[str, Any]], skip: int = 1) -> dict[str, Any]:
    """Medians over the timed data batches: each ``durationMs`` part, and the state operator's own
    time (``allUpdatesTimeMs`` + ``allRemovalsTimeMs``: its input rows, timers and evictions) and
    ``commitTimeMs``."""
    data = [p for p in progress if p["numInputRows"] > 0]
    timed = data[skip:] if len(data) > skip else data
    r: dict[str, Any] = {}
    for k in BATCH_PARTS:
        r[f"median_{k}_ms"] = statistics.median(p["durationMs"].get(k, 0) for p in timed) if timed else None
    ops = [p["stateOperators"][0] for p in timed if p.get("stateOperators")]
    r["median_operator_ms"] = (statistics.median(o.get("allUpdatesTimeMs", 0) + o.get("allRemovalsTimeMs", 0)
                                                 for o in ops) if ops else None)
    r["median_state_commit_ms"] = statistics.median(o.get("commitTimeMs", 0) for o in ops) if ops else None
    return r


CEILING_CSV = ("round", "ratio", "engine", "records", "timed_records", "timed_ms", "records_per_s", "median_batch_ms",
               *(f"median_{k}_ms" for k in BATCH_PARTS if k != "triggerExecution"), "median_operator_ms",
               "median_state_commit_ms")


def _ceiling_query(spark: Any, df: Any, engine: str, size_ms: int) -> Any:
    """The ceiling's query of ``engine`` (``noop``, ``swag`` or ``swag-off``) over ``df``, windows of ``size_ms``."""
    if engine == "noop":
        return _noop(spark, df)
    return _swag(df, size_ms, SLIDE_MS, "off" if engine == "swag-off" else "auto")


def ceiling(args: argparse.Namespace) -> dict[str, Any]:
    """Per round and window/slide, each engine once (the order rotating), over the same files."""
    jars = [str(args.bench_jar)] if "noop" in args.engines else []
    if jars and not args.bench_jar.is_file():
        raise SystemExit(f"--bench-jar {args.bench_jar}: not found (make bench-spark-ceiling builds it)")
    spark = _session(args.driver_memory, args.conf, jars)
    root = Path(tempfile.mkdtemp(prefix="swag-bench-spark-ceil-"))
    results: list[dict[str, Any]] = []
    load_before = _uptime()
    try:
        d = root / "in"
        write_files(d, [args.per_file] * args.files, args.keys, args.step_ms, args.disorder_ms, seed=1)
        run = 0
        # warm-up, not recorded: each engine at each window/slide once over the first files (JIT, code
        # generation; a window of one slice and one of several take different paths)
        w = root / "warm"
        w.mkdir()
        for f in sorted(d.iterdir())[:2]:
            os.link(f, w / f.name)
        for ratio in args.ratios:
            for engine in args.engines:
                run += 1
                _run(_ceiling_query(spark, _source(spark, w, args.disorder_ms), engine, ratio * SLIDE_MS),
                     root / f"ck-{run}")
        _log("warmed up")
        for rnd in range(args.first_round, args.first_round + args.rounds):
            for i, ratio in enumerate(args.ratios):
                size = ratio * SLIDE_MS
                n = len(args.engines)
                for e in range(n):
                    engine = args.engines[(rnd + i + e) % n]
                    out = _ceiling_query(spark, _source(spark, d, args.disorder_ms), engine, size)
                    run += 1
                    progress = _run(out, root / f"ck-{run}")
                    s = _summary(progress)
                    s.update(_breakdown(progress))
                    s.update(round=rnd, engine=engine, ratio=ratio, size_ms=size, slide_ms=SLIDE_MS,
                             median_batch_ms=s["median_triggerExecution_ms"])
                    results.append(s)
                    _log(f"round {rnd} ratio {ratio:>5} {engine:>8}: {s['records_per_s']} records/s, median batch "
                         f"{s['median_batch_ms']} ms (addBatch {s['median_addBatch_ms']}, operator "
                         f"{s['median_operator_ms']}, state commit {s['median_state_commit_ms']})")
    finally:
        spark.stop()
        shutil.rmtree(root, ignore_errors=True)
    if args.csv is not None:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        new = not args.csv.exists()
        with args.csv.open("a") as f:
            if new:
                f.write(",".join(CEILING_CSV) + "\n")
            for r in results:
                f.write(",".join("" if r.get(k) is None else str(r[k]) for k in CEILING_CSV) + "\n")
        _log(f"appended {len(results)} rows to {args.csv}")
    return _result("ceiling", args, load_before, results)


def backfill(args: argparse.Namespace) -> dict[str, Any]:
    """The batch back-fill: one static DataFrame of ``files x per_file`` records (``keys`` keys),
    written to Spark's ``noop`` sink, ``repeats`` times per engine and ratio (median wall time)."""
    spark = _session(args.driver_memory, args.conf)
    root = Path(tempfile.mkdtemp(prefix="swag-bench-spark-bf-"))
    results: list[dict[str, Any]] = []
    load_before = _uptime()
    try:
        d = root / "in"
        n = write_files(d, [args.per_file] * args.files, args.keys, args.step_ms, args.disorder_ms, seed=7)
        from pyspark.sql import functions as F

        df = spark.read.parquet(str(d)).select("k", F.timestamp_millis("t").alias("ts"), "v")
        for ratio in args.ratios:
            size = ratio * SLIDE_MS
            for engine in args.engines:
                pre = "off" if engine == "swag-off" else args.preaggregate
                out = (_swag(df, size, SLIDE_MS, pre, args.functions) if engine.startswith("swag")
                       else _builtin(df, size, SLIDE_MS, args.functions))
                secs = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    out.write.format("noop").mode("overwrite").save()
                    secs.append(round(time.perf_counter() - t0, 3))
                med = statistics.median(secs)
                results.append({"engine": engine, "ratio": ratio, "size_ms": size, "slide_ms": SLIDE_MS, "records": n,
                                "seconds": secs, "median_s": med, "records_per_s": round(n / med, 1)})
                _log(f"backfill ratio {ratio:>5} {engine:>8}: {n / med:,.0f} records/s (runs {secs} s)")
    finally:
        spark.stop()
        shutil.rmtree(root, ignore_errors=True)
    return _result("backfill", args, load_before, results)


def window_size(args: argparse.Namespace) -> dict[str, Any]:
    spark = _session(args.driver_memory, args.conf)
    root = Path(tempfile.mkdtemp(prefix="swag-bench-spark-ws-"))
    results: list[dict[str, Any]] = []
    load_before = _uptime()
    try:
        for size in args.sizes:
            fill = [args.fill_file] * (size // args.fill_file + 1)
            d = root / f"in-{size}"
            write_files(d, fill + [args.batch] * args.batches, 1, 1, args.disorder_ms, seed=size)
            out = _swag(_source(spark, d, args.disorder_ms), size, args.slide_ms, args.preaggregate)
            progress = _run(out, root / f"ck-{size}")
            data = [p for p in progress if p["numInputRows"] > 0]
            measured = data[len(fill):]
            ms = [p["durationMs"]["triggerExecution"] for p in measured]
            add = [p["durationMs"].get("addBatch", 0) for p in measured]
            ops = [p["stateOperators"][0] for p in measured if p.get("stateOperators")]
            r = {"size_ms": size, "entries_per_key": size, "batch": args.batch, "fill_batches": len(fill),
                 "measured_batches": len(measured), "batch_ms": ms, "median_batch_ms": statistics.median(ms),
                 "median_add_batch_ms": statistics.median(add), "state_rows": [o.get("numRowsTotal") for o in ops],
                 "state_bytes": [o.get("memoryUsedBytes") for o in ops],
                 # the stateful operator's own time (input rows, timers, evictions) and state writes
                 "operator_ms": [o.get("allUpdatesTimeMs", 0) + o.get("allRemovalsTimeMs", 0) for o in ops],
                 "commit_ms": [o.get("commitTimeMs", 0) for o in ops],
                 "rows_updated": [o.get("numRowsUpdated") for o in ops],
                 "state_custom": [{k: v for k, v in (o.get("customMetrics") or {}).items()
                                   if "Bytes" in k or "Put" in k or "Flush" in k} for o in ops]}
            r["median_operator_ms"] = statistics.median(r["operator_ms"]) if ops else None
            results.append(r)
            _log(f"window {size:>8} entries: median batch {r['median_batch_ms']} ms (addBatch "
                 f"{r['median_add_batch_ms']} ms, operator {r['median_operator_ms']} ms) for {args.batch} "
                 f"records, state rows {r['state_rows'][-1:]}, custom {r['state_custom'][-1:]}")
            shutil.rmtree(d, ignore_errors=True)
    finally:
        spark.stop()
        shutil.rmtree(root, ignore_errors=True)
    return _result("window-size", args, load_before, results)


def plot(args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tp = json.loads(Path(args.throughput).read_text())
    ws = json.loads(Path(args.window_size).read_text())
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for engine, style in (("swag", "o-"), ("builtin", "s--")):
        rs = sorted((r["ratio"], r["records_per_s"]) for r in tp["results"] if r["engine"] == engine)
        if rs:
            a.plot([x for x, _ in rs], [y for _, y in rs], style, label="swag operator" if engine == "swag"
                   else "built-in window()")
    a.set(xscale="log", yscale="log", xlabel="window / slide", ylabel="records/s",
          title=("hll + p95" if tp["params"].get("functions") == "sketches" else "max + stddev")
          + ", append mode, local[2]")
    a.legend()
    rs = sorted((r["entries_per_key"], r["median_batch_ms"]) for r in ws["results"])
    b.plot([x for x, _ in rs], [y for _, y in rs], "o-")
    b.set(xscale="log", xlabel="window size (entries per key)", ylabel="median batch time (ms)",
          title=f"swag per-batch time, {ws['params']['batch']} records/batch", ylim=(0, None))
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    _log(f"wrote {args.png}")


def table(args: argparse.Namespace) -> None:
    """Markdown tables of the two result files (for docs/benchmarks-spark.md)."""
    tp = json.loads(Path(args.throughput).read_text())
    by = {(r["engine"], r["ratio"]): r for r in tp["results"]}
    print("| window/slide | window | swag records/s | built-in records/s | swag / built-in | same, median batch "
          "| swag state rows | swag state bytes | built-in state rows | built-in state bytes | built-in records x batches |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def med(r: dict[str, Any]) -> float:  # records/s of the median timed micro-batch
        return r["per_file"] * 1000.0 / statistics.median(r["batch_ms"][1:] or r["batch_ms"])

    for ratio in sorted({r for _, r in by}):
        s, b = by.get(("swag", ratio)), by.get(("builtin", ratio))
        x = f"{s['records_per_s'] / b['records_per_s']:.1f}x" if s and b and b["records_per_s"] else "-"
        xm = f"{med(s) / med(b):.1f}x" if s and b else "-"

        def f(r: dict[str, Any] | None, k: str) -> str:
            return "-" if r is None or r.get(k) is None else f"{r[k]:,.0f}"

        size = f"{ratio * SLIDE_MS // 1000:,} s"
        bb = f"{b['per_file']:,} x {b['batches']}" if b else "-"
        print(f"| {ratio:,} | {size} | {f(s, 'records_per_s')} | {f(b, 'records_per_s')} | {x} | {xm} | {f(s, 'state_rows_max')} "
              f"| {f(s, 'state_bytes_max')} | {f(b, 'state_rows_max')} | {f(b, 'state_bytes_max')} | {bb} |")
    ws = json.loads(Path(args.window_size).read_text())
    print()
    print("| window (entries per key) | median batch ms | median addBatch ms | batch times ms | state rows | state bytes |")
    print("|---:|---:|---:|---|---:|---:|")
    for r in ws["results"]:
        print(f"| {r['entries_per_key']:,} | {r['median_batch_ms']:,.0f} | {r['median_add_batch_ms']:,.0f} "
              f"| {', '.join(str(x) for x in r['batch_ms'])} | {r['state_rows'][-1] if r['state_rows'] else '-'} "
              f"| {r['state_bytes'][-1] if r['state_bytes'] else '-'} |")


def _ints(s: str) -> list[int]:
    return [int(x) for x in s.split(",") if x]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/spark/bench_spark.py", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("throughput", help="swag vs built-in window(): records/s and state size")
    t.add_argument("--ratios", type=_ints, default=[1, 10, 100, 1000, 10000])
    t.add_argument("--engines", type=_engines, default=["swag", "builtin"],
                   help="comma-separated: swag, swag-off (preaggregate=off), builtin")
    t.add_argument("--functions", choices=FUNCTIONS, default="max-stddev",
                   help="max-stddev, or sketches: hll + p95 (kll) vs approx_count_distinct + percentile_approx")
    t.add_argument("--files", type=int, default=8, help="micro-batches per run")
    t.add_argument("--per-file", type=int, default=50_000, help="records per micro-batch")
    t.add_argument("--builtin-budget", type=int, default=2_000_000,
                   help="max exploded rows (records x window/slide) per built-in micro-batch")
    t.add_argument("--builtin-files-large", type=int, default=3,
                   help="micro-batches of the built-in at window/slide >= 10,000 (its generated code exceeds 64 KB "
                        "there, Spark falls back to interpreted Expand: minutes per batch)")
    t.add_argument("--keys", type=int, default=8)
    t.add_argument("--step-ms", type=int, default=10, help="event time between consecutive records")
    t.add_argument("--disorder-ms", type=int, default=2_000, help="max out-of-orderness = watermark delay")
    t.add_argument("--driver-memory", default="4g")
    t.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="extra Spark setting for the session both engines share (repeatable)")
    t.add_argument("--preaggregate", choices=["auto", "off"], default="auto",
                   help="swag's pre-aggregation of slices before the shuffle (docs/spark.md)")
    t.add_argument("--out", type=Path, required=True)
    t.set_defaults(func=throughput)
    b = sub.add_parser("backfill", help="batch back-fill: swag (pre-aggregated or not) vs built-in window()")
    b.add_argument("--ratios", type=_ints, default=[1, 10, 100])
    b.add_argument("--engines", type=_engines, default=["swag", "swag-off", "builtin"])
    b.add_argument("--functions", choices=FUNCTIONS, default="max-stddev")
    b.add_argument("--files", type=int, default=4)
    b.add_argument("--per-file", type=int, default=500_000)
    b.add_argument("--keys", type=int, default=8)
    b.add_argument("--step-ms", type=int, default=10)
    b.add_argument("--disorder-ms", type=int, default=2_000)
    b.add_argument("--repeats", type=int, default=3)
    b.add_argument("--preaggregate", choices=["auto", "off"], default="auto", help="for engine swag")
    b.add_argument("--driver-memory", default="4g")
    b.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE")
    b.add_argument("--out", type=Path, required=True)
    b.set_defaults(func=backfill)
    c = sub.add_parser("ceiling", help="swag vs the same pipeline with a no-op processor (noop), alternating")
    c.add_argument("--ratios", type=_ints, default=[1, 10, 100, 1000])
    c.add_argument("--engines", type=_engines, default=["swag", "swag-off", "noop"])
    c.add_argument("--rounds", type=int, default=1)
    c.add_argument("--first-round", type=int, default=0,
                   help="the first round's number (it sets the engine order: several invocations continue the rotation)")
    c.add_argument("--files", type=int, default=6, help="micro-batches per run")
    c.add_argument("--per-file", type=int, default=250_000, help="records per micro-batch")
    c.add_argument("--keys", type=int, default=8)
    c.add_argument("--step-ms", type=int, default=10)
    c.add_argument("--disorder-ms", type=int, default=2_000)
    c.add_argument("--driver-memory", default="4g")
    c.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE")
    c.add_argument("--bench-jar", type=Path, default=Path("benchmarks/spark/target/swag-spark-bench.jar"),
                   help="jar of io.swag.spark.bench (make bench-spark-ceiling builds it from benchmarks/spark/NoOpPipeline.java)")
    c.add_argument("--csv", type=Path, help="also append one line per run to this CSV")
    c.add_argument("--out", type=Path, required=True)
    c.set_defaults(func=ceiling)
    w = sub.add_parser("window-size", help="swag per-batch time vs window size")
    w.add_argument("--sizes", type=_ints, default=[1_000, 10_000, 100_000, 1_000_000])
    w.add_argument("--slide-ms", type=int, default=1_000)
    w.add_argument("--batch", type=int, default=20_000)
    w.add_argument("--batches", type=int, default=8)
    w.add_argument("--fill-file", type=int, default=200_000)
    w.add_argument("--disorder-ms", type=int, default=100)
    w.add_argument("--driver-memory", default="4g")
    w.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="extra Spark setting for the session both engines share (repeatable)")
    w.add_argument("--preaggregate", choices=["auto", "off"], default="off",
                   help="off (default): the state holds every record, the window's entries; auto: slices")
    w.add_argument("--out", type=Path, required=True)
    w.set_defaults(func=window_size)
    g = sub.add_parser("plot", help="PNG of the two result files")
    g.add_argument("--throughput", type=Path, required=True)
    g.add_argument("--window-size", type=Path, required=True)
    g.add_argument("--png", type=Path, required=True)
    g.set_defaults(func=plot)
    tb = sub.add_parser("table", help="markdown tables of the two result files")
    tb.add_argument("--throughput", type=Path, required=True)
    tb.add_argument("--window-size", type=Path, required=True)
    tb.set_defaults(func=table)
    args = p.parse_args(argv)
    if args.cmd in ("plot", "table"):
        args.func(args)
        return 0
    res = args.func(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n")
    _log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

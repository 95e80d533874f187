"""``python -m swag demo``: ``--engine spark`` (default) runs the main PySpark pipeline
(:mod:`swag.pipeline`), ``--engine flink`` the same on PyFlink (:mod:`swag.pipeline_flink`), and
``--engine local`` the engine-free demo this module implements:

Per-station sliding windows over Citi Bike trips with the local Python API.

Every start station gets a 1-hour time-based sliding window (``evict_up_to(t - 1 h)`` before each
insert) holding five timed aggregators: max, mean and standard deviation of the trip duration,
distinct bikes (HyperLogLog) and the 95th percentile of the duration (KLL). The demo prints the
busiest stations' windows at a few moments and each station's peak window.

Runs on the trip sample shipped in the package (the first 3,000 trips of January 2016 of the
Jersey City system) unless ``--data`` names files or directories of Citi Bike ``*.csv.gz`` files
(e.g. ``../shared/data/citibike``). Reads CSV with the standard library only.
"""

from __future__ import annotations

import argparse
import csv
import glob
import gzip
import math
import sys
import time as _time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO

from tqdm import tqdm  # type: ignore[import-untyped]

from ._version import __version__
from .local import TimedAggregator, timed_aggregator

SAMPLE = Path(__file__).resolve().parent / "data" / "citibike-sample.csv.gz"
_EPOCH = datetime(1970, 1, 1)
_MS = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Trip:
    start_ms: int  # start time, wall clock (New York local time read as UTC), epoch ms
    station_id: str
    station: str
    duration_s: float
    bike_id: int | str


@dataclass(frozen=True, slots=True)
class WindowStats:
    """One station's window aggregates at time ``end_ms`` (window ``(end_ms - width, end_ms]``)."""

    end_ms: int
    trips: int
    max_s: float | None
    mean_s: float
    stddev_s: float
    bikes: float
    p95_s: float


@dataclass
class DemoResult:
    trips: int
    stations: int
    first_ms: int
    last_ms: int
    window_s: int
    algorithm: str
    busiest: list[str]
    snapshots: list[tuple[int, list[tuple[str, WindowStats]]]]
    peaks: list[tuple[str, WindowStats]]  # every station's peak, busiest window first
    inserts: int = 0
    evictions: int = 0
    seconds: float = 0.0
    skipped_rows: int = 0
    names: dict[str, str] = field(default_factory=dict)


# ---- reading the trip files ----


def parse_time(text: str) -> int:
    """Epoch milliseconds of a Citi Bike time: ``2016-01-01 00:02:52``, ``2019-01-01
    03:09:09.7110`` or ``12/1/2018 0:03:53`` (wall clock, read as UTC)."""
    s = text.strip()
    if len(s) >= 10 and s[4] == "-":
        dt = datetime.fromisoformat(s)
    else:
        day, _, clock = s.partition(" ")
        month, dom, year = (int(x) for x in day.split("/"))
        if year < 100:
            year += 2000
        parts = clock.split(":")
        seconds = float(parts[2]) if len(parts) > 2 else 0.0
        dt = datetime(year, month, dom, int(parts[0]), int(parts[1])) + timedelta(seconds=seconds)
    return (dt - _EPOCH) // _MS


def _column(header: list[str], path: object, *names: str) -> int:
    for name in names:
        for i, h in enumerate(header):
            if h == name or (name.endswith("*") and h.startswith(name[:-1])):
                return i
    raise ValueError(f"{path}: not a Citi Bike trip file (no column {' / '.join(names)!r})")


def read_trips_from(stream: IO[str], path: object = "<stream>") -> tuple[list[Trip], int]:
    """The trips of one CSV stream (file order) and the number of rows skipped as malformed."""
    reader = csv.reader(stream)
    header = [h.strip().lower() for h in next(reader, [])]
    if not header:
        return [], 0
    dur = _column(header, path, "tripduration*", "trip duration*")
    if "start date" in header and "start time" in header:  # 2018-12: `starttime` is cut to minutes
        date_col, time_col = header.index("start date"), header.index("start time")
    else:
        date_col, time_col = -1, _column(header, path, "start time", "starttime")
    sid = _column(header, path, "start station id")
    sname = _column(header, path, "start station name")
    bike = _column(header, path, "bike id", "bikeid")
    trips: list[Trip] = []
    skipped = 0
    for row in reader:
        try:
            when = row[time_col] if date_col < 0 else f"{row[date_col]} {row[time_col]}"
            b = row[bike].strip()
            trips.append(
                Trip(
                    start_ms=parse_time(when),
                    station_id=row[sid].strip(),
                    station=row[sname].strip(),
                    duration_s=float(row[dur]),
                    bike_id=int(b) if b.isdigit() else b,
                )
            )
        except (ValueError, IndexError):
            skipped += 1
    return trips, skipped


def resolve_paths(specs: Sequence[str | Path]) -> list[Path]:
    """Files named by ``specs``: files, directories (their ``*.csv.gz`` and ``*.csv``) or globs."""
    out: list[Path] = []
    for spec in specs:
        p = Path(spec).expanduser()
        if p.is_dir():
            found = sorted(p.glob("*.csv.gz")) + sorted(p.glob("*.csv"))
            if not found:
                raise FileNotFoundError(f"no *.csv.gz or *.csv files in directory {p}")
            out.extend(found)
        elif p.is_file():
            out.append(p)
        else:
            matches = sorted(Path(m) for m in glob.glob(str(p)))
            if not matches:
                raise FileNotFoundError(f"no such file, directory or glob match: {spec}")
            out.extend(matches)
    return out


def _open_text(p: Path) -> IO[str]:
    if p.suffix == ".gz":
        return gzip.open(p, "rt", encoding="utf-8-sig", newline="")
    return open(p, encoding="utf-8-sig", newline="")


def read_trips(paths: Iterable[str | Path]) -> tuple[list[Trip], int]:
    """All trips of ``paths`` (gzipped or plain CSV) sorted by start time, and the number of
    malformed rows skipped."""
    trips: list[Trip] = []
    skipped = 0
    for path in paths:
        p = Path(path)
        with _open_text(p) as text:
            t, s = read_trips_from(text, p)
        trips.extend(t)
        skipped += s
    trips.sort(key=lambda t: t.start_ms)  # stable: ties keep file order
    return trips, skipped


# ---- the windows ----


class StationWindow:
    """The five timed aggregators of one station's sliding window."""

    __slots__ = ("max", "mean", "stddev", "bikes", "p95")

    def __init__(self, algorithm: str) -> None:
        self.max = timed_aggregator(algorithm, "max")
        self.mean = timed_aggregator(algorithm, "mean")
        self.stddev = timed_aggregator(algorithm, "stddev")
        self.bikes = timed_aggregator(algorithm, "hll")
        self.p95 = timed_aggregator(algorithm, "quantile", rank=0.95)

    def _all(self) -> tuple[TimedAggregator, ...]:
        return (self.max, self.mean, self.stddev, self.bikes, self.p95)

    def evict_up_to(self, time_ms: int) -> int:
        n = self.max.evict_up_to(time_ms)
        if n:  # the five windows hold the same times
            for agg in self._all()[1:]:
                agg.evict_up_to(time_ms)
        return n

    def add(self, trip: Trip) -> None:
        t, d = trip.start_ms, trip.duration_s
        self.max.insert(t, d)
        self.mean.insert(t, d)
        self.stddev.insert(t, d)
        self.bikes.insert(t, trip.bike_id)
        self.p95.insert(t, d)

    def __len__(self) -> int:
        return len(self.max)

    def stats(self, end_ms: int) -> WindowStats:
        return WindowStats(
            end_ms=end_ms,
            trips=len(self.max),
            max_s=self.max.query(),
            mean_s=self.mean.query(),
            stddev_s=self.stddev.query(),
            bikes=self.bikes.query(),
            p95_s=self.p95.query(),
        )


def run(
    trips: Sequence[Trip],
    *,
    window_s: int = 3600,
    algorithm: str = "daba_lite",
    busiest: int = 3,
    moments: int = 4,
    progress: bool | None = None,
) -> DemoResult:
    """Slides a ``window_s`` window per start station over ``trips`` (sorted by start time).

    Snapshots of the ``busiest`` stations (by number of trips) are taken at ``moments`` times:
    the start times of the trips at equal steps through the stream (the last is the last trip).
    ``progress``: True shows a tqdm bar, False hides it, None shows it on a terminal.
    """
    if not trips:
        raise ValueError("no trips to run on")
    width = window_s * 1000
    names: dict[str, str] = {}
    totals: dict[str, int] = {}
    for trip in trips:
        names.setdefault(trip.station_id, trip.station)
        totals[trip.station_id] = totals.get(trip.station_id, 0) + 1
    top = sorted(totals, key=lambda s: (-totals[s], names[s]))[:busiest]
    n = len(trips)
    moment_times = sorted({trips[max(0, (k * n) // moments - 1)].start_ms for k in range(1, moments + 1)})

    windows: dict[str, StationWindow] = {}
    peaks: dict[str, WindowStats] = {}
    snapshots: list[tuple[int, list[tuple[str, WindowStats]]]] = []
    inserts = evictions = 0

    def snapshot(at: int) -> None:
        nonlocal evictions
        rows = []
        for sid in top:
            w = windows.get(sid)
            if w is None:
                w = windows[sid] = StationWindow(algorithm)
            evictions += w.evict_up_to(at - width)
            rows.append((sid, w.stats(at)))
        snapshots.append((at, rows))

    started = _time.perf_counter()
    next_moment = 0
    bar = tqdm(trips, total=n, unit="trip", desc="sliding windows", leave=False, file=sys.stderr,
               disable=(not progress) if progress is not None else None, mininterval=0.25)
    for trip in bar:
        t = trip.start_ms
        while next_moment < len(moment_times) and moment_times[next_moment] < t:
            snapshot(moment_times[next_moment])
            next_moment += 1
        w = windows.get(trip.station_id)
        if w is None:
            w = windows[trip.station_id] = StationWindow(algorithm)
        evictions += w.evict_up_to(t - width)
        w.add(trip)
        inserts += 1
        best = peaks.get(trip.station_id)
        if best is None or len(w) > best.trips:
            peaks[trip.station_id] = w.stats(t)
    bar.close()
    while next_moment < len(moment_times):
        snapshot(moment_times[next_moment])
        next_moment += 1
    seconds = _time.perf_counter() - started

    ranked = sorted(peaks.items(), key=lambda kv: (-kv[1].trips, kv[1].end_ms, names[kv[0]]))
    return DemoResult(
        trips=n,
        stations=len(totals),
        first_ms=trips[0].start_ms,
        last_ms=trips[-1].start_ms,
        window_s=window_s,
        algorithm=algorithm,
        busiest=top,
        snapshots=snapshots,
        peaks=ranked,
        inserts=inserts,
        evictions=evictions,
        seconds=seconds,
        names=names,
    )


# ---- output ----


def fmt_time(ms: int) -> str:
    return (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M")


def fmt_duration(seconds: float | None) -> str:
    """``12m05s``, ``3h07m``, ``2d04h``; ``-`` for none."""
    if seconds is None or math.isnan(seconds):
        return "-"
    s = int(round(seconds))
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 86400}d{s % 86400 // 3600:02d}h"


def fmt_window(width_s: int) -> str:
    if width_s % 3600 == 0:
        return f"{width_s // 3600} h"
    if width_s % 60 == 0:
        return f"{width_s // 60} min"
    return f"{width_s} s"


_HEADER = f"{'window end':<16}  {'start station':<24} {'trips':>5} {'max dur':>8} {'mean dur':>8} " \
          f"{'stddev':>8} {'bikes':>5} {'p95 dur':>8}"


def _row(name: str, s: WindowStats) -> str:
    bikes = "-" if s.trips == 0 else f"{s.bikes:.0f}"
    return (
        f"{fmt_time(s.end_ms):<16}  {name[:24]:<24} {s.trips:>5} {fmt_duration(s.max_s):>8} "
        f"{fmt_duration(s.mean_s):>8} {fmt_duration(s.stddev_s):>8} {bikes:>5} {fmt_duration(s.p95_s):>8}"
    )


def format_report(r: DemoResult, sources: str, top: int = 5) -> str:
    w = fmt_window(r.window_s)
    lines = [
        f"swag {__version__} demo: Citi Bike trips, a {w} sliding window per start station "
        f"({r.algorithm}: max, mean, stddev, hll, kll p95)",
        f"data: {sources}",
        f"{r.trips} trips from {r.stations} start stations, {fmt_time(r.first_ms)} .. {fmt_time(r.last_ms)}"
        + (f" ({r.skipped_rows} malformed rows skipped)" if r.skipped_rows else ""),
        "",
        f"The {len(r.busiest)} busiest stations, trips in the last {w}, at {len(r.snapshots)} moments:",
        _HEADER,
    ]
    for _, rows in r.snapshots:
        lines.extend(_row(r.names[sid], s) for sid, s in rows)
    lines += ["", f"Peak {w} windows (top {min(top, len(r.peaks))} stations by trips in one window):", _HEADER]
    lines.extend(_row(r.names[sid], s) for sid, s in r.peaks[:top])
    rate = r.trips / r.seconds if r.seconds > 0 else float("inf")
    lines += [
        "",
        f"{r.inserts} trips into {r.stations * 5} timed aggregators ({r.inserts * 5} inserts, "
        f"{r.evictions} trips evicted) in {r.seconds:.2f} s, {rate:,.0f} trips/s",
    ]
    return "\n".join(lines)


# ---- command line ----


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("spark", "flink", "local"), default="spark",
                   help="spark (default): the PySpark streaming pipeline (swag.pipeline); flink: the same "
                        "on PyFlink (needs .venv-flink); local: the engine-free Citi Bike demo")
    p.add_argument("--data", metavar="DATA", action="append",
                   help="spark/flink: flights (default) or citibike; local (and citibike): Citi Bike CSV "
                        "file(s), a directory of *.csv.gz or a glob, repeatable (default: the packaged sample)")
    p.add_argument("--out", default="swag-demo-out", help="spark/flink: output directory (default: swag-demo-out)")
    p.add_argument("--batches", type=int, default=24, help="spark: micro-batches to replay (default: 24; flink reads one bounded stream)")
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
    from . import pipeline

    if ns.engine == "flink":
        try:
            import pyflink  # noqa: F401
        except ImportError:
            return _reexec_in_flink_venv(ns, out)
        from . import pipeline_flink

        r = pipeline_flink.run_flink(kind, Path(ns.out), progress=False if ns.no_progress else None,
                                     citibike_files=files, stream=out)
        print(pipeline.format_summary(r), file=out)
        return 0

    r = pipeline.run_spark(kind, Path(ns.out), ns.batches, progress=False if ns.no_progress else None,
                           citibike_files=files, stream=out)
    print(pipeline.format_summary(r), file=out)
    return 0


def flink_python() -> Path | None:
    """The Python of ``.venv-flink`` (PyFlink cannot share a virtualenv with PySpark), looked for in
    the working directory, the repository of this package and the parents of this interpreter's venv."""
    here = Path(__file__).resolve()
    for root in (Path.cwd(), here.parents[2], Path(sys.prefix).parent):
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
    return subprocess.call([str(py), "-m", "swag", *args])


def main(argv: Sequence[str] | None = None) -> int:
    from .cli import main as cli_main

    return cli_main(["demo", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())

"""The engine-free demo: per-station sliding windows over Citi Bike trips with swag's local API.

Every start station gets a 1-hour time-based sliding window (``evict_up_to(t - 1 h)`` before each
insert) holding five timed aggregators: max, mean and standard deviation of the trip duration,
distinct bikes (HyperLogLog) and the 95th percentile of the duration (KLL). The demo prints the
busiest stations' windows at a few moments and each station's peak window.
"""

from __future__ import annotations

import math
import sys
import time as _time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from tqdm import tqdm  # type: ignore[import-untyped]

from swag import TimedAggregator, __version__, timed_aggregator

from .citibike import Trip

_EPOCH = datetime(1970, 1, 1)
_MS = timedelta(milliseconds=1)


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

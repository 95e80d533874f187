"""Citi Bike trip files: one reader for every CSV layout the system has published, and the trip
sample shipped with the applications (the first 3,000 trips of January 2016 of the Jersey City
system). Standard library only."""

from __future__ import annotations

import csv
import glob
import gzip
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO

SAMPLE = Path(__file__).resolve().parent / "data" / "citibike-sample.csv.gz"
"""The trip sample shipped in the package."""

DEFAULT_DIR = Path("../shared/data/citibike")
"""Where :func:`default_files` looks (relative to the working directory) unless ``SWAG_CITIBIKE_DIR`` is set."""

_EPOCH = datetime(1970, 1, 1)
_MS = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Trip:
    start_ms: int  # start time, wall clock (New York local time read as UTC), epoch ms
    station_id: str
    station: str
    duration_s: float
    bike_id: int | str


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


def default_files(limit: int = 3) -> list[Path]:
    """The first ``limit`` Citi Bike files of ``$SWAG_CITIBIKE_DIR`` (default :data:`DEFAULT_DIR`);
    a clear error naming the directory and the ways to point at data when there are none."""
    d = Path(os.environ.get("SWAG_CITIBIKE_DIR") or DEFAULT_DIR)
    files = sorted(d.glob("*.csv.gz"))[:limit]
    if not files:
        raise FileNotFoundError(f"no Citi Bike files (*.csv.gz) in {d}: set SWAG_CITIBIKE_DIR to a directory "
                                f"of trip files, or pass the files (or a directory) with --data")
    return files

"""The Citi Bike demo: its reader, and its windows against a plain Python recompute."""

from __future__ import annotations

import calendar
import gzip
import math
import statistics
from collections import Counter, defaultdict, deque
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from swag_apps import citibike, local_demo

ROOT = Path(__file__).resolve().parent.parent
HOUR_MS = 3600 * 1000


def _ms(text: str) -> int:
    return calendar.timegm(datetime.strptime(text, "%Y-%m-%d %H:%M:%S").timetuple()) * 1000


def _oracle_trips(rows: list[dict[str, str]]) -> list[tuple[int, str, float, str]]:
    trips = [(_ms(r["Start Time"]), r["Start Station ID"], float(r["Trip Duration"]), r["Bike ID"]) for r in rows]
    trips.sort(key=lambda t: t[0])
    return trips


def _p95(values: list[float]) -> float:
    s = sorted(values)
    return s[max(0, math.ceil(0.95 * len(s) - 1e-9) - 1)]


def _oracle_peaks(trips: list[tuple[int, str, float, str]], width: int) -> dict[str, dict[str, Any]]:
    """Per station, the first window (t - width, t] with the most trips, and its statistics."""
    windows: dict[str, deque[tuple[int, float, str]]] = defaultdict(deque)
    peaks: dict[str, dict[str, Any]] = {}
    for t, sid, dur, bike in trips:
        w = windows[sid]
        while w and w[0][0] <= t - width:
            w.popleft()
        w.append((t, dur, bike))
        if sid not in peaks or len(w) > peaks[sid]["trips"]:
            durs = [d for _, d, _ in w]
            peaks[sid] = {
                "end_ms": t,
                "trips": len(w),
                "max": max(durs),
                "mean": statistics.fmean(durs),
                "stddev": statistics.stdev(durs) if len(durs) > 1 else math.nan,
                "bikes": len({b for _, _, b in w}),
                "p95": _p95(durs),
            }
    return peaks


@pytest.fixture(scope="module")
def sample_result(sample_path: Path) -> local_demo.DemoResult:
    trips, skipped = citibike.read_trips([sample_path])
    assert skipped == 0
    return local_demo.run(trips, progress=False)


def test_sample_is_shipped_in_the_package(sample_path: Path) -> None:
    assert sample_path.read_bytes() == citibike.SAMPLE.read_bytes()
    assert sample_path.stat().st_size < 200_000


def test_reader_matches_csv(sample_path: Path, sample_rows: list[dict[str, str]]) -> None:
    trips, skipped = citibike.read_trips([sample_path])
    assert skipped == 0 and len(trips) == len(sample_rows) == 3000
    want = _oracle_trips(sample_rows)
    assert [(t.start_ms, t.station_id, t.duration_s, str(t.bike_id)) for t in trips] == want


def test_peaks_match_recompute(sample_result: local_demo.DemoResult, sample_rows: list[dict[str, str]]) -> None:
    want = _oracle_peaks(_oracle_trips(sample_rows), HOUR_MS)
    got = dict(sample_result.peaks)
    assert set(got) == set(want) and sample_result.stations == len(want)
    for sid, w in want.items():
        g = got[sid]
        assert (g.end_ms, g.trips, g.max_s) == (w["end_ms"], w["trips"], w["max"]), sid
        assert g.mean_s == pytest.approx(w["mean"], rel=1e-12)
        if math.isnan(w["stddev"]):
            assert math.isnan(g.stddev_s)
        else:
            assert g.stddev_s == pytest.approx(w["stddev"], rel=1e-9)
        assert g.bikes == pytest.approx(w["bikes"], rel=0.02, abs=0.5)
        assert g.p95_s == w["p95"], sid  # KLL is exact below k = 200 items
    ranked = [(-w["trips"], w["end_ms"]) for w in want.values()]
    assert [(-s.trips, s.end_ms) for _, s in sample_result.peaks] == sorted(ranked)


def test_snapshots_match_recompute(sample_result: local_demo.DemoResult, sample_rows: list[dict[str, str]]) -> None:
    trips = _oracle_trips(sample_rows)
    totals = Counter(sid for _, sid, _, _ in trips)
    assert set(sample_result.busiest) == {sid for sid, _ in totals.most_common(3)}
    assert len(sample_result.snapshots) == 4 and sample_result.snapshots[-1][0] == trips[-1][0]
    nonempty = 0
    for at, rows in sample_result.snapshots:
        assert [sid for sid, _ in rows] == sample_result.busiest, at  # one row per busiest station
        for sid, s in rows:
            durs = [d for t, x, d, _ in trips if x == sid and at - HOUR_MS < t <= at]
            assert s.trips == len(durs), (at, sid)
            assert s.max_s == (max(durs) if durs else None)
            nonempty += bool(durs)
    assert nonempty >= 3, "the snapshots should hold trips, not only empty windows"


def test_other_algorithm_gives_the_same_peaks(sample_path: Path, sample_result: local_demo.DemoResult) -> None:
    trips, _ = citibike.read_trips([sample_path])
    other = local_demo.run(trips[:1500], algorithm="two_stacks_lite", window_s=1800, progress=False)
    again = local_demo.run(trips[:1500], algorithm="daba_lite", window_s=1800, progress=False)
    assert len(again.peaks) > 10 and again.peaks[0][1].trips > 1
    assert [(sid, s.trips, s.end_ms, s.max_s, s.p95_s) for sid, s in other.peaks] == [
        (sid, s.trips, s.end_ms, s.max_s, s.p95_s) for sid, s in again.peaks
    ]


def test_window_is_half_open() -> None:
    """The window ending at t holds the trips of (t - width, t]: a trip exactly width earlier is out."""
    t0 = 1_000_000_000_000
    trips = [citibike.Trip(t0 + dt, "1", "A", dur, bike) for dt, dur, bike in
             [(0, 100.0, 1), (HOUR_MS, 300.0, 2), (HOUR_MS, 200.0, 3)]]
    r = local_demo.run(trips, window_s=3600, busiest=1, moments=1, progress=False)
    (sid, peak), = r.peaks
    assert (sid, peak.end_ms, peak.trips, peak.max_s, peak.mean_s) == ("1", t0 + HOUR_MS, 2, 300.0, 250.0)
    assert peak.stddev_s == pytest.approx(statistics.stdev([300.0, 200.0]))
    assert (peak.bikes, peak.p95_s) == (pytest.approx(2.0), 300.0)
    (at, ((_, last),)), = r.snapshots
    assert at == t0 + HOUR_MS and last == peak


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2016-01-01 00:02:52", "2016-01-01 00:02:52.000"),
        ("2019-01-01 03:09:09.7110", "2019-01-01 03:09:09.711"),
        ("12/1/2018 0:03:53", "2018-12-01 00:03:53.000"),
        ("12/31/18 16:34", "2018-12-31 16:34:00.000"),
    ],
)
def test_parse_time(text: str, expected: str) -> None:
    dt = datetime.strptime(expected, "%Y-%m-%d %H:%M:%S.%f")
    assert citibike.parse_time(text) == calendar.timegm(dt.timetuple()) * 1000 + dt.microsecond // 1000


SCHEMAS = {
    # 2016-17: spaced title-case header
    "a.csv.gz": (
        "Trip Duration,Start Time,Stop Time,Start Station ID,Start Station Name,Start Station Latitude,"
        "Start Station Longitude,End Station ID,End Station Name,End Station Latitude,End Station Longitude,"
        "Bike ID,User Type,Birth Year,Gender\n"
        "362,2016-01-01 00:02:52,2016-01-01 00:08:54,3186,Grove St PATH,40.7,-74.0,3209,Brunswick St,40.7,"
        "-74.0,24647,Subscriber,1964,2\n"
    ),
    # 2018-01 and 2019-01: quoted lowercase header, fractional seconds in 2019
    "b.csv": (
        '"tripduration","starttime","stoptime","start station id","start station name",'
        '"start station latitude","start station longitude","end station id","end station name",'
        '"end station latitude","end station longitude","bikeid","usertype","birth year","gender"\n'
        '201,"2019-01-01 03:09:09.7110","2019-01-01 03:12:30.8790",3183,"Exchange Place",40.7,-74.0,3214,'
        '"Essex Light Rail",40.7,-74.0,29612,"Subscriber",1993,1\n'
        'oops,"2019-01-01 04:00:00","2019-01-01 04:10:00",3183,"Exchange Place"\n'
    ),
    # 2018-12: `starttime` cut to minutes, seconds in `start date` + `start time`
    "c.csv.gz": (
        "tripduration (sec),starttime,stoptime,start date,start time,stop date,stop time,start station id,"
        "start station name,start station latitude,start station longitude,end station id,end station name,"
        "end station latitude,end station longitude,bikeid,usertype,birth year,gender\n"
        "170,12/1/18 0:03,12/1/18 0:06,12/1/2018,0:03:53,12/1/2018,0:06:44,3183,Exchange Place,40.7,-74.0,"
        "3214,Essex Light Rail,40.7,-74.0,26261,Subscriber,1975,1\n"
    ),
}


def test_read_trips_of_every_schema(tmp_path: Path) -> None:
    for name, text in SCHEMAS.items():
        p = tmp_path / name
        if name.endswith(".gz"):
            p.write_bytes(gzip.compress(text.encode()))
        else:
            p.write_text(text)
    assert citibike.resolve_paths([tmp_path]) == [tmp_path / "a.csv.gz", tmp_path / "c.csv.gz", tmp_path / "b.csv"]
    trips, skipped = citibike.read_trips(citibike.resolve_paths([str(tmp_path / "*.csv*")]))
    assert skipped == 1
    assert [(t.station, t.station_id, t.duration_s, t.bike_id) for t in trips] == [
        ("Grove St PATH", "3186", 362.0, 24647),
        ("Exchange Place", "3183", 170.0, 26261),
        ("Exchange Place", "3183", 201.0, 29612),
    ]
    assert [t.start_ms for t in trips] == [
        citibike.parse_time("2016-01-01 00:02:52"),
        citibike.parse_time("2018-12-01 00:03:53"),
        citibike.parse_time("2019-01-01 03:09:09.711"),
    ]


def test_not_a_trip_file(tmp_path: Path) -> None:
    p = tmp_path / "x.csv"
    p.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(ValueError, match="not a Citi Bike trip file"):
        citibike.read_trips([p])
    with pytest.raises(FileNotFoundError, match="no-such"):
        citibike.resolve_paths([tmp_path / "no-such"])


@pytest.mark.parametrize(
    "seconds, text",
    [(None, "-"), (math.nan, "-"), (65, "1m05s"), (3599.6, "1h00m"), (7265, "2h01m"), (2 * 86400 + 4 * 3600, "2d04h")],
)
def test_fmt_duration(seconds: float | None, text: str) -> None:
    assert local_demo.fmt_duration(seconds) == text


@pytest.mark.slow
def test_full_data_when_present() -> None:
    """The demo's reader on every file of ../shared/data/citibike (skipped when absent)."""
    data = ROOT.parent / "shared" / "data" / "citibike"
    if not any(data.glob("*.csv.gz")):
        pytest.skip(f"no Citi Bike files in {data}")
    trips, skipped = citibike.read_trips(citibike.resolve_paths([data]))
    assert skipped == 0 and len(trips) > 200_000
    assert all(a.start_ms <= b.start_ms for a, b in zip(trips, trips[1:], strict=False))
    assert len({t.station_id for t in trips}) > 40

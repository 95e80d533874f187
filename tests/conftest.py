"""Shared fixtures. The tests use the real JVM through JPype (the swag jar must be built: `make build`)."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "citibike-sample.csv.gz"


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def sample_rows() -> list[dict[str, str]]:
    """The sample's rows as dicts (independent of swag.demo's reader)."""
    with gzip.open(SAMPLE, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))

"""Soak (marker ``soak``, not in ``make test`` nor ``make test-cluster``): tests/cluster/soak.py (Flink)
and soak_spark.py (Spark) for ``SWAG_SOAK_MINUTES`` (default 10) each; each fails unless every window
is there exactly once with the reference values and heap and state plateau."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.soak
@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_flink_soak(flink_job_jar, tmp_path):
    minutes = os.environ.get("SWAG_SOAK_MINUTES", "10")
    r = subprocess.run([sys.executable, str(HERE / "soak.py"), "--minutes", minutes, "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


@pytest.mark.soak
@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_spark_soak(tmp_path):
    minutes = os.environ.get("SWAG_SOAK_MINUTES", "10")
    r = subprocess.run([sys.executable, str(HERE / "soak_spark.py"), "--minutes", minutes, "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]

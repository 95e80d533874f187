"""What a Spark session or a Spark Connect server needs to run swag: the jars, the state store
provider and the Connect relation plugin. Used by :mod:`swag.spark` and :mod:`swag._spark_connect`."""

from __future__ import annotations

import shlex
from pathlib import Path

from .errors import SwagSetupError

ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
PROVIDER_CONF = "spark.sql.streaming.stateStore.providerClass"
JARS_DIR = Path(__file__).resolve().parent / "jars"


PLUGIN_CONF = "spark.connect.extensions.relation.classes"
PLUGIN_CLASS = "io.swag.spark.connect.SwagRelationPlugin"


def jars() -> list[Path]:
    """The jars Spark needs for swag: swag-core (shaded) and swag-spark, from the installed package."""
    core = JARS_DIR / "swag-core.jar"
    conn = JARS_DIR / "swag-spark.jar"
    missing = [p for p in (core, conn) if not p.is_file()]
    if missing:
        raise SwagSetupError(
            f"swag jars not found: {', '.join(str(p) for p in missing)}. Build them with `make build` "
            "(it copies jvm/target/swag-core-*-all.jar and connectors/spark/target/swag-spark.jar there)."
        )
    return [core, conn]


def _all_jars(extra: list[str] | None = None) -> list[str]:
    """The swag jars, the jars given to :func:`swag.add_jars` (user-defined functions), then ``extra``."""
    from ._jvm import user_jars

    out = [str(p) for p in jars()] + [str(p) for p in user_jars()]
    for j in extra or []:
        path = str(Path(j).expanduser().resolve())
        if not Path(path).is_file():
            raise SwagSetupError(f"jars: no jar file at {path}")
        if path not in out:
            out.append(path)
    return out


def connect_server_command(
    master: str = "local[2]", conf: dict[str, str] | None = None, jars: list[str] | None = None
) -> str:
    """The shell command that starts a Spark Connect server able to run swag: the installed
    pyspark's ``sbin/start-connect-server.sh`` with the swag jars (``--jars``), the swag plugin
    (``spark.connect.extensions.relation.classes``) and the RocksDB state store provider. Add
    settings in ``conf`` (e.g. ``spark.connect.grpc.binding.port``). Nothing is started: run it
    (``SPARK_PID_DIR``/``SPARK_LOG_DIR`` choose where its pid and log go; ``stop-connect-server.sh``
    stops it), then connect with ``SparkSession.builder.remote("sc://host:15002").getOrCreate()``.
    """
    import pyspark

    script = Path(pyspark.__file__).resolve().parent / "sbin" / "start-connect-server.sh"
    settings = {PLUGIN_CONF: PLUGIN_CLASS, PROVIDER_CONF: ROCKSDB, **(conf or {})}
    parts = [str(script), "--master", master, "--jars", ",".join(_all_jars(jars))]
    for k, v in settings.items():
        parts += ["--conf", f"{k}={v}"]
    return " ".join(shlex.quote(p) for p in parts)

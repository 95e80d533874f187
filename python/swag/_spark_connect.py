"""swag over Spark Connect: the client half of ``io.swag.spark.connect.SwagRelationPlugin``.

A swag relation travels in ``Relation.extension`` (a ``google.protobuf.Any``) whose ``value`` is
one of these messages, written here in protobuf wire format by hand (no generated code):

- ``type.googleapis.com/swag.Aggregate``: ``bytes input = 1`` (the child ``spark.connect.Relation``,
  serialized), ``string query_json = 2``, ``string options_json = 3``;
- ``type.googleapis.com/swag.ExecutedPlan``: ``string metrics_name = 1``; one row, column ``plan``.

The server's plugin parses them (``io.swag.spark.connect.SwagPayload``) and plans the child relation
with ``io.swag.spark.SwagSpark``, as a classic session does. Imported only for a Connect DataFrame
or session (``pyspark.sql.connect`` needs grpcio and friends).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pyspark.sql.connect.proto as proto
from pyspark.sql.connect.dataframe import DataFrame as ConnectDataFrame
from pyspark.sql.connect.plan import LogicalPlan

from ._spark_server import PROVIDER_CONF, ROCKSDB, connect_server_command
from .errors import SwagSetupError, from_java

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql.connect.client import SparkConnectClient
    from pyspark.sql.connect.session import SparkSession

AGGREGATE_TYPE = "type.googleapis.com/swag.Aggregate"
EXECUTED_PLAN_TYPE = "type.googleapis.com/swag.ExecutedPlan"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number: int, data: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def encode_aggregate(input_relation: bytes, query_json: str, options_json: str) -> bytes:
    return _field(1, input_relation) + _field(2, query_json.encode()) + _field(3, options_json.encode())


def encode_executed_plan(metrics_name: str) -> bytes:
    return _field(1, metrics_name.encode())


class SwagAggregate(LogicalPlan):
    """``swag.spark.aggregate`` of the child plan, as a Connect relation."""

    def __init__(self, child: LogicalPlan, query_json: str, options_json: str) -> None:
        super().__init__(child)
        self._query_json = query_json
        self._options_json = options_json

    def plan(self, session: SparkConnectClient) -> proto.Relation:
        assert self._child is not None
        rel = self._create_proto_relation()
        child = self._child.plan(session).SerializeToString()
        rel.extension.type_url = AGGREGATE_TYPE
        rel.extension.value = encode_aggregate(child, self._query_json, self._options_json)
        return rel


class SwagExecutedPlan(LogicalPlan):
    """One row, column ``plan``: ``SwagSpark.executedPlan(metrics_name)`` on the server."""

    def __init__(self, metrics_name: str) -> None:
        super().__init__(None)
        self._metrics_name = metrics_name

    def plan(self, session: SparkConnectClient) -> proto.Relation:
        rel = self._create_proto_relation()
        rel.extension.type_url = EXECUTED_PLAN_TYPE
        rel.extension.value = encode_executed_plan(self._metrics_name)
        return rel


def aggregate(df: Any, query_json: str, options_json: str) -> Any:
    """The swag relation over ``df``, analysed at once (a bad query or a server without the plugin
    fails here, not at the first action)."""
    spark = df.sparkSession
    if df.isStreaming and _conf(spark, PROVIDER_CONF) != ROCKSDB:
        try:
            spark.conf.set(PROVIDER_CONF, ROCKSDB)
        except Exception as e:
            raise SwagSetupError(
                f"swag on a streaming DataFrame needs the RocksDB state store and this Spark Connect "
                f"server refused {PROVIDER_CONF}={ROCKSDB} ({e}). Start the server with it:\n  "
                + server_command()
            ) from None
    out = ConnectDataFrame(SwagAggregate(df._plan, query_json, options_json), spark)
    try:
        out.schema  # noqa: B018 - analyses the relation on the server now
    except Exception as e:
        raise translate(e) from None
    return out


def executed_plan(spark: Any, metrics_name: str) -> str | None:
    df = ConnectDataFrame(SwagExecutedPlan(metrics_name), spark)
    try:
        rows = df.collect()
    except Exception as e:
        raise translate(e) from None
    plan = rows[0]["plan"]
    return None if plan is None else str(plan)


def check(spark: Any) -> None:
    """Raises :class:`SwagSetupError` (with the command to start one) unless the server has the swag
    plugin: analyses a ``swag.ExecutedPlan`` relation (one round trip, no job)."""
    try:
        ConnectDataFrame(SwagExecutedPlan("swag"), spark).schema  # noqa: B018 - one analysis round trip
    except Exception as e:
        raise translate(e) from None


def _conf(spark: SparkSession, key: str) -> str:
    try:
        return spark.conf.get(key, "") or ""
    except Exception:  # pragma: no cover - a server that refuses to read it
        return ""


_REASON = re.compile(r"^\(([\w.$]+)\)\s*")


def translate(e: Exception) -> Exception:
    """A server error as a swag exception: :func:`swag.errors.from_java` of the server's Java class
    and message, the only things Connect transports (a swag kind prefix in the text decides). A
    server without the swag plugin is a :class:`SwagSetupError` with the command to start one.

    PySpark maps ``java.lang.IllegalArgumentException`` to its own ``IllegalArgumentException``;
    another class arrives as ``UnknownException`` whose message starts with ``(<java class>)``.
    """
    from pyspark.errors import IllegalArgumentException as PyIllegalArgument

    text = e.getMessage() if hasattr(e, "getMessage") else str(e)
    text = text.split("\n\nJVM stacktrace:", 1)[0]  # with spark.sql.pyspark.jvmStacktrace.enabled
    cls = ""
    m = _REASON.match(text)
    if m:
        cls, text = m.group(1), text[m.end():]
    if isinstance(e, PyIllegalArgument):
        cls = "java.lang.IllegalArgumentException"
    err: Exception
    if "NO_HANDLER_FOR_EXTENSION" in str(e) or "No handler found for extension" in str(e):  # Spark's error condition
        err = SwagSetupError(
            "this Spark Connect server does not have the swag plugin (" + str(e).strip().splitlines()[0]
            + "). Start a server with the swag jars and the plugin:\n  " + server_command()
        )
    else:
        err = from_java(cls or type(e).__name__, text)
    err.java_exception = None  # type: ignore[union-attr]
    err.connect_exception = e  # type: ignore[union-attr]
    return err


def server_command() -> str:
    return connect_server_command()

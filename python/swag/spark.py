"""swag on Apache Spark (PySpark 4.3): run a :class:`swag.Query` over a streaming or static DataFrame.

>>> spark = swag.spark.session()                      # local[2], swag jars, RocksDB state store
>>> out = swag.spark.aggregate(df.withWatermark("ts", "10 minutes"), query)
>>> out.writeStream.format("parquet")...             # or out.show() for a static df

The work happens in the JVM (``io.swag.spark.SwagSpark``): a ``transformWithState`` operator in
event-time mode for streams, a sort-and-bulk-load per key for static DataFrames; both give the same
output schema: the key columns, ``window``, ``window_start``, ``window_end``, then the aggregates.

Late records (beyond the query's lateness) and rejected records (null key or time, NaN, a value a
function refuses) are never dropped silently: they are counted in the streaming query's
``lastProgress["observedMetrics"]["swag"]`` (``late``, ``rejected``, ``windows``) and, with
``late="keep"``, returned as rows with ``swag_kind`` = ``"late"``/``"rejected"``, ``swag_record``
and ``swag_reason`` (use :func:`split` to route them to a side table).

The same calls work on a Spark Connect DataFrame or session (``SparkSession.builder.remote(...)``,
batch and streaming): :func:`aggregate` then sends a ``swag.Aggregate`` relation that the server's
plugin ``io.swag.spark.connect.SwagRelationPlugin`` plans with the same ``SwagSpark`` code, so the
rows, options, late/rejected rows and observed metrics are those of a classic session. The server
must be started with the swag jars and the plugin (:func:`connect_server_command` prints the
command; nothing here starts a server). Over Connect, :func:`aggregate` sets the RocksDB state
store provider in the session's conf for a streaming input if it is not set (the server may also
be started with it). PySpark's Connect client gives ``lastProgress["observedMetrics"]["swag"]``
as ``Row(values=[..], schema={..})``; :func:`observed_metrics` reads the counts from either client.
See docs/spark.md, "Spark Connect".
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal, cast

from ._duration import to_ms
from ._spark_server import PROVIDER_CONF, ROCKSDB, _all_jars, connect_server_command
from ._spark_server import jars as jars  # public: the jars a Spark session needs
from .errors import SwagError, SwagSetupError
from .query import Query

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

class SparkConnectUnsupported(SwagError):
    """A setting that cannot be made from a Spark Connect client: a static conf (``spark.jars``,
    ``spark.master``, ...) in ``session(remote=..., conf=...)`` belongs to the server's start
    command (:func:`connect_server_command`). Everything else in this module works on Connect."""


CHANGELOG_CONF = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"


def session(
    app_name: str = "swag",
    master: str = "local[2]",
    *,
    shuffle_partitions: int = 4,
    conf: dict[str, str] | None = None,
    remote: str | None = None,
    jars: list[str] | None = None,
) -> SparkSession:
    """A SparkSession with the swag jars and the RocksDB state store (needed by transformWithState).
    Pass more settings in ``conf``, e.g. ``{CHANGELOG_CONF: "true"}`` (RocksDB changelog
    checkpointing: measured about 130 ms less fixed cost per micro-batch with small batches, no
    difference with 500,000-record batches; see docs/benchmarks-spark.md).

    ``spark.jars`` only takes effect when a process creates its first SparkContext: if one is
    already running without the swag jars, this raises :class:`swag.SwagSetupError` with what to do.

    ``jars``: more jars for ``spark.jars``, e.g. user-defined functions (``swag.udaf``); the jars
    given to :func:`swag.add_jars` are added too.

    ``remote="sc://host:port"``: a Spark Connect session instead (``app_name`` and ``master`` do
    not apply: the server's do; the jars must be on the server, see :func:`connect_server_command`),
    with the RocksDB provider, ``shuffle_partitions``, UTC and ``conf`` set in its session conf;
    raises :class:`swag.SwagSetupError` with the server command if the server lacks the plugin.
    """
    if remote is not None:
        return _connect_session(remote, shuffle_partitions, conf)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    paths = ",".join(_all_jars(jars))
    builder = (
        SparkSession.builder.appName(app_name)
        .master(master)
        .config("spark.jars", paths)
        .config(PROVIDER_CONF, ROCKSDB)
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    for k, v in (conf or {}).items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    if active is not None:
        spark.conf.set(PROVIDER_CONF, ROCKSDB)
    check_session(spark)
    return spark


def _connect_session(remote: str, shuffle_partitions: int, conf: dict[str, str] | None) -> SparkSession:
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    spark = cast("SparkSession", ConnectSession.builder.remote(remote).getOrCreate())
    check_session(spark)
    settings = {
        PROVIDER_CONF: ROCKSDB,
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.sql.session.timeZone": "UTC",
        **(conf or {}),
    }
    for k, v in settings.items():
        try:
            spark.conf.set(k, v)
        except Exception as e:
            if k == PROVIDER_CONF:
                raise SwagSetupError(
                    f"this Spark Connect server refused {PROVIDER_CONF}={ROCKSDB} ({e}); start it with the "
                    "setting:\n  " + connect_server_command()
                ) from None
            raise SparkConnectUnsupported(
                f"{k} cannot be set on a Spark Connect session ({e}); pass it to the server: "
                f"connect_server_command(conf={{{k!r}: {v!r}}})"
            ) from None
    return spark


def _py4j(spark: SparkSession) -> Any:
    """The py4j view of a classic session's JVM."""
    jvm = spark._jvm
    if jvm is None:
        raise SwagSetupError("this Spark session has no JVM gateway (stopped?)")
    return jvm


def check_session(spark: SparkSession) -> None:
    """Raises a clear error if the session cannot run swag: the swag jars are missing (classic), or
    the Spark Connect server has not the swag plugin (:class:`swag.SwagSetupError` with the command
    to start one; a Connect session costs one analysis round trip, no job)."""
    if _is_connect(spark):
        from . import _spark_connect

        _spark_connect.check(spark)
        return
    try:
        jvm = _py4j(spark)
        cls = jvm.java.lang.Class.forName(
            "io.swag.spark.SwagSpark", True, jvm.Thread.currentThread().getContextClassLoader()
        )
    except Exception as e:  # py4j error: class not found
        raise SwagSetupError(
            "this SparkSession does not have the swag jars on its classpath "
            f"({', '.join(str(p) for p in jars())}). spark.jars only takes effect for the first "
            "SparkContext of a process: create the session with swag.spark.session() before any other, "
            "or stop the running one (spark.stop()) first."
        ) from e
    del cls


def _is_connect(obj: Any) -> bool:
    mod = type(obj).__module__
    return ".connect." in mod or mod.endswith(".connect")


def aggregate(
    df: DataFrame,
    query: Query | str | dict[str, Any],
    *,
    output_mode: Literal["append", "update"] = "append",
    watermark_delay: str | int | None = None,
    late: Literal["count", "keep"] = "count",
    metrics_name: str = "swag",
    cache_max_keys: int | None = None,
    preaggregate: Literal["auto", "off"] = "auto",
    preaggregate_slots: int | None = None,
    on_error: Literal["reject", "fail"] = "reject",
) -> DataFrame:
    """Runs ``query`` over ``df`` (streaming or static) and returns the window rows as a DataFrame.

    - ``output_mode``: ``append`` (one final row per key and window, after the allowed lateness) or
      ``update`` (a row when the window ends, then updated rows for records inside the lateness);
      use the same mode for the sink.
    - ``watermark_delay``: for a stream without ``withWatermark`` on the time column (``"10min"``
      or milliseconds).
    - ``late``: ``count`` (late/rejected records only counted) or ``keep`` (also returned, see
      :func:`split`).
    - ``on_error``: ``reject`` (a rejected record is counted, and returned with ``late="keep"``)
      or ``fail`` (the query fails with the record's reason).
    - ``cache_max_keys``: keys whose aggregators an executor keeps between micro-batches (default
      100,000; least recently used dropped first; 0: none). An uncached key is rebuilt from the state
      store: same results, slower.
    - ``preaggregate``: ``auto`` combines each key's records per slice (the gcd of the window sizes,
      slides and offsets) before the shuffle when every function is mergeable (count, sum, mean,
      geomean, variance, stddev, min, max, mincount, maxcount, bloom, countmin, hll, kll, quantile,
      median), ``late`` is ``count`` and the emission is not ``per_record``, streaming and batch
      alike; a stream's state then holds slices instead of records and late records are counted
      per slice. ``off`` always ships records.
    - ``preaggregate_slots``: (key, slice) partials a pre-aggregating task holds at most before
      handing them on (default: as many as fit in 32 MB, from 64 to 65,536; 8,192 when a function
      keeps a sketch, hll or kll): the map side's memory bound on long partitions.
    """
    q = query if isinstance(query, Query) else Query.from_json(query)
    q.validate()
    options: dict[str, Any] = {"output_mode": output_mode, "late": late, "metrics_name": metrics_name}
    if on_error != "reject":
        options["on_error"] = on_error
    if watermark_delay is not None:
        options["watermark_delay_ms"] = to_ms(watermark_delay, "watermark_delay")
    if cache_max_keys is not None:
        options["cache_max_keys"] = cache_max_keys
    if preaggregate != "auto":
        options["preaggregate"] = preaggregate
    if preaggregate_slots is not None:
        options["preaggregate_slots"] = preaggregate_slots
    if _is_connect(df):
        from . import _spark_connect

        return cast("DataFrame", _spark_connect.aggregate(df, q.to_json(), json.dumps(options)))
    from pyspark.sql import DataFrame as PyDataFrame

    spark = df.sparkSession
    check_session(spark)
    try:
        jdf = _py4j(spark).io.swag.spark.SwagSpark.aggregate(df._jdf, q.to_json(), json.dumps(options))
    except Exception as e:
        raise _translate(e) from None
    return PyDataFrame(jdf, spark)


def executed_plan(spark: SparkSession, metrics_name: str = "swag") -> dict[str, Any] | None:
    """What the tasks of the query last built with ``metrics_name`` ran, read back from the
    aggregators they built (``io.swag.core.plan.ExecutedPlan``), or ``None`` before any task ran.

    ``groups``: per group ``algorithm`` (the structure holding the entries: ``daba_lite`` for an
    in-order plan, which switches to ``tree`` at the first out-of-order record, or a ``bfiba*``
    tree), ``min_arity``, ``slicing`` and ``slice_ms`` (the operator's own slicing),
    ``eviction_window`` and ``range_query_windows`` (query window indices). ``engine``: ``mode``
    (``stream`` or ``batch``), ``preaggregate`` (the operator's input are slices combined before the
    shuffle) and ``preaggregate_slice_ms`` (their width; 0 if none were made).

    On Spark Connect it is read on the server (a ``swag.ExecutedPlan`` relation), whose record is
    per metrics name for the whole server: give concurrent sessions' queries distinct names.
    """
    if _is_connect(spark):
        from . import _spark_connect

        text = _spark_connect.executed_plan(spark, metrics_name)
    else:
        check_session(spark)
        text = _py4j(spark).io.swag.spark.SwagSpark.executedPlan(metrics_name)
    return None if text is None else json.loads(text)


def observed_metrics(progress: Any, name: str = "swag") -> dict[str, int] | None:
    """The counts ``late``, ``rejected`` and ``windows`` of one streaming progress
    (``query.lastProgress`` or an item of ``recentProgress``), or ``None`` if it has none.

    Classic PySpark gives ``progress["observedMetrics"][name]`` as ``Row(late=.., rejected=..,
    windows=..)``; PySpark 4.3's Spark Connect client gives the server's JSON of that row as
    ``Row(values=[..], schema={..})``: this reads either.
    """
    m = (progress.get("observedMetrics") or {}).get(name) if progress else None
    if m is None:
        return None
    d = m.asDict() if hasattr(m, "asDict") else dict(m)
    if set(d) == {"values", "schema"}:
        d = dict(zip((f["name"] for f in d["schema"]["fields"]), d["values"]))
    return {k: int(v) for k, v in d.items()}


def split(df: DataFrame) -> tuple[DataFrame, DataFrame]:
    """Splits the output of ``aggregate(..., late="keep")`` into (window rows, late/rejected rows)."""
    F: Any
    if _is_connect(df):  # pyspark.sql.functions gives classic columns in a process with a classic session
        from pyspark.sql.connect import functions as F
    else:
        from pyspark.sql import functions as F

    kinds = ["swag_kind", "swag_record", "swag_reason"]
    windows = df.filter(F.col("swag_kind") == "window").drop(*kinds)
    others = df.filter(F.col("swag_kind") != "window").select("swag_kind", "swag_record", "swag_reason")
    return windows, others


def _translate(e: Exception) -> Exception:
    """A Java error from the swag entry point as the swag exception
    :func:`swag.errors.from_java_chain` gives for it and its causes (the Java message without its
    kind prefix).

    PySpark turns some Java exceptions into its own (``java.lang.IllegalArgumentException`` into
    ``pyspark.errors.IllegalArgumentException``, keeping the Java object as ``_origin``); others
    arrive as a ``Py4JJavaError`` with ``java_exception``.
    """
    from .errors import from_java, from_java_chain, java_causes

    java = getattr(e, "java_exception", None)
    if java is None:
        java = getattr(e, "_origin", None)
    if java is not None:
        err = from_java_chain(java_causes(java))
    else:
        from pyspark.errors import IllegalArgumentException as PyIllegalArgument

        cls = "java.lang.IllegalArgumentException" if isinstance(e, PyIllegalArgument) else type(e).__name__
        err = from_java(cls, e.getMessage() if hasattr(e, "getMessage") else str(e))
    err.java_exception = java  # type: ignore[union-attr]
    return err

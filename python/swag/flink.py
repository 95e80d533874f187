"""PyFlink front-end of swag (needs ``apache-flink`` 2.3, e.g. in ``.venv-flink``: ``make venv-flink``).

>>> from pyflink.datastream import StreamExecutionEnvironment
>>> import swag, swag.flink
>>> q = swag.Query(key="k", time="ts").window("1s", slide="100ms", top=swag.max("v"))
>>> out = swag.flink.aggregate(stream, q)          # a PyFlink DataStream of Rows        # doctest: +SKIP

* :func:`aggregate` runs a query (a :class:`swag.Query`, its JSON, or a dict) on a PyFlink
  ``DataStream`` of named Rows (``Types.ROW_NAMED``) with watermarks; the result rows are the key
  columns, ``window``, ``window_start``, ``window_end`` and one column per aggregate.
* :func:`aggregate_table` does the same on a ``Table`` of a ``StreamTableEnvironment`` and returns a
  ``Table`` (with a ``rowtime`` attribute = ``window_end - 1``).
* :func:`register_functions` registers the SQL OVER aggregates (``swag_max``, ``swag_min``,
  ``swag_first``, ``swag_last``, ``swag_stddev``, ``swag_median``, ``swag_quantile``,
  ``swag_distinct_count``).

The Java side is ``swag-flink.jar`` (Flink operator + swag-core), added to the environment
automatically from ``swag/jars/`` of the installed package (``make build`` puts it there) or from
the ``SWAG_FLINK_JAR`` environment variable. Errors in the query raise :class:`swag.InvalidQueryError`
and errors in the input (unknown or missing columns, wrong column types, a stream without
watermarks) its subclass :class:`swag.InvalidInputError`, naming the field and value, when the job
is built: the same classes and messages as on the other front-ends (:func:`swag.errors.from_java`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import InvalidQueryError, SwagSetupError, from_java_chain, java_causes

JAR_ENV = "SWAG_FLINK_JAR"
JAR_NAME = "swag-flink.jar"
JARS_DIR = Path(__file__).resolve().parent / "jars"

__all__ = ["aggregate", "aggregate_table", "register_functions", "jar_path", "executed_plans"]

PLAN_ACCUMULATOR = "swagPlan"
DEFAULT_OPERATOR_NAME = "swag-windows"


def jar_path() -> Path:
    """The swag-flink jar: ``$SWAG_FLINK_JAR``, else ``swag/jars/swag-flink.jar`` of this package."""
    env = os.environ.get(JAR_ENV, "").strip()
    p = Path(env).expanduser() if env else JARS_DIR / JAR_NAME
    if not p.is_file():
        raise SwagSetupError(
            f"the swag Flink jar is missing: {p} is not a file; run `make build` from the repository root "
            f"(it copies connectors/flink/target/swag-flink-*-all.jar to python/swag/jars/{JAR_NAME}) "
            f"or set {JAR_ENV} to the jar's path"
        )
    return p


def _query_json(query: Any) -> str:
    if hasattr(query, "to_json"):
        return str(query.to_json())
    if isinstance(query, Mapping):
        return json.dumps(dict(query), separators=(",", ":"))
    if isinstance(query, (str, bytes)):
        return query.decode() if isinstance(query, bytes) else query
    raise InvalidQueryError(f"query: expected a swag.Query, a JSON string or a dict, got {type(query).__name__}")


def _jar_url() -> str:
    return jar_path().resolve().as_uri()


def _jar_urls() -> list[str]:
    """The swag-flink jar, then the jars of user-defined functions given to :func:`swag.add_jars`."""
    from ._jvm import user_jars

    return [_jar_url()] + [p.as_uri() for p in user_jars()]


def _add_jar(env: Any) -> None:
    """Adds the jars (:func:`_jar_urls`) to a StreamExecutionEnvironment's ``pipeline.jars`` once
    (the job's class path; PyFlink also puts them on the gateway's class loader)."""
    jvm = _jvm()
    key = jvm.org.apache.flink.configuration.PipelineOptions.JARS.key()
    conf = jvm.org.apache.flink.python.util.PythonConfigUtil.getEnvironmentConfig(env._j_stream_execution_environment)
    for url in _jar_urls():
        if url not in str(conf.getString(key, "") or ""):
            env.add_jars(url)


def _add_jar_table(t_env: Any) -> None:
    """Adds the jars (:func:`_jar_urls`) to a TableEnvironment once, with ``ADD JAR``: its user class
    loader (where the planner loads functions) and the jars of the jobs it submits."""
    from ._jvm import user_jars

    paths = [str(jar_path().resolve())] + [str(p.resolve()) for p in user_jars()]
    from pyflink.java_gateway import get_gateway

    arr = get_gateway().new_array(_jvm().java.lang.String, len(paths))
    for i, p in enumerate(paths):
        arr[i] = p
    _call(_swag_class("io.swag.flink.table.PlannerThreads").addJars, t_env._j_tenv, arr)


def _jvm() -> Any:
    from pyflink.java_gateway import get_gateway

    return get_gateway().jvm


def _call(fn: Any, *args: Any) -> Any:
    """Calls Java; a Java exception becomes the swag exception :func:`swag.errors.from_java_chain`
    gives for it and its causes (the Java message without its kind prefix)."""
    from py4j.protocol import Py4JJavaError  # type: ignore[import-untyped]

    try:
        return fn(*args)
    except Py4JJavaError as e:
        j = e.java_exception
        err = from_java_chain(java_causes(j))
        err.java_exception = j  # type: ignore[union-attr]
        raise err from None


def aggregate(stream: Any, query: Any, *, late: bool = False, rejected: bool = False,
              cache_max_keys: int | None = None, on_error: str = "reject", key_layout: str = "value",
              firing: str = "paced") -> Any:
    """Runs ``query`` on a PyFlink ``DataStream`` of named Rows with event-time watermarks.

    Returns the result ``DataStream`` (Rows: key columns, ``window``, ``window_start``,
    ``window_end``, the aggregates; lists and sketches as strings). With ``late=True`` and/or
    ``rejected=True`` returns a tuple: the result, then the late records (the input rows too late for
    every window), then the rejected ones (Rows ``(reason, record)``: a null key or time, a NaN, a
    value a function refuses), in that order. ``cache_max_keys``: keys per subtask whose aggregators
    stay on the heap (default 100,000); the others are rebuilt from keyed state at their next record
    or timer, with the same results. ``on_error``: ``"reject"`` (default: rejected records go to the
    rejected output) or ``"fail"`` (the job fails with the first one's reason). ``key_layout``: how
    the operator keys its state, and so what its savepoints hold: ``"value"`` (default: a query with
    one key column of a basic type is keyed by the column's value) or ``"row"`` (every query by a Row
    of its key columns); a savepoint restores only with the layout it was taken with. ``firing``: when
    the windows a watermark makes due come out: ``"paced"`` (default: over the records that follow the
    watermark, by a deadline of about one watermark interval, before the watermark goes on; the firing then
    overlaps the upstream tasks instead of stopping them) or ``"watermark"`` (all at the watermark).
    """
    from pyflink.datastream import DataStream

    _add_jar(stream_env(stream))
    sw = _swag_class("io.swag.flink.SwagWindows")
    j_in = stream._j_data_stream
    j_out = _call(sw.aggregate, j_in, _query_json(query), _options(cache_max_keys, on_error, key_layout, firing))
    result = DataStream(sw.plainColumns(j_out))
    sides = []
    if late:
        sides.append(DataStream(sw.lateRecords(j_out, j_in)))
    if rejected:
        sides.append(DataStream(sw.rejectedRecords(j_out, j_in)))
    return (result, *sides) if sides else result


def executed_plans(job_result: Any, operator_name: str = DEFAULT_OPERATOR_NAME) -> list[dict[str, Any]]:
    """What each subtask of the swag operator ``operator_name`` ran, from a finished job's
    ``JobExecutionResult`` (``env.execute()``): one dict per subtask, read back at its start from the
    aggregators it built (``io.swag.core.plan.ExecutedPlan``: per group ``algorithm``, ``tree``,
    ``min_arity``, ``slicing``, ``slice_ms``, ``eviction_window``, ``range_query_windows``). The same
    text is the operator's ``swagPlan`` metric and its INFO log line. Empty if no subtask ran."""
    value = job_result.get_accumulator_result(f"{PLAN_ACCUMULATOR} {operator_name}")
    return [] if value is None else [json.loads(str(s)) for s in value]


def stream_env(stream: Any) -> Any:
    """The PyFlink StreamExecutionEnvironment of a DataStream."""
    from pyflink.datastream import StreamExecutionEnvironment

    return StreamExecutionEnvironment(stream._j_data_stream.getExecutionEnvironment())


def _options(cache_max_keys: int | None, on_error: str, key_layout: str, firing: str) -> Any:
    """The Java ``SwagFlinkOptions`` of the keyword arguments."""
    options = _call(_swag_class("io.swag.flink.SwagFlinkOptions").defaults().withOnError, on_error)
    options = _call(options.withKeyLayout, key_layout)
    options = _call(options.withFiring, firing)
    if cache_max_keys is not None:
        options = _call(options.withCacheMaxKeys, int(cache_max_keys))
    return options


def aggregate_table(t_env: Any, table: Any, query: Any, *, late: bool = False, rejected: bool = False,
                    on_error: str = "reject", key_layout: str = "value", firing: str = "paced") -> Any:
    """Runs ``query`` on ``table`` (with a watermark on the query's time column) of a
    ``StreamTableEnvironment``; returns a ``Table``. With ``late=True`` and/or ``rejected=True``
    returns a tuple: the result, then a Table of the late records (the input's columns), then one of
    the rejected records (``reason``, then the input's columns; ``swag_reason`` if the input has a
    column ``reason``), in that order. ``on_error``: ``"reject"`` (default) or ``"fail"`` (the job
    fails at the first rejected record). ``key_layout``: ``"value"`` (default) or ``"row"``, and
    ``firing``: ``"paced"`` (default) or ``"watermark"``, as for :func:`aggregate`."""
    from pyflink.table import Table

    _add_jar_table(t_env)
    st = _swag_class("io.swag.flink.SwagTables")
    options = _options(None, on_error, key_layout, firing)
    tables = _call(st.aggregateWithSides, t_env._j_tenv, table._j_table, _query_json(query), options)
    result = Table(tables[0], t_env)
    sides = []
    if late:
        sides.append(Table(tables[1], t_env))
    if rejected:
        sides.append(Table(tables[2], t_env))
    return (result, *sides) if sides else result


def register_functions(t_env: Any) -> list[str]:
    """Registers swag's SQL functions (OVER aggregates with retraction) in ``t_env``; returns their names."""
    _add_jar_table(t_env)
    return list(_call(_swag_class("io.swag.flink.table.SwagFunctions").register, t_env._j_tenv))


def execute_sql(t_env: Any, statement: str) -> Any:
    """``t_env.execute_sql(statement)``, made safe for PyFlink's gateway threads.

    PyFlink may serve a call on a different Java thread than the one that created ``t_env``
    (after a job ran Python code in this process), and Flink 2.3's planner then fails with
    ``NullPointerException: metadataHandlerProvider``. This sets the planner's thread-local on the
    serving thread and runs the statement in the same gateway call. Returns a ``TableResult``.
    """
    from pyflink.table import TableResult

    _add_jar_table(t_env)
    return TableResult(_call(_swag_class("io.swag.flink.table.PlannerThreads").executeSql, t_env._j_tenv, statement))


def execute(t_env: Any, table: Any) -> Any:
    """``table.execute()`` with the same thread safety as :func:`execute_sql`; returns a ``TableResult``."""
    from pyflink.table import TableResult

    _add_jar_table(t_env)
    return TableResult(_call(_swag_class("io.swag.flink.table.PlannerThreads").execute, t_env._j_tenv, table._j_table))


def to_data_stream(t_env: Any, table: Any) -> Any:
    """``t_env.to_data_stream(table)`` with the same thread safety as :func:`execute_sql` (the
    conversion runs the planner); returns a PyFlink ``DataStream`` of Rows."""
    from pyflink.datastream import DataStream

    _add_jar_table(t_env)
    return DataStream(_call(_swag_class("io.swag.flink.table.PlannerThreads").toDataStream, t_env._j_tenv,
                            table._j_table))


def execute_statement_set(t_env: Any, statement_set: Any) -> Any:
    """``statement_set.execute()`` with the same thread safety as :func:`execute_sql`."""
    from pyflink.table import TableResult

    _add_jar_table(t_env)
    return TableResult(_call(_swag_class("io.swag.flink.table.PlannerThreads").execute, t_env._j_tenv,
                             statement_set._j_statement_set))


def _swag_class(name: str) -> Any:
    """The Java class ``name`` of the swag jar, as seen by the gateway thread serving this call.

    py4j resolves a class by name with the context class loader of the Java thread that serves the
    call, and PyFlink may serve calls from one Python thread on different Java threads (after a job
    ran Python code in this process, say). So the jar is put on the serving thread's context class
    loader before every lookup, not once per environment: once per environment made a call fail
    with "Could not found the Java class" when a later call landed on a fresh thread.
    """
    from py4j.java_gateway import JavaClass  # type: ignore[import-untyped]
    from pyflink.util.java_utils import add_jars_to_context_class_loader

    found: Any = None
    for _ in range(3):  # a lookup may, rarely, land on yet another fresh thread: load and look again
        add_jars_to_context_class_loader([_jar_url()])
        found = _jvm()
        for part in name.split("."):
            found = getattr(found, part)
        if isinstance(found, JavaClass):
            return found
    raise SwagSetupError(f"the class {name} is not in the swag Flink jar {jar_path()}: rebuild it with `make build`")

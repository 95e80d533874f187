"""swag.spark over Spark Connect: a real Connect server started from the pyspark wheel's
``start-connect-server.sh`` with the swag jars and plugin (fixture ``connect_server``), compared
with the classic session of the same pytest process (fixture ``spark``): the same rows, value for
value and type for type, batch and streaming, the same late/rejected counts, and the errors."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
from spark_helpers import BASE, flush_batches, make_batches, write_batches

import swag
import swag.spark
from swag.errors import InvalidQueryError, SwagSetupError

ROOT = Path(__file__).resolve().parents[2]
HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
SCHEMA = "k STRING, t LONG, v DOUBLE"


# ---- comparison (plain Python, independent of swag.spark) ----

def _plain(v):
    if isinstance(v, float) and math.isnan(v):
        return ("nan",)
    if isinstance(v, list):
        return tuple(_plain(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _plain(x)) for k, x in v.items()))
    return v


def rows_of(df) -> list[tuple]:
    """The rows as sorted tuples of (column, Python type name, value); timestamps as epoch ms
    computed by Spark (collect would use the local zone)."""
    ts = {f.name for f in df.schema.fields if f.dataType.typeName() == "timestamp"}
    exprs = [f"unix_millis(`{c}`) AS `{c}`" if c in ts else f"`{c}`" for c in df.columns]
    out = []
    for r in df.selectExpr(*exprs).collect():
        d = r.asDict(recursive=True)
        out.append(tuple((c, type(d[c]).__name__, _plain(d[c])) for c in df.columns))
    return sorted(out, key=repr)


def metrics_of(progress, name: str = "swag") -> list[dict[str, int] | None]:
    """Per progress, the observed metrics ``name`` as a dict, read from either form PySpark gives:
    a Row of the fields (classic) or the server's JSON of the row, ``Row(values=, schema=)``."""
    out = []
    for p in progress:
        m = (p.get("observedMetrics") or {}).get(name)
        if m is None:
            out.append(None)
            continue
        d = m.asDict()
        if "values" in d and "schema" in d:
            d = {f["name"]: v for f, v in zip(d["schema"]["fields"], d["values"])}
        out.append({k: int(v) for k, v in d.items()})
    return out


# ---- a seeded random corpus ----

FUNCS = [
    ("s", lambda: swag.sum("v")), ("n", lambda: swag.count()), ("lo", lambda: swag.min("v")),
    ("hi", lambda: swag.max("v")), ("f", lambda: swag.first("v")), ("l", lambda: swag.last("v")),
    ("am", lambda: swag.argmax("v")), ("m", lambda: swag.mean("v")), ("c", lambda: swag.collect("v")),
]


def corpus_case(seed: int):
    """(records, query, options) for one seed: string keys with nulls, out-of-order times, some
    null/NaN values, one or two windows of random size/slide/offset and 2 to 4 functions (one of
    them always non-commutative: first, last, argmax or collect)."""
    rng = random.Random(seed)
    keys = ["a", "b", "c", None] if rng.random() < 0.7 else ["x", "y"]
    recs = []
    for _i in range(rng.randint(40, 160)):
        t = BASE + rng.randint(0, 60_000)
        v = float(rng.randint(-50, 50))
        r = rng.random()
        if r < 0.04:
            v = float("nan")
        elif r < 0.08:
            v = None
        recs.append((rng.choice(keys), t if rng.random() > 0.02 else None, v))
    q = swag.Query(key="k", time="ts", lateness=rng.choice(["0s", "2s", "10s"]))
    for w in range(rng.randint(1, 2)):
        size = rng.choice([2_000, 5_000, 10_000, 12_000])
        slide = rng.choice([d for d in (1_000, 2_000, 3_000, 5_000, size) if d <= size])
        offset = rng.choice([0, 0, 500, 1_000]) % slide
        names = rng.sample([f for f in FUNCS if f[0] not in ("f", "l", "am", "c")], rng.randint(1, 3))
        names.append(rng.choice([f for f in FUNCS if f[0] in ("f", "l", "am", "c")]))
        q.window(size, slide=slide, offset=offset, name=f"w{w}", **{f"{n}{w}": make() for n, make in names})
    options = {"late": rng.choice(["count", "keep"]), "preaggregate": rng.choice(["auto", "off"])}
    return recs, q, options


def frame(session, recs):
    return session.createDataFrame(recs, SCHEMA).selectExpr("k", "timestamp_millis(t) AS ts", "v")


@pytest.mark.parametrize("seed", range(8))
def test_batch_corpus_matches_classic(spark, connect, seed):
    recs, q, options = corpus_case(seed)
    classic = swag.spark.aggregate(frame(spark, recs), q, **options)
    remote = swag.spark.aggregate(frame(connect, recs), q, **options)
    assert remote.schema == classic.schema
    expected = rows_of(classic)
    assert expected, "the case produced no rows"
    assert rows_of(remote) == expected
    if options["late"] == "keep":
        kinds = {dict((c, v) for c, _, v in r)["swag_kind"] for r in expected}
        assert "rejected" in kinds  # null keys, null times or NaN values were in the input
        w_c, o_c = swag.spark.split(classic)
        w_r, o_r = swag.spark.split(remote)
        assert rows_of(w_r) == rows_of(w_c) and rows_of(o_r) == rows_of(o_c)
        assert rows_of(o_r)


def test_executed_plan_over_connect(spark, connect):
    recs, q, _ = corpus_case(3)
    for session in (spark, connect):
        swag.spark.aggregate(frame(session, recs), q, metrics_name="swag-ep").collect()
    classic, remote = swag.spark.executed_plan(spark, "swag-ep"), swag.spark.executed_plan(connect, "swag-ep")
    assert remote is not None and remote["engine"]["mode"] == "batch"
    assert remote == classic
    assert swag.spark.executed_plan(connect, "no-such-query") is None


# ---- streaming ----

def _stream(session, folder: Path, table: str, checkpoint: Path, q, **options):
    df = (session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(folder))
          .selectExpr("k", "timestamp_millis(t) AS ts", "v").withWatermark("ts", "5 seconds"))
    out = swag.spark.aggregate(df, q, **options)
    sq = (out.writeStream.format("memory").queryName(table).outputMode("append")
          .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())
    try:
        assert sq.awaitTermination(240), f"{table} did not finish"
        assert sq.exception() is None, sq.exception()
        progress = list(sq.recentProgress)
        last = sq.lastProgress
    finally:
        sq.stop()
    return session.table(table), progress, last


def test_stream_matches_classic(spark, connect, tmp_path):
    batches = make_batches(11, files=4, per_file=120, keys="abc")
    batches[1].append({"k": None, "t": batches[1][0]["t"], "v": 1.0})  # a rejected record
    batches += flush_batches(max(r["t"] for b in batches for r in b))
    write_batches(tmp_path / "in", batches)
    q = (swag.Query(key="k", time="ts", lateness="2s")
         .window("6s", slide="2s", s=swag.sum("v"), l=swag.last("v"), am=swag.argmax("v")))
    c_rows, c_progress, c_last = _stream(spark, tmp_path / "in", "swag_classic", tmp_path / "ck1", q, late="keep")
    # a session whose provider is not RocksDB: aggregate sets it (the server allows it)
    connect.conf.set(swag.spark.PROVIDER_CONF, HDFS)
    r_rows, r_progress, r_last = _stream(connect, tmp_path / "in", "swag_connect", tmp_path / "ck2", q, late="keep")
    assert connect.conf.get(swag.spark.PROVIDER_CONF) == swag.spark.ROCKSDB
    assert r_rows.schema == c_rows.schema
    expected = rows_of(c_rows)
    assert len(expected) > 20
    assert rows_of(r_rows) == expected
    c_metrics, r_metrics = metrics_of(c_progress), metrics_of(r_progress)
    assert len(r_metrics) == len(c_metrics) >= len(batches)  # (and no-data batches)
    assert r_metrics == c_metrics
    assert sum(m["late"] for m in c_metrics if m) > 0 and sum(m["rejected"] for m in c_metrics if m) == 1
    # lastProgress["observedMetrics"]["swag"] is there on Connect, and observed_metrics reads both forms
    assert "swag" in r_last["observedMetrics"]
    assert swag.spark.observed_metrics(r_last) == swag.spark.observed_metrics(c_last) == c_metrics[-1]
    late_rows = [r for r in expected if ("swag_kind", "str", "late") in r]
    assert len(late_rows) == sum(m["late"] for m in c_metrics if m)


# ---- errors ----

def test_bad_query_raises_invalid_query_error_naming_the_field(spark, connect):
    recs, _, _ = corpus_case(0)
    q = swag.Query(key="k", time="ts").window("2s", s=swag.sum("nope"))
    with pytest.raises(InvalidQueryError) as classic:
        swag.spark.aggregate(frame(spark, recs), q)
    with pytest.raises(InvalidQueryError) as remote:
        swag.spark.aggregate(frame(connect, recs), q)
    assert "'nope'" in str(remote.value)
    assert str(remote.value) == str(classic.value)


def test_the_same_errors_on_classic_and_connect(spark, connect):
    """The cross-front-end cases (tests/error_cases.py): the same class and message from a classic
    session (py4j: the Java exception object) and from the Connect server (only its class and text
    travel). The bad query is also sent unvalidated, so that the server's QuerySpec raises it."""
    from error_cases import (
        BAD_INPUT,
        BAD_INPUT_CLASS,
        BAD_INPUT_MESSAGE,
        BAD_QUERY,
        BAD_QUERY_CLASS,
        BAD_QUERY_MESSAGE,
        COLUMNS,
        check,
    )
    from swag import _spark_connect

    recs, _, _ = corpus_case(0)
    for session in (spark, connect):
        df = frame(session, recs)
        assert df.columns == COLUMNS
        with pytest.raises(swag.SwagError) as e:
            swag.spark.aggregate(df, swag.Query.from_json(BAD_QUERY))
        check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)
        with pytest.raises(swag.SwagError) as e:
            swag.spark.aggregate(df, swag.Query.from_json(BAD_INPUT))
        check(e.value, BAD_INPUT_CLASS, BAD_INPUT_MESSAGE)
    # the bad query past the client's validation: raised by the engine's JVM
    with pytest.raises(swag.SwagError) as e:
        try:
            spark._jvm.io.swag.spark.SwagSpark.aggregate(frame(spark, recs)._jdf, json.dumps(BAD_QUERY), "{}")
        except Exception as raw:
            raise swag.spark._translate(raw) from None
    check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)
    with pytest.raises(swag.SwagError) as e:
        _spark_connect.aggregate(frame(connect, recs), json.dumps(BAD_QUERY), "{}")
    check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)
    assert e.value.connect_exception is not None


def test_server_without_the_plugin_raises_setup_error_with_the_command(tmp_path):
    import pyspark
    from connect_server import free_port, start, stop
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    port = free_port()
    script = Path(pyspark.__file__).resolve().parent / "sbin" / "start-connect-server.sh"
    server = start(tmp_path / "bare", f"{script} --master 'local[1]' --driver-memory 512m "
                   f"--conf spark.connect.grpc.binding.address=127.0.0.1 --conf spark.connect.grpc.binding.port={port} "
                   "--conf spark.ui.enabled=false", port=port)
    try:
        s = ConnectSession.builder.remote(server.url).create()
        try:
            df = s.range(3).selectExpr("'a' AS k", "timestamp_millis(id) AS ts", "CAST(id AS DOUBLE) AS v")
            with pytest.raises(SwagSetupError) as e:
                swag.spark.aggregate(df, swag.Query(key="k", time="ts").window("2s", s=swag.sum("v")))
            text = str(e.value)
            assert "swag.Aggregate" in text
            assert swag.spark.connect_server_command() in text
            assert "--conf spark.connect.extensions.relation.classes=io.swag.spark.connect.SwagRelationPlugin" in text
            assert "RocksDBStateStoreProvider" in text and "swag-core.jar" in text and "swag-spark.jar" in text
            with pytest.raises(SwagSetupError):
                swag.spark.check_session(s)
        finally:
            s.stop()
    finally:
        stop(server)


def test_connect_server_command_names_the_wheel_script_and_the_jars():
    cmd = swag.spark.connect_server_command(conf={"spark.connect.grpc.binding.port": "15111"})
    parts = cmd.split(" ")
    assert parts[0].endswith("pyspark/sbin/start-connect-server.sh") and Path(parts[0]).is_file()
    jars = parts[parts.index("--jars") + 1].split(",")
    # the swag jars, then those an earlier test of this process gave to swag.add_jars (process-wide)
    user = [str(Path(j).resolve()) for j in swag._jvm.user_jars()]
    assert [Path(j).name for j in jars[:2]] == ["swag-core.jar", "swag-spark.jar"]
    assert [str(Path(j).resolve()) for j in jars[2:]] == user
    assert all(Path(j).is_file() for j in jars)
    assert "spark.connect.grpc.binding.port=15111" in parts


# ---- the README's quick start, unchanged but for the session ----

QUICK_START = '''
import json, sys
from pyspark.sql import SparkSession
import swag, swag.spark

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
data, out_dir, ck = sys.argv[2], sys.argv[3], sys.argv[4]
q = (swag.Query(key="origin", time="sched_dep", lateness="1h")
       .window("1h", slide="5min", top=swag.max("dep_delay"), p95=swag.quantile("dep_delay", 0.95)))
stream = (spark.readStream.schema("origin STRING, sched_dep TIMESTAMP, dep_delay DOUBLE").parquet(data)
          .withWatermark("sched_dep", "4 hours"))
out = swag.spark.aggregate(stream, q)                 # output_mode="append" | "update"
sq = (out.writeStream.format("parquet").outputMode("append").option("checkpointLocation", ck)
      .trigger(availableNow=True).start(out_dir))
sq.awaitTermination()
history_df = spark.read.parquet(data)
swag.spark.aggregate(history_df, q).show()            # the same query on a static DataFrame
rows = swag.spark.aggregate(history_df, q).selectExpr("origin", "unix_millis(window_start) AS s", "top", "p95").collect()
streamed = spark.read.parquet(out_dir).count()
print("RESULT " + json.dumps({"rows": [r.asDict() for r in rows], "streamed": streamed}))
'''


def test_readme_quick_start_over_connect(connect_server, tmp_path):
    rng = random.Random(5)
    start = datetime(2013, 1, 1, tzinfo=UTC).timestamp()
    recs = [(rng.choice(["EWR", "JFK", "LGA"]), start + rng.randint(0, 6 * 3600), float(rng.randint(-10, 120)))
            for _ in range(300)]
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "flights").mkdir()
    pq.write_table(pa.table({
        "origin": [r[0] for r in recs],
        "sched_dep": pa.array([int(r[1] * 1_000_000) for r in recs], pa.timestamp("us", tz="UTC")),
        "dep_delay": [r[2] for r in recs],
    }), tmp_path / "flights" / "part-0.parquet")
    script = tmp_path / "quick_start.py"
    script.write_text(textwrap.dedent(QUICK_START))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPARK_")}
    env["PYTHONPATH"] = str(ROOT / "python")
    r = subprocess.run([sys.executable, str(script), connect_server.url, str(tmp_path / "flights"),
                        str(tmp_path / "out"), str(tmp_path / "ck")], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "|origin|" in r.stdout  # show() printed the table
    result = json.loads(r.stdout.split("RESULT ", 1)[1])
    # oracle: per origin, the max delay of every 1h window sliding by 5 minutes that has a record
    want: dict[tuple[str, int], float] = {}
    for k, t, v in recs:
        ms = int(t * 1000)
        s = ms - ms % 300_000
        while s > ms - 3_600_000:
            want[(k, s)] = max(want.get((k, s), -math.inf), v)
            s -= 300_000
    got = {(r["origin"], r["s"]): r["top"] for r in result["rows"]}
    assert got == want
    assert all(r["p95"] <= r["top"] for r in result["rows"])
    assert 0 < result["streamed"] <= len(want)  # the stream's final windows (those its watermark closed)


def test_session_remote_sets_the_conf_and_refuses_a_static_one(connect_server, connect):
    s = swag.spark.session(remote=connect_server.url, shuffle_partitions=3)
    assert s is connect  # getOrCreate: the process's Connect session
    assert s.conf.get(swag.spark.PROVIDER_CONF) == swag.spark.ROCKSDB
    assert s.conf.get("spark.sql.shuffle.partitions") == "3"
    assert s.conf.get("spark.sql.session.timeZone") == "UTC"
    with pytest.raises(swag.spark.SparkConnectUnsupported) as e:
        swag.spark.session(remote=connect_server.url, shuffle_partitions=2, conf={"spark.jars": "/tmp/x.jar"})
    assert "spark.jars" in str(e.value) and "connect_server_command" in str(e.value)
    assert s.conf.get("spark.sql.shuffle.partitions") == "2"

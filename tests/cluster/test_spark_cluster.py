"""swag on a real Spark standalone cluster (a Master and 2 Workers of 1 core / 1 GiB, 127.0.0.1):
``swag.spark.aggregate`` streaming over one JSON file per micro-batch with 4 shuffle partitions,
into a Parquet file sink (exactly-once), with its checkpoint on the local FS shared by all
processes; the driver runs in its own process (spark_job.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import clusters
import pytest
import spark_helpers as h

HERE = Path(__file__).resolve().parent
FILES = 10
PER_FILE = 400


def make_input(directory: Path, seed: int = 3, bad: bool = False) -> dict[str, int]:
    """FILES batches (spark_helpers.make_batches) + the flush batches; with ``bad``, every third batch
    from the third on also gets a record with a null key, one with an unparsable time, one with a NaN value and one an
    hour beyond the lateness (none of them moves the batch's max event time, so the watermarks and
    windows stay those of the clean input). Returns the counts of bad records by kind."""
    batches = h.make_batches(seed, files=FILES, per_file=PER_FILE)
    counts = {"rejected": 0, "late": 0}
    if bad:
        for i in range(2, FILES, 3):  # not batch 0: nothing is late before the watermark moves
            top = max(r["t"] for r in batches[i])
            batches[i] += [
                {"k": None, "t": top, "v": 1.0},
                {"k": "a", "t": "12:xx", "v": 1.0},
                {"k": "b", "t": top, "v": math.nan},
                {"k": "c", "t": top - 3_600_000, "v": 1.0},
            ]
            counts["rejected"] += 3
            counts["late"] += 1
    last = max(r["t"] for b in batches for r in b if isinstance(r["t"], int))
    h.write_batches(directory, batches + h.flush_batches(last))
    return counts


def start_driver(master: str, inp: Path, out: Path, ck: Path, env: dict | None = None) -> subprocess.Popen:
    log = open(out.parent / (out.name + ".driver.log"), "wb")
    p = subprocess.Popen([sys.executable, str(HERE / "spark_job.py"), "--master", master, "--input", str(inp),
                          "--out", str(out), "--checkpoint", str(ck)], stdout=subprocess.PIPE, stderr=log,
                         env=env, start_new_session=True)
    log.close()
    return p


def finish_driver(p: subprocess.Popen, out: Path, timeout: float = 600) -> dict:
    try:
        stdout, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        import os
        import signal

        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    log = out.parent / (out.name + ".driver.log")
    assert p.returncode == 0, f"driver failed ({p.returncode}): {log.read_text()[-3000:]}"
    return json.loads(stdout.decode().strip().splitlines()[-1])


def read_committed(out: Path) -> dict:
    """The rows of the files the sink committed (its _spark_metadata log): what a reader of the table
    sees. Asserts no (key, window) appears twice."""
    import pyarrow.parquet as pq

    files = []
    logs = [f for f in (out / "_spark_metadata").iterdir() if f.name.split(".")[0].isdigit()]
    logs.sort(key=lambda f: int(f.name.split(".")[0]))
    compacts = [f for f in logs if f.name.endswith(".compact")]
    if compacts:  # a compact file holds every entry up to its batch
        logs = [compacts[-1]] + [f for f in logs if int(f.name.split(".")[0]) > int(compacts[-1].name.split(".")[0])]
    for f in logs:
        for line in f.read_text().splitlines()[1:]:
            e = json.loads(line)
            if e.get("action", "add") == "add":
                files.append(e["path"])
    import pandas as pd

    frames = [pq.read_table(f.replace("file://", "")).to_pandas() for f in files]
    df = pd.concat(frames) if frames else pd.DataFrame()
    return _windows(df)


def _windows(df) -> dict:
    out: dict = {}
    for r in df.itertuples(index=False):
        key = (r.k, r.window, int(r.window_start), int(r.window_end))
        assert key not in out, f"(key, window) {key} written twice"
        out[key] = (r.mx, int(r.n), r.s)
    return out


def local_env() -> dict:
    import os

    e = dict(os.environ)
    e.update({"SPARK_LOCAL_IP": clusters.HOST, "SPARK_LOCAL_HOSTNAME": "localhost"})
    return e


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The clean input and its local-mode output (local[4], 4 shuffle partitions)."""
    d = tmp_path_factory.mktemp("spark-ref")
    make_input(d / "in")
    p = start_driver("local[4]", d / "in", d / "out", d / "ck", env=local_env())
    metrics = finish_driver(p, d / "out")
    assert metrics["late"] > 0, f"the input makes late records: {metrics}"
    return d / "in", read_committed(d / "out"), metrics


def _diff(got: dict, want: dict) -> None:
    assert len(want) > 500, f"the reference run made only {len(want)} windows"
    missing = set(want) - set(got)
    extra = set(got) - set(want)
    assert not missing, f"{len(missing)} windows lost, e.g. {sorted(missing)[:3]}"
    assert not extra, f"{len(extra)} windows extra, e.g. {sorted(extra)[:3]}"
    wrong = [k for k in want if got[k] != want[k]]
    assert not wrong, f"{len(wrong)} windows differ, e.g. {[(k, got[k], want[k]) for k in wrong[:3]]}"


def test_cluster_equals_local_mode(spark_cluster, reference, tmp_path):
    """The short one (also in `make test`)."""
    inp, want, want_m = reference
    p = start_driver(spark_cluster.master_url, inp, tmp_path / "out", tmp_path / "ck", env=spark_cluster.driver_env())
    got_m = finish_driver(p, tmp_path / "out")
    got = read_committed(tmp_path / "out")
    assert len(want) > 500
    _diff(got, want)
    assert (got_m["late"], got_m["rejected"], got_m["windows"]) == (want_m["late"], want_m["rejected"], want_m["windows"])
    assert got_m["windows"] == len(want)
    app = clusters.http_json(f"{spark_cluster.ui}/json/")
    assert app["aliveworkers"] >= 2


def _committed_batches(ck: Path) -> int:
    d = ck / "commits"
    return sum(1 for f in d.iterdir() if f.name.isdigit()) if d.exists() else 0


@pytest.mark.slow
def test_kill_a_worker_mid_stream_recovers(spark_cluster, reference, tmp_path):
    inp, want, want_m = reference
    spark_cluster.wait_workers(2)
    ck = tmp_path / "ck"
    p = start_driver(spark_cluster.master_url, inp, tmp_path / "out", ck, env=spark_cluster.driver_env())
    deadline = time.monotonic() + 300
    while _committed_batches(ck) < 4:
        assert p.poll() is None, "driver ended before the failure"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.3)
    victim = spark_cluster.live_worker_names()[0]
    spark_cluster.daemons.kill(victim)  # kill -9 the Worker's process group: the Worker and its executor
    at_kill = _committed_batches(ck)
    spark_cluster.add_worker(wait=False)  # a replacement, like a supervised cluster
    got_m = finish_driver(p, tmp_path / "out")
    assert at_kill < got_m["batches"], "the worker died mid-stream"
    got = read_committed(tmp_path / "out")
    _diff(got, want)
    assert got_m["windows"] == len(want)
    assert (got_m["late"], got_m["rejected"]) == (want_m["late"], want_m["rejected"])


@pytest.mark.slow
def test_bad_input_is_counted_and_the_query_keeps_running(spark_cluster, reference, tmp_path):
    _, want, want_m = reference
    counts = make_input(tmp_path / "in", bad=True)
    p = start_driver(spark_cluster.master_url, tmp_path / "in", tmp_path / "out", tmp_path / "ck",
                     env=spark_cluster.driver_env())
    got_m = finish_driver(p, tmp_path / "out")
    got = read_committed(tmp_path / "out")
    _diff(got, want)
    assert got_m["rejected"] == want_m["rejected"] + counts["rejected"]
    assert got_m["late"] == want_m["late"] + counts["late"]
    assert got_m["batches"] >= FILES + 2

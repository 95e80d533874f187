"""Running the cluster test job (tests/cluster/java/io/swag/cluster/ClusterJob.java) locally and on a
cluster, and reading its at-least-once output back, deduplicated."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import clusters

MAIN = "io.swag.cluster.ClusterJob"


def run_local(jar: Path, out: Path, n: int, bad: int = 0, parallelism: int = 1, timeout: float = 300) -> None:
    """The same job in Flink's local mode (a mini cluster in one JVM)."""
    home = clusters.pyflink_home()
    cmd = ["java", *clusters._java_opts(home).split(), "-Xmx512m", "-cp", f"{jar}:{home / 'lib'}/*", MAIN,
           "--out", str(out), "--n", str(n), "--rate", "1000000", "--bad", str(bad), "--local", str(parallelism),
           "--checkpoint-dir", (out.parent / (out.name + "-ck")).as_uri()]
    log = out.parent / (out.name + ".log")
    with open(log, "wb") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, start_new_session=True)
    assert r.returncode == 0, f"local run failed, see {log}"


def job_args(out: Path, n: int, rate: int, bad: int = 0, interval: int = 500) -> list[str]:
    return ["--out", str(out), "--n", str(n), "--rate", str(rate), "--bad", str(bad), "--interval", str(interval)]


class Output:
    """The job's output: ``windows`` {(k, window, start, end): final values} (the last row of each key
    and window: records within the lateness update a window), ``emitted`` (every distinct (window,
    values) row), ``late`` ids, ``rejected`` {id: reason}, ``duplicates`` (rows seen before, i.e.
    replayed after a restore)."""

    def __init__(self) -> None:
        self.windows: dict = {}
        self.emitted: set = set()
        self.late: set = set()
        self.rejected: dict = {}
        self.duplicates = 0
        self.rows = 0


def read(out: Path) -> Output:
    """Reads every part file in name (= creation) order."""
    o = Output()
    for p in sorted(out.glob("part-*.txt")):
        for line in p.read_text().splitlines():
            f = line.split("\t")
            if f[0] == "LATE":
                i = int(f[4])
                o.duplicates += i in o.late
                o.late.add(i)
            elif f[0] == "REJ":
                i = int(f[2])
                assert o.rejected.get(i, f[1]) == f[1], f"rejected {i} twice with different reasons"
                o.duplicates += i in o.rejected
                o.rejected[i] = f[1]
            else:
                key, vals = tuple(f[:4]), tuple(f[4:])
                o.rows += 1
                o.duplicates += (key, vals) in o.emitted
                o.emitted.add((key, vals))
                o.windows[key] = vals
    return o


def lines_written(out: Path) -> int:
    return sum(os.path.getsize(p) for p in out.glob("part-*.txt")) if out.exists() else 0


def taskmanagers_of(cluster, jid: str, vertex_id: str) -> set[str]:
    """The TaskManagers running subtasks of a vertex."""
    r = clusters.http_json(f"{cluster.url}/jobs/{jid}/vertices/{vertex_id}/taskmanagers")
    return {tm.get("taskmanager-id") or tm.get("endpoint") for tm in r.get("taskmanagers", [])}

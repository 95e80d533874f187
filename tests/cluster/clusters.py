"""Real multi-process clusters on 127.0.0.1 for the cluster tests, started from the pip packages' own
scripts (no Docker):

- :class:`FlinkCluster`: a Flink 2.3 session cluster, one JobManager and N TaskManagers, from
  ``pyflink/bin/jobmanager.sh`` / ``taskmanager.sh start-foreground`` with a generated ``config.yaml``
  in a temporary ``FLINK_CONF_DIR``; logs, pid files, checkpoints and savepoints in the temp dir.
- :class:`SparkCluster`: a Spark 4.3 standalone cluster, a Master and N Workers, from
  ``pyspark/bin/spark-class org.apache.spark.deploy.master.Master`` / ``...worker.Worker``.

Every port is chosen free at run time and every socket binds 127.0.0.1. Each daemon runs in its own
process group (``start_new_session``); :meth:`stop` kills every group it started (SIGTERM, then
SIGKILL), also the executors a Spark Worker forked. Readiness is read from the REST APIs: Flink's
``/overview`` (registered TaskManagers), Spark's master ``/json/`` (ALIVE workers).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def http_json(url: str, data: Any = None, method: str | None = None, timeout: float = 10) -> Any:
    assert url.startswith(f"http://{HOST}:"), url  # only ever the local cluster
    body = None if data is None else json.dumps(data).encode()
    req = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read().decode() or "null")


def wait_for(what: str, check, timeout: float, every: float = 0.5, procs: list | None = None):
    """Polls ``check()`` until it returns a truthy value (returned) or ``timeout`` s pass (error)."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        for p in procs or []:
            if p.poll() is not None:
                raise RuntimeError(f"{what}: process {p.args} exited with {p.returncode}")
        try:
            v = check()
            if v:
                return v
        except Exception as e:  # noqa: BLE001 - not ready yet
            last = e
        time.sleep(every)
    raise TimeoutError(f"{what}: not ready after {timeout}s (last error: {last!r})")


class Daemons:
    """Processes started in their own process groups, with pid files; stopped by pid."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, cmd: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = open(self.workdir / "log" / f"{name}.out", "ab")
        p = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, cwd=self.workdir)
        log.close()
        (self.workdir / "pid" / f"{name}.pid").write_text(f"{p.pid}\n")
        self.procs[name] = p
        return p

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Kills the process group of daemon ``name`` (the daemon and any child it forked)."""
        p = self.procs[name]
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        if sig == signal.SIGKILL:
            p.wait(timeout=30)

    def stop_all(self) -> None:
        for _name, p in list(self.procs.items()):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 15
        for p in self.procs.values():
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for p in self.procs.values():
            try:
                os.killpg(p.pid, signal.SIGKILL)  # also children left behind in the group
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


# ---------------------------------------------------------------------------------------------- Flink

def pyflink_home() -> Path:
    """The pyflink package (FLINK_HOME of its bin scripts): $SWAG_PYFLINK_HOME, else .venv-flink's."""
    env = os.environ.get("SWAG_PYFLINK_HOME")
    if env:
        return Path(env)
    try:
        import pyflink  # type: ignore[import-not-found]

        return Path(pyflink.__file__).resolve().parent
    except ImportError:
        pass
    found = sorted((ROOT / ".venv-flink" / "lib").glob("python3*/site-packages/pyflink"))
    if not found:
        raise FileNotFoundError("pyflink not found: run `make venv-flink` or set SWAG_PYFLINK_HOME")
    return found[0]


def _java_opts(flink_home: Path) -> str:
    """The JVM options (--add-opens...) of the package's own config.yaml, which Flink needs on Java 17."""
    text = (flink_home / "conf" / "config.yaml").read_text()
    m = re.search(r"^\s+all:\s*(--.*)$", text, re.M)
    return m.group(1).strip() if m else ""


def build_job_jar(out: Path) -> Path:
    """Compiles tests/cluster/java (the cluster test job) against pyflink's lib and swag-flink.jar, and
    packs it with swag-flink.jar's classes into one job jar."""
    home = pyflink_home()
    swag_flink = ROOT / "python" / "swag" / "jars" / "swag-flink.jar"
    if not swag_flink.is_file():
        raise FileNotFoundError(f"{swag_flink}: build it (mvn -Pflink -DskipTests install; make jar-into-package)")
    classes = out / "classes"
    classes.mkdir(parents=True, exist_ok=True)
    srcs = [str(p) for p in (ROOT / "tests" / "cluster" / "java").rglob("*.java")]
    cp = f"{home / 'lib'}/*:{swag_flink}"
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", cp, *srcs], check=True)
    jar = out / "swag-cluster-job.jar"
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as z:
        seen = set()
        for f in sorted(classes.rglob("*")):
            if f.is_file():
                name = str(f.relative_to(classes))
                z.write(f, name)
                seen.add(name)
        with zipfile.ZipFile(swag_flink) as src:
            for info in src.infolist():
                if info.filename in seen or info.filename.upper().startswith("META-INF/MANIFEST") \
                        or re.match(r"META-INF/.*\.(SF|DSA|RSA)$", info.filename):
                    continue
                seen.add(info.filename)
                z.writestr(info, src.read(info))
    return jar


class FlinkCluster:
    """A Flink session cluster: 1 JobManager + ``taskmanagers`` TaskManagers (``slots`` each)."""

    def __init__(self, workdir: Path, taskmanagers: int = 2, slots: int = 2, tm_memory: str = "1024m",
                 extra_conf: dict[str, str] | None = None) -> None:
        self.home = pyflink_home()
        self.workdir = workdir
        for d in ("conf", "log", "pid", "checkpoints", "savepoints"):
            (workdir / d).mkdir(parents=True, exist_ok=True)
        self.daemons = Daemons(workdir)
        self.rest_port = free_port()
        self.rpc_port = free_port()
        self.n_tm = taskmanagers
        self.slots = slots
        self.tm_memory = tm_memory
        self.extra_conf = extra_conf or {}
        self.tm_count = 0
        self.url = f"http://{HOST}:{self.rest_port}"

    def config(self) -> dict[str, str]:
        c = {
            "env.java.opts.all": _java_opts(self.home),
            "jobmanager.rpc.address": HOST,
            "jobmanager.rpc.port": str(self.rpc_port),
            "jobmanager.bind-host": HOST,
            "jobmanager.memory.process.size": "768m",
            "jobmanager.execution.failover-strategy": "region",
            "taskmanager.bind-host": HOST,
            "taskmanager.host": HOST,
            "taskmanager.rpc.port": "0",
            "taskmanager.data.port": "0",
            "taskmanager.numberOfTaskSlots": str(self.slots),
            "taskmanager.memory.process.size": self.tm_memory,
            "taskmanager.memory.managed.fraction": "0.1",
            "taskmanager.memory.jvm-metaspace.size": "160m",
            "rest.address": HOST,
            "rest.bind-address": HOST,
            "rest.port": str(self.rest_port),
            "blob.server.port": "0",
            "parallelism.default": "1",
            "execution.checkpointing.dir": (self.workdir / "checkpoints").as_uri(),
            "execution.checkpointing.savepoint-dir": (self.workdir / "savepoints").as_uri(),
            "execution.checkpointing.num-retained": "2",
            "restart-strategy.type": "fixed-delay",
            "restart-strategy.fixed-delay.attempts": "20",
            "restart-strategy.fixed-delay.delay": "1 s",
            "heartbeat.interval": "1000",
            "heartbeat.timeout": "6000",
            "slot.request.timeout": "60000",
            "state.backend.type": "hashmap",
            "metrics.internal.query-service.port": "0",
            "metrics.fetcher.update-interval": "1000",
        }
        c.update(self.extra_conf)
        return c

    def env(self) -> dict[str, str]:
        e = dict(os.environ)
        e.update({
            "FLINK_HOME": str(self.home),
            "FLINK_CONF_DIR": str(self.workdir / "conf"),
            "FLINK_LOG_DIR": str(self.workdir / "log"),
            "FLINK_PID_DIR": str(self.workdir / "pid"),
        })
        return e

    def start(self) -> FlinkCluster:
        conf = self.workdir / "conf"
        # flat keys are valid YAML for Flink 2's config.yaml parser; values quoted as strings
        conf.joinpath("config.yaml").write_text("".join(f"{k}: {json.dumps(v)}\n" for k, v in self.config().items()))
        for f in ("log4j-console.properties", "log4j.properties", "log4j-cli.properties", "logback-console.xml"):
            src = self.home / "conf" / f
            if src.is_file():
                conf.joinpath(f).write_text(src.read_text())
        bin_ = self.home / "bin"
        self.daemons.start("jobmanager", ["bash", str(bin_ / "jobmanager.sh"), "start-foreground"], self.env())
        wait_for("Flink JobManager REST", lambda: http_json(f"{self.url}/overview") is not None, 120,
                 procs=[self.daemons.procs["jobmanager"]])
        for _ in range(self.n_tm):
            self.add_taskmanager(wait=False)
        self.wait_taskmanagers(self.n_tm)
        return self

    def add_taskmanager(self, wait: bool = True) -> str:
        name = f"taskmanager-{self.tm_count}"
        self.tm_count += 1
        self.daemons.start(name, ["bash", str(self.home / "bin" / "taskmanager.sh"), "start-foreground"], self.env())
        if wait:
            self.wait_taskmanagers(len(self.live_taskmanager_names()))
        return name

    def live_taskmanager_names(self) -> list[str]:
        return [n for n, p in self.daemons.procs.items() if n.startswith("taskmanager") and p.poll() is None]

    def wait_taskmanagers(self, n: int, timeout: float = 120) -> None:
        wait_for(f"{n} Flink TaskManagers", lambda: http_json(f"{self.url}/overview")["taskmanagers"] >= n, timeout)

    def stop(self) -> None:
        self.daemons.stop_all()

    # -- jobs ----------------------------------------------------------------------------------
    def run(self, jar: Path, main: str, args: list[str], parallelism: int, savepoint: str | None = None) -> str:
        """Submits ``jar`` detached with the package's ``bin/flink run``; returns the job id."""
        cmd = ["bash", str(self.home / "bin" / "flink"), "run", "-d", "-m", f"{HOST}:{self.rest_port}",
               "-p", str(parallelism), "-c", main]
        if savepoint:
            cmd += ["-s", savepoint]
        cmd += [str(jar), *args]
        env = self.env()
        env["FLINK_LOG_DIR"] = str(self.workdir / "log")
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180, start_new_session=True)
        m = re.search(r"JobID ([0-9a-f]{32})", r.stdout + r.stderr)
        if r.returncode != 0 or not m:
            raise RuntimeError(f"flink run failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
        return m.group(1)

    def job(self, job_id: str) -> dict[str, Any]:
        return http_json(f"{self.url}/jobs/{job_id}")

    def state(self, job_id: str) -> str:
        return self.job(job_id)["state"]

    def wait_state(self, job_id: str, states: set[str], timeout: float) -> str:
        bad = {"FAILED", "CANCELED"} - states

        def check():
            s = self.state(job_id)
            if s in bad:
                raise AssertionError(f"job {job_id} is {s}: {self.exceptions(job_id)}")
            return s if s in states else None

        return wait_for(f"job {job_id} in {states}", check, timeout)

    def exceptions(self, job_id: str) -> str:
        try:
            return json.dumps(http_json(f"{self.url}/jobs/{job_id}/exceptions"))[:3000]
        except Exception as e:  # noqa: BLE001
            return repr(e)

    def checkpoints(self, job_id: str) -> dict[str, Any]:
        return http_json(f"{self.url}/jobs/{job_id}/checkpoints")

    def completed_checkpoints(self, job_id: str) -> int:
        return int(self.checkpoints(job_id)["counts"]["completed"])

    def restored_from(self, job_id: str) -> Any:
        return (self.checkpoints(job_id).get("latest") or {}).get("restored")

    def stop_with_savepoint(self, job_id: str, timeout: float = 120) -> str:
        """Stops the job with a savepoint (REST ``/jobs/:id/stop``); returns the savepoint path."""
        trig = http_json(f"{self.url}/jobs/{job_id}/stop", {"targetDirectory": str(self.workdir / "savepoints"),
                                                             "drain": False}, method="POST")["request-id"]

        def check():
            r = http_json(f"{self.url}/jobs/{job_id}/savepoints/{trig}")
            if r["status"]["id"] != "COMPLETED":
                return None
            op = r["operation"]
            if "failure-cause" in op:
                raise AssertionError(f"savepoint failed: {op['failure-cause']}")
            return op["location"]

        return wait_for(f"savepoint of {job_id}", check, timeout)

    def metric(self, job_id: str, vertex_name: str, metric: str) -> float:
        """The sum over subtasks of an operator metric of the vertex whose name contains ``vertex_name``."""
        j = self.job(job_id)
        v = next(v for v in j["vertices"] if vertex_name in v["name"])
        avail = http_json(f"{self.url}/jobs/{job_id}/vertices/{v['id']}/subtasks/metrics")
        names = [m["id"] for m in avail if m["id"].endswith(metric)]
        if not names:
            return 0.0
        r = http_json(f"{self.url}/jobs/{job_id}/vertices/{v['id']}/subtasks/metrics?get={names[0]}&agg=sum")
        return float(r[0]["sum"]) if r else 0.0


# ---------------------------------------------------------------------------------------------- Spark

def pyspark_home() -> Path:
    env = os.environ.get("SWAG_PYSPARK_HOME")
    if env:
        return Path(env)
    try:
        import pyspark

        return Path(pyspark.__file__).resolve().parent
    except ImportError:
        found = sorted((ROOT / ".venv" / "lib").glob("python3*/site-packages/pyspark"))
        if not found:
            raise FileNotFoundError("pyspark not found: run `make venv`") from None
        return found[0]


class SparkCluster:
    """A Spark standalone cluster: a Master and ``workers`` Workers (``cores`` cores, ``memory`` each)."""

    def __init__(self, workdir: Path, workers: int = 2, cores: int = 1, memory: str = "1g") -> None:
        self.home = pyspark_home()
        self.workdir = workdir
        for d in ("conf", "log", "pid", "work", "local"):
            (workdir / d).mkdir(parents=True, exist_ok=True)
        self.daemons = Daemons(workdir)
        self.port = free_port()
        self.ui_port = free_port()
        self.n_workers = workers
        self.cores = cores
        self.memory = memory
        self.worker_count = 0
        self.master_url = f"spark://{HOST}:{self.port}"
        self.ui = f"http://{HOST}:{self.ui_port}"

    def env(self) -> dict[str, str]:
        e = dict(os.environ)
        e.update({
            "SPARK_HOME": str(self.home),
            "SPARK_CONF_DIR": str(self.workdir / "conf"),
            "SPARK_LOG_DIR": str(self.workdir / "log"),
            "SPARK_PID_DIR": str(self.workdir / "pid"),
            "SPARK_LOCAL_IP": HOST,
            "SPARK_LOCAL_HOSTNAME": "localhost",
            "SPARK_LOCAL_DIRS": str(self.workdir / "local"),
            "SPARK_WORKER_DIR": str(self.workdir / "work"),
            "SPARK_DAEMON_MEMORY": "384m",
            "PYSPARK_PYTHON": sys.executable,
        })
        return e

    def driver_env(self) -> dict[str, str]:
        """Environment of a driver process: binds 127.0.0.1 (not the host name's address)."""
        e = dict(os.environ)
        e.update({"SPARK_LOCAL_IP": HOST, "SPARK_LOCAL_HOSTNAME": "localhost", "PYSPARK_PYTHON": sys.executable})
        e.pop("SPARK_HOME", None)
        return e

    def start(self) -> SparkCluster:
        # the daemons' own settings; the Worker's web UI gets a free port (its default 8081 is Flink's)
        (self.workdir / "conf" / "spark-defaults.conf").write_text(
            "spark.master.rest.enabled false\nspark.ui.reverseProxy false\n")
        cls = str(self.home / "bin" / "spark-class")
        self.daemons.start("master", [cls, "org.apache.spark.deploy.master.Master", "--host", HOST,
                                      "--port", str(self.port), "--webui-port", str(self.ui_port)], self.env())
        wait_for("Spark master", lambda: http_json(f"{self.ui}/json/")["status"] == "ALIVE", 120,
                 procs=[self.daemons.procs["master"]])
        for _ in range(self.n_workers):
            self.add_worker(wait=False)
        self.wait_workers(self.n_workers)
        return self

    def add_worker(self, wait: bool = True) -> str:
        name = f"worker-{self.worker_count}"
        self.worker_count += 1
        wd = self.workdir / "work" / name
        wd.mkdir(parents=True, exist_ok=True)
        self.daemons.start(name, [str(self.home / "bin" / "spark-class"), "org.apache.spark.deploy.worker.Worker",
                                  "--host", HOST, "--port", str(free_port()), "--webui-port", str(free_port()),
                                  "--cores", str(self.cores), "--memory", self.memory, "--work-dir", str(wd),
                                  self.master_url], self.env())
        if wait:
            self.wait_workers(len(self.live_worker_names()))
        return name

    def live_worker_names(self) -> list[str]:
        return [n for n, p in self.daemons.procs.items() if n.startswith("worker") and p.poll() is None]

    def alive_workers(self) -> int:
        return sum(1 for w in http_json(f"{self.ui}/json/")["workers"] if w["state"] == "ALIVE")

    def wait_workers(self, n: int, timeout: float = 120) -> None:
        wait_for(f"{n} Spark workers", lambda: self.alive_workers() >= n, timeout)

    def stop(self) -> None:
        self.daemons.stop_all()

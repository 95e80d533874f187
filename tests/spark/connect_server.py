"""A Spark Connect server for the tests, started from the pyspark wheel's own
``sbin/start-connect-server.sh`` on 127.0.0.1 and a free port, its pid and log in a given folder,
and stopped by the pid the script wrote (SIGTERM, then SIGKILL): no JVM is left behind, also when
start-up fails half-way (``stop`` is registered with ``atexit`` as well)."""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT_S = 180


@dataclass
class Server:
    url: str
    port: int
    pid: int | None
    folder: Path
    start_s: float

    def log(self, lines: int = 40) -> str:
        logs = sorted(self.folder.glob("*.out"))
        if not logs:
            return "(no log)"
        return "\n".join(logs[-1].read_text(errors="replace").splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        return True
    # a zombie is not alive (its parent, the daemon script's shell, is gone: init reaps it)
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def start(folder: Path, command: str, *, port: int) -> Server:
    """Runs ``command`` (a start-connect-server.sh line; ``port`` must be its grpc port) with
    ``SPARK_PID_DIR``/``SPARK_LOG_DIR`` = ``folder``; returns once the port accepts connections."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_HOME")}
    env.update(SPARK_PID_DIR=str(folder), SPARK_LOG_DIR=str(folder), PYSPARK_PYTHON=sys.executable)
    t0 = time.monotonic()
    server = Server(f"sc://127.0.0.1:{port}", port, None, folder, 0.0)
    atexit.register(stop, server)
    try:
        r = subprocess.run(command, shell=True, env=env, capture_output=True, text=True, timeout=120)
        pids = list(folder.glob("*.pid"))
        if pids:
            server.pid = int(pids[0].read_text().strip())
        if r.returncode != 0 or server.pid is None:
            raise RuntimeError(f"start-connect-server.sh failed ({r.returncode}): {r.stdout}{r.stderr}\n{server.log()}")
        while True:
            if not _alive(server.pid):
                raise RuntimeError(f"the Connect server (pid {server.pid}) died during start-up:\n{server.log()}")
            with socket.socket() as s:
                s.settimeout(1)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() - t0 > START_TIMEOUT_S:
                raise RuntimeError(f"the Connect server did not listen on {port} in {START_TIMEOUT_S}s:\n{server.log()}")
            time.sleep(0.2)
    except BaseException:
        stop(server)
        raise
    server.start_s = time.monotonic() - t0
    return server


def stop(server: Server) -> None:
    """Stops the server by its pid (SIGTERM, up to 30 s, then SIGKILL); idempotent."""
    pid = server.pid
    if pid is None or not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.1)


def free_port() -> int:
    return _free_port()

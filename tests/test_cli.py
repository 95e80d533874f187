"""The command lines, run as separate processes: the library's (`python -m swag ...`) and the demo
applications' (`python -m swag_apps demo ...`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import swag

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path | None = None, module: str = "swag") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def run_demo(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run("demo", *args, cwd=cwd, module="swag_apps")


def test_functions(tmp_path: Path) -> None:
    p = run("functions", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == swag.functions()
    assert {"sum", "max", "bloom", "kll"} <= set(p.stdout.split())


def test_algorithms(tmp_path: Path) -> None:
    p = run("algorithms", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == swag.algorithms()
    assert "daba_lite" in p.stdout.split()


def test_version() -> None:
    p = run("version")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == f"swag {swag.__version__}"
    assert lines[1].startswith("jar: ") and lines[1].endswith(".jar")
    assert lines[2].startswith("java: ") and int(lines[2].split()[1].split(".")[0]) >= 17


def test_usage_errors() -> None:
    p = run("frobnicate")
    assert p.returncode == 2 and "invalid choice" in p.stderr
    p = run()
    assert p.returncode == 2 and "COMMAND" in p.stderr
    p = run("demo")  # the demos are applications, not a library command
    assert p.returncode == 2 and "invalid choice: 'demo'" in p.stderr


def test_demo_on_the_packaged_sample(tmp_path: Path, sample_rows: list[dict[str, str]]) -> None:
    p = run_demo("--engine", "local", cwd=tmp_path)  # a different directory: the sample comes from the package
    assert p.returncode == 0, p.stderr
    out = p.stdout
    stations = {r["Start Station ID"]: r["Start Station Name"] for r in sample_rows}
    assert f"3000 trips from {len(stations)} start stations, 2016-01-01 00:02 .. 2016-01-11 08:25" in out
    assert "a 1 h sliding window per start station (daba_lite" in out
    assert "Peak 1 h windows (top 5 stations by trips in one window):" in out
    # the busiest station by trips is the first row of the snapshot table
    busiest = stations[Counter(r["Start Station ID"] for r in sample_rows).most_common(1)[0][0]]
    lines = out.splitlines()
    first_row = lines[lines.index(next(x for x in lines if x.startswith("window end"))) + 1]
    assert busiest in first_row
    assert "15000 inserts" in out and "Traceback" not in p.stderr


def test_demo_options(sample_path: Path) -> None:
    p = run_demo("--engine", "local", "--data", str(sample_path), "--window", "30", "--top", "2", "--busiest", "1",
            "--algorithm", "two_stacks_lite", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "Peak 30 min windows (top 2 stations" in p.stdout
    assert "(two_stacks_lite:" in p.stdout and "The 1 busiest stations" in p.stdout
    peak_rows = p.stdout.split("Peak 30 min windows")[1].strip().splitlines()[2:]
    assert len([r for r in peak_rows if r[:4] == "2016"]) == 2


def test_demo_errors(tmp_path: Path) -> None:
    p = run_demo("--engine", "local", "--data", str(tmp_path / "nowhere.csv.gz"))
    assert p.returncode == 1 and "nowhere.csv.gz" in p.stderr and "Traceback" not in p.stderr
    p = run_demo("--engine", "local", "--algorithm", "soe", "--no-progress")
    assert p.returncode == 1 and "invertible" in p.stderr and "Traceback" not in p.stderr
    p = run_demo("--engine", "local", "--algorithm", "bogus", "--no-progress")
    assert p.returncode == 1 and "unknown algorithm 'bogus'" in p.stderr


def test_demo_engine_errors(tmp_path: Path) -> None:
    p = run_demo("--engine", "spark", "--data", "nosuchset", "--out", str(tmp_path / "o"))
    assert p.returncode == 1 and "nosuchset" in p.stderr and "Traceback" not in p.stderr
    p = run_demo("--engine", "spark", "--batches", "0")
    assert p.returncode == 1 and "--batches" in p.stderr


def test_console_script() -> None:
    script = Path(sys.executable).parent / ("swag.exe" if os.name == "nt" else "swag")
    if not script.exists():
        pytest.skip("the package is not installed (no `swag` console script next to the interpreter)")
    p = subprocess.run([str(script), "functions"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.split() == swag.functions()


def test_example_script(tmp_path: Path, sample_rows: list[dict[str, str]]) -> None:
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "citibike_local.py")], capture_output=True,
                       text=True, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    names = {r["Start Station Name"] for r in sample_rows}
    assert lines[0] == f"3000 trips, {len(names)} start stations; the busiest hour of the top 5:"
    assert len(lines) == 6 and lines[1].split()[:4] == ["Grove", "St", "PATH", "17"]

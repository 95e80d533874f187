"""The package as users get it: ``pip wheel .`` (what ``make wheel`` runs) gives a wheel that carries
the swag jars; installed on its own (``pip install --target``, no source tree on the path) it finds
them, builds a SparkSession and runs a back-fill whose result is checked by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import swag, swag.spark
from swag import _jvm
assert swag.__file__.startswith(sys.argv[1]), swag.__file__
spark = swag.spark.session("swag-wheel-test", shuffle_partitions=1)
spark.sparkContext.setLogLevel("ERROR")
df = spark.createDataFrame([("a", 0, 1.0), ("a", 1500, 4.0), ("b", 2500, 2.0), ("a", 3000, 3.0)],
                           "k string, ts long, v double")
q = swag.Query(key="k", time="ts").window(2000, slide=1000, mx=swag.max("v"), n=swag.count(),
                                         d=swag.hll("v"))
rows = sorted((r.k, r.window_start, r.mx, r.n, r.d) for r in swag.spark.aggregate(df, q).collect())
print(json.dumps({"jars": [str(j) for j in _jvm.find_jars()], "rows": rows}))
spark.stop()
"""


def test_the_wheel_carries_the_jars_and_runs_on_its_own(tmp_path):
    jars = ROOT / "python" / "swag" / "jars"
    assert (jars / "swag-spark.jar").is_file(), "build the jars first (make build)"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path / "dist")],
                   check=True, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("swag_windows-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for jar in ("swag-core.jar", "swag-spark.jar", "swag-flink.jar"):
        assert f"swag/jars/{jar}" in names, names
    assert "swag/py.typed" in names and "swag_apps/data/citibike-sample.csv.gz" in names
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SWAG_")}  # no jar overrides
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(target)], env=env, cwd=tmp_path, capture_output=True,
                         text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(j.startswith(str(target)) for j in res["jars"]), res["jars"]
    # 2 s windows sliding 1 s over epoch-ms times: a at 0, 1500, 3000 (1, 4, 3), b at 2500 (2)
    # (hll of 1 or 2 values estimates 1.0 or 2.000000004967054: compared to 6 decimals)
    assert [(*r[:4], round(r[4], 6)) for r in res["rows"]] == [
        ("a", -1000, 1.0, 1, 1.0), ("a", 0, 4.0, 2, 2.0), ("a", 1000, 4.0, 1, 1.0), ("a", 2000, 3.0, 1, 1.0),
        ("a", 3000, 3.0, 1, 1.0), ("b", 1000, 2.0, 1, 1.0), ("b", 2000, 2.0, 1, 1.0)]

"""The arithmetic of benchmarks/flink/ceiling_table.py (the Flink engine-ceiling table), fed a made-up
CSV whose jobs have known fixed costs and per-record costs; nothing is timed or run here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADER = "benchmark,param,engine,records,records_per_s,source_cpu_ns_per_record,operator_cpu_ns_per_record"


@pytest.fixture(scope="module")
def table():
    spec = importlib.util.spec_from_file_location("ceiling_table", ROOT / "benchmarks" / "flink" / "ceiling_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def job(engine: str, n: int, fixed_s: float, per_record_s: float, param: int = 10, startup: bool = False) -> str:
    """A CSV line of a job of n records that took fixed_s + n * per_record_s of net runtime."""
    rps = n / (fixed_s + n * per_record_s)
    bench = "time_window_ceiling_startup" if startup else "time_window_ceiling"
    return f"{bench},{param},{engine},{n},{rps},100.0,{200.0 if engine == 'swag' else 50.0}"


def write(tmp_path: Path, lines: list[str]) -> Path:
    p = tmp_path / "ceil.csv"
    p.write_text("\n".join([HEADER, *lines]) + "\n")
    return p


def test_steady_rate_takes_out_the_fixed_cost(table, tmp_path):
    # pass-through: 0.15 s fixed + 100 ns a record; swag: 0.20 s fixed + 125 ns a record
    p = write(tmp_path, [
        job("passthrough", 10_000_000, 0.15, 100e-9),
        job("passthrough", 20_000, 0.15, 100e-9, startup=True),
        job("swag", 10_000_000, 0.20, 125e-9),
        job("swag", 20_000, 0.20, 125e-9, startup=True),
    ])
    stats = table.steady_rates(table.read_rows([p]))
    assert stats[(10, "passthrough")]["steady"][0] == pytest.approx(1e7, rel=1e-9)
    assert stats[(10, "swag")]["steady"][0] == pytest.approx(8e6, rel=1e-9)
    # the net rates keep the fixed cost: 10^7 / 1.15 s and 10^7 / 1.45 s
    assert stats[(10, "passthrough")]["net"][0] == pytest.approx(1e7 / 1.15)
    assert stats[(10, "swag")]["net"][0] == pytest.approx(1e7 / 1.45)
    md = table.markdown(stats)
    row = next(line for line in md.splitlines() if line.startswith("| 10 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[4] == f"{1.15 / 1.45:.2f}"  # net ratio 0.79
    assert cells[5] == "0.80"  # steady: 100 / 125


def test_startup_job_pairs_with_the_measured_job_before_it(table, tmp_path):
    # two rounds with different fixed costs: each measured job takes the startup job that follows it
    p = write(tmp_path, [
        job("keyed_reduce", 1_000_000, 0.10, 200e-9, param=1),
        job("keyed_reduce", 20_000, 0.10, 200e-9, param=1, startup=True),
        job("keyed_reduce", 1_000_000, 0.40, 200e-9, param=1),
        job("keyed_reduce", 20_000, 0.40, 200e-9, param=1, startup=True),
    ])
    steady = table.steady_rates(table.read_rows([p]))[(1, "keyed_reduce")]["steady"]
    assert steady == pytest.approx([5e6, 5e6], rel=1e-9)


def test_measured_job_without_startup_has_no_steady_rate(table, tmp_path):
    p = write(tmp_path, [job("swag", 1_000_000, 0.1, 1e-7, param=8192)])
    stats = table.steady_rates(table.read_rows([p]))
    assert "steady" not in stats[(8192, "swag")]
    assert "| 8,192 |" in table.markdown(stats)


def test_bad_rate_is_refused_naming_it(table, tmp_path):
    p = write(tmp_path, ["time_window_ceiling,1,swag,100,0,1,1"])
    with pytest.raises(ValueError, match="records_per_s must be positive, got 0.0"):
        table.steady_rates(table.read_rows([p]))


def test_one_startup_job_per_measured_job(table, tmp_path):
    # a second startup job (e.g. a rerun) after the same measured job adds no second steady rate
    p = write(tmp_path, [
        job("swag", 1_000_000, 0.1, 1e-7, param=100),
        job("swag", 20_000, 0.1, 1e-7, param=100, startup=True),
        job("swag", 20_000, 0.05, 1e-7, param=100, startup=True),
    ])
    assert len(table.steady_rates(table.read_rows([p]))[(100, "swag")]["steady"]) == 1

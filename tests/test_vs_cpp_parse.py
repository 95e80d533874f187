"""The parsing and arithmetic of benchmarks/jmh/vs_cpp.py (the side-by-side harness against the C++
reference), fed captured outputs; nothing is timed or run here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def vs():
    spec = importlib.util.spec_from_file_location("vs_cpp", ROOT / "benchmarks" / "jmh" / "vs_cpp.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vs_cpp"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


# stdout of `benchmark_driver daba_lite sum 4194304 44194304` (the force_side_effect sum goes to stderr)
CPP_OUT = "daba_lite, sum, 4194304, 44194304\ncore runtime: 0.812345\n"
# stdout of `ooo_benchmark_driver bfinger4 sum 1048576 1024 13048576`
CPP_OOO_OUT = "bfinger4, sum\nwindow size 1048576, iterations 13048576\ncore runtime: 1.5e+00\n"

JMH_JSON = json.dumps([{
    "jmhVersion": "1.37", "benchmark": "io.swag.bench.FifoRoundBench.round", "mode": "thrpt", "threads": 1,
    "forks": 1, "params": {"algorithm": "daba_lite", "function": "sum", "logN": "22", "fence": "true"},
    "primaryMetric": {"score": 3.1e7, "scoreError": 1.0e6, "scoreUnit": "ops/s",
                      "rawData": [[3.0e7, 3.1e7, 3.2e7]]},
    "secondaryMetrics": {},
}])


def test_cpp_rate_is_rounds_over_core_runtime(vs):
    assert vs.parse_cpp_runtime(CPP_OUT) == pytest.approx(0.812345)
    assert vs.cpp_rate(CPP_OUT, 40_000_000) == pytest.approx(40.0 / 0.812345)
    assert vs.cpp_rate(CPP_OOO_OUT, 12_000_000) == pytest.approx(8.0)


def test_cpp_output_without_runtime_is_an_error(vs):
    with pytest.raises(ValueError, match="core runtime"):
        vs.parse_cpp_runtime("error: no matching kind of experiment: x, sum\n")


def test_jmh_json(vs):
    (r,) = vs.parse_jmh_json(JMH_JSON)
    assert r["params"]["algorithm"] == "daba_lite"
    assert r["iterations"] == [3.0e7, 3.1e7, 3.2e7]
    assert vs.jmh_rate(JMH_JSON) == pytest.approx(31.0)
    assert vs.jmh_rate(JMH_JSON, items_per_op=64) == pytest.approx(31.0 * 64)


def test_jmh_json_other_unit_is_an_error(vs):
    bad = json.loads(JMH_JSON)
    bad[0]["primaryMetric"]["scoreUnit"] = "us/op"
    with pytest.raises(ValueError, match="ops/s"):
        vs.parse_jmh_json(json.dumps(bad))


def test_max_rss(vs):
    err = "\tCommand being timed: \"bin/benchmark_driver\"\n\tMaximum resident set size (kbytes): 123456\n"
    assert vs.parse_max_rss_kb(err) == 123456


def test_ratio_and_spread(vs):
    cpp = vs.summarize([40.0, 50.0, 45.0])
    swag = vs.summarize([20.0, 30.0, 25.0])
    assert cpp["median"] == 45.0 and cpp["min"] == 40.0 and cpp["max"] == 50.0
    q = vs.ratio(swag, cpp)
    assert q["median"] == pytest.approx(25 / 45)
    assert q["low"] == pytest.approx(20 / 50) and q["high"] == pytest.approx(30 / 40)


def test_cases_use_canonical_swag_names_and_rounds(vs):
    from_alias = {"reactive", "fiba", "fiba4", "fiba8"}
    for c in vs.cases(quick=False):
        assert c.jmh_params.get("algorithm") not in from_alias
        assert c.cpp_rounds > 0
        argv = vs.fix_shared_argv(c, c.cpp_argv(Path("bin")))
        # the iterations argument is window + rounds, so rounds = iterations - window
        its = int(argv[-2] if argv[-1] == "range" else argv[-1])
        assert its - c.window == c.cpp_rounds


def test_doc_block_replaced_between_markers(vs, tmp_path, monkeypatch):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\ntext\n")
    monkeypatch.setattr(vs, "DOC", doc)
    vs.write_doc(f"{vs.BEGIN}\nfirst\n{vs.END}")
    vs.write_doc(f"{vs.BEGIN}\nsecond\n{vs.END}")
    text = doc.read_text()
    assert text.count(vs.SECTION) == 1 and "second" in text and "first" not in text


def test_double_build_rewrites_every_int_sum(vs):
    src = "benchmark(MakeAggregate<Sum<int>>()(0), exp);\nMax<int> m; Sum<int>::identity;\n"
    out = vs.to_double_sum(src, "benchmark_core.h")
    assert "Sum<int>" not in out and out.count("Sum<double>") == 2 and "Max<int>" in out


def test_double_build_refuses_a_source_without_int_sum(vs):
    with pytest.raises(SystemExit, match="benchmark_driver.cc"):
        vs.to_double_sum("benchmark(MakeAggregate<Sum<long>>()(0), exp);\n", "benchmark_driver.cc")


def test_only_sum_cases_run_the_double_build(vs):
    cases = vs.cases(quick=False)
    sums = [c for c in cases if c.is_sum]
    assert {c.group for c in sums} >= {"FIFO sum", "OoO sum d=1024", "bulk evict d=0 m=64", "range query"}
    assert not any(c.is_sum for c in cases if c.group in ("FIFO geomean", "FIFO bloom"))


def test_table_rows_with_and_without_the_double_build(vs):
    meta = {"date": "d", "command": "c", "rounds": 2, "quick": False, "swag_commit": "x", "head": "h",
            "cpu": "cpu", "cores": 2, "ram_gib": 1, "jdk": "jdk", "gxx": "g++", "uptime_before": "u",
            "uptime_after": "u", "commands": []}
    cpp, swag, dbl = vs.summarize([10.0, 12.0]), vs.summarize([9.0, 11.0]), vs.summarize([8.0, 10.0])
    with_dbl = {"group": "FIFO sum", "label": "daba_lite", "unit": "M rounds/s", "cpp": cpp, "swag": swag,
                "ratio": vs.ratio(swag, cpp), "cpp_double": dbl, "ratio_double": vs.ratio(swag, dbl)}
    without = {**with_dbl, "group": "FIFO geomean"}
    del without["cpp_double"], without["ratio_double"]
    rows = [ln for ln in vs.markdown(meta, [with_dbl, without], []).splitlines() if ln.startswith("| FIFO")]
    cells = [[x.strip() for x in r.strip("|").split("|")] for r in rows]
    assert all(len(c) == 8 for c in cells)
    assert cells[0][5] == "**0.91** [0.75-1.10]"  # 10 / 11, 9 / 12, 11 / 10
    assert cells[0][6] == "9 [8-10.0]" and cells[0][7] == "1.11 [0.90-1.38]"  # 10 / 9, 9 / 10, 11 / 8
    assert cells[1][6:] == ["-", "-"]

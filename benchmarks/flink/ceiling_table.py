"""The engine-ceiling table of `make bench-flink-ceiling`'s CSV, as Markdown.

Per window/slide and job (swag, the pass-through, the pass-through keyed by a `Row`, Flink's keyed
reduce), the medians over the rounds of:

- records/s as the job reports them: records / net runtime (deployment and task start included);
- steady-state records/s: the same with the job's fixed cost taken out. The fixed cost is the net
  runtime of the same job on a few records (`time_window_ceiling_startup` rows, run right after each
  measured job), so steady = (n - n_small) / (runtime - runtime_small);
- CPU ns per record of the source task and of the keyed operator's task.

swag / pass-through and swag / keyed reduce are ratios of the medians.

Usage: python3 benchmarks/flink/ceiling_table.py CSV [CSV ...]   (standard library only)
"""
from __future__ import annotations

import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ENGINES = ("swag", "passthrough", "passthrough_rowkey", "keyed_reduce")


def read_rows(paths: list[Path]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for p in paths:
        with open(p, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def steady_rates(rows: list[dict[str, str]]) -> dict[tuple[int, str], dict[str, list[float]]]:
    """Per (window/slide, engine): lists of net rates, steady rates and CPU ns, one entry per measured job.

    A measured job's fixed cost is that of the next startup job of the same engine and window/slide in
    the file order; a measured job without one gets no steady rate.
    """
    out: dict[tuple[int, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pending: dict[tuple[int, str], tuple[float, float]] = {}
    for r in rows:
        key = (int(r["param"]), r["engine"])
        n = float(r["records"])
        rps = float(r["records_per_s"])
        if rps <= 0:
            raise ValueError(f"records_per_s must be positive, got {rps} in {r}")
        runtime = n / rps
        if r["benchmark"] == "time_window_ceiling":
            d = out[key]
            d["net"].append(rps)
            d["source_ns"].append(float(r["source_cpu_ns_per_record"]))
            d["operator_ns"].append(float(r["operator_cpu_ns_per_record"]))
            pending[key] = (n, runtime)
        elif r["benchmark"] == "time_window_ceiling_startup" and key in pending:
            big_n, big_t = pending.pop(key)
            if big_t > runtime and big_n > n:
                out[key]["steady"].append((big_n - n) / (big_t - runtime))
    return out


def fmt_int(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def fmt_ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def markdown(stats: dict[tuple[int, str], dict[str, list[float]]]) -> str:
    ratios = sorted({k[0] for k in stats})
    head = ("| window/slide | pass-through records/s (steady) | keyed reduce (steady) | swag (steady) "
            "| swag / pass-through: net | steady | swag / keyed reduce: steady "
            "| swag operator task, CPU ns | pass-through source task, CPU ns | pass-through operator task, CPU ns |")
    lines = [head, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for q in ratios:
        m = {e: {k: median(v) for k, v in stats.get((q, e), {}).items()} for e in ENGINES}
        sw, pt, kr = m["swag"], m["passthrough"], m["keyed_reduce"]
        lines.append(
            f"| {q:,} | {fmt_int(pt.get('net'))} ({fmt_int(pt.get('steady'))}) "
            f"| {fmt_int(kr.get('net'))} ({fmt_int(kr.get('steady'))}) "
            f"| {fmt_int(sw.get('net'))} ({fmt_int(sw.get('steady'))}) "
            f"| {fmt_ratio(sw.get('net'), pt.get('net'))} | {fmt_ratio(sw.get('steady'), pt.get('steady'))} "
            f"| {fmt_ratio(sw.get('steady'), kr.get('steady'))} "
            f"| {fmt_int(sw.get('operator_ns'))} | {fmt_int(pt.get('source_ns'))} | {fmt_int(pt.get('operator_ns'))} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(__doc__)
        return 2
    print(markdown(steady_rates(read_rows([Path(a) for a in args]))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

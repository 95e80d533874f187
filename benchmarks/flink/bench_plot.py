"""Plots target/bench-flink.csv (FlinkBench output) as docs/benchmarks-flink.png and prints a
markdown table. Usage: python benchmarks/flink/bench_plot.py [csv] [png]"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict


def main() -> None:
    src = sys.argv[1] if len(sys.argv) > 1 else "connectors/flink/target/bench-flink.csv"
    png = sys.argv[2] if len(sys.argv) > 2 else "docs/benchmarks-flink.png"
    rows = list(csv.DictReader(open(src, encoding="utf-8")))
    by = defaultdict(dict)
    for r in rows:
        by[(r["benchmark"], int(r["param"]))][r["engine"]] = float(r["records_per_s"])
    engines = ["swag", "builtin", "sql_hop"]
    print("| benchmark | param | " + " | ".join(engines) + " | swag / built-in |")
    print("|---|---:|" + "---:|" * len(engines) + "---:|")
    for (b, p), e in by.items():
        cells = [f"{e[x]:,.0f}" if x in e else "" for x in engines]
        ratio = f"{e['swag'] / e['builtin']:.1f}x" if "swag" in e and "builtin" in e else ""
        print(f"| {b} | {p} | " + " | ".join(cells) + f" | {ratio} |")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, bench, xlabel in [
        (axes[0], "time_window", "window / slide"),
        (axes[1], "out_of_order", "out-of-order distance (ms)"),
    ]:
        for eng, style in [("swag", "o-"), ("builtin", "s--"), ("sql_hop", "^:")]:
            pts = sorted((p, e[eng]) for (b, p), e in by.items() if b == bench and eng in e)
            if pts:
                ax.plot([max(p, 0.5) for p, _ in pts], [v for _, v in pts], style, label=eng)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("records / s")
        ax.set_title(bench.replace("_", " "))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()

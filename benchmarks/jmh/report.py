#!/usr/bin/env python3
"""Turn JMH JSON results (-rf json) into the Markdown tables of docs/benchmarks.md.

Usage: python3 benchmarks/jmh/report.py rounds.json [sweep.json]
The C++ reference is measured in the same run by vs_cpp.py, not here.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict


def load(path: str) -> list[dict]:
    with open(path) as f:
        return json.load(f)


def mrounds(x: float) -> str:
    return f"{x / 1e6:.2f}" if x >= 1e5 else f"{x / 1e6:.3f}"


def rounds_table(results: list[dict]) -> str:
    cells: dict[tuple[str, str], tuple[float, float, str]] = {}
    algos: list[str] = []
    fns: list[str] = []
    for r in results:
        p = r["params"]
        a, f = p["algorithm"], p["function"]
        m = r["primaryMetric"]
        cells[(a, f)] = (m["score"], m["scoreError"], p.get("logN", ""))
        if a not in algos:
            algos.append(a)
        if f not in fns:
            fns.append(f)
    head = "| algorithm | " + " | ".join(f"{f} (M rounds/s)" for f in fns) + " |"
    sep = "| --- | " + " | ".join("---:" for _ in fns) + " |"
    lines = [head, sep]
    for a in algos:
        row = [a]
        for f in fns:
            if (a, f) in cells:
                s, e, logn = cells[(a, f)]
                note = "" if logn in ("22", "") else f" (n=2^{logn})"
                row.append(f"{mrounds(s)} ± {mrounds(e)}{note}")
            else:
                row.append("–")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def sweep_table(results: list[dict]) -> str:
    by: dict[str, dict[int, float]] = defaultdict(dict)
    for r in results:
        p = r["params"]
        by[f'{p["algorithm"]} {p["function"]}'][int(p["logN"])] = r["primaryMetric"]["score"]
    lines = ["| window n | " + " | ".join(by) + " |", "| ---: | " + " | ".join("---:" for _ in by) + " |"]
    sizes = sorted({k for d in by.values() for k in d})
    for k in sizes:
        lines.append(f"| 2^{k} | " + " | ".join(mrounds(d[k]) if k in d else "–" for d in by.values()) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    print(rounds_table(load(argv[1])))
    if len(argv) > 2:
        print()
        print(sweep_table(load(argv[2])))


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Plots of the JMH results in docs/bench/ (PNG files next to them).

Usage: .venv/bin/python benchmarks/jmh/plots.py [docs/bench]            # the PNGs
       .venv/bin/python benchmarks/jmh/plots.py --tables [docs/bench]   # Markdown tables of the same data

Each plot is drawn only if its input file is present:

| input | plot |
| --- | --- |
| ooo-distance.json (OutOfOrderBench) | ooo-distance.png: throughput by out-of-order distance |
| sharing-sum.json, sharing-bloom.json (WindowSharingBench) | sharing.png: twin trees vs one shared tree |
| latency.json (LatencyBench, one JSON object per line or a list) | latency.png: latency percentiles |
| citibike.json (CitiBikeBench) | citibike.png: records/s by window length |
| planner-slicing.json (PlannerSlicingBench) | planner-slicing.png: slicing on/off by slide |
| planner-sharing.json (PlannerSharingBench) | planner-sharing.png: shared vs separate trees |
| planner-order-r*.json (PlannerOrderBench, one file per round) | planner-order.png: plan per ordering hint |
| planner-slicing-r*.json (PlannerSlicingBench, one file per round) | planner-slicing-rounds.png: slicing by function |

Round files: the same matrix run several times, interleaved with other benchmarks, so that a burst of
load on this shared VM hits one round and not one configuration. Their tables give the median of
every measurement iteration of every round, and the lowest and highest iteration.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"bclassic4": "tab:gray", "nbfiba4": "tab:orange", "fiba4": "tab:orange", "bfiba4": "tab:blue",
          "bfiba8": "tab:purple", "daba_lite": "tab:green",
          "two_stacks_lite": "tab:red", "twin": "tab:orange", "shared": "tab:blue", "separate": "tab:orange",
          "on": "tab:blue", "off": "tab:orange"}


def load_jmh(path: Path) -> list[dict]:
    with open(path) as f:
        text = f.read()
    return json.loads(text) if text.strip() else []  # JMH writes the file only at the end


def score(r: dict) -> tuple[float, float]:
    """Mean and spread: the largest deviation of one measurement iteration from the mean. (JMH's 99.9%
    error with 3 iterations is about 31 standard errors wide, too wide to compare anything.)"""
    m = r["primaryMetric"]
    raw = [x for fork in m.get("rawData", []) for x in fork]
    if not raw:
        err = m["scoreError"]
        return m["score"], (0.0 if err != err else err)
    return m["score"], max(abs(x - m["score"]) for x in raw)


def save(fig, out: Path) -> None:
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    print(f"wrote {out}")


def distance_plot(d: Path) -> None:
    src = d / "ooo-distance.json"
    if not src.exists() or not src.read_text().strip():
        return
    by = defaultdict(list)
    for r in load_jmh(src):
        p = r["params"]
        s, e = score(r)
        by[p["algorithm"]].append((int(p["distance"]), s / 1e6, e / 1e6))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for a, pts in by.items():
        pts.sort()
        xs = [max(x, 1) for x, _, _ in pts]
        ax.errorbar(xs, [y for _, y, _ in pts], yerr=[e for _, _, e in pts], marker="o", capsize=3, label=a,
                    color=COLORS.get(a))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("out-of-order distance d (d = 0 plotted at 1)")
    ax.set_ylabel("M rounds/s")
    ax.set_title("OutOfOrderBench, sum, n = 2^22 (evict + insert + query)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save(fig, d / "ooo-distance.png")


def sharing_plot(d: Path) -> None:
    files = [(f, d / f"sharing-{f}.json") for f in ("sum", "bloom")]
    files = [(f, p) for f, p in files if p.exists()]
    if not files:
        return
    dists = sorted({int(r["params"]["distance"]) for _, p in files for r in load_jmh(p)})
    fig, axes = plt.subplots(len(files), len(dists), figsize=(4.2 * len(dists), 3.6 * len(files)), squeeze=False)
    for i, (fn, p) in enumerate(files):
        res = load_jmh(p)
        for j, dist in enumerate(dists):
            ax = axes[i][j]
            rows = [r for r in res if int(r["params"]["distance"]) == dist]
            ks = sorted({int(r["params"]["k"]) for r in rows})
            logn = rows[0]["params"]["logN"] if rows else "?"
            width = 0.38
            for m, mode in enumerate(("twin", "shared")):
                ys, es = [], []
                for k in ks:
                    rr = [r for r in rows if int(r["params"]["k"]) == k and r["params"]["mode"] == mode]
                    s, e = score(rr[0]) if rr else (0.0, 0.0)
                    ys.append(s / 1e3)
                    es.append(e / 1e3)
                xs = [x + (m - 0.5) * width for x in range(len(ks))]
                ax.bar(xs, ys, width, yerr=es, capsize=3, label="twin trees (k trees)" if mode == "twin"
                       else "one shared tree + range queries", color=COLORS[mode])
            ax.set_xticks(range(len(ks)))
            ax.set_xticklabels([f"k = {k}" for k in ks])
            ax.set_ylabel("k records/s")
            ax.set_title(f"{fn}, n = 2^{logn}, d = {dist}")
            ax.grid(True, axis="y", alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=8)
    fig.suptitle("WindowSharingBench: k windows of n, n/2, ... entries (bfiba4); one op = one record")
    save(fig, d / "sharing.png")


def load_lines(path: Path) -> list[dict]:
    text = path.read_text().strip()
    if text.startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip().startswith("{")]


def latency_plot(d: Path) -> None:
    src = d / "latency.json"
    if not src.exists() or not src.read_text().strip():
        return
    rows = load_lines(src)
    keys = ["p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "max"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    groups = [("trees (out of order), n = 2^22", [r for r in rows if r["algorithm"] not in
                                                  ("daba_lite", "two_stacks_lite")]),
              ("in order, n = 2^22: worst-case O(1) vs amortized", [r for r in rows if r["algorithm"] in
                                                                    ("daba_lite", "two_stacks_lite")])]
    styles = {0: "-", 1024: "--", 1048576: ":"}
    for ax, (title, rs) in zip(axes, groups):
        for r in rs:
            ys = [r[f"{k}_ns"] / 1e3 for k in keys]
            dist = r["distance"]
            label = r["algorithm"] + (f", d = 2^{dist.bit_length() - 1}" if dist > 0 else ", d = 0")
            ax.plot(range(len(keys)), ys, marker="o", label=label, color=COLORS.get(r["algorithm"]),
                    linestyle=styles.get(dist, "-."))
        ax.set_yscale("log")
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(keys)
        ax.set_ylabel("latency of one round, µs (log)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("LatencyBench: every round timed (evict + insert + query), percentiles")
    save(fig, d / "latency.png")


def citibike_plot(d: Path) -> None:
    src = d / "citibike.json"
    if not src.exists() or not src.read_text().strip():
        return
    res = load_jmh(src)
    scopes = [s for s in ("global", "station") if any(r["params"]["scope"] == s for r in res)]
    fig, axes = plt.subplots(1, len(scopes), figsize=(6.2 * len(scopes), 4.4), squeeze=False)
    for ax, scope in zip(axes[0], scopes):
        by = defaultdict(list)
        for r in res:
            p = r["params"]
            if p["scope"] != scope:
                continue
            s, e = score(r)
            by[(p["algorithm"], p["function"])].append((int(p["windowHours"]) / 24, s / 1e6, e / 1e6))
        for (a, f), pts in sorted(by.items()):
            pts.sort()
            ax.errorbar([x for x, _, _ in pts], [y for _, y, _ in pts], yerr=[e for _, _, e in pts],
                        marker="o" if f == "sum" else "s", capsize=3, label=f"{a} {f}", color=COLORS.get(a),
                        linestyle="-" if f == "sum" else "--")
        ax.set_xscale("log", base=2)
        ax.set_xticks([0.25, 1, 2, 4, 8, 16, 32])
        ax.set_xticklabels(["1/4", "1", "2", "4", "8", "16", "32"])
        ax.set_xlabel("window (days)")
        ax.set_ylabel("M records/s")
        ax.set_ylim(bottom=0)
        ax.set_title("one tree per start station" if scope == "station" else "one global tree")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("CitiBikeBench: Jersey City trips, arrival = stop time, event time = start time")
    save(fig, d / "citibike.png")


def slicing_plot(d: Path) -> None:
    src = d / "planner-slicing.json"
    if not src.exists() or not src.read_text().strip():
        return
    by = defaultdict(list)
    for r in load_jmh(src):
        p = r["params"]
        s, e = score(r)
        by[p["slicing"]].append((int(p["slideMs"]) / 1000, s / 1e3, e / 1e3))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for k in ("on", "off"):
        pts = sorted(by.get(k, []))
        if pts:
            ax.errorbar([x for x, _, _ in pts], [y for _, y, _ in pts], yerr=[e for _, _, e in pts], marker="o",
                        capsize=3, label=f"slicing {k}", color=COLORS[k])
    ax.axvline(1.0, color="gray", linestyle=":", label="planner threshold (gcd >= 1 s)")
    ax.set_xscale("log")
    ax.set_xlabel("slide (s); window 1 h")
    ax.set_ylabel("k records/s")
    ax.set_ylim(bottom=0)
    ax.set_title("PlannerSlicingBench: LocalExecutor, 4 keys x 50 rec/s, out of order")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, d / "planner-slicing.png")


def load_rounds(d: Path, stem: str) -> dict[tuple, list[float]]:
    """Every measurement iteration of every round file {stem}-r*.json, by the benchmark's parameters."""
    out: dict[tuple, list[float]] = defaultdict(list)
    for f in sorted(d.glob(f"{stem}-r*.json")):
        for r in load_jmh(f):
            key = tuple(sorted(r["params"].items()))
            out[key] += [x for fork in r["primaryMetric"]["rawData"] for x in fork]
    return out


def med(xs: list[float]) -> float:
    ys = sorted(xs)
    n = len(ys)
    return ys[n // 2] if n % 2 else (ys[n // 2 - 1] + ys[n // 2]) / 2


ORDER_HINTS = ("in_order", "unknown", "out_of_order")


def order_rows(d: Path) -> list[tuple[str, str, dict[str, list[float]]]]:
    """(functions, stream, {hint: samples}) of the PlannerOrderBench rounds."""
    rounds = load_rounds(d, "planner-order")
    rows: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(dict)
    for key, xs in rounds.items():
        p = dict(key)
        if p.get("forced", "planned") == "planned" and p.get("slicing", "off") == "off":
            rows[(p.get("functions", "max+sum"), p["stream"])].setdefault(p["hint"], []).extend(xs)
    return [(f, st, c) for (f, st), c in sorted(rows.items())]


def order_plot(d: Path) -> None:
    rows = order_rows(d)
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.27
    colors = {"in_order": "tab:green", "unknown": "tab:olive", "out_of_order": "tab:blue"}
    for j, hint in enumerate(ORDER_HINTS):
        xs = [i + (j - 1) * width for i in range(len(rows))]
        ys = [med(c[hint]) / 1e6 if hint in c else 0 for _, _, c in rows]
        lo = [y - min(c[hint]) / 1e6 if hint in c else 0 for y, (_, _, c) in zip(ys, rows)]
        hi = [max(c[hint]) / 1e6 - y if hint in c else 0 for y, (_, _, c) in zip(ys, rows)]
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=f"hint {hint}", color=colors[hint])
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{f}\n{st} stream" for f, st, _ in rows], fontsize=8)
    ax.set_ylabel("M records/s (median, min-max)")
    ax.set_title("PlannerOrderBench: the plan of each ordering hint, LocalExecutor, slicing off")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, d / "planner-order.png")


def slicing_rows(d: Path) -> dict[tuple[str, int], dict[str, list[float]]]:
    rows: dict[tuple[str, int], dict[str, list[float]]] = defaultdict(dict)
    for key, xs in load_rounds(d, "planner-slicing").items():
        p = dict(key)
        rows[(p.get("functions", "max+sum"), int(p["slideMs"]))][p["slicing"]] = xs
    return rows


def slicing_rounds_plot(d: Path) -> None:
    rows = slicing_rows(d)
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for fn, style in (("max+sum", "-"), ("bloom", "--")):
        for k in ("on", "off"):
            pts = sorted((sl / 1000, max(c[k]) / 1e3) for (f, sl), c in rows.items() if f == fn and k in c)
            if pts:
                ax.plot([x for x, _ in pts], [y for _, y in pts], style, marker="o", color=COLORS[k],
                        label=f"{fn}, slicing {k}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("slide = slice width (s); window 1 h")
    ax.set_ylabel("k records/s (highest iteration: the least disturbed)")
    ax.set_title("PlannerSlicingBench: slicing by function cost, out of order")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, d / "planner-slicing-rounds.png")


def planner_sharing_plot(d: Path) -> None:
    src = d / "planner-sharing.json"
    if not src.exists() or not src.read_text().strip():
        return
    res = load_jmh(src)
    slicings = sorted({r["params"]["slicing"] for r in res}, reverse=True)
    fig, axes = plt.subplots(1, len(slicings), figsize=(5.5 * len(slicings), 4.2), squeeze=False)
    for ax, sl in zip(axes[0], slicings):
        rows = [r for r in res if r["params"]["slicing"] == sl]
        ks = sorted({int(r["params"]["k"]) for r in rows})
        width = 0.38
        for m, mode in enumerate(("shared", "separate")):
            ys, es = [], []
            for k in ks:
                rr = [r for r in rows if int(r["params"]["k"]) == k and r["params"]["sharing"] == mode]
                s, e = score(rr[0]) if rr else (0.0, 0.0)
                ys.append(s / 1e3)
                es.append(e / 1e3)
            ax.bar([x + (m - 0.5) * width for x in range(len(ks))], ys, width, yerr=es, capsize=3,
                   label="one shared tree per key (plan)" if mode == "shared" else "one tree per window and key",
                   color=COLORS[mode])
        ax.set_xticks(range(len(ks)))
        ax.set_xticklabels([f"{k} windows" for k in ks])
        ax.set_ylabel("k records/s")
        ax.set_title("slicing " + ("as planned (on, 10 s slices)" if sl == "plan" else "off"))
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("PlannerSharingBench: LocalExecutor, k windows of 64 min x i/k, slide 10 s")
    save(fig, d / "planner-sharing.png")


def fmt(s: float, e: float, scale: float) -> str:
    return f"{s / scale:.2f} ± {e / scale:.2f}"


def tables(d: Path) -> None:
    for fn in ("sum", "bloom"):
        p = d / f"sharing-{fn}.json"
        res = load_jmh(p) if p.exists() else []
        if not res:
            continue
        print(f"\n#### {fn}, n = 2^{res[0]['params']['logN']} (k records/s)\n")
        print("| k | d | twin trees | shared tree | shared / twin |\n| ---: | ---: | ---: | ---: | ---: |")
        for k in sorted({int(r["params"]["k"]) for r in res}):
            for dist in sorted({int(r["params"]["distance"]) for r in res}):
                c = {r["params"]["mode"]: score(r) for r in res
                     if int(r["params"]["k"]) == k and int(r["params"]["distance"]) == dist}
                if "twin" in c and "shared" in c:
                    print(f"| {k} | {dist} | {fmt(*c['twin'], 1e3)} | {fmt(*c['shared'], 1e3)} | "
                          f"{c['shared'][0] / c['twin'][0]:.2f}x |")
    p = d / "latency.json"
    if p.exists() and p.read_text().strip():
        keys = ["p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "max"]
        print("\n#### latency (µs per round, including ~0.1 µs of timer)\n")
        print("| algorithm | d | M rounds/s | " + " | ".join(keys) + " |")
        print("| --- | ---: | ---: | " + " | ".join("---:" for _ in keys) + " |")
        for r in load_lines(p):
            print(f"| {r['algorithm']} | {r['distance']} | {r['rounds_per_s'] / 1e6:.2f} | "
                  + " | ".join(f"{r[k + '_ns'] / 1e3:.2f}" if r[k + '_ns'] < 1e5 else f"{r[k + '_ns'] / 1e3:.0f}"
                               for k in keys) + " |")
    p = d / "citibike.json"
    if p.exists() and p.read_text().strip():
        res = load_jmh(p)
        hours = sorted({int(r["params"]["windowHours"]) for r in res})
        print("\n#### Citi Bike (M records/s)\n")
        print("| scope | function | algorithm | " + " | ".join(f"{h / 24:g} d" for h in hours) + " |")
        print("| --- | --- | --- | " + " | ".join("---:" for _ in hours) + " |")
        for scope in ("global", "station"):
            for fn in ("sum", "max"):
                for a in ("bfiba4", "bclassic4"):
                    c = {int(r["params"]["windowHours"]): score(r) for r in res if r["params"]["scope"] == scope
                         and r["params"]["function"] == fn and r["params"]["algorithm"] == a}
                    if c:
                        print(f"| {scope} | {fn} | {a} | " + " | ".join(fmt(*c[h], 1e6) if h in c else ""
                                                                     for h in hours) + " |")
    p = d / "planner-sharing.json"
    if p.exists() and p.read_text().strip():
        res = load_jmh(p)
        print("\n#### planner: shared tree vs one tree per window (k records/s)\n")
        print("| windows | slicing | shared (plan) | separate | shared / separate |\n| ---: | --- | ---: | ---: | ---: |")
        for k in sorted({int(r["params"]["k"]) for r in res}):
            for sl in ("plan", "off"):
                c = {r["params"]["sharing"]: score(r) for r in res
                     if int(r["params"]["k"]) == k and r["params"]["slicing"] == sl}
                if "shared" in c and "separate" in c:
                    print(f"| {k} | {sl} | {fmt(*c['shared'], 1e3)} | {fmt(*c['separate'], 1e3)} | "
                          f"{c['shared'][0] / c['separate'][0]:.2f}x |")
    p = d / "planner-slicing.json"
    if p.exists() and p.read_text().strip():
        res = load_jmh(p)
        print("\n#### planner: slicing on vs off, window 1 h (k records/s)\n")
        print("| slide | slicing on | slicing off | on / off | planner slices? |\n| ---: | ---: | ---: | ---: | --- |")
        for sl in sorted({int(r["params"]["slideMs"]) for r in res}):
            c = {r["params"]["slicing"]: score(r) for r in res if int(r["params"]["slideMs"]) == sl}
            if "on" in c and "off" in c:
                print(f"| {sl / 1000:g} s | {fmt(*c['on'], 1e3)} | {fmt(*c['off'], 1e3)} | "
                      f"{c['on'][0] / c['off'][0]:.2f}x | {'yes' if sl >= 1000 else 'no'} |")


def cell(xs: list[float], scale: float) -> str:
    """median [lowest, highest] iteration; under load the highest is the least disturbed one."""
    return f"{med(xs) / scale:.2f} [{min(xs) / scale:.2f}, {max(xs) / scale:.2f}]"


def round_tables(d: Path) -> None:
    rows = order_rows(d)
    if rows:
        print("\n#### planner: ordering hints, slicing off (M records/s: median [lowest, highest] iteration)\n")
        print("| functions | stream | " + " | ".join(f"hint {h}" for h in ORDER_HINTS) + " |")
        print("| --- | --- | " + " | ".join("---:" for _ in ORDER_HINTS) + " |")
        for f, st, c in rows:
            print(f"| {f} | {st} | " + " | ".join(cell(c[h], 1e6) if h in c else "" for h in ORDER_HINTS) + " |")
    srows = slicing_rows(d)
    if srows:
        print("\n#### planner: slicing on vs off, window 1 h (M records/s: median [lowest, highest] iteration)\n")
        print("| functions | slide | slicing on | slicing off | on / off (medians) | on / off (highest) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for (f, sl), c in sorted(srows.items()):
            if "on" in c and "off" in c:
                print(f"| {f} | {sl / 1000:g} s | {cell(c['on'], 1e6)} | {cell(c['off'], 1e6)} | "
                      f"{med(c['on']) / med(c['off']):.2f}x | {max(c['on']) / max(c['off']):.2f}x |")


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if a != "--tables"]
    d = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "docs" / "bench"
    if "--tables" in argv:
        tables(d)
        round_tables(d)
        return 0
    for f in (distance_plot, sharing_plot, latency_plot, citibike_plot, slicing_plot, planner_sharing_plot,
              order_plot, slicing_rounds_plot):
        f(d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

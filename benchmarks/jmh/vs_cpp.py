#!/usr/bin/env python3
"""Side by side with the C++ reference: swag's JMH benchmarks against IBM's sliding-window-aggregators.

Builds the C++ reference drivers (from ../shared/baselines/ibm-swag-cpp, or $SWAG_CPP_BASELINE) into a
scratch folder outside the project tree, then runs each case interleaved, C++, JMH, C++, JMH, ... for
R rounds, every timed run under the bench lock. Sum cases also run a second build of the reference
whose `Sum<int>` is `Sum<double>` (swag sums doubles), so both ratios come from the same rounds.
Writes a Markdown table of swag/C++ ratios into docs/benchmarks.md (between the vs-cpp markers) and
the raw figures into docs/bench/vs-cpp.json.

Usage: python3 benchmarks/jmh/vs_cpp.py [--quick] [--rounds R] [--only SUBSTRING] [--no-doc] [--no-cpp-double]
Standard library only (Python 3.11).
"""
from __future__ import annotations

import argparse
import datetime
import fcntl
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
JAR = REPO / "benchmarks/jmh/target/benchmarks.jar"
DOC = REPO / "docs/benchmarks.md"
RAW = REPO / "docs/bench/vs-cpp.json"
BEGIN = "<!-- vs-cpp:begin -->"
END = "<!-- vs-cpp:end -->"
SECTION = "## Side by side with the C++ reference"
# make targets of the reference's Makefile and the binaries they leave in bin/
TARGETS = {
    "benchmark_driver": "benchmark_driver",
    "ooo_benchmark": "ooo_benchmark_driver",
    "bulk_evict_benchmark": "bulk_evict_benchmark_driver",
    "bulk_evict_insert_benchmark": "bulk_evict_insert_benchmark_driver",
    "shared": "shared_benchmark_driver",
}
# files of the reference whose `Sum<int>` the double build rewrites to `Sum<double>`
DOUBLE_SUM_FILES = ("src/benchmark_core.h", "src/benchmark_driver.cc")
JMH_TIMING = ["-f", "1", "-wi", "2", "-i", "3", "-w", "1s", "-r", "1s"]
JMH_TIMING_QUICK = ["-f", "1", "-wi", "1", "-i", "1", "-w", "1s", "-r", "1s"]


# ---------------------------------------------------------------- the cases

@dataclass
class Case:
    """One comparison: a C++ driver invocation and the JMH run doing the same loop.

    rounds (C++) = iterations - window; JMH ops/s times jmh_items_per_op gives the same unit.
    """

    group: str
    label: str  # swag name (C++ name)
    cpp_bin: str
    cpp_args: list[str]  # without the iterations argument (always last)
    window: int
    cpp_rounds: int
    jmh_bench: str  # regexp of the JMH benchmark method
    jmh_params: dict[str, str]
    jmh_items_per_op: int = 1
    unit: str = "M rounds/s"

    @property
    def is_sum(self) -> bool:
        return self.jmh_params.get("function") == "sum"

    @property
    def key(self) -> str:
        return f"{self.group} | {self.label}"

    def cpp_argv(self, bindir: Path) -> list[str]:
        return [str(bindir / self.cpp_bin), *self.cpp_args, str(self.window + self.cpp_rounds)]

    def jmh_argv(self, out_json: Path, quick: bool) -> list[str]:
        argv = ["java", "-jar", str(JAR), self.jmh_bench, *(JMH_TIMING_QUICK if quick else JMH_TIMING)]
        for k, v in self.jmh_params.items():
            argv += ["-p", f"{k}={v}"]
        return argv + ["-rf", "json", "-rff", str(out_json)]


def cases(quick: bool) -> list[Case]:
    """The cases; --quick shrinks windows and rounds to a smoke run."""
    lg_fifo, lg_ooo = (16, 16) if quick else (22, 20)
    n_fifo, n_ooo = 1 << lg_fifo, 1 << lg_ooo
    scale = 0.05 if quick else 1.0

    def r(m: float) -> int:  # rounds, in millions at full scale
        return max(200_000, int(m * 1e6 * scale))

    fifo = "^io.swag.bench.FifoRoundBench.round$"
    ooo = "^io.swag.bench.OutOfOrderBench.round$"
    out: list[Case] = []
    # FIFO, sum: C++ benchmark_driver; swag FifoRoundBench (FiBA: OutOfOrderBench at d = 0, which is
    # the C++ driver's bfinger4 loop: evict the oldest, insert at youngest time + 1, query)
    for swag, cpp, m in [("daba_lite", "daba_lite", 200), ("two_stacks_lite", "two_stacks_lite", 150),
                         ("daba", "daba", 130), ("flatfit", "flatfit", 90), ("flatfat", "reactive", 5)]:
        out.append(Case("FIFO sum", f"{swag} ({cpp})" if swag != cpp else swag, "benchmark_driver",
                        [cpp, "sum", str(n_fifo)], n_fifo, r(m), fifo,
                        {"algorithm": swag, "function": "sum", "logN": str(lg_fifo), "fence": "true"}))
    out.append(Case("FIFO sum", "bfiba4 (bfinger4), in order", "benchmark_driver",
                    ["bfinger4", "sum", str(n_fifo)], n_fifo, r(30), ooo,
                    {"algorithm": "bfiba4", "function": "sum", "logN": str(lg_fifo), "distance": "0",
                     "fence": "true"}))
    # FIFO geomean and bloom (the C++ BloomFilter<int> defaults: 4,096 bits, 4 hashes)
    for fn, ms, extra in [("geomean", (70, 60, 50), {}),
                          ("bloom", (2, 2, 0.7), {"bloomBits": "4096", "bloomHashes": "4"})]:
        for swag, m in zip(("daba_lite", "two_stacks_lite", "flatfit"), ms):
            out.append(Case(f"FIFO {fn}", swag, "benchmark_driver", [swag, fn, str(n_fifo)], n_fifo, r(m),
                            fifo, {"algorithm": swag, "function": fn, "logN": str(lg_fifo), "fence": "true",
                                   **extra}))
    # out of order, sum, n = 2^20 at d = 0, 1024, n
    for d in (0, 1024, n_ooo):
        for swag, cpp, m in [("bfiba4", "bfinger4", 20), ("bfiba8", "bfinger8", 20), ("bclassic4", "bclassic4", 5)]:
            out.append(Case(f"OoO sum d={d}", f"{swag} ({cpp})", "ooo_benchmark_driver",
                            [cpp, "sum", str(n_ooo), str(d)], n_ooo, r(m if d < n_ooo else m / 2), ooo,
                            {"algorithm": swag, "function": "sum", "logN": str(lg_ooo), "distance": str(d),
                             "fence": "true"}))
    # bulk evict: items/s (C++: bulkEvict + m single inserts + query per step)
    for bulk in (1, 64, 1024):
        out.append(Case(f"bulk evict d=0 m={bulk}", "bfiba4 (bfinger4)", "bulk_evict_benchmark_driver",
                        ["bfinger4", "sum", str(n_fifo), "0", str(bulk)], n_fifo, r(30 if bulk > 1 else 15),
                        "^io.swag.bench.BulkEvictBench.evictInsertsQuery$",
                        {"algorithm": "bfiba4", "function": "sum", "logN": str(lg_fifo), "m": str(bulk),
                         "fence": "true"}, jmh_items_per_op=bulk, unit="M items/s"))
    # bulk evict + bulk insert: C++ bulkInsert of the generator range [i, i + m + 1), i.e. m + 1
    # entries of which the last time is inserted again (combined into its entry) by the next step
    for bulk in (64, 1024):
        out.append(Case(f"bulk evict+insert d=0 m={bulk}", "bfiba4 (bfinger4)", "bulk_evict_insert_benchmark_driver",
                        ["bfinger4", "sum", str(n_fifo), "0", str(bulk)], n_fifo, r(30),
                        "^io.swag.bench.BulkEvictBench.evictInsertQuery$",
                        {"algorithm": "bfiba4", "function": "sum", "logN": str(lg_fifo), "m": str(bulk),
                         "fence": "true"}, jmh_items_per_op=bulk, unit="M items/s"))
    # range query: big window n, small n/2, distance n/4 (the C++ driver fixes d = small/2)
    out.append(Case("range query", "bfiba4 (bfinger4)", "shared_benchmark_driver",
                    ["bfinger4", "sum", str(n_ooo), str(n_ooo // 2)], n_ooo, r(4),
                    "^io.swag.bench.WindowSharingBench.record$",
                    {"mode": "shared", "k": "2", "algorithm": "bfiba4", "function": "sum", "logN": str(lg_ooo),
                     "distance": str(n_ooo // 4), "fence": "true"}))
    return out


def fix_shared_argv(case: Case, argv: list[str]) -> list[str]:
    """shared_benchmark_driver takes `ALGO FUNC BIG SMALL ITERATIONS range`."""
    if case.cpp_bin == "shared_benchmark_driver":
        return argv + ["range"]
    return argv


MEMORY = [  # (swag algorithm, C++ algorithm) at n = 2^22, sum
    ("daba_lite", "daba_lite"),
    ("bfiba4", "bfinger4"),
]


# ---------------------------------------------------------------- parsing

def parse_cpp_runtime(stdout: str) -> float:
    """Seconds from the driver's `core runtime: S` line."""
    m = re.search(r"core runtime:\s*([0-9.eE+-]+)", stdout)
    if not m:
        raise ValueError("no 'core runtime' line in C++ output: " + stdout[-400:])
    return float(m.group(1))


def cpp_rate(stdout: str, rounds: int) -> float:
    """Millions of rounds per second: rounds / core runtime."""
    return rounds / parse_cpp_runtime(stdout) / 1e6


def parse_jmh_json(text: str) -> list[dict]:
    """One entry per benchmark of a `-rf json` file: name, params, score (ops/s), iteration scores."""
    out = []
    for b in json.loads(text):
        pm = b["primaryMetric"]
        unit = pm.get("scoreUnit", "ops/s")
        if unit != "ops/s":
            raise ValueError(f"expected ops/s, got {unit}")
        iters = [x for fork in pm.get("rawData", []) for x in fork]
        out.append({"benchmark": b["benchmark"], "params": b.get("params", {}), "score": float(pm["score"]),
                    "iterations": iters})
    return out


def jmh_rate(text: str, items_per_op: int = 1) -> float:
    """Millions of rounds (or items) per second from a single-benchmark JMH json."""
    res = parse_jmh_json(text)
    if len(res) != 1:
        raise ValueError(f"expected one JMH result, got {len(res)}")
    return res[0]["score"] * items_per_op / 1e6


def parse_max_rss_kb(time_v_stderr: str) -> int:
    """`Maximum resident set size (kbytes): N` of /usr/bin/time -v."""
    m = re.search(r"Maximum resident set size \(kbytes\):\s*(\d+)", time_v_stderr)
    if not m:
        raise ValueError("no maximum RSS in /usr/bin/time -v output")
    return int(m.group(1))


def summarize(xs: list[float]) -> dict:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": xs}


def ratio(swag: dict, cpp: dict) -> dict:
    """swag/C++ of the medians, with the range from the extreme pairings."""
    return {"median": swag["median"] / cpp["median"], "low": swag["min"] / cpp["max"],
            "high": swag["max"] / cpp["min"]}


# ---------------------------------------------------------------- building the reference

def baseline_dir() -> Path:
    env = os.environ.get("SWAG_CPP_BASELINE")
    return Path(env) if env else (REPO / ".." / "shared" / "baselines" / "ibm-swag-cpp").resolve()


def source_hash(src: Path) -> str:
    h = hashlib.sha256()
    for p in sorted((src / "cpp").rglob("*")):
        if p.is_file() and "bin" not in p.relative_to(src / "cpp").parts:
            h.update(str(p.relative_to(src)).encode())
            h.update(p.read_bytes())
    h.update(subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.encode())
    return h.hexdigest()[:12]


def to_double_sum(text: str, name: str) -> str:
    """The source with every `Sum<int>` as `Sum<double>`; an error when it has none (the reference changed)."""
    if "Sum<int>" not in text:
        raise SystemExit(f"no Sum<int> in the reference's {name}: cannot make its double build")
    return text.replace("Sum<int>", "Sum<double>")


def build_reference(src: Path, double_sum: bool = False) -> Path:
    """Copies the sources to $TMPDIR/swag-cpp-ref-<hash>[-double] and makes the drivers there; returns bin/.

    With double_sum, the copy's `Sum<int>` (DOUBLE_SUM_FILES) becomes `Sum<double>` before the build.
    """
    suffix = "-double" if double_sum else ""
    scratch = Path(tempfile.gettempdir()) / f"swag-cpp-ref-{source_hash(src)}{suffix}"
    cpp = scratch / "cpp"
    bindir = cpp / "bin"
    if all((bindir / b).exists() for b in TARGETS.values()):
        print(f"[vs-cpp] reference already built in {bindir}", flush=True)
        return bindir
    if REPO in scratch.resolve().parents:
        raise SystemExit("refusing to build the reference inside the project tree")
    print(f"[vs-cpp] building the C++ reference{' (Sum<double>)' if double_sum else ''} into {scratch} "
          "(a few minutes)", flush=True)
    shutil.copytree(src, scratch, dirs_exist_ok=True)
    if double_sum:
        for name in DOUBLE_SUM_FILES:
            f = cpp / name
            f.write_text(to_double_sum(f.read_text(), name))
    bindir.mkdir(parents=True, exist_ok=True)
    jobs = str(min(2, os.cpu_count() or 1))
    log = scratch / "build.log"
    with open(log, "w") as f:
        rc = subprocess.run(["make", "-j", jobs, *TARGETS], cwd=cpp, stdout=f, stderr=subprocess.STDOUT).returncode
    missing = [b for b in TARGETS.values() if not (bindir / b).exists()]
    if rc != 0 or missing:
        raise SystemExit(f"C++ build failed (rc {rc}, missing {missing}); see {log}")
    return bindir


# ---------------------------------------------------------------- running

def sh(argv: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def machine() -> dict:
    lscpu = sh(["lscpu"]).stdout
    model = re.search(r"Model name:\s*(.+)", lscpu)
    mem_kb = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    java = sh(["java", "-version"]).stderr.splitlines()
    return {
        "cpu": model.group(1).strip() if model else "?",
        "cores": os.cpu_count(),
        "ram_gib": round(mem_kb / 2**20, 1),
        "jdk": java[0] if java else "?",
        "gxx": sh(["g++", "--version"]).stdout.splitlines()[0],
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "swag_commit": sh(["git", "-C", str(REPO), "log", "-1", "--format=%h %s", "--", "jvm/src"]).stdout.strip()[:72],
        "head": sh(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"]).stdout.strip(),
    }


def uptime() -> str:
    return sh(["uptime"]).stdout.strip()


def lock_path(lock: list[str]) -> str | None:
    """The lock file of a `flock FILE` prefix, else None."""
    return lock[-1] if len(lock) == 2 and Path(lock[0]).name == "flock" else None


class Holder:
    """flock(2) on the bench lock file (the lock flock(1) takes), held across consecutive cases and
    released once held longer than `hold` seconds, so that other benchmarks get their turn. While it
    is held, runs go without the flock prefix (a second flock on the file would wait for ourselves)."""

    def __init__(self, path: str | None, hold: float):
        self.path, self.hold = path, hold
        self.f = None
        self.since = 0.0

    def acquire(self) -> None:
        if self.path is None or self.f is not None:
            return
        t = time.monotonic()
        self.f = open(self.path, "a")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        self.since = time.monotonic()
        if self.since - t > 1:
            print(f"[vs-cpp] waited {self.since - t:.0f} s for {self.path}", flush=True)

    def release(self, force: bool = False) -> None:
        if self.f is not None and (force or time.monotonic() - self.since > self.hold):
            fcntl.flock(self.f, fcntl.LOCK_UN)
            self.f.close()
            self.f = None


def resize_rounds(rounds: int, runtime: float, target: float = 1.5) -> int:
    """Rounds for the next C++ run when this one ran outside 0.7-4 s (a rate does not depend on it)."""
    if 0.7 <= runtime <= 4.0:
        return rounds
    return max(100_000, int(rounds * target / max(runtime, 1e-3)))


def run_cpp(case: Case, bindir: Path, lock: list[str]) -> tuple[float, float]:
    """(M rounds/s, core runtime in s) of one driver run."""
    argv = fix_shared_argv(case, case.cpp_argv(bindir))
    p = sh(lock + argv, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"C++ run failed ({p.returncode}): {' '.join(argv)}\n{p.stderr[-600:]}")
    return cpp_rate(p.stdout, case.cpp_rounds), parse_cpp_runtime(p.stdout)


def run_jmh(case: Case, lock: list[str], quick: bool, work: Path) -> float:
    out = work / "jmh.json"
    out.unlink(missing_ok=True)
    argv = case.jmh_argv(out, quick)
    p = sh(lock + argv, timeout=600)
    if p.returncode != 0 or not out.exists():
        raise RuntimeError(f"JMH run failed ({p.returncode}): {' '.join(argv)}\n{p.stdout[-800:]}{p.stderr[-400:]}")
    return jmh_rate(out.read_text(), case.jmh_items_per_op)


def memory(bindir: Path, lock: list[str], lg: int) -> list[dict]:
    """C++ peak RSS growth per entry (minus a one-entry run) and swag live-heap growth per entry."""
    n = 1 << lg
    rows = []
    for swag, cpp in MEMORY:
        def rss(window: int, cpp: str = cpp) -> int:
            p = sh(lock + ["/usr/bin/time", "-v", str(bindir / "benchmark_driver"), cpp, "sum", str(window), str(window)])
            if p.returncode != 0:
                raise RuntimeError(p.stderr[-600:])
            return parse_max_rss_kb(p.stderr)
        base, full = rss(1), rss(n)
        p = sh(lock + ["java", "-Xms1g", "-Xmx4g", "-XX:+UseParallelGC", "-cp", str(JAR),
                       "io.swag.bench.MemoryPerEntry", swag, "sum", str(lg)])
        m = re.search(r"bytes_per_entry\s+([0-9.]+)", p.stdout)
        if p.returncode != 0 or not m:
            raise RuntimeError(f"MemoryPerEntry failed: {p.stdout[-400:]}{p.stderr[-400:]}")
        cpp_b = (full - base) * 1024 / n
        swag_b = float(m.group(1))
        rows.append({"swag": swag, "cpp": cpp, "n": n, "cpp_rss_kb": full, "cpp_base_kb": base,
                     "cpp_bytes_per_entry": cpp_b, "swag_bytes_per_entry": swag_b, "ratio": swag_b / cpp_b})
        print(f"[vs-cpp] memory {swag}: C++ {cpp_b:.1f} B/entry, swag {swag_b:.1f} B/entry", flush=True)
    return rows


# ---------------------------------------------------------------- the report

def fmt(x: float) -> str:
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def markdown(meta: dict, results: list[dict], mem: list[dict]) -> str:
    lines = [BEGIN, "",
             f"Measured {meta['date']} by `{meta['command']}` ({meta['rounds']} interleaved rounds per case, "
             f"{'quick smoke sizes' if meta['quick'] else 'full sizes'}); swag `jvm/src` at {meta['swag_commit']!r} "
             f"(HEAD {meta['head']}).",
             f"Machine: {meta['cpu']}, {meta['cores']} cores, {meta['ram_gib']} GiB RAM; {meta['jdk']}; {meta['gxx']}.",
             f"Load before: `{meta['uptime_before']}`; after: `{meta['uptime_after']}`.", "",
             "| case | algorithm: swag (C++) | unit | C++ median [min-max] | swag median [min-max] | swag/C++ [range] "
             "| C++ `Sum<double>` median [min-max] | swag/C++ `Sum<double>` [range] |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        c, s, q = r["cpp"], r["swag"], r["ratio"]
        cd, qd = r.get("cpp_double"), r.get("ratio_double")
        dbl = (f"| {fmt(cd['median'])} [{fmt(cd['min'])}-{fmt(cd['max'])}] "
               f"| {qd['median']:.2f} [{qd['low']:.2f}-{qd['high']:.2f}] |") if cd and qd else "| - | - |"
        lines.append(f"| {r['group']} | {r['label']} | {r['unit']} | {fmt(c['median'])} [{fmt(c['min'])}-{fmt(c['max'])}] "
                     f"| {fmt(s['median'])} [{fmt(s['min'])}-{fmt(s['max'])}] "
                     f"| **{q['median']:.2f}** [{q['low']:.2f}-{q['high']:.2f}] {dbl}")
    if mem:
        lines += ["", "| memory, sum, n | algorithm: swag (C++) | C++ peak RSS growth (B/entry) "
                      "| swag live heap growth (B/entry) | swag/C++ |",
                  "| --- | --- | ---: | ---: | ---: |"]
        for m in mem:
            lines.append(f"| 2^{int(math.log2(m['n']))} | {m['swag']} ({m['cpp']}) | {m['cpp_bytes_per_entry']:.1f} "
                         f"| {m['swag_bytes_per_entry']:.1f} | {m['ratio']:.2f} |")
    for f in meta.get("failed", []):
        lines.append(f"\nFailed: {f}")
    lines += ["", "Commands of the last round (under `flock /tmp/swag-bench.lock`; `bin/` is the reference's build "
              "folder; the C++ rounds, iterations - window, are resized after a run outside 0.7-4 s; a sum case "
              "runs the same C++ command from the `Sum<double>` build's `bin/` too):", "", "```"]
    lines += meta["commands"]
    lines += ["```", "", END]
    return "\n".join(lines)


def write_doc(block: str) -> None:
    text = DOC.read_text()
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + f"\n\n{SECTION}\n\n{block}\n"
    DOC.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved C++/JMH rounds per case (default 3)")
    ap.add_argument("--quick", action="store_true", help="smoke run: small windows, short JMH runs")
    ap.add_argument("--only", action="append", default=[],
                    help="run only cases whose 'group | label' contains this (prints; docs/ untouched)")
    ap.add_argument("--no-doc", action="store_true", help="print the table; do not touch docs/")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory-per-entry case")
    ap.add_argument("--no-cpp-double", action="store_true",
                    help="skip the reference's Sum<double> build (sum cases run it by default)")
    ap.add_argument("--lock", default=os.environ.get("BENCH_LOCK", "flock /tmp/swag-bench.lock"),
                    help="command prefix for every timed run (default: flock /tmp/swag-bench.lock)")
    ap.add_argument("--lock-hold", type=float, default=150.0,
                    help="with a `flock FILE` lock: hold it across whole cases, releasing it after this many "
                         "seconds (default 150; each hold stays under 4 min); 0: lock each single run instead")
    a = ap.parse_args(argv)
    if a.only:
        a.no_doc = True  # a partial run never replaces the table of a whole one

    src = baseline_dir()
    if not (src / "cpp" / "src" / "benchmark_core.h").exists():
        print(f"[vs-cpp] skipped: no C++ reference at {src} (set SWAG_CPP_BASELINE to its folder)")
        return 0
    if not JAR.exists():
        print(f"[vs-cpp] no {JAR}: build it first (make build)", file=sys.stderr)
        return 2
    bindir = build_reference(src)
    dbl_bindir = None if a.no_cpp_double else build_reference(src, double_sum=True)
    lock = shlex.split(a.lock)
    todo = [c for c in cases(a.quick) if not a.only or any(o in c.key for o in a.only)]
    meta = machine()
    meta.update({"quick": a.quick, "rounds": a.rounds, "uptime_before": uptime(),
                 "command": " ".join(["python3 benchmarks/jmh/vs_cpp.py", *(argv if argv is not None else sys.argv[1:])]),
                 "cpp_build": str(bindir), "cpp_double_build": str(dbl_bindir) if dbl_bindir else None})
    print(f"[vs-cpp] {len(todo)} cases x {a.rounds} rounds; load {meta['uptime_before']}", flush=True)
    results, commands, failed, mem = [], [], [], []
    holder = Holder(lock_path(lock) if a.lock_hold > 0 else None, a.lock_hold)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="swag-vs-cpp-") as tmp:
        work = Path(tmp)
        for i, c in enumerate(todo, 1):
            cpp_runs, swag_runs, cpp_rounds, dbl_runs = [], [], [], []
            with_dbl = dbl_bindir is not None and c.is_sum
            per_run = [] if holder.path else lock
            try:
                holder.acquire()
                for rnd in range(a.rounds):
                    last_cpp = fix_shared_argv(c, c.cpp_argv(Path("bin")))
                    rate, runtime = run_cpp(c, bindir, per_run)
                    cpp_runs.append(rate)
                    cpp_rounds.append(c.cpp_rounds)
                    dbl = ""
                    if with_dbl:
                        dbl_runs.append(run_cpp(c, dbl_bindir, per_run)[0])
                        dbl = f", C++ Sum<double> {dbl_runs[-1]:.3g}"
                    c.cpp_rounds = resize_rounds(c.cpp_rounds, runtime)
                    swag_runs.append(run_jmh(c, per_run, a.quick, work))
                    print(f"[vs-cpp] {i}/{len(todo)} {c.key} round {rnd + 1}: C++ {cpp_runs[-1]:.3g} "
                          f"({runtime:.2f} s){dbl}, swag {swag_runs[-1]:.3g} {c.unit} ({time.monotonic() - t0:.0f} s)",
                          flush=True)
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                print(f"[vs-cpp] {c.key} FAILED: {e}", file=sys.stderr, flush=True)
                failed.append(f"{c.key}: {str(e).splitlines()[0]}")
                continue
            finally:
                holder.release()
            cs, ss = summarize(cpp_runs), summarize(swag_runs)
            row = {"group": c.group, "label": c.label, "unit": c.unit, "cpp": cs, "swag": ss,
                   "ratio": ratio(ss, cs), "window": c.window, "cpp_rounds": cpp_rounds,
                   "cpp_argv": last_cpp, "jmh_argv": c.jmh_argv(Path("out.json"), a.quick)}
            if dbl_runs:
                row["cpp_double"] = summarize(dbl_runs)
                row["ratio_double"] = ratio(ss, row["cpp_double"])
            results.append(row)
            commands.append(" ".join(last_cpp))
            commands.append(" ".join(shlex.quote(x) for x in c.jmh_argv(Path("out.json"), a.quick)
                                     ).replace(str(JAR), "benchmarks/jmh/target/benchmarks.jar"))
        if not (a.no_memory or a.only):
            holder.acquire()
            try:
                mem = memory(bindir, [] if holder.path else lock, 16 if a.quick else 22)
            except (RuntimeError, ValueError) as e:
                print(f"[vs-cpp] memory FAILED: {e}", file=sys.stderr, flush=True)
                failed.append(f"memory: {str(e).splitlines()[0]}")
        holder.release(force=True)
    if mem:
        commands.append("/usr/bin/time -v bin/benchmark_driver ALGO sum N N   # N = 1 and 2^22: peak RSS")
        commands.append("java -Xmx4g -XX:+UseParallelGC -cp benchmarks/jmh/target/benchmarks.jar "
                        "io.swag.bench.MemoryPerEntry ALGO sum 22")
    meta["uptime_after"] = uptime()
    meta["commands"] = commands
    meta["failed"] = failed
    block = markdown(meta, results, mem)
    print(block)
    if not a.no_doc:
        RAW.parent.mkdir(parents=True, exist_ok=True)
        RAW.write_text(json.dumps({"meta": meta, "results": results, "memory": mem}, indent=1) + "\n")
        write_doc(block)
        print(f"[vs-cpp] wrote {DOC.relative_to(REPO)} and {RAW.relative_to(REPO)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

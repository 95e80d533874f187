"""Mutation smoke check: each mutation below breaks one piece of swag-core on purpose (a flipped
comparison in a kernel, a dropped repair in FiBA, a skipped eviction, ...), and swag-core's JUnit suite
must then fail. Run by hand (``make mutation-smoke``), not by ``make test``: one full core suite per
mutation, a few minutes in all.

The committed tree is copied into a scratch folder (``git archive HEAD``), so the work tree is never
touched and a running build is not disturbed; each mutation is one exact text replacement that must
match once, applied to a fresh copy of its file and reverted after its run. The report (Markdown)
lists per mutation the tests that failed; a mutation no test catches makes the exit status 1.

    python tests/mutation/smoke.py --out docs/mutation-report.md
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = "jvm/src/main/java/io/swag/core/"


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    path: str
    old: str
    new: str


MUTATIONS = [
    Mutation("minmax-flip", "max keeps the smaller value: `y > x` flipped to `y < x`",
             CORE + "fn/MinMax.java", "(max ? y > x : y < x)", "(max ? y < x : y < x)"),
    Mutation("variance-drop-term", "Chan's merge loses its cross term d²·na·nb/n",
             CORE + "fn/Variance.java", "a[dst + 2] = qa + qb + d * (d * (na * nb / n));", "a[dst + 2] = qa + qb;"),
    Mutation("firstlast-swap", "first/last combine with the operands swapped (older <-> newer)",
             CORE + "fn/FirstLast.java", "a[dst] = last ? (y != y ? x : y) : (x != x ? y : x);",
             "a[dst] = last ? (x != x ? y : x) : (y != y ? x : y);"),
    Mutation("argmax-tie-newest", "argmin/argmax: a tie takes the newer argument (`>` becomes `>=`)",
             CORE + "fn/ArgMinMax.java", "src = (max ? y > x : y < x) ? newer : older;",
             "src = (max ? y >= x : y <= x) ? newer : older;"),
    Mutation("hll-drop-newer", "hll union keeps only the older sketch",
             CORE + "fn/Hll.java", "    u.update(older);\n    u.update(newer);", "    u.update(older);"),
    Mutation("bloom-and", "Bloom union as AND instead of OR",
             CORE + "fn/Bloom.java", "a[dst + i] = a[older + i] | a[newer + i];", "a[dst + i] = a[older + i] & a[newer + i];"),
    Mutation("fiba-no-repair-combine", "FiBA: an insert at an existing time skips repairAggs",
             CORE + "ooo/BTreeCore.java", "p.combine(s, s, src); // old ⊗ new\n    repairAggs(y, false, false);",
             "p.combine(s, s, src); // old ⊗ new"),
    Mutation("fiba-no-repair-rebalance", "FiBA: the insert path skips repairAggs after rebalanceForInsert",
             CORE + "ooo/BTreeCore.java",
             "    rebalanceForInsert(y);\n    repairAggs(rTop, rHitLeft, rHitRight);\n  }\n\n  /**\n   * The new value",
             "    rebalanceForInsert(y);\n  }\n\n  /**\n   * The new value"),
    Mutation("daba-lite-no-shrink-combine", "DABA Lite: fixup's shrink step skips *(A-1) <- *(A-1) ⊗ Π_A",
             CORE + "fifo/DabaLite.java", "          p.combine(slot(a - 1), slot(a - 1), slot(a));\n", ""),
    Mutation("keywindows-skip-evict", "KeyWindows: the bulk eviction is skipped (the tree keeps everything)",
             CORE + "plan/KeyWindows.java", "int n = agg.bulkEvict(bound);", "int n = 0;"),
    Mutation("evict-bound-off-by-one", "WindowGroup evicts one millisecond too early",
             CORE + "plan/WindowGroup.java", "w.alignUp(satAdd(satAdd(watermark, -lateness), 2 - w.size())) - 1",
             "w.alignUp(satAdd(satAdd(watermark, -lateness), 3 - w.size())) - 1"),
]


def sh(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def failed_tests(tree: Path) -> list[str]:
    """Test cases with a failure or error in the core module's surefire reports."""
    out = []
    for f in sorted((tree / "jvm" / "target" / "surefire-reports").glob("TEST-*.xml")):
        for case in ET.parse(f).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                out.append(f"{case.get('classname', '').rsplit('.', 1)[-1]}.{case.get('name')}")
    return out


def run_core_suite(tree: Path) -> tuple[int, list[str], int, float]:
    """(exit code, failed tests, tests run, seconds) of swag-core's JUnit suite in ``tree``."""
    t0 = time.time()
    p = sh(["mvn", "-B", "-q", "-o", "-pl", "jvm", "test", "-Dsurefire.printSummary=false"], tree)
    runs = 0
    for f in (tree / "jvm" / "target" / "surefire-reports").glob("TEST-*.xml"):
        runs += int(ET.parse(f).getroot().get("tests", "0"))
    return p.returncode, failed_tests(tree), runs, time.time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="write the report (Markdown) here")
    ap.add_argument("--only", help="comma-separated mutation names")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only.split(",")]
    head = sh(["git", "rev-parse", "--short", "HEAD"], ROOT).stdout.strip()
    lines = ["# Mutation smoke check\n",
             "Each mutation breaks swag-core on purpose; swag-core's JUnit suite (`mvn -pl jvm test`) must fail.",
             f"Command: `make mutation-smoke` (`python tests/mutation/smoke.py --out docs/mutation-report.md`); "
             f"commit {head}; {platform.node()} ({platform.machine()}), {sys.platform}.\n",
             "| mutation | what it breaks | caught | failing tests (count: first few) |", "|---|---|---|---|"]
    missed = 0
    for m in chosen:  # every text must still be there before anything slow runs
        n = (ROOT / m.path).read_text().count(m.old)
        if n != 1:
            raise SystemExit(f"{m.name}: the text to mutate occurs {n} times in {m.path} (the code moved: update MUTATIONS)")
    with tempfile.TemporaryDirectory(prefix="swag-mutation-") as d:
        tree = Path(d)
        subprocess.run(f"git archive HEAD | tar -x -C {tree}", shell=True, cwd=ROOT, check=True)
        rc, failed, runs, secs = run_core_suite(tree)
        print(f"baseline: exit {rc}, {runs} tests, {len(failed)} failed, {secs:.0f} s", flush=True)
        if rc != 0 or failed or runs == 0:
            print("the unmutated suite does not pass: nothing to learn from mutations", file=sys.stderr)
            return 2
        lines.insert(3, f"Unmutated baseline: {runs} tests, all passed ({secs:.0f} s).\n")
        for m in chosen:
            f = tree / m.path
            original = f.read_text()
            if original.count(m.old) != 1:
                raise SystemExit(f"{m.name}: the text to mutate occurs {original.count(m.old)} times in {m.path}")
            f.write_text(original.replace(m.old, m.new))
            try:
                rc, failed, runs, secs = run_core_suite(tree)
            finally:
                f.write_text(original)
            caught = rc != 0 and bool(failed)
            missed += not caught
            shown = ", ".join(f"`{t}`" for t in failed[:4]) + (" ..." if len(failed) > 4 else "")
            lines.append(f"| `{m.name}` | {m.what} (`{Path(m.path).name}`) | {'yes' if caught else '**NO**'} | "
                         f"{len(failed)}: {shown or '-'} |")
            print(f"{m.name}: {'caught' if caught else 'NOT CAUGHT'} ({len(failed)} failed of {runs}, {secs:.0f} s)",
                  flush=True)
    lines.append(f"\n{len(chosen) - missed} of {len(chosen)} mutations caught.")
    report = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(report)
    print(report)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

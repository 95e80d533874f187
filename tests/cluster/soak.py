"""Soak run of swag on a real Flink session cluster (1 JobManager + 2 TaskManagers, 127.0.0.1).

    python tests/cluster/soak.py --minutes 10 --out docs/figures     (make soak SOAK_MINUTES=10)

1. capacity: the test job (tests/cluster/java) unthrottled at parallelism 4 for --probe seconds; the
   source's records/s over the last half of the probe is the measured capacity;
2. soak: the same job, unbounded, at --load (default 0.7) x capacity for --minutes, sampling every
   10 s each TaskManager's heap (REST metrics Status.JVM.Memory.Heap.Used) and the state size of the
   latest completed checkpoint;
3. checks: heap and state plateau (mean of the last third <= 1.5 x mean of the middle third), every
   (key, window) of the fired range present, no row written twice, and the windows' values equal
   those of Flink's local mode over the same records;
4. latency from record to window: a window's first row is emitted when the watermark carried by
   record i_fire passes its end - 1 (i_fire is known from the generator); the job logs the wall time
   at which every 1000th record was parsed, so latency = wall time of the row at the sink - the
   (interpolated) time record i_fire entered the pipeline. p50 and p99 are reported.

Writes <out>/soak-flink.json and <out>/soak-flink-memory.png. Spark is not soaked yet.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "spark"))

import clusters  # noqa: E402
import flink_io  # noqa: E402

BASE, STEP, DELAY, LATENESS, SIZE, SLIDE, KEYS = 1_700_000_000_000, 2, 200, 150, 800, 100, 8


def source_rate(c: clusters.FlinkCluster, jid: str) -> int:
    v = next(v for v in c.job(jid)["vertices"] if "lines" in v["name"])
    return int(v["metrics"]["write-records"])


def heap(c: clusters.FlinkCluster) -> list[int]:
    out = []
    for tm in clusters.http_json(f"{c.url}/taskmanagers")["taskmanagers"]:
        r = clusters.http_json(f"{c.url}/taskmanagers/{tm['id']}/metrics?get=Status.JVM.Memory.Heap.Used")
        out.append(int(float(r[0]["value"])) if r else 0)
    return out


def state_size(c: clusters.FlinkCluster, jid: str) -> int:
    latest = (c.checkpoints(jid).get("latest") or {}).get("completed") or {}
    return int(latest.get("state_size") or latest.get("checkpointed_size") or 0)


def i_fire(end: int) -> int:
    """Index of the record whose watermark first fires the window ending at ``end`` (final row)."""
    need = end - 1 + LATENESS + DELAY - BASE  # wm(i) = BASE + (i // 4) * 4 * STEP - DELAY >= end - 1 + LATENESS
    q = -(-need // (4 * STEP))
    return max(0, q * 4)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--probe", type=float, default=40, help="seconds of the capacity probe")
    ap.add_argument("--load", type=float, default=0.7, help="fraction of the measured capacity")
    ap.add_argument("--block", type=int, default=16,
                    help="records per generated source element (the source's rate limiter acquires once per block)")
    ap.add_argument("--out", default="docs/figures")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--replot", default=None, help="only redraw the PNG from a soak-flink.json")
    a = ap.parse_args()
    if a.replot:
        res = json.loads(Path(a.replot).read_text())
        plot(res["samples"], Path(a.replot).with_name("soak-flink-memory.png"), res)
        return
    outdir = Path(a.out)
    outdir.mkdir(parents=True, exist_ok=True)
    work = Path(a.workdir or tempfile.mkdtemp(prefix="swag-soak-"))
    jar = clusters.build_job_jar(work / "job")
    c = clusters.FlinkCluster(work / "flink", taskmanagers=2, slots=2)
    res: dict = {"engine": "flink", "minutes": a.minutes, "block": a.block}
    try:
        c.start()
        # 1. capacity
        jid = c.run(jar, flink_io.MAIN, ["--out", str(work / "probe"), "--n", "0", "--rate", "100000000",
                                         "--interval", "2000", "--block", str(a.block)], parallelism=4)
        c.wait_state(jid, {"RUNNING"}, 120)
        time.sleep(a.probe / 2)
        n0, t0 = source_rate(c, jid), time.monotonic()
        time.sleep(a.probe / 2)
        cap = (source_rate(c, jid) - n0) / (time.monotonic() - t0)
        clusters.http_json(f"{c.url}/jobs/{jid}", method="PATCH")  # cancel
        c.wait_state(jid, {"CANCELED"}, 60)
        rate = int(cap * a.load)
        res.update(capacity_rps=int(cap), rate_rps=rate)
        print(f"capacity {cap:.0f} records/s; soak at {rate}/s for {a.minutes} min", flush=True)
        # 2. soak
        out = work / "soak"
        jid = c.run(jar, flink_io.MAIN, ["--out", str(out), "--n", "0", "--rate", str(rate), "--interval", "5000",
                                         "--soak", "1", "--block", str(a.block)], parallelism=4)
        c.wait_state(jid, {"RUNNING"}, 120)
        samples = []
        t_start = time.monotonic()
        while time.monotonic() - t_start < a.minutes * 60:
            time.sleep(10)
            assert c.state(jid) == "RUNNING", c.exceptions(jid)
            s = {"t": round(time.monotonic() - t_start, 1), "heap": heap(c), "state": state_size(c, jid),
                 "records": source_rate(c, jid)}
            samples.append(s)
            print(json.dumps(s), flush=True)
        records = source_rate(c, jid)
        clusters.http_json(f"{c.url}/jobs/{jid}", method="PATCH")
        c.wait_state(jid, {"CANCELED"}, 60)
    finally:
        c.stop()
    res["achieved_rps"] = round(records / (a.minutes * 60), 1)
    # 3. output: final rows, latency
    marks = sorted(tuple(map(int, ln.split())) for ln in (out / "marks.txt").read_text().splitlines() if ln.strip())
    import bisect

    mark_ids = [m[0] for m in marks]

    def entered(i: int) -> float | None:
        j = bisect.bisect_right(mark_ids, i) - 1
        if j < 0 or j + 1 >= len(marks):
            return None
        (i0, w0), (i1, w1) = marks[j], marks[j + 1]
        return w0 + (w1 - w0) * (i - i0) / (i1 - i0)
    final: dict = {}
    first_wall: dict = {}
    rows = 0
    seen = set()
    doubled = 0
    file_last = []
    for p in sorted(out.glob("part-*.txt")):
        file_last.append(0)
        for line in p.read_text().splitlines():
            f = line.split("\t")
            if not f[0].startswith("@") or f[1] in ("LATE", "REJ"):
                continue
            wall, key, vals = int(f[0][1:]), tuple(f[1:5]), tuple(f[5:])
            rows += 1
            doubled += (key, vals) in seen
            seen.add((key, vals))
            final[key] = vals
            first_wall.setdefault(key, wall)  # the window's first row (at its end); updates follow
            file_last[-1] = max(file_last[-1], int(key[3]))
    # the job is cancelled, so each subtask's file ends at its last flush (checkpoint): check the
    # windows whose final rows every file had certainly flushed
    last_end = min(file_last) - 2 * SIZE
    expected = {(f"k{k}", "w", str(e - SIZE), str(e)) for k in range(KEYS)
                for e in range(BASE + SLIDE, last_end + 1, SLIDE)}
    missing = expected - set(final)
    lat = sorted(first_wall[k] - e for k in final if int(k[3]) <= last_end
                 for e in [entered(i_fire(int(k[3]) - LATENESS))] if e is not None)
    res.update(rows=rows, windows=len(final), missing=len(missing), doubled=doubled,
               latency_ms_p50=round(lat[len(lat) // 2]), latency_ms_p99=round(lat[int(len(lat) * 0.99)]))
    # values against the local mode for a prefix of the records
    n_local = min(records, 200_000)
    flink_io.run_local(jar, work / "local", n_local)
    ref = flink_io.read(work / "local")
    horizon = BASE + n_local * STEP - DELAY - LATENESS - 2 * SIZE
    cmp_keys = [k for k in ref.windows if int(k[3]) < horizon]
    wrong = [k for k in cmp_keys if final.get(k) != ref.windows[k]]
    res.update(compared_with_local=len(cmp_keys), differing=len(wrong))

    def third(xs, i):
        n = len(xs)
        part = xs[i * n // 3:(i + 1) * n // 3]
        return sum(part) / max(1, len(part))

    heaps = [sum(s["heap"]) for s in samples]
    states = [s["state"] for s in samples]
    res["heap_plateau"] = third(heaps, 2) <= 1.5 * third(heaps, 1)
    res["state_plateau"] = third(states, 2) <= 1.5 * third(states, 1)
    res["samples"] = samples
    (outdir / "soak-flink.json").write_text(json.dumps(res, indent=1))
    plot(samples, outdir / "soak-flink-memory.png", res)
    print(json.dumps({k: v for k, v in res.items() if k != "samples"}), flush=True)
    # and there was something to check: windows expected, compared with the local run, samples
    # enough for the plateau (one per third at least: a third of none is 0 <= 0)
    ok = (bool(expected) and len(cmp_keys) > 1000 and len(samples) >= 3 and not missing and not doubled
          and not wrong and res["heap_plateau"] and res["state_plateau"])
    sys.exit(0 if ok else 1)


def plot(samples: list[dict], path: Path, res: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [s["t"] / 60 for s in samples]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for i in range(len(samples[0]["heap"])):
        ax.plot(t, [s["heap"][i] / 2**20 for s in samples], label=f"TaskManager {i} heap used")
    ax.set_xlabel("minutes")
    ax.set_ylabel("heap used, MiB")
    ax2 = ax.twinx()
    ax2.plot(t, [s["state"] / 2**10 for s in samples], label="checkpointed state", linestyle="--", color="green")
    ax2.set_ylabel("checkpointed state, KiB")
    ax2.set_ylim(bottom=0)
    ax2.legend(fontsize=8, loc="lower right")
    ax.set_title(f"swag on Flink, {res['rate_rps']} records/s (capacity {res['capacity_rps']}/s)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()

"""swag on a real Flink session cluster (1 JobManager + 2 TaskManagers, 2 slots each, 127.0.0.1):
the cluster test job (a replayable seeded source at parallelism 1, punctuated watermarks, the swag
operator at the job's parallelism, an at-least-once file sink) compared with Flink's local mode."""

from __future__ import annotations

import time

import flink_io
import pytest

N = 60_000      # records of the long runs (120 s of event time)
RATE = 3_000    # records/s on the cluster: ~20 s per run, long enough to interrupt


@pytest.fixture(scope="module")
def reference(flink_job_jar, tmp_path_factory):
    """n -> the local-mode output (parallelism 1) of the job over n records, computed once per n."""
    cache: dict = {}

    def get(n: int, bad: int = 0) -> flink_io.Output:
        if (n, bad) not in cache:
            out = tmp_path_factory.mktemp("flink-local") / "out"
            flink_io.run_local(flink_job_jar, out, n, bad=bad)
            cache[(n, bad)] = flink_io.read(out)
        return cache[(n, bad)]

    return get


def _assert_same(got: flink_io.Output, want: flink_io.Output) -> None:
    assert len(want.windows) > 3_000 and want.late, "the reference run made windows and late records"
    missing = set(want.windows) - set(got.windows)
    extra = set(got.windows) - set(want.windows)
    assert not missing, f"{len(missing)} windows lost, e.g. {sorted(missing)[:3]}"
    assert not extra, f"{len(extra)} windows not in the reference, e.g. {sorted(extra)[:3]}"
    wrong = [k for k in want.windows if got.windows[k] != want.windows[k]]
    assert not wrong, f"{len(wrong)} windows differ, e.g. {[(k, got.windows[k], want.windows[k]) for k in wrong[:3]]}"
    assert got.emitted == want.emitted, "the same rows (first and updated) as the reference"
    assert got.late == want.late
    assert got.rejected == want.rejected


def test_cluster_parallelism_4_equals_local_mode(flink_cluster, flink_job_jar, reference, tmp_path):
    """The short one (also in `make test`): 20k records at parallelism 4 over both TaskManagers."""
    n = 20_000
    out = tmp_path / "out"
    jid = flink_cluster.run(flink_job_jar, flink_io.MAIN, flink_io.job_args(out, n, 20_000), parallelism=4)
    flink_cluster.wait_state(jid, {"FINISHED"}, 180)
    job = flink_cluster.job(jid)
    swag_vertex = next(v for v in job["vertices"] if "swag" in v["name"])
    assert swag_vertex["parallelism"] == 4
    assert len(flink_io.taskmanagers_of(flink_cluster, jid, swag_vertex["id"])) == 2, "ran on both TaskManagers"
    got = flink_io.read(out)
    want = reference(n)
    assert len(want.windows) > 3_000 and want.late
    assert got.duplicates == 0 and got.rows == want.rows, "no failure: every row exactly once"
    _assert_same(got, want)


def _wait_progress(cluster, jid, out, checkpoints: int, timeout: float = 120) -> None:
    """Waits until the job is RUNNING with `checkpoints` completed checkpoints and some output."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = cluster.state(jid)
        assert st not in ("FAILED", "CANCELED", "FINISHED"), f"job is {st} already"
        if st == "RUNNING" and cluster.completed_checkpoints(jid) >= checkpoints and flink_io.lines_written(out) > 0:
            return
        time.sleep(0.5)
    raise TimeoutError(f"job {jid}: not {checkpoints} checkpoints after {timeout}s")


@pytest.mark.slow
def test_kill_a_taskmanager_mid_stream_recovers_from_checkpoint(flink_cluster, flink_job_jar, reference, tmp_path):
    out = tmp_path / "out"
    jid = flink_cluster.run(flink_job_jar, flink_io.MAIN, flink_io.job_args(out, N, RATE), parallelism=4)
    _wait_progress(flink_cluster, jid, out, checkpoints=3)
    victim = flink_cluster.live_taskmanager_names()[0]
    flink_cluster.daemons.kill(victim)  # kill -9 of the TaskManager's process group
    # the job fails over; with 2 of 4 slots left it waits for a replacement, like a supervised cluster
    flink_cluster.add_taskmanager(wait=False)
    flink_cluster.wait_state(jid, {"FINISHED"}, 300)
    restored = flink_cluster.restored_from(jid)
    assert restored is not None and not restored.get("is_savepoint"), f"restored from a checkpoint: {restored}"
    assert flink_cluster.job(jid).get("status-counts") is not None
    got = flink_io.read(out)
    want = reference(N)
    _assert_same(got, want)  # nothing lost; repeats only identical (asserted in read)


@pytest.mark.slow
def test_rescale_savepoint_2_to_4_to_1(flink_cluster, flink_job_jar, reference, tmp_path):
    out = tmp_path / "out"
    flink_cluster.wait_taskmanagers(2)
    args = flink_io.job_args(out, N, RATE)
    jid = flink_cluster.run(flink_job_jar, flink_io.MAIN, args, parallelism=2)
    _wait_progress(flink_cluster, jid, out, checkpoints=2)
    sp1 = flink_cluster.stop_with_savepoint(jid)
    flink_cluster.wait_state(jid, {"FINISHED"}, 60)
    jid2 = flink_cluster.run(flink_job_jar, flink_io.MAIN, args, parallelism=4, savepoint=sp1)
    _wait_progress(flink_cluster, jid2, out, checkpoints=2)
    assert (flink_cluster.restored_from(jid2) or {}).get("is_savepoint"), "the p=4 run restored the savepoint"
    sp2 = flink_cluster.stop_with_savepoint(jid2)
    flink_cluster.wait_state(jid2, {"FINISHED"}, 60)
    jid3 = flink_cluster.run(flink_job_jar, flink_io.MAIN, args, parallelism=1, savepoint=sp2)
    flink_cluster.wait_state(jid3, {"FINISHED"}, 300)
    par = {j: next(v for v in flink_cluster.job(j)["vertices"] if "swag" in v["name"])["parallelism"]
           for j in (jid, jid2, jid3)}
    assert list(par.values()) == [2, 4, 1]
    got = flink_io.read(out)
    _assert_same(got, reference(N))


@pytest.mark.slow
def test_bad_input_is_counted_or_side_output_and_the_job_keeps_running(flink_cluster, flink_job_jar, reference,
                                                                      tmp_path):
    n, bad = 20_000, 50
    out = tmp_path / "out"
    jid = flink_cluster.run(flink_job_jar, flink_io.MAIN, flink_io.job_args(out, n, 2_000, bad=bad), parallelism=4)
    # while it runs (metrics are served for running jobs only), the operator's counters grow and the
    # job stays RUNNING after bad records
    readings = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and flink_cluster.state(jid) in ("CREATED", "INITIALIZING", "RUNNING"):
        try:
            r = (flink_cluster.metric(jid, "swag", "swagRejectedRecords"), flink_cluster.metric(jid, "swag", "swagLateRecords"))
        except Exception:  # noqa: BLE001 - the job finished between the two calls
            break
        if flink_cluster.state(jid) == "RUNNING":
            readings.append(r)
        time.sleep(0.5)
    flink_cluster.wait_state(jid, {"FINISHED"}, 180)
    got = flink_io.read(out)
    broken = [i for i in range(n) if i % bad == bad - 1]
    kinds = {i: (i // bad) % 4 for i in broken}
    reasons = {0: "key column 'k' is null", 1: "time column 'ts' is null", 2: "NaN"}
    for i, kind in kinds.items():
        if kind == 3:
            assert i in got.late, f"record {i} (an hour beyond the lateness) not in the late output"
        elif kind == 2 and i in got.late:
            pass  # NaN in a record too late anyway: the lateness check comes first
        else:
            assert i in got.rejected and reasons[kind] in got.rejected[i], (i, got.rejected.get(i))
    assert set(got.rejected) <= {i for i, k in kinds.items() if k != 3}
    assert sum(1 for i, k in kinds.items() if k == 2 and i in got.rejected) > 50
    # the counters agree with the side outputs
    assert any(rej > 0 for rej, _ in readings), f"rejected counter while running: {readings}"
    assert max(r[0] for r in readings) <= len(got.rejected) and max(r[1] for r in readings) <= len(got.late)
    assert [r[0] for r in readings] == sorted(r[0] for r in readings), "the counter only grows"
    # and the windows are those of the local run over the same input
    _assert_same(got, reference(n, bad))
    assert len(got.windows) > 3_000

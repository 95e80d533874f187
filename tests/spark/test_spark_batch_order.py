"""The records path (``preaggregate="off"``) puts each key's batch in time order before the
aggregator: batches already in order, in order with ties, out of order with ties, and reversed must
give a naive recompute's answer for an order-sensitive function (``collect``: the window's values in
time order, equal times in arrival order) and for ``count``/``sum``.

The oracle is plain Python: per key and window ``[start, start + size)``, the records with times in it,
sorted by (time, arrival position over all batches). Nothing is late: each batch's times lie above the
previous batch's watermark minus the window size. One input file per batch, so each key's rows reach
the operator in file order (one map partition).
"""

from __future__ import annotations

import random

from spark_helpers import by_window, diff, finish, flush_batches, millis, source, start_available, write_batches

import swag
import swag.spark

SIZE, SLIDE = 4_000, 2_000
BASE = 1_700_000_000_000


def _batches() -> list[list[dict]]:
    rng = random.Random(17)
    out: list[list[dict]] = []
    t0 = BASE + 60_000
    for shape in ("sorted", "sorted_ties", "shuffled_ties", "reversed", "shuffled"):
        per_key = []
        for k in ("a", "b"):
            times = []
            for i in range(60):
                t = t0 + 100 * i
                times += [t] * (3 if "ties" in shape and i % 4 == 0 else 1)
            if shape.startswith("shuffled"):
                rng.shuffle(times)
            elif shape == "reversed":
                times.reverse()
            per_key.append([{"k": k, "t": t} for t in times])
        recs = []
        while any(per_key):  # the keys interleaved at random, each key's own order kept
            recs.append(rng.choice([q for q in per_key if q]).pop(0))
        out.append(recs)
        t0 += 6_100  # the next batch starts above this one: nothing is late with a 1 s watermark delay
    n = 0
    for b in out:
        for r in b:
            r["v"] = float(n)  # distinct values in arrival order: collect shows the order
            n += 1
    return out


def _oracle(batches: list[list[dict]]) -> dict:
    recs = [(r["k"], r["t"], pos, r["v"]) for pos, r in enumerate(r for b in batches for r in b)]
    out = {}
    for k in {r[0] for r in recs}:
        mine = sorted((t, pos, v) for kk, t, pos, v in recs if kk == k)
        starts = {s for t, _, _ in mine for s in range((t - SIZE) // SLIDE * SLIDE + SLIDE, t + 1, SLIDE)}
        for s in starts:
            vals = [v for t, _, v in mine if s <= t < s + SIZE]
            out[(k, s, s + SIZE)] = {"c": vals, "n": len(vals), "s": float(sum(vals))}
    return out


def test_unsorted_sorted_and_tied_batches_give_the_oracle(spark, tmp_path):
    batches = _batches()
    last = max(r["t"] for b in batches for r in b)
    write_batches(tmp_path / "in", batches + flush_batches(last))
    q = swag.Query(key="k", time="ts", lateness=0).window(SIZE, slide=SLIDE, c=swag.collect("v"), n=swag.count(),
                                                           s=swag.sum("v"))
    df = swag.spark.aggregate(source(spark, tmp_path / "in", "1 second"), q, preaggregate="off")
    out, progress = finish(start_available(df, "batch_order_off", tmp_path / "ck"))
    got = by_window(millis(out, "window_start", "window_end").where("k != 'zz'").collect(),
                    lambda d: {f: d[f] for f in ("c", "n", "s")})
    expected = _oracle(batches)
    assert len(expected) > 30
    problems = diff(got, expected)
    assert not problems, f"{len(problems)} differences, first: " + "\n".join(problems[:10])

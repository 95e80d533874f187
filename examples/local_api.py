"""swag without an engine: ``swag.run`` over a query, and single aggregators.

    python examples/local_api.py [--rows N]

``swag.run`` executes a query in arrival order over dicts or a pandas DataFrame, with the same
planner and window rules as the engines (the engines' tests compare their rows with it), a
watermark of the largest event time seen minus ``watermark_delay``. Here: the 2013 flights
(``flights_data.py``), per origin and carrier, a 1-hour window sliding by 15 minutes and the last
100 flights of each key (a count window). Then the data structures themselves: an in-order DABA
Lite window and an out-of-order FiBA tree with a range query.
"""

from __future__ import annotations

import argparse

import swag
from flights_data import flights


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=100_000, help="the first N records (default: 100,000)")
    a = p.parse_args()

    df = flights(a.rows)
    q = (swag.Query(key=["origin", "carrier"], time="sched_dep", lateness="1h")
         .window("1h", slide="15min", max_delay=swag.max("dep_delay"), sd_delay=swag.stddev("dep_delay"))
         .count_window(100, mean_last_100=swag.mean("dep_delay")))
    print(q.explain().splitlines()[0])
    res = swag.run(q, df, watermark_delay="4h")
    print(f"{len(df):,} records: {len(res.rows):,} window rows, {res.late_count:,} late, "
          f"{len(res.rejected):,} rejected")
    if res.rejected:
        print(f"  a rejected record: {res.rejected[0]['record']}, because {res.rejected[0]['reason']}")
    out = res.to_pandas()
    hourly = out[out["window"] == "1h/15min"].sort_values("max_delay", ascending=False)
    print("the worst hours:")
    print(hourly[["origin", "carrier", "window_start", "max_delay", "sd_delay"]].head(3).to_string(index=False))

    # the aggregators themselves: in order (DABA Lite, worst-case O(1)) ...
    w = swag.aggregator("daba_lite", "max")
    for x in [3.0, 1.0, 4.0, 1.0, 5.0]:
        w.insert(x)
    w.evict()
    print("daba_lite max of [1, 4, 1, 5]:", w.query())
    # ... and out of order (FiBA with bulk operations, amortized O(log d))
    t = swag.aggregator("bfiba4", "sum")
    t.insert(30, 1.0)
    t.insert(10, 2.0)
    t.insert(20, 4.0)
    t.bulk_insert([5, 25], [8.0, 16.0])
    print("bfiba4 sum:", t.query(), "range [10, 25]:", t.query(10, 25))


if __name__ == "__main__":
    main()

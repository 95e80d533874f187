"""User-defined functions on every engine: the example jar (examples/udaf), a seeded trace, the
query, and an oracle written independently of swag (plain Python over the records)."""

from __future__ import annotations

import math
import os
import random
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JAR = ROOT / "examples" / "udaf" / "target" / "swag-example-udaf.jar"
TOPK = "io.swag.examples.udaf.TopK"
TREND = "io.swag.examples.udaf.Trend"
SIZE, SLIDE, K = 4_000, 1_000, 3
BASE = 1_700_000_000_000  # epoch ms, a multiple of SLIDE


def require_jar() -> Path:
    """The example jar; a clear failure if it was not built (``mvn package`` builds it in the reactor)."""
    if not JAR.is_file():
        raise AssertionError(
            f"{JAR} is missing: build it with `mvn -B -pl examples/udaf -am package -DskipTests` (make test does)"
        )
    return JAR


def register() -> None:
    """Puts the example jar on swag's class path before any JVM starts (tests/conftest.py)."""
    if JAR.is_file() and not os.environ.get("SWAG_NO_UDAF_JAR"):
        import swag

        swag.add_jars(JAR)


def query(time: str = "t"):
    import swag

    return (
        swag.Query(key="k", time=time)
        .window(SIZE, slide=SLIDE, top=swag.udaf(TOPK, "v", k=K), trend=swag.udaf(TREND, "v"), head=swag.first("v"))
    )


def trace(seed: int, n: int = 400, keys: str = "abc", bad: int = 3) -> list[dict[str, Any]]:
    """Records in arrival order: times run ahead, most up to 2.5 s out of order (within a 5 s
    watermark delay: nothing late), values quarter steps in [-100, 100]; ``bad`` records carry an
    infinite value, which TopK refuses (a rejected record)."""
    rng = random.Random(seed)
    now = BASE
    out: list[dict[str, Any]] = []
    for _i in range(n):
        now += rng.randint(0, 60)
        t = now - (rng.randint(0, 2_500) if rng.random() < 0.6 else 0)
        out.append({"k": rng.choice(keys), "t": t, "v": rng.randint(-400, 400) / 4.0})
    for j in rng.sample(range(10, n), bad):
        out[j]["v"] = math.inf if j % 2 else -math.inf
    return out


def expected(records: list[dict[str, Any]]) -> dict[tuple[str, int], tuple[str, float, float]]:
    """Per (key, window start ms): (the K largest values as Java prints a double[], last - first
    value in time order with ties in arrival order, the first value), over finite-valued records."""
    ok = [(r["k"], r["t"], i, r["v"]) for i, r in enumerate(records) if math.isfinite(r["v"])]
    out: dict[tuple[str, int], tuple[str, float, float]] = {}
    starts = {(k, s) for k, t, _, _ in ok for s in range(t - t % SLIDE - SIZE + SLIDE, t + 1, SLIDE)}
    for k, s in starts:
        inside = sorted((t, i, v) for kk, t, i, v in ok if kk == k and s <= t < s + SIZE)
        top = sorted((v for _, _, v in inside), reverse=True)[:K]
        out[(k, s)] = ("[" + ", ".join(repr(float(v)) for v in top) + "]", inside[-1][2] - inside[0][2], inside[0][2])
    return out


def rejected_count(records: list[dict[str, Any]]) -> int:
    return sum(1 for r in records if not math.isfinite(r["v"]))


def assert_matches(got: dict[tuple[str, int], tuple[Any, Any, Any]], records: list[dict[str, Any]]) -> None:
    """``got`` (per (key, window start ms): top, trend, head as an engine gave them) equals
    :func:`expected` over ``records``: the same windows, each value equal (trend within 1e-9)."""
    want = expected(records)
    assert len(want) > 40
    assert got.keys() == want.keys()
    for key, (top, trend, head) in want.items():
        assert got[key][0] == top, key
        assert abs(got[key][1] - trend) <= 1e-9, (key, got[key][1], trend)
        assert got[key][2] == head, key

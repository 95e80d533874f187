"""User-defined aggregate functions (``swag.udaf``) on the local executor: the example jar's TopK
(commutative, byte form) and Trend (not commutative) against an independent recompute, the laws
check, and the errors a user meets."""

from __future__ import annotations

import pytest

import swag
from udaf_cases import TOPK, TREND, assert_matches, query, rejected_count, require_jar, trace


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_local_run_matches_an_independent_recompute(seed):
    require_jar()
    recs = trace(seed)
    res = swag.run(query(), recs, watermark_delay=5_000)
    assert_matches({(r["k"], r["window_start"]): (r["top"], r["trend"], r["head"]) for r in res.rows}, recs)
    assert res.late_count == 0
    assert len(res.rejected) == rejected_count(recs) == 3
    for r in res.rejected:
        assert TOPK in r["reason"] and "column 'v'" in r["reason"] and "finite" in r["reason"], r


def test_the_plan_treats_a_udaf_by_its_flags():
    require_jar()
    only_topk = swag.Query(key="k", time="t").window(60_000, slide=1_000, top=swag.udaf(TOPK, "v", k=2))
    assert "udaf(v)" in only_topk.explain() and TOPK in only_topk.explain()
    # TopK is commutative with a byte form (mergeable), Trend is not: a product with Trend is neither
    import json

    plan = json.loads(query().plan_json())
    assert plan["groups"][0]["product"][0]["options"]["class"] == TOPK


def test_check_udaf_passes_the_examples_and_reports_a_refused_sample():
    require_jar()
    samples = [3.0, -1.5, 7.25, 7.25, 0.0, 12.0, -40.0]
    assert swag.check_udaf(TOPK, samples, k=3) == []
    assert swag.check_udaf(TREND, samples) == []
    found = swag.check_udaf(TOPK, [1.0, float("inf")], k=3)
    assert len(found) == 1 and "threw" in found[0] and "finite" in found[0]


def test_errors_name_the_class_and_the_column():
    require_jar()
    with pytest.raises(swag.InvalidQueryError, match=r"udaf 'com\.example\.Missing' \(column 'v'\): class not found"):
        swag.Query(key="k", time="t").window(10, x=swag.udaf("com.example.Missing", "v")).validate()
    with pytest.raises(
        swag.InvalidQueryError,
        match=r"udaf 'java\.lang\.String' \(column 'v'\): class does not implement io\.swag\.core\.AggregateFunction",
    ):
        swag.Query(key="k", time="t").window(10, x=swag.udaf("java.lang.String", "v")).validate()
    with pytest.raises(swag.InvalidQueryError, match="k must be an integer >= 1"):
        swag.Query(key="k", time="t").window(10, x=swag.udaf(TOPK, "v", k=0)).validate()
    with pytest.raises(swag.InvalidQueryError, match=r"parameters \[k\] given"):
        swag.Query(key="k", time="t").window(10, x=swag.udaf(TREND, "v", k=2)).validate()
    with pytest.raises(swag.InvalidQueryError, match="first argument"):
        swag.udaf(TOPK, "v", **{"class": "x"})


def test_add_jars_after_the_jvm_started_refuses_a_new_jar(tmp_path):
    require_jar()
    swag.aggregator("daba_lite", "max")  # the JVM runs
    other = tmp_path / "other.jar"
    other.write_bytes(require_jar().read_bytes())
    with pytest.raises(swag.SwagSetupError, match="class path is fixed"):
        swag.add_jars(other)
    swag.add_jars(require_jar())  # already on it: fine

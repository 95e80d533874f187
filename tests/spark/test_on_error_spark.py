"""``on_error`` on Spark (batch back-fill and streaming alike go through the same rejection): with
``reject`` a NaN record comes back as a ``rejected`` row with its reason (``late="keep"``) and the
others' windows are computed; with ``fail`` the job fails naming the reason."""

from __future__ import annotations

import math

import pytest

import swag
import swag.spark

Q = swag.Query(key="k", time="t").window(1000, s=swag.sum("v"))


def _df(spark):
    rows = [("a", i * 100, float(i)) for i in range(20)] + [("a", 1050, math.nan)]
    return spark.createDataFrame(rows, "k STRING, t LONG, v DOUBLE")


def test_reject_keeps_the_record_with_its_reason(spark):
    out = swag.spark.aggregate(_df(spark), Q, late="keep", metrics_name="on_error_reject", preaggregate="off")
    rejected = [r for r in out.collect() if r["swag_kind"] == "rejected"]
    assert [r["swag_reason"] for r in rejected] == ["column 'v' is NaN"]
    assert sum(1 for r in out.collect() if r["swag_kind"] == "window") == 2


@pytest.mark.parametrize("pre", ["auto", "off"])
def test_fail_fails_the_job_with_the_reason(spark, pre):
    out = swag.spark.aggregate(_df(spark), Q, on_error="fail", metrics_name="on_error_fail", preaggregate=pre)
    with pytest.raises(Exception, match=r"record rejected \(on_error=fail\): column 'v' is NaN"):
        out.collect()


def test_a_bad_option_value_names_it(spark):
    with pytest.raises(swag.errors.SwagError, match="on_error: 'ignore' is not one of"):
        swag.spark.aggregate(_df(spark), Q, on_error="ignore")  # type: ignore[arg-type]

"""``on_error`` on the local API: ``reject`` (the default) returns a rejected record with its reason
and goes on; ``fail`` raises at the first rejected record, whether Java (a NaN, a value a function
refuses) or Python (a time it cannot parse) rejects it; a bad value of the option is a clear error."""

from __future__ import annotations

import math

import pytest

import swag
from swag.errors import InvalidValueError, SwagError

Q = swag.Query(key="k", time="t").window(1000, s=swag.sum("v"))
GOOD = [{"k": "a", "t": i * 100, "v": float(i)} for i in range(30)]


def test_reject_returns_the_record_and_goes_on():
    recs = GOOD[:10] + [{"k": "a", "t": 1050, "v": math.nan}] + GOOD[10:]
    r = swag.run(Q, recs)
    assert [x["reason"] for x in r.rejected] == ["column 'v' is NaN"]
    assert r.rows == swag.run(Q, GOOD).rows


@pytest.mark.parametrize("bad, reason", [
    ({"k": "a", "t": 1050, "v": math.nan}, "column 'v' is NaN"),
    ({"k": "a", "t": "not a time", "v": 1.0}, "unparsable time"),
    ({"k": None, "t": 1050, "v": 1.0}, "key column 'k' is null"),
])
def test_fail_raises_at_the_first_rejected_record(bad, reason):
    with pytest.raises(InvalidValueError, match=r"record rejected \(on_error=fail\): .*" + reason) as e:
        swag.run(Q, GOOD[:10] + [bad] + GOOD[10:], on_error="fail")
    assert "swag" not in str(e.value).split("; record: ")[1], "the record as given, without internal columns"


def test_fail_leaves_good_input_alone():
    assert swag.run(Q, GOOD, on_error="fail").rows == swag.run(Q, GOOD).rows


def test_a_bad_option_value_names_it():
    with pytest.raises(SwagError, match="on_error: 'ignore' is not one of"):
        swag.run(Q, GOOD, on_error="ignore")

"""The bad query and the bad input every front-end is checked against (the local API, swag.spark,
Spark Connect, swag.flink): each must raise the class and message written here. The messages are
written out, not computed, so a front-end that changes one fails."""

from __future__ import annotations

from typing import Any

# an input of these columns, in this order: k (string), ts (event time), v (double)
COLUMNS = ["k", "ts", "v"]

# a query naming a function that does not exist
BAD_QUERY: dict[str, Any] = {
    "key": ["k"],
    "time": "ts",
    "windows": [{"size": 2000, "aggregates": [{"output": "s", "function": "maximum", "column": "v"}]}],
}
BAD_QUERY_CLASS = "UnknownQueryFunctionError"
BAD_QUERY_MESSAGE = (
    'windows[0].aggregates[0].function: "maximum"; unknown aggregate function \'maximum\'; known functions: '
    "sum, count, mean, geomean, stddev, variance, min, max, argmin, argmax, mincount, maxcount, first, last, "
    "collect, m4, bloom, countmin, hll, kll, quantile, median, udaf"
)

# a valid query reading a column the input lacks
BAD_INPUT: dict[str, Any] = {
    "key": ["k"],
    "time": "ts",
    "windows": [{"size": 2000, "aggregates": [{"output": "s", "function": "sum", "column": "nope"}]}],
}
BAD_INPUT_CLASS = "InvalidInputError"
BAD_INPUT_MESSAGE = "column 'nope' of aggregate 's' (window '2s/2s') is not a column of the input; its columns are [k, ts, v]"


def check(err: BaseException, cls_name: str, message: str) -> None:
    """``err`` is exactly of the swag class ``cls_name``, with ``message`` and no kind prefix."""
    import swag

    assert type(err) is getattr(swag, cls_name), f"{type(err).__name__}: {err}"
    assert str(err) == message

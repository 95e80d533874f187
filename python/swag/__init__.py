"""swag: sliding-window aggregation on the JVM (Two-Stacks, DABA, DABA Lite, ...), from Python.

>>> import swag
>>> w = swag.aggregator("daba_lite", "max")
>>> for x in [3, 1, 4, 1, 5]:
...     w.insert(x)
>>> w.evict(); w.query()
5.0

Queries (windows and aggregates per key, the JSON spec of docs/query-spec.md) run engine-free with
:func:`run`:

>>> q = swag.Query(key="k", time="t").window("1s", top=swag.max("v"), n=swag.count())
>>> swag.run(q, [{"k": "a", "t": 5, "v": 2.0}, {"k": "a", "t": 9, "v": 7.0}]).rows[0]["top"]
7.0

The Java library runs in-process through JPype; the JVM starts at the first call that needs it.
The aggregate helpers ``swag.max``, ``swag.min`` and ``swag.sum`` are not the built-ins.
"""

from ._jvm import add_jars
from ._laws import check_udaf
from ._version import __version__
from .aggregates import (
    Aggregate,
    argmax,
    argmin,
    bloom,
    collect,
    count,
    countmin,
    first,
    geomean,
    hll,
    kll,
    last,
    m4,
    max,  # noqa: F401 - swag.max; out of __all__ so that `from swag import *` keeps the builtin
    maxcount,
    mean,
    median,
    min,  # noqa: F401 - as max
    mincount,
    quantile,
    stddev,
    sum,  # noqa: F401 - as max
    udaf,
    variance,
)
from .errors import (
    EmptyWindowError,
    IncompatibleFunctionError,
    IncompatibleStateError,
    InvalidInputError,
    InvalidOptionError,
    InvalidQueryError,
    InvalidValueError,
    NaNValueError,
    OutOfOrderError,
    SwagError,
    SwagInternalError,
    SwagSetupError,
    UnknownAlgorithmError,
    UnknownFunctionError,
    UnknownQueryFunctionError,
    UserFunctionError,
    ValueTypeError,
)
from .local import (
    Aggregator,
    TimedAggregator,
    aggregator,
    algorithms,
    functions,
    out_of_order_algorithms,
    timed_aggregator,
)
from .query import Query, Window
from .results import BloomFilter, CountMinSketch, KllQuantiles, SketchResult
from .runner import RunResult, run

__all__ = [
    "__version__",
    "aggregator",
    "timed_aggregator",
    "algorithms",
    "out_of_order_algorithms",
    "functions",
    "Aggregator",
    "TimedAggregator",
    "SketchResult",
    "BloomFilter",
    "CountMinSketch",
    "KllQuantiles",
    "Query",
    "Window",
    "Aggregate",
    "run",
    "RunResult",
    "udaf",
    "add_jars",
    "check_udaf",
    # max, min and sum are left out: `from swag import *` must not shadow the built-ins
    "count",
    "mean",
    "geomean",
    "stddev",
    "variance",
    "argmin",
    "argmax",
    "first",
    "last",
    "m4",
    "collect",
    "maxcount",
    "mincount",
    "hll",
    "bloom",
    "countmin",
    "quantile",
    "median",
    "kll",
    "SwagError",
    "UnknownAlgorithmError",
    "UnknownFunctionError",
    "InvalidQueryError",
    "UnknownQueryFunctionError",
    "InvalidInputError",
    "IncompatibleStateError",
    "UserFunctionError",
    "InvalidOptionError",
    "IncompatibleFunctionError",
    "InvalidValueError",
    "ValueTypeError",
    "NaNValueError",
    "EmptyWindowError",
    "OutOfOrderError",
    "SwagSetupError",
    "SwagInternalError",
]

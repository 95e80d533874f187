"""swag: sliding-window aggregation on the JVM (Two-Stacks, DABA, DABA Lite, ...), from Python.

>>> import swag
>>> w = swag.aggregator("daba_lite", "max")
>>> for x in [3, 1, 4, 1, 5]:
...     w.insert(x)
>>> w.evict(); w.query()
5.0

The Java library runs in-process through JPype; the JVM starts at the first call that needs it.
"""

from ._version import __version__
from .errors import (
    EmptyWindowError,
    IncompatibleFunctionError,
    InvalidOptionError,
    InvalidValueError,
    NaNValueError,
    OutOfOrderError,
    SwagError,
    SwagInternalError,
    SwagSetupError,
    UnknownAlgorithmError,
    UnknownFunctionError,
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
from .results import BloomFilter, CountMinSketch, KllQuantiles, SketchResult

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
    "SwagError",
    "UnknownAlgorithmError",
    "UnknownFunctionError",
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

"""Java exceptions -> Python exceptions: the one mapping (swag.errors.from_java) and the local API's
side of the cross-front-end cases (tests/error_cases.py; the Spark, Spark Connect and Flink sides
are in tests/spark/test_connect.py and tests/flink/test_pyflink.py)."""

from __future__ import annotations

import pandas as pd
import pytest

import swag
from error_cases import (
    BAD_INPUT,
    BAD_INPUT_CLASS,
    BAD_INPUT_MESSAGE,
    BAD_QUERY,
    BAD_QUERY_CLASS,
    BAD_QUERY_MESSAGE,
    COLUMNS,
    check,
)
from swag import _jvm
from swag.errors import from_java, from_java_chain

# the documented table (docs/query-spec.md, "Errors"), written out
KINDS = {
    "INVALID_QUERY": swag.InvalidQueryError,
    "UNKNOWN_QUERY_FUNCTION": swag.UnknownQueryFunctionError,
    "INVALID_INPUT": swag.InvalidInputError,
    "UNKNOWN_ALGORITHM": swag.UnknownAlgorithmError,
    "UNKNOWN_FUNCTION": swag.UnknownFunctionError,
    "INVALID_OPTION": swag.InvalidOptionError,
    "INCOMPATIBLE_FUNCTION": swag.IncompatibleFunctionError,
    "SETUP": swag.SwagSetupError,
    "STATE": swag.IncompatibleStateError,
    "USER_FUNCTION": swag.UserFunctionError,
    "REJECTED_RECORD": swag.InvalidValueError,
}
FAILURES = {"SETUP", "STATE", "USER_FUNCTION", "REJECTED_RECORD"}


def test_python_knows_exactly_the_java_kinds() -> None:
    kind = _jvm.jclass("io.swag.core.SwagException$Kind")
    assert {str(k.name()) for k in kind.values()} == set(KINDS)
    assert {str(k.name()) for k in kind.values() if k.failure()} == FAILURES


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_from_a_java_exception_and_from_its_text_alone(name: str) -> None:
    kind = _jvm.jclass("io.swag.core.SwagException$Kind").valueOf(name)
    cls = _jvm.jclass("io.swag.core.SwagFailure" if name in FAILURES else "io.swag.core.SwagException")
    text = "windows[0].size: -1; must be > 0"
    java = cls(kind, text)
    err = _jvm.translate(java)  # the local API: the exception object
    assert type(err) is KINDS[name] and str(err) == text
    assert err.java_exception is java
    # Spark Connect: only a class name and the text; a failure is an IllegalStateException there
    for java_class in ("io.swag.core.SwagException", "java.lang.IllegalStateException", "some.Other"):
        err = from_java(java_class, f"[SWAG_{name}] {text}")
        assert type(err) is KINDS[name] and str(err) == text


def test_exceptions_without_a_kind() -> None:
    # a function refusing a value: the plain IllegalArgumentException of the Java contract
    err = from_java("java.lang.IllegalArgumentException", "function 'sum' takes numbers, got String value \"x\"")
    assert type(err) is swag.InvalidValueError and str(err) == "function 'sum' takes numbers, got String value \"x\""
    assert type(from_java("java.util.NoSuchElementException", "oldestTime() of an empty window")) is swag.EmptyWindowError
    assert type(from_java("java.lang.UnsupportedOperationException", "no")) is swag.SwagError
    # anything else is a bug: one class, the same on every front-end, naming the Java class
    err = from_java("java.lang.NullPointerException", "boom")
    assert type(err) is swag.SwagInternalError and str(err) == "java.lang.NullPointerException: boom"
    assert str(from_java("java.lang.NullPointerException", None)) == "java.lang.NullPointerException"
    # a prefix of no known kind, or not at the start, is no kind
    err = from_java("java.lang.IllegalStateException", "[SWAG_NO_SUCH] x")
    assert type(err) is swag.SwagInternalError and str(err) == "java.lang.IllegalStateException: [SWAG_NO_SUCH] x"
    err = from_java("java.lang.IllegalStateException", "job failed: [SWAG_STATE] x")
    assert type(err) is swag.SwagInternalError


def test_a_wrapped_swag_exception_keeps_its_kind() -> None:
    chain = [("org.apache.flink.table.api.ValidationException", "SQL validation failed. boom"),
             ("java.lang.RuntimeException", "wrapped"),
             ("io.swag.core.SwagException", "[SWAG_INVALID_INPUT] column 'x' ...")]
    err = from_java_chain(chain)
    assert type(err) is swag.InvalidInputError and str(err) == "column 'x' ..."
    err = from_java_chain(chain[:2])  # no swag exception in it: the outermost
    assert type(err) is swag.SwagInternalError
    assert str(err) == "org.apache.flink.table.api.ValidationException: SQL validation failed. boom"
    # through JPype: a Java exception with a swag cause
    cause = _jvm.jclass("io.swag.core.SwagFailure")(_jvm.jclass("io.swag.core.SwagException$Kind").STATE, "restored")
    outer = _jvm.jclass("java.lang.RuntimeException")("job failed", cause)
    err = _jvm.translate(outer)
    assert type(err) is swag.IncompatibleStateError and str(err) == "restored"


def test_bad_query_on_the_local_api() -> None:
    q = swag.Query.from_json(BAD_QUERY)
    with pytest.raises(swag.SwagError) as e:
        q.validate()
    check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)
    with pytest.raises(swag.SwagError) as e:
        swag.run(q, [])
    check(e.value, BAD_QUERY_CLASS, BAD_QUERY_MESSAGE)


def test_bad_input_on_the_local_api() -> None:
    df = pd.DataFrame({"k": ["a"], "ts": [1], "v": [1.0]})
    assert list(df.columns) == COLUMNS
    with pytest.raises(swag.SwagError) as e:
        swag.run(swag.Query.from_json(BAD_INPUT), df)
    check(e.value, BAD_INPUT_CLASS, BAD_INPUT_MESSAGE)
    assert isinstance(e.value, swag.InvalidQueryError)  # an input error is a query error too


def test_aggregator_errors_carry_their_kind() -> None:
    with pytest.raises(swag.UnknownFunctionError) as e:
        swag.aggregator("daba_lite", "maximum")
    assert not isinstance(e.value, swag.InvalidQueryError) and not str(e.value).startswith("[SWAG_")
    with pytest.raises(swag.InvalidOptionError, match=r"^function 'max' has no option 'bits' \(it takes no options\)$"):
        swag.aggregator("daba_lite", "max", bits=64)
    w = swag.timed_aggregator("daba_lite", "geomean")
    w.insert(5, 2.0)
    with pytest.raises(swag.OutOfOrderError):
        w.insert(4, 2.0)
    with pytest.raises(swag.InvalidValueError) as e:
        w.insert(6, -1.0)  # refused for its value, not its type or time
    assert type(e.value) is swag.InvalidValueError

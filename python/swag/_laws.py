"""Checking a user-defined aggregate function's laws on sample data (Java's ``FunctionLaws``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import _jvm
from ._convert import to_java_options, to_java_value


def check_udaf(cls: str, samples: Iterable[Any], *, rounds: int = 100, seed: int = 1, **params: Any) -> list[str]:
    """The laws the class ``cls`` (constructed with ``params``) breaks on ``samples``, as readable
    lines; empty if none. Checked: identity, associativity under ``rounds`` random groupings,
    commutativity and invertibility where the class claims them, the byte form's round trip
    (docs/udaf.md). The class must be on swag's class path (:func:`swag.add_jars`)."""
    values = list(samples)
    options = to_java_options("udaf", {"class": cls, **params})
    try:
        fn = _jvm.jclass("io.swag.core.fn.UserFunctions").load(options, None)
    except _jvm.JException as e:
        raise _jvm.translate(e) from None
    jlist = _jvm.jclass("java.util.ArrayList")()
    for v in values:
        jlist.add(to_java_value(v, "udaf"))
    found = _jvm.jclass("io.swag.core.fn.FunctionLaws").check(fn, jlist, int(rounds), int(seed))
    return [str(line) for line in found]

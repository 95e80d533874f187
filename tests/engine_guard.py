"""The import guard of the engine test suites: a missing engine package fails the run when the
suite's ``SWAG_REQUIRE_*`` variable is 1 (``make test`` sets them), and skips the module otherwise."""

from __future__ import annotations

import importlib
import os

import pytest


def require_modules(env: str, install: str, *names: str) -> None:
    """Imports ``names``; one that is missing raises (``env`` = 1) or skips the calling module."""
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as e:
            if os.environ.get(env, "") == "1":
                raise ImportError(f"{env}=1 (make test) but {name} is missing from this Python: {install}") from e
            pytest.skip(f"{name} is not installed ({install})", allow_module_level=True)


def require_flink_jar() -> None:
    """The swag Flink jar must be built: a missing one raises (``SWAG_REQUIRE_FLINK`` = 1) or skips."""
    import swag
    import swag.flink

    try:
        swag.flink.jar_path()
    except swag.SwagSetupError as e:
        if os.environ.get("SWAG_REQUIRE_FLINK", "") == "1":
            raise
        pytest.skip(str(e))

"""Command line: ``swag algorithms | functions | version`` (also ``python -m swag``). The demo pipelines
are applications: ``python -m swag_apps demo``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ._version import __version__
from .errors import SwagError, SwagSetupError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="swag", description="Sliding-window aggregation on the JVM, from Python.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    sub.add_parser("algorithms", help="list the in-order algorithm names")
    sub.add_parser("functions", help="list the aggregate function names")
    sub.add_parser("version", help="print the versions of swag, its jar and the JVM")
    return p


def _version() -> int:
    from . import _jvm

    print(f"swag {__version__}")
    try:
        jars = _jvm.find_jars()
    except SwagSetupError as e:
        print(f"jar: not found ({e})")
        return 0
    print(f"jar: {', '.join(str(j) for j in jars)}")
    _jvm.ensure_started()
    print(f"java: {_jvm.java_version()}")
    return 0


def _run(command: str) -> int:
    if command == "algorithms":
        from .local import algorithms

        print("\n".join(algorithms()))
    elif command == "functions":
        from .local import functions

        print("\n".join(functions()))
    elif command == "version":
        return _version()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    return run_command(ns.command, lambda: _run(ns.command))


def run_command(command: str, run: Callable[[], int]) -> int:
    """``run()``'s exit code, with the command line's handling of errors: a swag or usage error is
    one line on stderr and exit code 1, a closed pipe (``| head``) exit code 0, Ctrl-C 130."""
    try:
        return run()
    except BrokenPipeError:  # e.g. `swag functions | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (SwagError, SwagSetupError, OSError, ValueError) as e:
        print(f"swag {command}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

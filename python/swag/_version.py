"""The package version: the installed distribution's, whose one source is ``<revision>`` in the
root pom.xml (setup.py), so the wheel and the jars carry the same version."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("swag-windows")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

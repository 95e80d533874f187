"""The wheel's version is the project's one version: ``<revision>`` in the root pom.xml, which the
jars carry too. Everything else about the package is in pyproject.toml."""

import re
from pathlib import Path

from setuptools import setup

_POM = (Path(__file__).resolve().parent / "pom.xml").read_text(encoding="utf-8")
setup(version=re.search(r"<revision>([^<]+)</revision>", _POM).group(1))

"""The package version (keep in step with ``version`` in pyproject.toml; a test checks)."""

__version__ = "0.1.0"

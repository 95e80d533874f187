"""Applications built on the swag library: the demo pipelines (PySpark, PyFlink, engine-free) and
their data readers. The library, :mod:`swag`, never imports this package."""

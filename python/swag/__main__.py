"""``python -m swag``: see :mod:`swag.cli`."""

import sys

from .cli import main

sys.exit(main())

"""``python -m codecup`` is the ``codecup`` command."""

import sys

from codecup.entry import run

sys.exit(run())

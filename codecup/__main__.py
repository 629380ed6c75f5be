"""``python -m codecup`` is the ``codecup`` command."""

import sys

from codecup.cli import main

sys.exit(main())

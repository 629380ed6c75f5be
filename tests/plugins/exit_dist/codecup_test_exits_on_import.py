"""A plugin that calls sys.exit() as it is imported (a script's habit)."""

import sys

sys.exit("plugin needs config")

"""The ``codecup`` console script: the command line, with nothing imported before Ctrl-C is handled.

The command's modules take a moment to import; a Ctrl-C then (or while the
plugins load) ends the command with one line and status 130, as it does later,
not with a traceback of the import.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT)."""


def run() -> int:
    """Run ``codecup`` with the process's arguments; its exit status."""
    try:
        from codecup.cli import main

        return main()
    except KeyboardInterrupt:
        print("codecup: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":  # pragma: no cover - the console script calls run()
    sys.exit(run())

"""Helpers shared by the framework's tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS = Path(__file__).parent
TINYGAME_DIST = TESTS / "plugins" / "tinygame_dist"
HOSTILE = TESTS / "players" / "hostile"


def processes_with(token: str) -> list[int]:
    """Pids of live (non-zombie) processes whose command line contains ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
        except OSError:
            continue
        if token.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def python_argv(script: Path, *args: str) -> tuple[str, ...]:
    """Run a test script with this interpreter."""
    return (sys.executable, str(script), *args)

"""Helpers shared by the framework's tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

import pytest

TESTS = Path(__file__).parent
TINYGAME_DIST = TESTS / "plugins" / "tinygame_dist"
HOSTILE = TESTS / "players" / "hostile"

IN_CI = os.environ.get("CI") == "true"
"""CI runs as root on a machine with cgroup2, namespaces and the system call filter: what a test
needs of the machine is there, and its absence is a failure, not a skip."""


def lacking(message: str) -> NoReturn:
    """Skip the test for want of what ``message`` says this machine lacks; under CI=true, fail."""
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


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


# A Twenty-one bot as a small script: adds 1-3 at random from its seed (its first argument,
# which may also carry a run's token), after a delay (its second argument, default 0.02 s)
# so that games last long enough for a kill to land in one.
TWENTYONE_SCRIPT_BOT = """\
import random, sys, time
rng = random.Random(sys.argv[1])
delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.02
seen_start = False
for line in sys.stdin:
    line = line.strip()
    if line == "Quit":
        break
    if line == "Start" or (line in ("1", "2", "3") and seen_start):
        time.sleep(delay)
        print(rng.randint(1, 3), flush=True)
    seen_start = True
"""

# A program that writes terminal escape sequences to stderr (retitle the terminal, colour,
# erase the line, reorder it by a bidi override), reads one line, then exits with code 3.
ESCAPING_CRASH = """\
import sys
sys.stderr.write("\\x1b]0;PWNED\\x07\\x1b[31mred\\x1b[0m \\x1b[2Kerased \\u202egnp.exe\\n")
sys.stderr.flush()
sys.stdin.readline()
sys.exit(3)
"""

# A program that writes 30 lines to stderr, reads one line, then exits with code 3.
NOISY_CRASH = """\
import sys
for i in range(30):
    print(f"trace line {i}", file=sys.stderr)
sys.stderr.flush()
sys.stdin.readline()
sys.exit(3)
"""


def disk_fills_writing(monkeypatch, name: str) -> None:
    """From now on, a ``Path.write_text`` of a file whose name holds ``name`` writes half its text,
    then fails as a full disk does (``ENOSPC``)."""
    import errno

    write_text = Path.write_text

    def full(path, text, *args, **kwargs):  # half of it fits
        if name in path.name:
            write_text(path, text[: len(text) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(path, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)


def fsyncs_noted(monkeypatch) -> list[str]:
    """From now on, the path of each file or folder ``os.fsync`` syncs, in order (it still syncs)."""
    synced: list[str] = []
    fsync = os.fsync

    def noting(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", noting)
    return synced


def pages_drawn(monkeypatch) -> list[str]:
    """From now on, the id of each game whose page the site draws (the live site's and a whole
    build's), in order (it still draws them)."""
    import codecup.site as site_module
    import codecup.site.live as live_module

    drawn: list[str] = []
    draw = live_module.write_game_page

    def noting(out, game, game_id, record):
        drawn.append(game_id)
        return draw(out, game, game_id, record)

    monkeypatch.setattr(live_module, "write_game_page", noting)
    monkeypatch.setattr(site_module, "write_game_page", noting)
    return drawn


def sleeps_noted(monkeypatch, module: object) -> list[float]:
    """From now on, the seconds of each ``time.sleep`` that ``module`` calls from this thread, in
    order (it still sleeps): the real waits a test means when it says "no wait", which a loaded
    machine does not add to as it does to a wall-clock bound. Only ``module``'s name ``time`` is
    replaced (by a stand-in for the time module): the time module itself, everyone's, is left alone,
    and other threads' sleeps are not noted."""
    import threading
    import time
    import types

    slept: list[float] = []
    here = threading.get_ident()

    class Noting(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            return getattr(time, name)

        @staticmethod
        def sleep(seconds: float) -> None:
            if threading.get_ident() == here:
                slept.append(seconds)
            time.sleep(seconds)

    monkeypatch.setattr(module, "time", Noting("time"))
    return slept


def verified(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: object) -> tuple[int, str]:
    """``codecup verify`` of the record ``doc`` written to ``tmp_path``: its exit status and what it
    printed."""
    import json

    from codecup.cli import main

    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    return main(["verify", str(path)]), capsys.readouterr().out

"""Checks of values a user gives, shared by the command line and the files it reads."""

from __future__ import annotations

import math
import os
import shlex
import shutil
from collections.abc import Iterable
from pathlib import Path, PurePath

from codecup.errors import ConfigError
from codecup.record import PlayerInfo

#: The longest clock accepted (seconds per player per game). CodeCup clocks are
#: seconds to minutes; a clock of days is a typo, and an infinite one would let a
#: hung bot hang the whole run.
MAX_CLOCK = 24 * 3600.0

#: Script files an interpreter is commonly given (``python3 bot.py``, ``java -jar bot.jar``):
#: when the first argument after the program names one, it must exist.
SCRIPT_SUFFIXES = frozenset({".py", ".jar", ".js", ".mjs", ".rb", ".pl", ".php", ".lua", ".sh", ".R"})


def check_clock(value: object, what: str = "clock") -> float:
    """A clock in seconds: a finite number above 0 and at most :data:`MAX_CLOCK`.

    Raises :class:`ConfigError` naming ``what`` otherwise (nan, inf, 0, negative, days).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{what} must be a number of seconds, not {value!r}")
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(f"{what} must be positive and finite, in seconds (got {value!r})")
    if seconds > MAX_CLOCK:
        raise ConfigError(f"{what} of {seconds:g} s is more than a day ({MAX_CLOCK:g} s): a typo?")
    return seconds


def command_problem(player: PlayerInfo) -> str | None:
    """Why ``player``'s program cannot be started, or None if it looks runnable.

    The same rules the referee applies when it starts the program (a name
    without ``/`` is looked up on PATH, a path is relative to the player's
    directory), plus one: when the first argument after the program names a
    script (``bot.py``, ``bot.jar``), that file must exist in the directory.
    """
    if player.bot is not None or not player.command:
        return None
    cwd = Path(player.directory) if player.directory else Path.cwd()
    if not cwd.is_dir():
        return f"directory {cwd} does not exist"
    program, *args = player.command
    if "/" in program:
        path = cwd / program
        if not path.is_file():
            return f"cannot run {program!r}: program not found (no file {path})"
        if not os.access(path, os.X_OK):
            return f"cannot run {program!r}: it is not executable (chmod +x {shlex.quote(str(path))})"
    elif shutil.which(program) is None:
        return f"cannot run {program!r}: program not found on PATH"
    script = next((a for a in args if not a.startswith("-")), None)
    if script is not None and PurePath(script).suffix in SCRIPT_SUFFIXES and not (cwd / script).is_file():
        return f"cannot run {program} {shlex.quote(script)}: no file {script!r} in {cwd}"
    return None


def check_commands(players: Iterable[PlayerInfo], where: str) -> None:
    """Raise :class:`ConfigError` naming the first player whose program cannot be started."""
    for p in players:
        problem = command_problem(p)
        if problem is not None:
            raise ConfigError(f"{where}player {p.name!r}: {problem}")

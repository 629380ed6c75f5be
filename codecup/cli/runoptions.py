"""Options on how games run, shared by ``codecup tournament``, ``sprt``, ``play`` and ``demo``:
their argparse types and options, and the values they come to (each bot's :class:`Limits`).

Not in :mod:`codecup.cli.common`, which every command imports (``codecup bot`` too, on its clock):
these need the sandbox's limits and the local pool's.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codecup.cli.common import text_arg
from codecup.clock import CLOCK_MODES, DEFAULT_CLOCK_MODE
from codecup.errors import ConfigError
from codecup.sandbox import Limits
from codecup.tournament import executor as ex
from codecup.tournament.players import OPTION_MAXIMUM, OPTION_MINIMUM


def at_least(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number of at least ``least`` (and at most ``most``: one bound
    per option, said the same way for every value past it)."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}: {text!r}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}: {text!r}")
        return value

    return whole_number


def bounded(option: str) -> Callable[[str], int]:
    """The argparse type of the whole-number ``option``, with its bounds in a tournament file."""
    return at_least(OPTION_MINIMUM.get(option, 1), OPTION_MAXIMUM.get(option))


positive_int = at_least(1)
"""An argparse type for counts."""


def add_clock_mode_option(parser: argparse.ArgumentParser) -> None:
    """``--clock-mode wall|cpu``: what a seat's clock charges."""
    parser.add_argument(
        "--clock-mode",
        choices=CLOCK_MODES,
        help=f"charge a bot's wall time or its CPU time (with a wall backstop); default {DEFAULT_CLOCK_MODE}",
    )


def check_clock_mode(value: Any, where: Path) -> str:
    """A clock mode from a file, checked (a bad one is a :class:`ConfigError`)."""
    if value not in CLOCK_MODES:
        raise ConfigError(f"{where}: clock-mode must be one of {', '.join(CLOCK_MODES)}, not {value!r}")
    return str(value)


@functools.cache  # once per run, though demo plays one tournament per game
def warn_oversubscription(jobs: int, clock_mode: str) -> None:
    """One line on stderr when ``jobs`` games would share cores (what that costs under ``clock_mode``)."""
    warning = ex.oversubscription(jobs, clock_mode)
    if warning:
        print(f"codecup: {warning}", file=sys.stderr, flush=True)


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """``--memory MIB`` and ``--processes N``: what each subprocess bot may use."""
    defaults = Limits()
    parser.add_argument(
        "--memory",
        type=bounded("memory"),
        metavar="MIB",
        help=f"memory of each bot, its whole process tree, in MiB (default {defaults.memory >> 20}; "
        "CodeCup's jury machines gave 64)",
    )
    parser.add_argument(
        "--processes",
        type=bounded("processes"),
        metavar="N",
        help=f"processes and threads of each bot (default {defaults.processes})",
    )


def limits_of(memory: int | None, processes: int | None) -> Limits:
    """Each bot's limits: ``memory`` in MiB and ``processes`` where given (``--memory``,
    ``--processes``, a file's ``memory:``, ``processes:``), else the defaults."""
    defaults = Limits()
    return Limits(
        memory=defaults.memory if memory is None else memory << 20,
        processes=defaults.processes if processes is None else processes,
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options on how games run (``codecup tournament``'s and ``codecup sprt``'s)."""
    add_clock_mode_option(parser)
    add_limit_options(parser)
    parser.add_argument(
        "--jobs",
        type=bounded("jobs"),
        help=f"games at once in the local pool (default: cores, {ex.default_jobs()})",
    )
    parser.add_argument(
        "--executor",
        type=text_arg,
        help="local (default) or dask://HOST:PORT (an existing Dask cluster; tcp:// and tls:// also)",
    )
    parser.add_argument("--quiet", action="store_true", default=None, help="no progress output")

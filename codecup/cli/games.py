"""``codecup games``: list the installed games (and any installed plugin that is broken, and any
option or command of a plugin that is skipped).

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse

from codecup.cli.common import Subparsers
from codecup.extensions import skipped_parts
from codecup.plugins import load_games
from codecup.terminal import printable

DESCRIPTION = """\
``codecup games``: list the installed games (and any installed plugin that is broken, and any
option or command of a plugin that is skipped)."""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    return subparsers.add_parser("games", help="list the installed games", description=DESCRIPTION)


def run(args: argparse.Namespace) -> int:
    """Print each game's name, title, variants with their clocks, seats and bots; then broken plugins."""
    registry = load_games()
    for name in registry.names():
        info = registry.get(name).info
        print(f"{info.name}  {info.title}")
        for i, v in enumerate(info.variants):
            default = " (default)" if i == 0 else ""
            print(f"    variant {v.name}{default}: clock {v.clock:g}s - {v.description}")
        print(f"    seats: {', '.join(info.seats)}")
        print(f"    bots: {', '.join(info.bots)}")
    if not registry.names():
        print("no games installed")
    for broken in registry.broken:
        print(f"{printable(broken.name)}  BROKEN (skipped): {printable(broken.reason)}")
    from codecup.cli import build_parser  # every command's parser: the plugins' options and commands

    build_parser()
    for plugin, what in skipped_parts():
        print(f"{printable(plugin)}  {printable(what)} (skipped)")  # what it raised: its text
    return 0

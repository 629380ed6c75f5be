"""The hooks of the ``codecup`` plugin system (each one is described in ``docs/hooks.md``).

Games register themselves, and what they add to the command line (options of
the framework's commands, commands of their own); observers hear of each
match's start, moves and end (for progress bars, logs and live views).
Built-in games use exactly these hooks through entry points, like any
third-party game. A register hook is given a ``register`` callback rather
than returning values; every plugin's hook is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from codecup.extensions import Command, GameOption
    from codecup.game import Game
    from codecup.record import MatchInfo, Record

hookspec = pluggy.HookspecMarker("codecup")
hookimpl = pluggy.HookimplMarker("codecup")


@hookspec
def codecup_register_games(register: Callable[[Game], None]) -> None:
    """Register the games this plugin provides.

    :param register: call it once per game with a :class:`codecup.game.Game` instance.
    """


@hookspec
def codecup_register_options(register: Callable[[GameOption], None]) -> None:
    """Register the options this plugin adds to the framework's commands (and to tournament files).

    Called once per command line, before it is parsed. An option named like
    one of the command's own, or like another plugin's, is skipped with a warning.

    :param register: call it once per option with a :class:`codecup.extensions.GameOption`.
    """


@hookspec
def codecup_register_commands(register: Callable[[Command], None]) -> None:
    """Register the subcommands this plugin adds to ``codecup``.

    Called once per command line, before it is parsed. A command named like
    one of codecup's own, or like another plugin's, is skipped with a warning.

    :param register: call it once per command with a :class:`codecup.extensions.Command`.
    """


@hookspec
def codecup_match_start(match: MatchInfo) -> None:
    """A match is about to start.

    :param match: the game, variant, seed, setup and players of the match.
    """


@hookspec
def codecup_move(match: MatchInfo, seat: int, move: str, elapsed: float, stand_in: bool) -> None:
    """A seat made a move (as its game's dialogue announced it).

    :param match: the match the move belongs to.
    :param seat: the seat that moved (0 is the first seat).
    :param move: the move in the game's own notation.
    :param elapsed: seconds since the match started.
    :param stand_in: True when the seat's program had faulted, so the move is its stand-in's
        (Spaghetti's random take-over player). An implementation may leave this argument out.
    """


@hookspec
def codecup_match_end(record: Record) -> None:
    """A match has ended and its record is complete.

    :param record: the full record of the match.
    """

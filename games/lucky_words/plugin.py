"""Registers Lucky Words with codecup: the game, its ``--words`` option and its ``score`` command."""

from __future__ import annotations

from collections.abc import Callable

from codecup.extensions import Command, GameOption
from codecup.game import Game
from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register: Callable[[Game], None]) -> None:
    """Register the game."""
    from codecup_games.lucky_words.game import LuckyWords  # imported when asked: `codecup bot` starts fast

    register(LuckyWords())


@hookimpl
def codecup_register_options(register: Callable[[GameOption], None]) -> None:
    """``--words PATH``: the word list."""
    from codecup_games.lucky_words.cli import WORDS_OPTION

    register(WORDS_OPTION)


@hookimpl
def codecup_register_commands(register: Callable[[Command], None]) -> None:
    """``codecup score``: score a board."""
    from codecup_games.lucky_words.cli import SCORE_COMMAND

    register(SCORE_COMMAND)

"""Registers Lucky Words with codecup."""

from codecup.hookspecs import hookimpl
from codecup_games.lucky_words.game import LuckyWords


@hookimpl
def codecup_register_games(register):
    """Register the game."""
    register(LuckyWords())

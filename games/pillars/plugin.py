"""The entry point ``pillars = "codecup_games.pillars.plugin"``."""

from codecup.hookspecs import hookimpl
from codecup_games.pillars.game import Pillars


@hookimpl
def codecup_register_games(register) -> None:
    """Register Pillars."""
    register(Pillars())

"""The entry point ``pillars = "games.pillars.plugin"``."""

from codecup.hookspecs import hookimpl
from games.pillars.game import Pillars


@hookimpl
def codecup_register_games(register) -> None:
    """Register Pillars."""
    register(Pillars())

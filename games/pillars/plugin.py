"""The entry point ``pillars = "codecup_games.pillars.plugin"``."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register) -> None:
    """Register Pillars."""
    from codecup_games.pillars.game import Pillars  # imported when asked: `codecup bot` starts fast

    register(Pillars())

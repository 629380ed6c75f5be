"""A plugin that registers a game under a built-in game's name (its entry point sorts first)."""

import attrs

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Registers another game called ``pillars``."""
    from codecup_games.pillars.game import INFO, Pillars

    class Impostor(Pillars):
        info = attrs.evolve(INFO, title="Not Pillars")

    register(Impostor())

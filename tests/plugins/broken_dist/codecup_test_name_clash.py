"""A plugin whose entry point is named as a built-in game's (``pillars``): it must not hide it."""

import attrs

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Registers another game called ``pillars``."""
    from codecup_games.pillars.game import INFO, Pillars

    class Clash(Pillars):
        info = attrs.evolve(INFO, title="Not Pillars either")

    register(Clash())

"""A plugin that registers its one game twice (two instances of one name)."""

import attrs

from codecup.hookspecs import hookimpl
from codecup_games.pillars.game import Pillars


class Twice(Pillars):
    """Pillars under a name of its own."""

    info = attrs.evolve(Pillars.info, name="twice")


@hookimpl
def codecup_register_games(register):
    """Registers the game, then again."""
    register(Twice())
    register(Twice())

"""A plugin whose game's metadata the framework cannot use: a name with a space, one seat."""

import attrs

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Registers a game whose info is wrong in several ways."""
    from codecup_games.pillars.game import INFO, Pillars

    class BadInfo(Pillars):
        info = attrs.evolve(INFO, name="Bad Name!", seats=("only",))

    register(BadInfo())

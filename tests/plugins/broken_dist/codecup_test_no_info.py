"""A plugin whose game has no metadata (``info = None``): a newcomer forgot ``info = INFO``."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Registers a game without its info."""
    from codecup_games.pillars.game import Pillars

    class NoInfo(Pillars):
        info = None

    register(NoInfo())

"""A plugin whose hook registers something that is not a game."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Registers a string."""
    register("not a game")

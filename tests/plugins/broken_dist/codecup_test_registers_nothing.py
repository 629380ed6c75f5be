"""A plugin whose games hook returns its game instead of calling register."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Returns what it should register."""
    return "a game"

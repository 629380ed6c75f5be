"""The entry point that registers Spaghetti with codecup."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    """Register Spaghetti."""
    from codecup_games.spaghetti.game import Spaghetti  # imported when asked: `codecup bot` starts fast

    register(Spaghetti())

"""The entry point that registers Spaghetti with codecup."""

from codecup.hookspecs import hookimpl
from codecup_games.spaghetti.game import Spaghetti


@hookimpl
def codecup_register_games(register):
    """Register Spaghetti."""
    register(Spaghetti())

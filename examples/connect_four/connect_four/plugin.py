"""The entry point ``connect_four = "connect_four.plugin"`` in the group ``codecup``."""

from collections.abc import Callable

from codecup.game import Game
from codecup.hookspecs import hookimpl

from connect_four.game import ConnectFour


@hookimpl
def codecup_register_games(register: Callable[[Game], None]) -> None:
    """Register Connect Four."""
    register(ConnectFour())

"""Entry point ``turn_right = "codecup_games.turn_right.plugin"``: registers Turn Right."""

from codecup.hookspecs import hookimpl
from codecup_games.turn_right.game import TurnRight


@hookimpl
def codecup_register_games(register) -> None:
    """Register Turn Right."""
    register(TurnRight())

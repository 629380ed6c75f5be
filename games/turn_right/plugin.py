"""Entry point ``turn_right = "codecup_games.turn_right.plugin"``: registers Turn Right."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register) -> None:
    """Register Turn Right."""
    from codecup_games.turn_right.game import TurnRight  # imported when asked: `codecup bot` starts fast

    register(TurnRight())

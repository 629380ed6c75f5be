"""A plugin whose hook asks for an argument the hook does not have."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register, board):
    """``board`` is no argument of this hook: pluggy refuses the plugin."""

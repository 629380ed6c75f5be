"""A plugin module without any hook: its author forgot @hookimpl."""


def codecup_register_games(register):
    """Not marked as a hook: never called."""
    register("a game")

"""A plugin with a misspelt hook."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_gamez(register):
    """Misspelt: pluggy's check_pending finds no such hook."""

"""A plugin with a good game hook and an options hook that raises: it is skipped whole."""

import attrs
import tinygame

from codecup.hookspecs import hookimpl


class TwentyTwo(tinygame.TwentyOne):
    """Twenty-one under another name."""

    info = attrs.evolve(tinygame.TwentyOne.info, name="twentytwo", title="Twenty-two (test plugin)")


@hookimpl
def codecup_register_games(register):
    """A game that would work."""
    register(TwentyTwo())


@hookimpl
def codecup_register_options(register):
    """A bug."""
    raise RuntimeError("no options today")

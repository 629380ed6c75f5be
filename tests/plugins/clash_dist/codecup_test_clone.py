"""Another author's Twenty-one, registered under the name of the tinygame plugin's game."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    import attrs
    import tinygame

    class Clone(tinygame.TwentyOne):
        info = attrs.evolve(tinygame.TwentyOne.info, title="Twenty-one (a clone)")

    register(Clone())

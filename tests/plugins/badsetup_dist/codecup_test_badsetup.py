"""Twenty-one under another name, whose random_setup raises: no game of it can start."""

from codecup.hookspecs import hookimpl


@hookimpl
def codecup_register_games(register):
    import attrs
    import tinygame

    class BadSetup(tinygame.TwentyOne):
        info = attrs.evolve(tinygame.TwentyOne.info, name="badsetup21", title="Twenty-one, no setup")

        def random_setup(self, rng, variant):
            raise RuntimeError("random_setup bug")

    register(BadSetup())

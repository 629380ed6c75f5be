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


@hookimpl(specname="codecup_register_games")
def register_a_game_whose_referee_fails(register):
    import attrs
    import tinygame

    class BadReferee(tinygame.TwentyOne):
        info = attrs.evolve(tinygame.TwentyOne.info, name="badreferee21", title="Twenty-one, no referee")

        def referee(self, setup, variant, seed):
            raise RuntimeError("referee bug")

    register(BadReferee())

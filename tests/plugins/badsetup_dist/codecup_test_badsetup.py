"""Twenty-one under other names, each a plugin's bug: random_setup or referee raises, a bot unbuilt."""

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


@hookimpl(specname="codecup_register_games")
def register_a_game_that_lists_a_bot_it_never_builds(register):
    import attrs
    import tinygame

    from codecup.game import Game

    class GhostBot(tinygame.TwentyOne):
        info = attrs.evolve(
            tinygame.TwentyOne.info,
            name="ghostbot21",
            title="Twenty-one, a bot unbuilt",
            bots=("random", "ghost"),
        )

        def new_bot(self, bot, variant, seed, clock):
            if bot == "ghost":  # forgotten: the default's refusal, an UnknownBotError
                return Game.new_bot(self, bot, variant, seed, clock)
            return super().new_bot(bot, variant, seed, clock)

    register(GhostBot())

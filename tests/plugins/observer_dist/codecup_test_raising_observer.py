"""An observer plugin that notes its calls in $CODECUP_TEST_OBSERVED and raises at the third move.

It also registers a game of its own, ``observed21`` (Twenty-one under another name): a game plugin
observing its own matches, whose games must go on being played after its hook raised."""

import os

from codecup.hookspecs import hookimpl

moves = 0


def note(text):
    with open(os.environ["CODECUP_TEST_OBSERVED"], "a") as f:
        f.write(text + "\n")


@hookimpl
def codecup_register_games(register):
    import attrs
    import tinygame

    class Observed(tinygame.TwentyOne):
        info = attrs.evolve(tinygame.TwentyOne.info, name="observed21", title="Twenty-one, observed")

    register(Observed())


@hookimpl
def codecup_match_start(match):
    note("start")


@hookimpl
def codecup_move(match, seat, move, elapsed):
    global moves
    moves += 1
    note(f"move {moves}")
    if moves == 3:
        raise RuntimeError("observer boom")


@hookimpl
def codecup_match_end(record):
    note("end")

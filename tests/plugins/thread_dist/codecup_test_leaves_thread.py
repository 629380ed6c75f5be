"""A plugin that starts a thread (not a daemon) as it is imported, which never ends: a cache warmer.

Every ``codecup`` command waited for it at exit, forever (a red team's). Its game is twentyone
(tests/plugins/tinygame_dist) under another name, so that a tournament's workers import it too.
"""

import threading

from tinygame import TwentyOne

from codecup.game import GameInfo
from codecup.hookspecs import hookimpl


def _warm() -> None:
    threading.Event().wait()


threading.Thread(target=_warm, name="test-warmer").start()


class Threaded(TwentyOne):
    info = GameInfo(
        name="threaded",
        title="Twenty-one, with a thread",
        seats=TwentyOne.info.seats,
        variants=TwentyOne.info.variants,
        bots=TwentyOne.info.bots,
    )


@hookimpl
def codecup_register_games(register):
    register(Threaded())

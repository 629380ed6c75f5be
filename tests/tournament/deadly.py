"""A test plugin whose in-process bot kills its referee process, and a pool ``play`` that knows it.

Also :class:`Stuck`, whose ``points`` never return (game code blocked in a call that never
returns), and :func:`play_stuck`, which plays it through the pool's own ``play``, whose bound on
a game's wall time is cut down to ``1.5 * clock`` seconds.

Twenty-one with one more bot, ``deadly``: on its third move it SIGKILLs the
process it runs in (the referee, in a pool worker), as an out-of-memory kill
would. ``flaky`` does the same only once in a tournament (a marker file in the
folder given to :func:`play` remembers), like a referee killed by something
that has nothing to do with the game. Each kill is noted
in that folder's ``kills``.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from pathlib import Path

from codecup.bots import Bot, RandomBot
from codecup.hookspecs import hookimpl
from codecup.record import MatchInfo, Record

sys.path.insert(0, str(Path(__file__).parents[1] / "plugins" / "tinygame_dist"))

import tinygame


def _first(marker: Path) -> bool:
    """Create ``marker``; True only for the one process that created it (two games in flight
    at once may both ask: checking for the file and then making it would let both kill)."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


class DeadlyBot(RandomBot):
    """Plays like ``random``, but kills its own process on its first move."""

    def __init__(self, bot: str, seed: int, tag: str) -> None:
        super().__init__(RandomBot.seeded(seed).rng)
        self.kind = bot
        self.tag = tag
        self.moves = 0

    def choose(self, state) -> str:
        self.moves += 1
        if self.moves == 1:
            folder = Path(_folder)
            marker = folder / "flaky-has-killed"
            if self.kind == "deadly" or _first(marker):
                with (folder / "kills").open("a") as f:
                    f.write(self.tag + "\n")
                os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(state)


class Deadly(tinygame.TwentyOne):
    """Twenty-one with the referee-killing bots."""

    info = tinygame.TwentyOne.info.__class__(
        name="twentyone",
        title=tinygame.TwentyOne.info.title,
        seats=tinygame.TwentyOne.info.seats,
        variants=tinygame.TwentyOne.info.variants,
        bots=("random", "perfect", "deadly", "flaky"),
    )

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot:
        if bot in ("deadly", "flaky"):
            return DeadlyBot(bot, seed, f"{bot}-{seed}")
        return super().new_bot(bot, variant, seed, clock)


@hookimpl
def codecup_register_games(register) -> None:
    """Register the deadly Twenty-one."""
    register(Deadly())


_pm = None
_folder = ""


def play(folder: str, match: MatchInfo) -> Record:
    """The pool's ``play`` (bind ``folder`` with ``functools.partial``), with this plugin's game."""
    from codecup.plugins import make_plugin_manager
    from codecup.runner import run_match

    global _pm, _folder
    _folder = folder
    if _pm is None:
        _pm = make_plugin_manager(load_entry_points=False, plugins=(sys.modules[__name__],))
    return run_match(match, pm=_pm)


class Stuck(Deadly):
    """Twenty-one whose ``points`` sleep for ever: ``how`` is ``asleep`` (as ``time.sleep``),
    ``catching`` (and catching what would stop them) or ``holding`` (in compiled code that holds
    the interpreter's lock: no other thread of the process runs); ``looping`` runs Python for ever,
    catching what would stop it unless codecup's own stop."""

    def __init__(self, how: str) -> None:
        self.how = how

    def points(self, outcome, variant):
        if self.how == "looping":
            from codecup.errors import Stopping

            while True:
                try:
                    sum(range(1000))
                except Stopping:
                    raise
                except BaseException:  # as a plugin's code may: only codecup's own stop ends it
                    pass
        if self.how == "holding":
            ctypes.PyDLL(None).sleep(3600)
        while True:
            try:
                time.sleep(3600)
            except BaseException:
                if self.how != "catching":
                    raise


def play_stuck(how: str, match: MatchInfo) -> Record:
    """The pool's own ``play`` (:func:`codecup.tournament.worker.play`) with :class:`Stuck`
    (bind ``how`` with ``functools.partial``), its bound on a game's wall time cut down."""
    from codecup.plugins import make_plugin_manager
    from codecup.tournament import hang, worker

    class Plugin:
        @hookimpl
        def codecup_register_games(self, register) -> None:
            register(Stuck(how))

    hang.BASE, hang.PER_CLOCK = 0.0, 1.5
    if worker._worker_pm is None:
        worker._worker_pm = make_plugin_manager(load_entry_points=False, plugins=(Plugin(),))
    return worker.play(match)


class Blocking(tinygame.TwentyOne):
    """Twenty-one, named ``blocking``, whose ``points`` block in a call that never returns, having
    made the file ``marker``: ``asleep`` (``time.sleep(3600)``), ``reading`` (a blocking
    ``os.read`` of a pipe nobody writes), or ``holding`` (compiled code that holds the interpreter's
    lock), ``waiting`` (``subprocess.run`` of a child that sleeps, no timeout); ``dying`` SIGKILLs
    its own process instead."""

    info = tinygame.TwentyOne.info.__class__(
        name="blocking",
        title="Blocking Twenty-one",
        seats=tinygame.TwentyOne.info.seats,
        variants=tinygame.TwentyOne.info.variants,
        bots=tinygame.TwentyOne.info.bots,
    )

    def __init__(self, how: str, marker: str) -> None:
        self.how = how
        self.marker = marker

    def points(self, outcome, variant):
        Path(self.marker).touch()
        if self.how == "asleep":
            time.sleep(3600)
        elif self.how == "reading":
            r, w = os.pipe()
            os.read(r, 1)
            os.close(w)
        elif self.how == "holding":
            ctypes.PyDLL(None).sleep(3600)
        elif self.how == "waiting":  # on a child of its own that never ends, named by the marker
            import subprocess

            subprocess.run([sys.executable, "-c", "import time; time.sleep(3600)", self.marker], check=False)
        elif self.how == "dying":
            os.kill(os.getpid(), signal.SIGKILL)
        return super().points(outcome, variant)

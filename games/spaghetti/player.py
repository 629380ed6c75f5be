"""A Spaghetti bot as the framework's :class:`~codecup.bots.Bot`, keeping its clock.

The player session itself is the framework's (:class:`~codecup.session.RulesPlayer`):
two jury moves, ``Start`` or Blue's first move, moves until ``Quit``.
"""

from __future__ import annotations

import time

import attrs

from codecup.budget import in_process, wall_charged
from codecup.session import RulesPlayer, Wire
from codecup_games.spaghetti.bots.base import Bot
from codecup_games.spaghetti.notation import format_move
from codecup_games.spaghetti.rules import SpaghettiState

STARTUP_CAP = 1.0  # seconds of start-up counted at most

WIRE = Wire(setup_lines=2)
"""Two jury moves, ``Start`` to Blue, moves passed on, ``Quit`` (spec rules 5-8)."""


@attrs.define(eq=False)
class ClockedBot:
    """Shows a Spaghetti bot each opponent move and the time left on its ``clock``.

    The time used is the processor time the bot spends choosing (its thread's,
    as the default cpu clock charges it), plus, as a program, the CPU time the
    process had used at its first move, the interpreter's start-up
    (:func:`startup_used`). Where the clock may charge wall time
    (:func:`~codecup.budget.wall_charged`), the time used is the wall time when that
    is more, and the search's safety net runs on wall time: the net fires only when a
    move overruns its share several times (a machine loaded beyond what the plan
    allows for), so the game stays the same under a seed until the load would run it
    out of time. Under the cpu clock wall time is never read: a load does not change
    the game.
    """

    bot: Bot
    clock: float
    used: float | None = None  # known at its first move: see :func:`startup_used`
    wall: float = 0.0

    def choose(self, state: SpaghettiState) -> str:
        """The bot's move in ``state``, after it has seen the opponent's last move."""
        if self.used is None:
            self.used = startup_used()
        started, wall = time.thread_time(), time.perf_counter()
        if state.last is not None and state.before is not None:  # the opponent's move
            self.bot.observe(state.before, state.last)
        used = max(self.used, self.wall) if wall_charged() else self.used
        move = self.bot.choose(state.pos, max(0.0, self.clock - used))
        self.used += time.thread_time() - started
        self.wall += time.perf_counter() - wall
        return format_move(move)


def startup_used() -> float:
    """The clock a bot has used at its first move: as a program, the process's processor time, its
    interpreter's start-up (at most ``STARTUP_CAP``); in our referee's process, none. There the
    process's time was the referee's own, its imports and earlier games: a tournament worker's
    history, so a seed gave another game there than in ``codecup play`` (a red team's)."""
    return 0.0 if in_process() else min(time.process_time(), STARTUP_CAP)


def session(bot: Bot, clock: float) -> RulesPlayer:
    """The player session of ``bot`` on a game of ``clock`` seconds."""
    return RulesPlayer(WIRE, SpaghettiState.start, ClockedBot(bot, clock))

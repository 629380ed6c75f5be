"""A Spaghetti bot as the framework's :class:`~codecup.bots.Bot`, keeping its clock.

The player session itself is the framework's (:class:`~codecup.session.RulesPlayer`):
two jury moves, ``Start`` or Blue's first move, moves until ``Quit``.
"""

from __future__ import annotations

import time

import attrs

from codecup.budget import wall_charged
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
    as the default cpu clock charges it), plus the CPU time the process had
    used when the bot was made, the interpreter's start-up, which a cpu clock
    charges too (at most ``STARTUP_CAP``: in a long in-process run that figure
    is other games' work). Where the clock may charge wall time
    (:func:`~codecup.budget.wall_charged`), the time used is the wall time when that
    is more, and the search's safety net runs on wall time: the net fires only when a
    move overruns its share several times (a machine loaded beyond what the plan
    allows for), so the game stays the same under a seed until the load would run it
    out of time. Under the cpu clock wall time is never read: a load does not change
    the game.
    """

    bot: Bot
    clock: float
    used: float = attrs.field(init=False, factory=lambda: min(time.process_time(), STARTUP_CAP))
    wall: float = 0.0

    def choose(self, state: SpaghettiState) -> str:
        """The bot's move in ``state``, after it has seen the opponent's last move."""
        started, wall = time.thread_time(), time.perf_counter()
        if state.last is not None and state.before is not None:  # the opponent's move
            self.bot.observe(state.before, state.last)
        used = max(self.used, self.wall) if wall_charged() else self.used
        move = self.bot.choose(state.pos, max(0.0, self.clock - used))
        self.used += time.thread_time() - started
        self.wall += time.perf_counter() - wall
        return format_move(move)


def session(bot: Bot, clock: float) -> RulesPlayer:
    """The player session of ``bot`` on a game of ``clock`` seconds."""
    return RulesPlayer(WIRE, SpaghettiState.start, ClockedBot(bot, clock))

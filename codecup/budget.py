"""How a built-in bot spends its clock: work scaled from the clock, time only as a safety net.

A built-in bot's search budgets are counted in work (solver nodes, positions),
never in seconds, so under a seed it plays the same game on a fast machine, a
slow one and a loaded one. The amount of work follows the clock the seat is
given (``Game.new_player``'s ``clock``): :func:`clock_scale` turns it into a
factor of the game's standard clock, clamped so a tiny clock still plays and
a huge one does not exhaust memory.

Time is only a safety net (:class:`Thinking`): once the bot's own thinking
(processor time; wall time only far beyond) reaches a share of its clock (far
more than its work needs at the standard clock), it plays cheap moves for the
rest of the game rather than lose on time.
"""

from __future__ import annotations

import contextvars
import os
import time

import attrs

HURRY_SHARE = 0.75
"""The share of its clock a bot may think (processor time) before the safety net makes it play
cheap moves."""

WALL_SHARE = 0.9
"""The share of its clock in wall time past which it hurries all the same: under a wall clock a
machine loaded beyond anything the work plan allows for would run it out of time."""

CLOCK_MODE_VARIABLE = "CODECUP_CLOCK_MODE"
"""What our referee's clock charges (``cpu`` or ``wall``), in a program's environment."""

IN_PROCESS_CLOCK_MODE: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "codecup_clock_mode", default=None
)
"""The same for the in-process bots of the match the referee plays in this context."""


def wall_charged() -> bool:
    """Whether the bot's clock may charge wall time, so that its safety net must watch it too: not
    where our referee says it charges processor time (then a loaded machine, which stretches the
    wall time, must not change the game under a seed); under any other referee, yes."""
    mode = IN_PROCESS_CLOCK_MODE.get() or os.environ.get(CLOCK_MODE_VARIABLE)
    return mode != "cpu"


def in_process() -> bool:
    """Whether this bot plays in our referee's own process (a built-in ``bot:NAME``), whose clock
    charges only its own thread's thinking, not the process's start-up or other games' work. Known
    once the match has begun (from the bot's first move on), not yet as its players are made."""
    return IN_PROCESS_CLOCK_MODE.get() is not None


def clock_scale(clock: float, standard: float, low: float, high: float) -> float:
    """``clock / standard``, the clock first clamped to ``[low, high]`` seconds."""
    return min(max(clock, low), high) / standard


@attrs.define(eq=False)
class Thinking:
    """A bot's thinking time over one game, wall and CPU, against its clock.

    Wrap each move's thinking in ``with thinking:``. CPU time (the thread's:
    an in-process bot's is charged so, and no other thread of the process, a
    referee's or a site's, counts) is what a referee charges in CPU mode, the
    default, and does not grow when the machine is loaded: reaching ``share``
    of the clock sets :attr:`hurried`.
    Wall time (what a referee charges in wall mode) sets it only past
    ``wall_share``, far beyond what the work plans need even on a loaded
    machine, and never where the referee charges CPU time (:func:`wall_charged`),
    so that a load does not change the game under a seed.
    """

    clock: float
    share: float = HURRY_SHARE
    wall_share: float = WALL_SHARE
    wall: float = 0.0
    cpu: float = 0.0
    _started: tuple[float, float] = (0.0, 0.0)

    def __enter__(self) -> Thinking:
        self._started = (time.perf_counter(), time.thread_time())
        return self

    def __exit__(self, *exc: object) -> None:
        wall, cpu = self._started
        self.wall += time.perf_counter() - wall
        self.cpu += time.thread_time() - cpu

    @property
    def hurried(self) -> bool:
        """True once the thinking so far reached the safety net's share of the clock (CPU), or
        its wall share (wall)."""
        late = self.wall >= self.wall_share * self.clock and wall_charged()
        return self.cpu >= self.share * self.clock or late

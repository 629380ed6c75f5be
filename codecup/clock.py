"""One chess clock per seat: charged only while the referee waits for that seat.

The referee reads wall time from one source, the running event loop's clock
(:func:`loop_time`): the waits on a program (its deadlines are timers of the
loop) and the charges to its clock agree, and a test replaces that clock with
a fake one that jumps to the next deadline instead of sleeping (trio's
``MockClock``), so time-outs are tested without waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import attrs

Timer = Callable[[], float]
"""A clock: seconds, monotonic, from an arbitrary origin."""


def shown_clock(seconds: float) -> str:
    """A clock's seconds as a refusal names them: short (``2``, ``0.5``), yet exact, so that two
    clocks that differ are never said alike (``--clock 2.0000001`` over a 2 s log was said "a 2 s
    cpu clock, this one ... a 2 s cpu clock": a red team's)."""
    short = f"{seconds:g}"
    return short if float(short) == seconds else repr(seconds)


def loop_time() -> float:
    """The running event loop's clock (:meth:`asyncio.AbstractEventLoop.time`): the referee's wall time."""
    return asyncio.get_running_loop().time()


@attrs.define(eq=False)
class SeatClock:
    """A seat's time budget for one game, in seconds.

    ``startup`` is an allowance for the first answer only (a program's start-up
    happens during its first wait); it is not charged.
    """

    limit: float
    startup: float = 0.0
    used: float = 0.0
    answers: int = 0
    idle: float = 0.0
    """Under the cpu clock, the wall time waited so far in which the program neither ran nor
    waited for a processor (it slept, or waited for input): not charged, but bounded over the
    game by :func:`wall_backstop` (counted where the kernel says how long it waited for a
    processor: elsewhere a loaded machine's waits could not be told from idling)."""

    @property
    def remaining(self) -> float:
        """Seconds left on the clock (never negative)."""
        return max(0.0, self.limit - self.used)

    def allowance(self) -> float:
        """The longest the referee may wait for the next answer."""
        return self.remaining + (self.startup if self.answers == 0 else 0.0)

    def explain(self) -> str:
        """What the next wait's allowance is made of, for a time-out's message: what the seat had
        as the wait began ("5.000s left on its clock", said of a time-out, read as left after it,
        a contradiction beside the time it took: a reviewer's)."""
        left = f"it had {self.remaining:.3f}s on its clock"
        if self.answers == 0 and self.startup:
            return f"{left} + {self.startup:.3f}s start-up allowance for the first answer"
        return left

    def charge(self, elapsed: float) -> bool:
        """Charge one wait of ``elapsed`` seconds; False if the clock ran out during it."""
        free = self.startup if self.answers == 0 else 0.0
        self.answers += 1
        self.used += max(0.0, elapsed - free)
        return self.used <= self.limit

    @property
    def flagged(self) -> bool:
        """True once the clock has run out."""
        return self.used > self.limit


WALL = "wall"  # the real time the referee waits, as the original contests charged
CPU = "cpu"  # the CPU time of the program's whole tree while resumed, with a wall-clock backstop
CLOCK_MODES = (WALL, CPU)
DEFAULT_CLOCK_MODE = CPU  # fair on a loaded machine; falls back to wall where CPU time cannot be read


BACKSTOP_FACTOR = 2.0


STARVED_LIMIT = 8.0
"""How far a wait stretches, at most, for a tree that computes or waits for a processor."""


PASSING = 0.05
"""Seconds of each wait not counted as the program's idling: passing the lines (the referee's own
latency, longer on a loaded machine; the time it waited for a processor before it read an answer is
not counted either: :mod:`codecup.ownwait`)."""

IDLE_FLOOR = 0.05
"""The shortest wall-clock wait, once a program has been idle all the game allows."""


def wall_backstop(cpu_allowance: float, factor: float = BACKSTOP_FACTOR, idle: float = 0.0) -> float:
    """Under the ``cpu`` clock, the longest a program may be idle (neither running nor waiting for
    a processor: asleep, blocked, waiting for input) while the referee waits for an answer worth
    ``cpu_allowance`` of CPU time.

    A program that sleeps or blocks uses no CPU; this bound makes it lose on
    time all the same. Twice the CPU allowance, plus half a second, less the
    time it has already been ``idle`` in this game (:attr:`SeatClock.idle`): a
    program that sleeps a little before every answer cannot make a game last
    forever uncharged, it may idle about twice its clock in all (and then
    :data:`IDLE_FLOOR` a wait). The time it computes, and the time its tree
    waited for a processor (where the kernel says: a loaded machine), stretch
    the wait, up to :data:`STARVED_LIMIT` times: a program that computes is
    never cut short by the idling it did earlier or because other processes
    had the cores, and every wait still ends. Where the kernel does not say,
    this bounds the wall time less the CPU time.
    """
    return max(IDLE_FLOOR, factor * cpu_allowance + 0.5 - idle)

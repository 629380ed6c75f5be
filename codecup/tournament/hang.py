"""A bound on a tournament game's wall time, for game code that never returns.

Every wait on a bot is bounded by its clock, and a step of the game plugin's Python code by its
processor time (:mod:`codecup.overrun`). What neither bounds is code that blocks: a plugin (or an
in-process bot) sleeping, waiting in a system call or in a call of compiled code that never
returns, or catching the exception that stops it and waiting on. In a pool worker that held the
whole tournament up, for ever, and a resumed run met it again.

:func:`guard` ends the worker process once a game has run :func:`bound` seconds of wall time,
far more than its clocks allow: it asks the game to unwind (SIGTERM, which closes its bots), and
ends the process with :data:`STATUS` if it has not within the grace. The tournament records
the game as a referee error (:data:`MESSAGE`), no fault of either player, and goes on. Where
the game's code holds the interpreter's lock (a call of compiled code that does not let go of it),
no thread of the worker runs: a local pool's parent then ends the workers itself, at
:func:`parent_bound` (:meth:`~codecup.tournament.executor.GamePool.end_stuck`). On a Dask worker,
whose process runs other games, each game plays in a child process of the worker's, which the
worker ends at the bound (:mod:`~codecup.tournament.apart`), answering :class:`StuckGame`.

Both bounds are of :func:`running` time: the time a process is stopped (Ctrl-Z, ``SIGSTOP``,
``docker pause``: :func:`codecup.stopped.so_far`, each process its own) moves them on, as it
moves the seats' clocks. Before, a red team's run stopped longer than the bound (10.8 min at a 2 s
clock) took every game in flight for stuck when it went on: each was played again from its start,
and one stopped so twice was recorded as a referee error, counted for no one. Stops are forgiven
only so far: whatever the meter says, a bound ends by :data:`BACKSTOP` times itself of monotonic
time (:class:`Deadline`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

import attrs

from codecup import stopped

#: The exit status of a worker ended by :func:`guard` (as ``timeout`` exits).
STATUS = 124

#: What the tournament records for a game whose worker :func:`guard` ended.
MESSAGE = (
    "the game ran far past its clocks and was stopped: its game's code (or an in-process bot) "
    "was stuck in a call that did not return"
)

#: Seconds of wall time a game may take, besides :data:`PER_CLOCK` times its clock.
BASE = 600.0
#: How many times a seat's clock a game may take, besides :data:`BASE`. Under the ``cpu`` clock
#: one wait of a seat that waits for a processor stretches to at most 8 times the backstop and
#: processor time its clock leaves it (``codecup.clock.STARVED_LIMIT``,
#: :func:`codecup.players.subprocess.stretch_limit`): about 24 times its clock at the most, in one
#: wait or spread over several. The bound covers that for one seat, and both seats' clocks
#: stretched 11 times (each getting a tenth of a processor); two seats each getting under about a
#: twentieth of one (a load of about 40 on 2 cores at a 30 s clock) can reach it, and the game is
#: then recorded as stuck: a bound, not a promise to wait for ever.
PER_CLOCK = 24.0
#: Seconds past :func:`bound` and the worker's grace after which the pool's parent ends a worker
#: itself: game code blocked in a call that holds the interpreter's lock (compiled code called
#: through ``ctypes.PyDLL``) leaves the worker's own guard no thread to run in.
PARENT_AFTER = 30.0
#: How many times its bound of running time a wait on a game may take of monotonic time, stops and
#: all. The stop meter can take for a stop what is none: a reviewer's game code blocking in
#: compiled calls that hold the interpreter's lock (``ctypes.PyDLL`` sleeps of 2 s) was counted so,
#: and with each stop moving the bound on, the guard ended it at 20 times its bound (hours at a
#: production bound, where no parent ends it: Dask, ``sprt``). Three: a real stop of up to twice
#: the bound (20 minutes and more, a tournament's bound being 10 at the least) still moves it on,
#: and a game the meter misjudges ends at 3 times its bound at the most, which a user sees as the
#: bound being late but never unbounded. A small multiple, not a fixed cap of stop credit: it
#: scales with the bound, as a test's tiny bounds and a production's long ones both need.
BACKSTOP = 3.0

_fired = threading.Event()


def bound(clock: float) -> float:
    """The wall seconds a game whose seats each have ``clock`` seconds may take."""
    return BASE + PER_CLOCK * clock


def parent_bound(clock: float, grace: float) -> float:
    """The wall seconds after which the pool's parent ends the workers, a game with seats of
    ``clock`` seconds still running (its worker's own guard has not ended it: see
    :data:`PARENT_AFTER`); ``grace``: the worker's, to unwind a game."""
    return bound(clock) + grace + PARENT_AFTER


def running() -> float:
    """Seconds of this process's monotonic clock less the time it was stopped (read at two times,
    their difference is the time it ran between): what the bounds count."""
    return time.monotonic() - stopped.so_far()


@attrs.frozen
class Deadline:
    """When a bound of :func:`running` time is over: at its end of running time, or at
    :data:`BACKSTOP` times the bound of monotonic time, whichever comes first (however many stops
    the meter counts meanwhile)."""

    running: float  # the end, in :func:`running` time
    wall: float  # the backstop, in monotonic time

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` of running time from now."""
        now = time.monotonic()
        return cls(running=now - stopped.so_far() + seconds, wall=now + BACKSTOP * seconds)

    def left(self) -> float:
        """Seconds till the deadline, as it stands now (at most till the backstop); <= 0: passed."""
        now = time.monotonic()
        return min(self.running - (now - stopped.so_far()), self.wall - now)

    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return self.left() <= 0


def wait(event: threading.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` of :func:`running` time have passed; whether it
    was set. A stop meanwhile moves the end on: the wait is made again for what is left (each
    wait bounded, and what is left shrinks but by a stop), but never past :data:`BACKSTOP` times
    ``seconds`` of monotonic time (:class:`Deadline`)."""
    deadline = Deadline.after(seconds)
    while (left := deadline.left()) > 0:
        if event.wait(left):
            return True
    return event.is_set()


def fired() -> bool:
    """Whether :func:`guard` has found this process's game stuck (it is ending)."""
    return _fired.is_set()


@contextlib.contextmanager
def guard(seconds: float, grace: float) -> Iterator[None]:
    """Within: a game that is still running after ``seconds`` (of :func:`running` time: not the
    time this process was stopped) is stuck. This process is then sent SIGTERM (a pool worker's
    handler unwinds the game, closing its bots) and, if still alive ``grace`` seconds later, ends
    with :data:`STATUS`."""
    done = threading.Event()
    running()  # starts this process's stop meter (a forked worker's begins afresh), if not yet

    def watch() -> None:
        if wait(done, seconds):
            return
        _fired.set()
        os.kill(os.getpid(), signal.SIGTERM)
        wait(done, grace)
        os._exit(STATUS)  # also after the unwinding: nothing else must run in a process found stuck

    watcher = threading.Thread(target=watch, name="codecup-hang-guard", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        if not _fired.is_set():
            done.set()


@attrs.frozen
class StuckGame:
    """What a Dask worker's game task answers where the child process playing its game
    (:mod:`~codecup.tournament.apart`) was ended as stuck past its bound, or died (no record).

    A record of codecup's own, sent back by value: the worker passed the run's code check before
    its game began (:mod:`codecup.tournament.codekey`, whose refusal, from a worker of other code,
    stays plain text)."""

    worker: str  # the worker's address (and name)
    #: What the game's referee-error record says, should it fail so again: :data:`MESSAGE` for a
    #: game ended as stuck, how its process died otherwise.
    message: str = MESSAGE

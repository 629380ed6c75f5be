"""A built-in Python bot played in the referee's own process."""

from __future__ import annotations

import contextvars
import ctypes
import os
import sys
import threading
import time
import traceback
from collections import deque

import attrs

from codecup.clock import BACKSTOP_FACTOR, STARVED_LIMIT, Timer, loop_time
from codecup.dialogue import Fault, Termination
from codecup.drive import END_OF_OUTPUT
from codecup.errors import GameBugError
from codecup.game import PlayerSession
from codecup.players.base import Player

LOG_CAP = 4000
"""Characters of a bot's traceback kept for the record."""

TASKS = "/proc/self/task"
"""The referee's threads; each one's ``schedstat``: its time on a processor and waiting for one,
in nanoseconds (Linux)."""


def answer_bound(clock: float) -> float:
    """The longest an in-process bot may take to answer one line, in wall seconds, on a clock of
    ``clock`` seconds: as long as a program could be given for its whole clock (its computing
    stretched by a loaded machine, :data:`~codecup.clock.STARVED_LIMIT`, plus its idling,
    :data:`~codecup.clock.BACKSTOP_FACTOR`), and a second."""
    return (STARVED_LIMIT + BACKSTOP_FACTOR) * clock + 1.0


class _Abandoned(BaseException):
    """Raised in the thread of an answer that never came, to stop it where Python can."""


@attrs.define(eq=False)
class _Answer:
    """One answer of a session, computed in a thread of its own."""

    lines: list[str] = attrs.field(factory=list)
    error: BaseException | None = None
    spent: float = 0.0  # by the thread's own timer, where it measures it
    busy: float = 0.0  # the thread's time running or waiting for a processor (see busy_time)
    done: threading.Event = attrs.field(factory=threading.Event)

    def compute(self, session: PlayerSession, line: str, timer: Timer | None) -> None:
        t0 = timer() if timer is not None else 0.0
        busy0 = thread_busy_time() if timer is not None else 0.0
        try:
            self.lines = list(session.receive(line))
        except BaseException as exc:  # the bot's own SystemExit too: a crash of its seat
            self.error = exc
        finally:
            if timer is not None:
                self.spent = timer() - t0
                self.busy = thread_busy_time() - busy0
            self.done.set()


def _stop(thread: threading.Thread) -> None:
    """Raise :class:`_Abandoned` in ``thread`` at its next Python instruction (a thread blocked in
    C code stays blocked; it dies with the process, being a daemon)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned))


def _where(thread: threading.Thread) -> str:
    """Where ``thread`` is now (its stack), for the record."""
    frame = sys._current_frames().get(thread.ident or 0)
    return "".join(traceback.format_stack(frame)) if frame is not None else ""


def thread_busy_time() -> float:
    """Seconds the calling thread has run or waited for a processor (Linux), else its processor time."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            ran, waited, _ = f.read().split()
        return (int(ran) + int(waited)) / 1e9
    except (OSError, ValueError):
        return time.thread_time()


def busy_time() -> float:
    """Seconds the referee's threads have run or waited for a processor, all added up: while one
    of them runs or waits with the interpreter's lock, a thinking bot on another waits for it, and
    is not idle. Where the kernel does not say, the process's processor time."""
    try:
        total = 0
        with os.scandir(TASKS) as tasks:
            for task in tasks:
                try:
                    with open(f"{task.path}/schedstat") as f:
                        ran, waited, _ = f.read().split()
                except (FileNotFoundError, ProcessLookupError):  # a thread that has just ended
                    continue
                total += int(ran) + int(waited)
        return total / 1e9
    except (OSError, ValueError):
        return time.process_time()


@attrs.define(eq=False)
class InProcessPlayer(Player):
    """Runs a :class:`PlayerSession`, one answer at a time, each bounded by ``bound`` seconds.

    The session computes when it is sent a line, so the time spent in
    :meth:`send` is charged at the seat's next wait (:meth:`hidden_time`); an
    answer that took longer than the clock allowed is turned into a time-out.
    It computes in a thread of its own while the referee waits for it (nothing
    else runs meanwhile, as if it computed in the referee's): an answer not
    given within ``bound`` seconds (:func:`answer_bound`) is a time-out, and the
    thread is abandoned (stopped where Python can stop it), so a bot that never
    returns cannot hold the run up.
    Under the cpu clock (``timer`` is the thread's processor time) a bot that
    sleeps or blocks uses none, so, as for a program, the time it is neither
    running nor waiting for a processor is bounded by the wait's wall-clock
    backstop and counted as the game's idling (:meth:`hidden_idle`); time in
    which another thread of the referee's process ran (holding the interpreter's
    lock) is not idling either.
    """

    session: PlayerSession
    timer: Timer = time.perf_counter  # the referee gives its loop's clock; time.thread_time charges CPU
    bound: float = answer_bound(30.0)
    stuck: str | None = None
    """Why it was given up on: an answer that did not come within :attr:`bound`."""
    pending: deque[str] = attrs.field(factory=deque)
    thinking: float = 0.0
    idling: float = 0.0
    """Seconds it was idle (asleep, blocked) while thinking since :meth:`hidden_idle` (cpu clock)."""
    error: str | None = None
    log: str = ""
    """The traceback of the bot's exception, if it raised (its tail), as a program's stderr is kept."""

    async def start(self) -> None:
        """Nothing to start."""

    def send(self, line: str) -> None:
        """Feed the line to the session, timing its answer."""
        if self.session.finished or self.error is not None or self.stuck is not None:
            return
        idle_checked = self.timer is time.thread_time  # its processor time: read in its thread
        if idle_checked:
            wall0, busy0 = loop_time(), busy_time()
        t0 = self.timer()
        answer = _Answer()
        thread = threading.Thread(  # in the referee's context (what its clock charges: budget.wall_charged)
            target=contextvars.copy_context().run,
            args=(answer.compute, self.session, line, self.timer if idle_checked else None),
            name="codecup-in-process-bot",
            daemon=True,
        )
        thread.start()
        if not answer.done.wait(self.bound):
            self.stuck = f"no answer within {self.bound:.1f}s (wall time): its thread was abandoned"
            self.log = f"{self.stuck}; it was at:\n{_where(thread)}"[-LOG_CAP:]
            _stop(thread)
            self.thinking += self.bound  # past any clock: its time is up, whatever it measured
            return
        if isinstance(answer.error, GameBugError):  # the game's rules failed in the session: no
            raise answer.error  # fault of this seat's bot
        if answer.error is not None:  # a buggy bot is a crash of that seat, not of the referee
            self.error = f"bot raised {answer.error!r}"
            self.log = "".join(traceback.format_exception(answer.error))[-LOG_CAP:]
        self.pending.extend(answer.lines)
        spent = answer.spent if idle_checked else self.timer() - t0
        self.thinking += spent
        if idle_checked:
            # Not idle: running, waiting for a processor, or for the interpreter's lock while
            # another thread of the referee ran or waited (a Dask worker's threads share one).
            # Its thread, gone by now, is no longer among the referee's: its own time is added.
            busy = max(spent, busy_time() - busy0 + answer.busy)
            self.idling += max(0.0, loop_time() - wall0 - busy)

    def charged_by_wall(self) -> None:
        """Its thinking is charged by the loop's clock, wall time."""
        self.timer = loop_time

    def cpu_time(self) -> float | None:
        """Its thinking is charged through :meth:`hidden_time`, by its own timer."""
        return 0.0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        """The next queued answer, or a fault."""
        limit = timeout if cpu_limit is None else cpu_limit  # its thinking is its CPU time under cpu
        if self.stuck is not None:
            return Fault(Termination.TIMEOUT, self.stuck)
        if self.thinking > limit:
            return Fault(Termination.TIMEOUT, f"thought for {self.thinking:.3f}s, {limit:.3f}s allowed")
        if cpu_limit is not None and self.idling > timeout:  # the wall-clock backstop
            idle = f"idle {self.idling:.3f}s while thinking, {timeout:.3f}s allowed"
            return Fault(Termination.TIMEOUT, idle)
        if self.pending:
            return self.pending.popleft()
        if self.error is not None:
            return Fault(Termination.CRASH, self.error)
        return Fault(Termination.CRASH, END_OF_OUTPUT)

    def log_tail(self) -> str:
        """The traceback of the bot's exception (capped), for the record."""
        return self.log

    def hidden_time(self) -> float:
        """Thinking time since the last call, then reset."""
        spent, self.thinking = self.thinking, 0.0
        return spent

    def hidden_idle(self) -> float:
        """Idle time while thinking since the last call (cpu clock), then reset."""
        idle, self.idling = self.idling, 0.0
        return idle

    async def close(self) -> None:
        """Drop unread answers."""
        self.pending.clear()

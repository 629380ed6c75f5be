"""One answer of an in-process bot, computed in a thread of its own and given up when overdue.

A built-in bot runs in the referee's process; a plugin's bot that loops or blocks for ever
would hold the run up. So each answer is computed in a thread while the referee waits for it
(nothing else runs meanwhile), and the thread is watched as a program is: given up once it has
used more processor time than its whole clock, or idled (neither running nor waiting for a
processor: asleep, blocked) longer than the cpu clock's backstop, or taken longer in all than a
program's wait could stretch on a loaded machine. A thread given up is abandoned: stopped where
Python can stop it (a loop is), else left blocked until the process ends (it is a daemon).
"""

from __future__ import annotations

import contextvars
import ctypes
import sys
import threading
import time
import traceback

import attrs

from codecup.clock import STARVED_LIMIT, Timer, wall_backstop
from codecup.game import PlayerSession

POLL = 0.05
"""Seconds between looks at a thread whose answer has not come (an answer that comes ends the wait
at once)."""

STARTUP = 1.0
"""Seconds of processor time an answer may take past its clock: the start-up allowance a first
answer has."""


@attrs.frozen
class AnswerLimits:
    """How much one answer may take before it is given up: more than the whole clock allows."""

    cpu: float  # seconds of its thread's processor time
    idle: float  # seconds neither running nor waiting for a processor
    wall: float  # seconds in all, however loaded the machine

    @classmethod
    def for_clock(cls, clock: float) -> AnswerLimits:
        """The limits on a clock of ``clock`` seconds: the whole clock (and a start-up's allowance)
        of processor time, the cpu clock's idling backstop for the whole clock, and the longest a
        program's wait for its whole clock stretches (:data:`~codecup.clock.STARVED_LIMIT`)."""
        backstop = wall_backstop(clock)
        return cls(cpu=clock + STARTUP, idle=backstop, wall=STARVED_LIMIT * (backstop + clock + STARTUP))


class _Abandoned(BaseException):
    """Raised in the thread of an answer given up, to stop it where Python can."""


@attrs.define(eq=False)
class Answer:
    """One answer of a session: its lines or its exception, and the time its thread took."""

    lines: list[str] = attrs.field(factory=list)
    error: BaseException | None = None
    spent: float = 0.0  # by the thread's own timer, where it measures it
    busy: float = 0.0
    """The thread's time running or waiting for a processor over its whole life (its wait to start
    included: on a loaded machine that is no idling of the bot's), where it measures it."""
    given_up: str | None = None
    """Why it was given up (then it has no lines)."""
    stack: str = ""
    """Where its thread was when it was given up."""
    done: threading.Event = attrs.field(factory=threading.Event)

    def compute(self, session: PlayerSession, line: str, timer: Timer | None) -> None:
        """The session's answer to ``line`` (run in the answer's own thread)."""
        t0 = timer() if timer is not None else 0.0
        try:
            self.lines = list(session.receive(line))
        except BaseException as exc:  # the bot's own SystemExit too: a crash of its seat
            self.error = exc
        finally:
            if timer is not None:
                self.spent = timer() - t0
                self.busy = sum(thread_times() or (time.thread_time(), 0.0))
            self.done.set()


def answer(session: PlayerSession, line: str, timer: Timer | None, limits: AnswerLimits) -> Answer:
    """The session's answer to ``line``, computed in a thread of its own (in the caller's context:
    what its clock charges) and timed there by ``timer`` where given; given up past ``limits``."""
    found = Answer()
    thread = threading.Thread(
        target=contextvars.copy_context().run,
        args=(found.compute, session, line, timer),
        name="codecup-in-process-bot",
        daemon=True,
    )
    start = time.monotonic()
    thread.start()
    while not found.done.wait(POLL):
        why = overdue(thread_times(thread.native_id), time.monotonic() - start, limits)
        if why is not None:
            found.given_up, found.stack = f"{why}: its thread was abandoned", _where(thread)
            _stop(thread)
            break
    return found


def overdue(times: tuple[float, float] | None, wall: float, limits: AnswerLimits) -> str | None:
    """Why an answer whose thread has run and waited for a processor ``times`` seconds (None: not
    known) in ``wall`` seconds is given up; None while it may still come."""
    if times is not None:
        ran, waited = times
        if ran > limits.cpu:
            return f"no answer after {ran:.2f}s of processor time, more than its whole clock"
        idle = wall - ran - waited
        if idle > limits.idle:
            return f"no answer after {idle:.2f}s idle (asleep or blocked), more than its clock's backstop"
    if wall > limits.wall:
        return f"no answer within {limits.wall:.1f}s"
    return None


def thread_times(native_id: int | None = None) -> tuple[float, float] | None:
    """Seconds the thread ``native_id`` (None: the calling one) has run and waited for a processor
    (Linux's ``schedstat``); None where the kernel does not say."""
    path = "/proc/thread-self/schedstat" if native_id is None else f"/proc/self/task/{native_id}/schedstat"
    try:
        with open(path) as f:
            ran, waited, _ = f.read().split()
        return int(ran) / 1e9, int(waited) / 1e9
    except (OSError, ValueError):
        return None


def _stop(thread: threading.Thread) -> None:
    """Raise :class:`_Abandoned` in ``thread`` at its next Python instruction (a thread blocked in
    C code stays blocked; it dies with the process, being a daemon)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned))


def _where(thread: threading.Thread) -> str:
    """Where ``thread`` is now (its stack), for the record."""
    frame = sys._current_frames().get(thread.ident or 0)
    return "".join(traceback.format_stack(frame)) if frame is not None else ""

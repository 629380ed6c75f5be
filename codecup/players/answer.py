"""The answers of an in-process bot, computed in a thread of its own and given up when overdue.

A built-in bot runs in the referee's process; a plugin's bot that loops or blocks for ever
would hold the run up. So a player's answers are computed one after another in a thread of its
own (:class:`AnswerThread`: one thread and one context for the whole game, so what a bot keeps in
thread-local or context state lasts from one answer to the next) while the referee waits for
each, and the thread is watched as a program is: given up once an answer has used more processor
time than the whole clock, or the process has been idle (no thread of it running or waiting for
a processor: the bot asleep or blocked) longer than the cpu clock's backstop, or the answer has
taken longer in all than a program's wait could stretch on a loaded machine. A thread given up
is abandoned: stopped where Python can stop it (a loop is; the stop is raised again until it
ends), else left blocked until the process ends (it is a daemon). A call that holds the
interpreter's lock in C code holds the referee too: no thread of the process runs meanwhile.
"""

from __future__ import annotations

import contextvars
import queue
import sys
import threading
import time
import traceback

import attrs

from codecup import stopped
from codecup.clock import STARVED_LIMIT, Timer, wall_backstop
from codecup.game import PlayerSession
from codecup.overrun import raise_into

POLL = 0.05
"""Seconds between looks at a thread whose answer has not come (an answer that comes ends the wait
at once)."""

STARTUP = 1.0
"""Seconds of processor time an answer may take past its clock: the start-up allowance a first
answer has."""

THREAD_NAME = "codecup-in-process-bot"
"""The name of a player's answer thread."""

TASKS = stopped.TASKS
"""The referee's threads; each one's ``schedstat``: its time on a processor and waiting for one,
in nanoseconds (Linux)."""


@attrs.frozen
class AnswerLimits:
    """How much one answer may take before it is given up: more than the whole clock allows."""

    cpu: float  # seconds of its thread's processor time
    idle: float  # seconds in which no thread of the process ran or waited for a processor
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
    given_up: str | None = None
    """Why it was given up (then it has no lines)."""
    stack: str = ""
    """Where its thread was when it was given up."""
    frames: traceback.StackSummary = attrs.field(factory=traceback.StackSummary)
    """The same, frame by frame (the in-process player tells the game's rules from its bot by it)."""
    done: threading.Event = attrs.field(factory=threading.Event)

    def compute(self, session: PlayerSession, line: str, timer: Timer | None) -> None:
        """The session's answer to ``line`` (run in the player's answer thread)."""
        t0 = timer() if timer is not None else 0.0
        try:
            self.lines = list(session.receive(line))
        except BaseException as exc:  # the bot's own SystemExit too: a crash of its seat
            self.error = exc
        finally:
            if timer is not None:
                self.spent = timer() - t0
            self.done.set()


_Job = tuple[Answer, PlayerSession, str, "Timer | None"]


@attrs.define(eq=False)
class AnswerThread:
    """The thread one player's answers are computed in, one after another, in one context (the
    referee's, copied as its first answer is asked for: what its clock charges)."""

    limits: AnswerLimits
    _jobs: queue.SimpleQueue[_Job | None] = attrs.field(factory=queue.SimpleQueue, init=False)
    _thread: threading.Thread | None = attrs.field(default=None, init=False)
    _context: contextvars.Context | None = attrs.field(default=None, init=False)

    def answer(self, session: PlayerSession, line: str, timer: Timer | None) -> Answer:
        """The session's answer to ``line``, timed by ``timer`` in the thread where given; given up
        (and the thread abandoned) past :attr:`limits`, less the time the process was stopped
        (:func:`codecup.stopped.so_far`)."""
        thread = self._started()
        found = Answer()
        self._jobs.put((found, session, line, timer))
        if found.done.wait(POLL):  # most answers: nothing read about the thread
            return found
        # Measured from here on (the first moment is not counted: the limits are far above it).
        start, busy, ran0 = time.monotonic(), BusyTime(), _ran(thread)
        stopped_before = stopped.so_far()
        while not found.done.wait(POLL):
            ran = None if ran0 is None else (_ran(thread) or ran0) - ran0
            now = time.monotonic()
            stops = stopped.so_far() - stopped_before
            why = overdue(ran, busy.so_far(), now - start - stops, self.limits)
            if why is not None:
                # in brackets: the referee adds what the seat had, after a colon
                found.given_up, found.frames = f"{why} (its thread was abandoned)", _frames(thread)
                found.stack = "".join(found.frames.format())
                _abandon(thread)
                self._jobs.put(None)  # should its answer come after all, the thread ends there
                self._thread = None  # a later answer (none is asked for) would get a thread of its own
                break
        return found

    def close(self) -> None:
        """End the thread once it has computed what it was given."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread = None

    def _started(self) -> threading.Thread:
        if self._thread is None:
            if self._context is None:
                self._context = contextvars.copy_context()
            self._jobs = queue.SimpleQueue()
            self._thread = threading.Thread(
                target=self._context.run,
                args=(_serve, self._jobs),
                name=THREAD_NAME,
                daemon=True,
            )
            self._thread.start()
        return self._thread


def _serve(jobs: queue.SimpleQueue[_Job | None]) -> None:
    """Compute the answers put into ``jobs`` until it says stop (None), or the thread is given up
    (it then ends, letting go of the session and what its bot holds)."""
    try:
        while (job := jobs.get()) is not None:
            found = job[0]
            found.compute(*job[1:])
            del job
            if isinstance(found.error, _Abandoned):
                return
    except _Abandoned:  # a stop that landed outside the bot's code
        return


def overdue(ran: float | None, busy: float, wall: float, limits: AnswerLimits) -> str | None:
    """Why an answer is given up whose thread has run ``ran`` seconds (None: not known) in ``wall``
    seconds, in which the process's threads ran or waited for a processor ``busy`` seconds; None
    while it may still come. Waiting for the interpreter's lock while another thread runs is no
    idling (a Dask worker's threads share one)."""
    if ran is not None:
        if ran > limits.cpu:
            # "more than it had": the referee adds what it had as the wait began ("it had 5.000s on
            # its clock"); its whole clock here read as a contradiction beside it (a red team's).
            return f"no answer after {ran:.2f}s of processor time, more than it had"
        idle = wall - busy
        if idle > limits.idle:
            return f"no answer after {idle:.2f}s idle (asleep or blocked), more than its clock's backstop"
    if wall > limits.wall:
        return f"no answer within {limits.wall:.1f}s"
    return None


@attrs.define(eq=False)
class BusyTime:
    """Seconds the referee's threads have run or waited for a processor since it was made, all
    added up: while one of them runs or waits with the interpreter's lock, a thinking bot on another
    waits for it, and is not idle. Each thread's own difference between two reads
    (:func:`codecup.stopped.grown`): a thread that ends between them counts up to the read before,
    where a sum over the threads there were dropped its whole lifetime, and an unrelated thread's
    end made the bot idle that long (a red team's, of the stop meter's same sum); what it ran after
    that read is the process's processor time less the other threads' (:func:`codecup.stopped.
    ended_ran`: an earlier test's thread that held the interpreter's lock and ended made a bot
    idle 0.22 s, in a full run of the suite). Where the kernel does not say, the process's
    processor time."""

    _last: stopped.Look = attrs.field(factory=lambda: stopped.look_now(None))
    _process: float = attrs.field(factory=time.process_time)
    _total: float = 0.0

    def so_far(self) -> float:
        """The seconds up to now."""
        last, now, process = self._last, stopped.look_now(None), time.process_time()
        if now.threads is not None and last.threads is not None:
            busy, ended = stopped.grown(last.threads, now.threads)
            if ended:
                busy += stopped.ended_ran(last, now) or 0.0
            self._total += busy
        else:
            self._total += max(0.0, process - self._process)
        self._last, self._process = now, process
        return self._total


def _ran(thread: threading.Thread) -> float | None:
    """Seconds ``thread`` has run on a processor (Linux's ``schedstat``); None where not known."""
    try:
        with open(f"{TASKS}/{thread.native_id}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


_abandoned: list[threading.Thread] = []
_abandoned_lock = threading.Lock()


def _abandon(thread: threading.Thread) -> None:
    """Stop ``thread`` where Python can, and again every :data:`POLL` seconds while it lives (a bot
    that catches the stop in a loop goes on otherwise, slowing every later game of the process)."""
    _stop(thread)
    with _abandoned_lock:
        _abandoned.append(thread)
        if len(_abandoned) == 1:
            threading.Thread(target=_stop_abandoned, name="codecup-abandoned-bots", daemon=True).start()


def _stop_abandoned() -> None:
    while True:
        time.sleep(POLL)
        with _abandoned_lock:
            _abandoned[:] = [t for t in _abandoned if t.is_alive()]
            if not _abandoned:
                return
            for thread in _abandoned:
                _stop(thread)


def _stop(thread: threading.Thread) -> None:
    """Raise :class:`_Abandoned` in ``thread`` at its next Python instruction (a thread blocked in
    C code stays blocked; it dies with the process, being a daemon)."""
    if thread.ident is not None:
        raise_into(thread.ident, _Abandoned)


def _frames(thread: threading.Thread) -> traceback.StackSummary:
    """Where ``thread`` is now (its stack), for the record."""
    frame = sys._current_frames().get(thread.ident or 0)
    return traceback.extract_stack(frame) if frame is not None else traceback.StackSummary()

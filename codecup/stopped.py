"""How long the referee's own process has been stopped: time that is no bot's.

A referee stopped (``SIGSTOP``, Ctrl-Z, a terminal's ``SIGTTOU``, its cgroup frozen: ``docker
pause``) stops no clock: the wall time its waits measure runs on. A red team stopped ``codecup
play`` for 12 s while a program slept 0.06 s before its answer, and the program lost on time,
charged 12 s of idling under the cpu clock (and the whole stop under the wall clock): the time
the process is stopped is taken out of every seat's wait, program or in-process bot alike, by
this one meter (:func:`so_far`).

A thread of the process's own looks every :data:`POLL` seconds: a look that comes later than that
by more than the time the process's threads ran on a processor or waited for one explains, by
more than :data:`STOP_SLACK`, was stopped for the rest: a stopped process has no thread running or
waiting for a processor. Each thread's own time, added up over every thread, since a late look is
not only a loaded machine's (the looking thread waiting for a processor): the looking thread also
waits for the interpreter's lock while another thread holds it, in C code that does not let it go
or in hand-offs between busy threads, and that thread runs meanwhile (a reviewer's: a built-in
bot's ``sorted()`` of 3 million numbers, 1.56 s holding the lock, was taken for a stop of 1.41 s,
and under the wall clock thought that long uncharged; four busy threads made up to 0.97 s of stops
in 4 s). A thread that ended between two looks took its time with it (a red team's thread that ran
0.5 s and ended was counted a stop of 1.0 s, when the looks compared sums over the threads there
were): the process's processor time, which keeps the ended threads' too, says what they ran since
the look before. Not what they waited for a processor: a stopped process has no thread waiting, so
that wait was in the part of the time between the looks that was no stop, and it is counted a stop
only where the witness (below) saw a stop, and there at most that much too long (a look where a
thread ended counted no stop at all before: a reviewer's 1 s stop went uncounted, a thread having
ended just before it, some 2% of stops in a tournament).

A late look is not enough: a sleeping thread wakes late, unexplained, also when its processor did
nothing else for a while, and a bot can make it so. A red team's bot hung 1.9 million epoll entries
off one timer, whose every firing ran them all in one hard interrupt that held a processor 0.25 to
0.36 s; it fired the timer on one core while it computed on the other, in turn, and the meter's
thread, asleep on the held one, woke late: 0.2 to 0.5 s of each 1 s move were taken for stops and
thought uncharged under the wall clock. A stop stops every thread of the process at once, so it is
counted only where a witness saw it: a thread of the meter's, every signal blocked, asleep for good
in a read of a pipe no one writes, which nothing wakes but the stop itself (a stop, and a frozen
cgroup v2, wake every sleeping thread of the process to stop it, and again to go on; a cgroup v1
freezer freezes a thread asleep in a sleep or a lock's wait where it sleeps, unwoken, but wakes one
in a pipe's read: a reviewer saw the witness woken); a late look counts once the witness has been
put on a processor since the look before it (or by the next look: a witness waiting for a
processor as the stop began is seen to wake after). A witness that ended is started again. No
signal handler (a library's threads may not set one; a frozen cgroup sends no ``SIGCONT``), no
thread per processor. A stop is counted to within a look's :data:`POLL`; one shorter than
:data:`STOP_SLACK` is not counted. Where the kernel does not say a thread's times (no
``schedstat``), nothing is counted.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Mapping

import attrs

log = logging.getLogger(__name__)

POLL = 0.05
"""Seconds between the meter's looks."""

STOP_SLACK = 0.2
"""Seconds a look may come later than :data:`POLL` unexplained before the delay is taken for the
process having been stopped."""

THREAD_NAME = "codecup-stop-meter"
"""The name of the meter's thread."""

WITNESS_NAME = "codecup-stop-witness"
"""The name of the thread that only a stop wakes."""


@attrs.frozen
class Look:
    """The clock and what the kernel says of the process's threads, read together."""

    at: float  # monotonic seconds
    threads: Mapping[int, float] | None  # each thread's time on a processor and waiting for one
    woken: int | None  # how many times the witness has been put on a processor
    ran: Mapping[int, float] | None = None  # each thread's time on a processor alone
    cpu: float | None = None  # the process's time on a processor, its ended threads' too

    @property
    def known(self) -> bool:
        """Whether it is a look: both read, at one time with the clock."""
        return self.threads is not None and self.woken is not None


def ended_ran(before: Look, after: Look) -> float | None:
    """Seconds the threads that ended between two looks ran since the first: the process's
    processor time less what the threads there are now ran meanwhile (each its own difference, one
    new or under an ended one's id whole); None where a look does not say."""
    if before.ran is None or after.ran is None or before.cpu is None or after.cpu is None:
        return None
    alive = 0.0
    for tid, now in after.ran.items():
        then = before.ran.get(tid, 0.0)
        alive += now - (then if now >= then else 0.0)
    # The process's time is read a moment before the threads' (a look's noise, microseconds): never
    # less than none.
    return max(0.0, after.cpu - before.cpu - alive)


def grown(before: Mapping[int, float], after: Mapping[int, float]) -> tuple[float, bool]:
    """Seconds the threads ran or waited for a processor between two reads, each thread's own
    difference (one new since ``before`` counts whole), and whether a thread of ``before`` ended
    (or its id was taken again) in between: its last part is not known, and not counted."""
    total, ended = 0.0, False
    for tid, now in after.items():
        then = before.get(tid, 0.0)
        if now < then:  # another thread under an ended one's id
            ended, then = True, 0.0
        total += now - then
    return total, ended or any(tid not in after for tid in before)


@attrs.define
class Stops:
    """The seconds stopped so far, from looks at the clock, at the time the process's threads ran
    on a processor or waited for one, and at the witness: what that time does not explain, between
    two looks :data:`POLL` apart, was a stop, once the witness has woken."""

    last: Look
    total: float = 0.0
    unconfirmed: float = 0.0  # the last look's unexplained seconds, the witness not woken yet

    def seen(self, look: Look) -> float:
        """The seconds stopped so far, at ``look`` (one not :attr:`~Look.known` is left out, and the
        next one is compared with the last look that was one)."""
        if not look.known:
            return self.total
        last, late = self.last, 0.0
        if last.known:
            assert last.threads is not None and look.threads is not None
            explained, ended = grown(last.threads, look.threads)
            if ended:  # what an ended thread ran since the last look, from the process's time
                gone = ended_ran(last, look)
                explained += gone if gone is not None else float("inf")  # not known: no stop
            unexplained = look.at - last.at - POLL - explained
            if unexplained > STOP_SLACK:
                late = unexplained
            if look.woken != last.woken:
                self.total += self.unconfirmed + late
                late = 0.0
        self.last, self.unconfirmed = look, late
        return self.total

    def again(self, look: Look) -> None:
        """Begin anew from ``look`` (of another witness): what the last look left unconfirmed, and
        the time since it, are not counted."""
        self.last, self.unconfirmed = look, 0.0


TASKS = "/proc/self/task"
"""Where the kernel lists the process's threads."""


def read_threads() -> dict[int, tuple[float, float, int]] | None:
    """Each thread's seconds on a processor, seconds waiting for one, and how many times it was put
    on one, by its id (a thread that has ended is not there); None where not known."""
    try:
        found = {}
        with os.scandir(TASKS) as tasks:
            for task in tasks:
                try:
                    with open(f"{task.path}/schedstat") as f:
                        ran, waited, arrived = f.read().split()
                except (FileNotFoundError, ProcessLookupError):  # a thread that has just ended
                    continue
                found[int(task.name)] = (int(ran) / 1e9, int(waited) / 1e9, int(arrived))
        return found
    except (OSError, ValueError):
        return None


def threads_busy() -> dict[int, float] | None:
    """Seconds each of the process's threads has run on a processor or waited for one, by its id;
    None where not known."""
    found = read_threads()
    return None if found is None else {tid: ran + waited for tid, (ran, waited, _) in found.items()}


@attrs.define(eq=False)
class StopMeter:
    """The process's stops, looked for by a daemon thread of its own, and witnessed by another
    (both started at the first question: a process that plays no game has none); any thread may
    ask."""

    _stops: Stops | None = None
    _tid: int | None = None
    _witness: int | None = None
    _witness_thread: threading.Thread | None = None
    _pipe: tuple[int, int] | None = None
    _lock: threading.Lock = attrs.field(factory=threading.Lock)

    def so_far(self) -> float:
        """Seconds the process was stopped since the meter began, counted up to now."""
        with self._lock:
            if self._stops is None or self._tid is None:
                self._start()
                return 0.0
            # A look of the asker's own: the meter's thread, resumed with it, may not have looked yet.
            return self._seen()

    def reset(self) -> None:
        """Forget the meter (in a forked child, which has neither of its threads)."""
        if self._pipe is not None:
            for fd in self._pipe:
                with contextlib.suppress(OSError):  # closed already (a child that closed them all)
                    os.close(fd)
        self._stops, self._tid, self._witness, self._witness_thread, self._pipe = None, None, None, None, None
        self._lock = threading.Lock()

    def _start(self) -> None:
        self._start_witness()
        thread = threading.Thread(target=self._watch, name=THREAD_NAME, daemon=True)
        thread.start()  # its native id is known once it has started
        self._tid = thread.native_id
        assert self._tid is not None
        self._stops = Stops(look(self._witness))

    def _watch(self) -> None:
        while True:
            time.sleep(POLL)
            with self._lock:
                if self._stops is None or threading.get_native_id() != self._tid:
                    return  # reset: a later question starts another
                self._seen()

    def _start_witness(self) -> None:
        self._pipe = os.pipe()  # not inherited by the programs the referee starts
        witness = threading.Thread(target=_witness, args=(self._pipe[0],), name=WITNESS_NAME, daemon=True)
        witness.start()  # its native id is known once it has started
        self._witness, self._witness_thread = witness.native_id, witness

    def _seen(self) -> float:
        """The seconds stopped so far, at a look taken now (the lock held)."""
        assert self._stops is not None
        if self._witness_thread is None:  # none could be started again: no stop is counted
            return self._stops.total
        now = look(self._witness)
        # Alive after the look, the witness was alive during it, and its id named it. One that ended
        # (its pipe's write end closed: a stray close of the referee's) would leave every look
        # without a witness, no stop counted again; and its id, taken by another thread, would have
        # that thread's every wake-up confirm a late look (a reviewer's).
        if self._witness_thread.is_alive():
            return self._stops.seen(now)
        # Its pipe is not closed here: its file descriptors may no longer be the meter's.
        try:
            self._start_witness()
        except (OSError, RuntimeError) as exc:  # no file descriptor or thread left
            log.warning(
                "the stop meter's witness thread ended, and no other starts (%s): no stop is counted", exc
            )
            self._witness, self._witness_thread = None, None
            return self._stops.total
        log.warning("the stop meter's witness thread ended; started again (a stop just now is not counted)")
        self._stops.again(look(self._witness))
        return self._stops.total


def _witness(fd: int) -> None:
    """Sleep for good where only a stop of the process wakes the thread: every signal blocked (a
    signal to the process, a child's ``SIGCHLD``, goes to another thread), in a read of a pipe that
    no one writes (not a lock's wait or a sleep: a cgroup v1 freezer freezes those unwoken, where
    it wakes a pipe's read). A byte written after all is read and the thread sleeps on; it ends
    only where the read cannot go on (the write end closed, the pipe closed under it), and the
    meter starts another."""
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    with contextlib.suppress(OSError):
        while os.read(fd, 1):
            pass


def look(witness: int | None) -> Look:
    """The clock, the process's threads' times and the times ``witness`` (a thread id) was put on
    a processor, read together: a read that lasted longer than :data:`STOP_SLACK` gives neither
    (not a look). Reading the threads' files lets the interpreter's lock go, and another thread may
    hold it a long while in C code meanwhile: the clock read before it and the threads' time after
    it made a stop of what the other thread ran (a reviewer's, after the meter first added up every
    thread's time). Not :data:`POLL`: on a loaded machine a read takes longer than that now and
    then, and the look of a bot's wait just after a real stop was left out, the stop not yet
    counted, and the bot given up for idling (a test, once in five runs); a read shorter than the
    slack cannot make a stop of itself, and the witness confirms none that a lock made."""
    before = time.monotonic()
    found = look_now(witness)
    return found if found.at - before <= STOP_SLACK else Look(found.at, None, None)


def look_now(witness: int | None) -> Look:
    """The clock, the process's threads' times and the times ``witness`` was put on a processor,
    however long reading them took (:func:`look` leaves out a slow read)."""
    # The process's time before the threads': a thread that ends while they are read has what it
    # ran after its own read in the next look's difference of the process's time (read after, it
    # would be in neither look's, and a stop too long).
    cpu = time.clock_gettime(time.CLOCK_PROCESS_CPUTIME_ID)
    found = read_threads()
    after = time.monotonic()
    if found is None:
        return Look(after, None, None)
    woken = found.get(witness) if witness is not None else None
    threads = {tid: ran + waited for tid, (ran, waited, _) in found.items()}
    ran = {tid: ran for tid, (ran, _, _) in found.items()}
    return Look(after, threads, None if woken is None else woken[2], ran, cpu)


METER = StopMeter()
"""The process's meter."""

os.register_at_fork(after_in_child=METER.reset)


def so_far() -> float:
    """Seconds the referee's process was stopped so far (:class:`StopMeter`): read at both ends of
    a wait, their difference is the time of the wait that is no bot's. A test replaces this."""
    return METER.so_far()

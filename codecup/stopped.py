"""How long the referee's own process has been stopped: time that is no bot's.

A referee stopped (``SIGSTOP``, Ctrl-Z, a terminal's ``SIGTTOU``, its cgroup frozen: ``docker
pause``) stops no clock: the wall time its waits measure runs on. A red team stopped ``codecup
play`` for 12 s while a program slept 0.06 s before its answer, and the program lost on time,
charged 12 s of idling under the cpu clock (and the whole stop under the wall clock): the time
the process is stopped is taken out of every seat's wait, program or in-process bot alike, by
this one meter (:func:`so_far`).

A thread of the process's own looks every :data:`POLL` seconds: a look that comes later than that
by more than the time the process's threads, all added up, ran on a processor or waited for one
explains, by more than :data:`STOP_SLACK`, was stopped for the rest: a stopped process has no
thread running or waiting for a processor. Added up over every thread, since a late look is not
only a loaded machine's (the looking thread waiting for a processor): the looking thread also waits
for the interpreter's lock while another thread holds it, in C code that does not let it go or
in hand-offs between busy threads, and that thread runs meanwhile (a reviewer's: a built-in bot's
``sorted()`` of 3 million numbers, 1.56 s holding the lock, was taken for a stop of 1.41 s, and
under the wall clock thought that long uncharged; four busy threads made up to 0.97 s of stops in
4 s). A stop is counted to within a look's :data:`POLL`; one shorter than :data:`STOP_SLACK` is
not counted. Where the kernel does not say a thread's times (no ``schedstat``), nothing is
counted.
"""

from __future__ import annotations

import os
import threading
import time

import attrs

POLL = 0.05
"""Seconds between the meter's looks."""

STOP_SLACK = 0.2
"""Seconds a look may come later than :data:`POLL` unexplained before the delay is taken for the
process having been stopped."""

THREAD_NAME = "codecup-stop-meter"
"""The name of the meter's thread."""


@attrs.define
class Stops:
    """The seconds stopped so far, from looks of one thread at the clock and at the time the
    process's threads ran on a processor or waited for one: what that time does not explain,
    between two looks :data:`POLL` apart, was a stop."""

    last: float  # when the last look was (monotonic seconds)
    own: float | None  # the process's threads' time on a processor and waiting for one then
    total: float = 0.0

    def seen(self, now: float, own: float | None) -> float:
        """The seconds stopped so far, at a look at ``now``, the threads' time then ``own`` (None:
        not known, or not read at one time with the clock: the look is left out, and the next one
        is compared with the last look that was one)."""
        if own is None:
            return self.total
        if self.own is not None:
            unexplained = now - self.last - POLL - (own - self.own)
            if unexplained > STOP_SLACK:
                self.total += unexplained
        self.last, self.own = now, own
        return self.total


TASKS = "/proc/self/task"
"""Where the kernel lists the process's threads."""


def threads_busy() -> float | None:
    """Seconds the process's threads, all added up, have run on a processor or waited for one (a
    thread that has ended no longer counts: its end is no stop); None where not known."""
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
        return None


@attrs.define(eq=False)
class StopMeter:
    """The process's stops, looked for by a daemon thread of its own (started at the first
    question: a process that plays no game has none); any thread may ask."""

    _stops: Stops | None = None
    _tid: int | None = None
    _lock: threading.Lock = attrs.field(factory=threading.Lock)

    def so_far(self) -> float:
        """Seconds the process was stopped since the meter began, counted up to now."""
        with self._lock:
            if self._stops is None or self._tid is None:
                self._start()
                return 0.0
            # A look of the asker's own: the meter's thread, resumed with it, may not have looked yet.
            return self._stops.seen(*look())

    def reset(self) -> None:
        """Forget the meter (in a forked child, which has no thread of it)."""
        self._stops, self._tid, self._lock = None, None, threading.Lock()

    def _start(self) -> None:
        thread = threading.Thread(target=self._watch, name=THREAD_NAME, daemon=True)
        thread.start()  # its native id is known once it has started
        self._tid = thread.native_id
        assert self._tid is not None
        self._stops = Stops(*look())

    def _watch(self) -> None:
        while True:
            time.sleep(POLL)
            with self._lock:
                if self._stops is None or threading.get_native_id() != self._tid:
                    return  # reset: a later question starts another
                self._stops.seen(*look())


def look() -> tuple[float, float | None]:
    """The clock and the process's threads' time, read together: a read that lasted longer than
    :data:`POLL` gives no time (None: not a look). Reading the threads' files lets the interpreter's
    lock go, and another thread may hold it a long while in C code meanwhile: the clock read before
    it and the threads' time after it made a stop of what the other thread ran (a reviewer's,
    after the meter first added up every thread's time)."""
    before = time.monotonic()
    busy = threads_busy()
    after = time.monotonic()
    return after, (busy if after - before <= POLL else None)


METER = StopMeter()
"""The process's meter."""

os.register_at_fork(after_in_child=METER.reset)


def so_far() -> float:
    """Seconds the referee's process was stopped so far (:class:`StopMeter`): read at both ends of
    a wait, their difference is the time of the wait that is no bot's. A test replaces this."""
    return METER.so_far()

"""How long a bot's tree waited for a processor: time that is neither its computing nor its idling.

Under the cpu clock a program's idling is the wall time of a wait less its CPU time and less the
time it waited for a processor. The kernel's pressure stall information for its cgroup
(``cpu.pressure``, the "some" total) says the last, but not all of it on a machine with several
processors: it is an average over the processors, each weighted by how busy it was, and a task that
waits on one processor and then on another is counted only in part. A red team's single busy task
beside six unpinned busy loops had 21 to 35% of its waiting left out (1.6% pinned to one
processor), and an honest program that only computed lost on time, charged 3 s of idling it never
had. The time each thread waited is the kernel's ``run_delay`` (the second field of
``/proc/<tid>/schedstat``), which counts on whatever processor it waits. So the waiting is the
larger of the two (:func:`waited`), the threads' part the longest any one thread waited (its own
difference, a thread new since the first reading counted whole): not their sum, which a bot can
make as large as it likes. A reviewer's bot released 110 processes to spin on its one processor's
quota for 0.05 s before each answer while its main thread slept 10 s (later 40 s): their summed
waiting, some 110 times what they ran, excused the whole sleep (no idling charged, where the
pressure alone had ended it at the second move).

A thread's id is no witness, though: a thread that calls ``execve`` takes its process's first
thread's id, and that id then shows the exec'ing thread's whole ``run_delay``, waited in earlier
moves (a reviewer's bot spun 40 children's second threads on one processor for 3 s in its first
move, then, each later move, slept 3 s and let one of them exec: its leader's id grew 3 s in one
interval, and 66 s of sleep went uncharged). The cgroup's pressure, which no id can fool, bounds
them: the threads' part counts at most :data:`PRESSURE_FACTOR` times the pressure's growth over the
same wait (:func:`excused`), so what the threads say beyond the pressure is trusted only as far as
the pressure's documented under-reporting reaches, and a wait in which the tree's pressure did not
grow excuses nothing.

Read only at the start and the end of a wait, the longest thread missed the waiting of a thread that
ended before the answer (a new thread for each move's search: C's pthreads, C++'s std::thread,
Java's ``new Thread``) and most of the waiting that passed between threads (two threads computing
in turn, a relay): a red team's honest bots were charged a third to a half of a loaded second as
idling, and lost on time told they had slept. So while a wait lasts, the threads are read every
:data:`INTERVAL` (a :class:`Sampler`), and the longest any one thread waited in each interval is
counted as the span of time just before its reading; the time those spans cover is summed once,
however many threads' (and intervals') spans overlap. A thread's time grows only as it gets a
processor back, by the whole wait that ends then, which may have begun intervals before: so the span
ends at the reading and reaches back as far as the thread waited, and a span cannot reach back past
the first wait that made it (all of the reviewer's spinners' spans lie within the time they spun;
not so an id an exec'ing thread took over, which the pressure bounds, above).
A thread that ends, or takes over from another, is counted for the spans it waited in; what it
waited after its last reading goes with it, so an interval's span is as long as its pressure's
growth where that is longer (the pressure is read with the threads: one file more). A span placed
up to its reading may cover a moment after the thread's wait in which it ran: a bot timed to the
readings gains no more that way than its processor time (which is charged); and however its
threads' readings are timed or fooled, the waiting counted exceeds what the tree really waited by
no more than :data:`PRESSURE_FACTOR` less one times it (:func:`excused`: the pressure is an average,
over the processors, of time some task of the tree waited on each, never more than it waited).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping

import attrs

PROC = "/proc"
"""Where the kernel lists the threads' times."""

INTERVAL = 0.03
"""Seconds between readings of each thread's waiting while a wait lasts (:class:`Sampler`): short
beside a search's thread or a relay's turn, long beside the reading (some 10 microseconds a thread).
A wait shorter than that reads them only at its start and its end."""

MOST_SHARE = 0.01
"""The most of a processor the referee spends on those readings while it waits: a tree of many
threads is read less often (at 64 threads a reading takes some 0.45 ms, at 256 some 1.8 ms)."""

KEPT = 4096
"""The most threads a :class:`Sampler` remembers past their end (a tree that starts more in one wait
is judged, from then on, by the threads of its last reading alone), and the most spans it keeps (a
long wait's older ones are no longer reached into)."""

PRESSURE_FACTOR = 2.0
"""The most the threads' part of a wait's waiting may be, as a multiple of its cgroup's pressure
growth over the same wait (:func:`excused`). The pressure leaves out part of the waiting (21 to 35%
of a red team's busy task among six unpinned busy loops, up to half of an unpinned bot's on a loaded
machine; 4 to 14% of a relay's among busy loops on 2 cores), never more than half measured: twice
the pressure makes up the most it left out, so no honest bot measured is charged idling it did not
have. And a bot that fools the threads' readings (an exec'ing thread showing its past waiting under
another id) gains at most once more the pressure it really had: time in which some task of its tree
really waited for a processor (its own quota, or a loaded machine's other tasks, holding it back),
which on an idle machine it pays for with its processor time. A larger factor would excuse more of
such fooling; a smaller one would charge honest bots idling when the pressure leaves out half."""

MOST_THREADS = 256
"""The most threads whose times are read at a time: a tree with more is judged by its cgroup's
pressure alone (each thread is a file to read, at each move)."""


@attrs.frozen
class Waits:
    """What the kernel says, at one time, of how long a bot's tree has waited for a processor."""

    pressure: float  # seconds: its cgroup's cpu.pressure "some" total
    threads: Mapping[int, float] | None = None  # each thread's seconds (run_delay) by id; None: not read


def excused(pressure: float, threads: float) -> float:
    """Seconds of waiting for a processor counted for a wait in which the tree's pressure grew by
    ``pressure`` and its threads' readings said ``threads``: the threads' where longer, but no more
    than :data:`PRESSURE_FACTOR` times the pressure (a thread's id can be taken over, with its time,
    by an exec'ing thread of the same process; the cgroup's pressure cannot be fooled so)."""
    return max(pressure, min(threads, PRESSURE_FACTOR * pressure))


def waited(before: Waits | None, after: Waits | None) -> float:
    """Seconds the tree waited for a processor between two readings (0 where either is not known):
    the larger of its pressure's growth and the longest any one of its threads waited (where both
    readings have them), that at most :data:`PRESSURE_FACTOR` times the pressure's (:func:`excused`)."""
    if before is None or after is None:
        return 0.0
    found = after.pressure - before.pressure
    if before.threads is not None and after.threads is not None:
        found = excused(found, longest(before.threads, after.threads))
    return found


def longest(before: Mapping[int, float], after: Mapping[int, float]) -> float:
    """The most seconds any one thread's time grew between two readings (a thread new since
    ``before``, or another under an ended one's id, counted whole)."""
    most = 0.0
    for tid, now in after.items():
        then = before.get(tid, 0.0)
        most = max(most, now - (then if now >= then else 0.0))
    return most


@attrs.define(eq=False)
class Sampler:
    """The waiting of a tree's threads through one wait, read at intervals (:data:`INTERVAL`): the
    time covered by the spans the longest-waiting thread of each interval waited, or its pressure
    said, whichever is longer (as late as they can have been: up to its reading); over the wait, at
    most :data:`PRESSURE_FACTOR` times the pressure's growth."""

    first: Waits  # the reading at the wait's start
    began: float  # when it was taken (seconds of a monotonic clock)
    last: dict[int, float] | None  # each thread's time at its last reading (None: not known)
    found: float = 0.0  # seconds the spans cover so far
    spans: list[tuple[float, float]] = attrs.field(factory=list)  # they, apart and in order
    floor: float = attrs.field()  # no span reaches back before it: the start, or a pruned span's end
    pressure: float = attrs.field()  # the pressure total at the last reading

    @floor.default
    def _began(self) -> float:
        return self.began

    @pressure.default
    def _first_pressure(self) -> float:
        return self.first.pressure

    @classmethod
    def start(cls, first: Waits | None, now: float) -> Sampler | None:
        """Sample a wait from its first reading, taken at ``now`` (None: no reading to start from)."""
        if first is None:
            return None
        return cls(first, now, dict(first.threads) if first.threads is not None else None)

    def read(self, reading: Waits, now: float) -> None:
        """Add the interval up to ``reading``, taken at ``now``: a span that ends then, as long as
        the longest any one thread waited in it or as its pressure grew (threads not read now or
        at the last reading: the pressure's)."""
        # The pressure's part is within the interval; a thread's waiting, told as it ends, may
        # reach back before it. Whatever a thread that ended since the last reading waited went
        # with it: the pressure tells some of that (a new thread for each search).
        reach, self.pressure = reading.pressure - self.pressure, reading.pressure
        threads = reading.threads
        if self.last is not None and threads is not None:
            # A thread new in the interval counts whole (it began in it), one that ended keeps its
            # last reading (one left out of a reading is not counted whole at the next). Only the
            # longest counts, and its span overlaps those before: 110 spinners waiting at once
            # cover the time they spun, once.
            reach = max(reach, longest(self.last, threads))
            self.last.update(threads)
            if len(self.last) > KEPT:
                self.last = dict(threads)
        else:
            self.last = dict(threads) if threads is not None else None
        self._cover(max(now - reach, self.floor), now)

    def _cover(self, start: float, end: float) -> None:
        """Add the span from ``start`` to ``end`` (no earlier than any span's end so far)."""
        if end <= start:
            return
        while self.spans and self.spans[-1][1] >= start:  # it overlaps the spans it reaches back to
            before, after = self.spans.pop()
            self.found -= after - before
            start = min(start, before)
        self.spans.append((start, end))
        self.found += end - start
        if len(self.spans) > KEPT:  # a long wait's: the older half no longer reached into (a span
            self.floor = self.spans[KEPT // 2 - 1][1]  # that would have is counted less, never twice)
            del self.spans[: KEPT // 2]

    def so_far(self, now: float) -> float:
        """Seconds of waiting found up to the last reading, on :meth:`waited`'s scale (capped as it
        is), so that no later :meth:`waited` is less: a look's reading, compared with a later one."""
        return min(excused(self.pressure - self.first.pressure, self.found), max(0.0, now - self.began))

    def waited(self, after: Waits | None, now: float) -> float:
        """Seconds the tree waited for a processor from the first reading to ``after``, taken at
        ``now`` (which closes the last interval): the larger of :func:`waited` between the two
        and the intervals' sum, that at most :data:`PRESSURE_FACTOR` times the pressure's growth
        over the wait (:func:`excused`), and no more than the wall time between them."""
        if after is None:
            return 0.0
        self.read(after, now)
        found = excused(after.pressure - self.first.pressure, max(waited(self.first, after), self.found))
        return min(found, max(0.0, now - self.began))


@functools.cache
def _own_proc() -> bool:
    """Whether :data:`PROC` shows this process's pid namespace: a cgroup lists its threads by
    their ids in the reader's namespace, and another namespace's ``/proc`` would name others."""
    try:
        return int(os.readlink(f"{PROC}/self")) == os.getpid()
    except (OSError, ValueError):
        return False


def run_delays(tids: Iterable[int]) -> dict[int, float] | None:
    """Seconds each of the threads ``tids`` (ids in this process's pid namespace) has waited for a
    processor, by id (one that has ended, or whose times cannot be read, is left out); None where
    not known, or for more than :data:`MOST_THREADS` threads."""
    wanted = [tid for tid in tids if tid > 0]  # 0: a thread of a namespace this one does not see
    if len(wanted) > MOST_THREADS or not _own_proc():
        return None
    found = {}
    for tid in wanted:  # a file object costs twice the bare calls, at each thread of each move
        try:
            fd = os.open(f"{PROC}/{tid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:  # ended meanwhile, or no schedstat here
            continue
        try:
            found[tid] = int(os.read(fd, 128).split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
        finally:
            os.close(fd)
    return found


def thread_state(tid: int) -> str:
    """The kernel's state letter of thread ``tid`` (``R`` running or waiting for a processor, ``S``
    asleep, ``D`` in an uninterruptible wait, ...); empty where it has ended or cannot be read."""
    try:
        with open(f"{PROC}/{tid}/stat", "rb") as stat:
            text = stat.read(512)
    except OSError:
        return ""
    fields = text.rpartition(b")")[2].split()  # the name, in parentheses, may hold anything
    return fields[0].decode("ascii", "replace") if fields else ""

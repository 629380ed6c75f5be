"""The real waiting of a block: wall time a loaded machine does not lengthen.

A test that means "nothing here waits on a real clock" once bounded the block's wall time (under
1 s); on a loaded machine (a load of 45 on 2 cores) a healthy run waited that long for a processor,
and failed. What it means is the wall time in which none of the threads of this process and of its
child processes (the bots it runs) ran or waited for a processor: a sleep, a blocked read, a wait on
a timer. Each thread's times are Linux's (``schedstat``), read every :data:`LOOK` seconds by a thread
of the block's own; between two looks, the wall time less what the threads ran and waited is idling.

It is a lower bound of that waiting, and never negative: an interval's idling is its wall time less
what its threads ran and waited, summed (threads that ran side by side count twice), never below 0;
an interval in which a thread ended (what it did since the last look is unknown) counts none; and the
looker's own waits for a processor count as busy (a load that starves the looker starves the block).

Linux adds a wait for a processor to a thread's times only once the wait ends (the thread is given
a processor), not while it lasts: a thread left runnable but unscheduled for seconds read as idling
until then (a nice-19 child spinning beside two other spinners on its processor: 16.4 s of 21 s
counted as idling). So an interval in which a thread (not the looker) was runnable at either look
(state ``R`` in its ``stat``) counts none, and a wait or run added later than the interval it was
in (an interval's thread more than its wall time, by ``late`` seconds) is taken back from the idling
counted before it, never below 0: from the intervals in the ``late`` seconds of wall time just
before, where it lay (a thread waits once at a time, and a wait is added when it ends), not from
idling before those (a sleep before a second left runnable and counted none keeps its idling).

So a loaded machine makes it smaller, never larger, and a block that sleeps or waits for a real
clock on an idle machine counts its waiting in full. The price: on a very loaded machine (the looker
mostly waiting for a processor) a real wait counts only in part, and a bound on it may let pass
there a wait it catches on an idle machine.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator, Mapping

import attrs

LOOK = 0.02
"""Seconds between two reads of the threads' times."""

_TICK = os.sysconf("SC_CLK_TCK")


@attrs.frozen
class Seen:
    """One thread's times at a look."""

    ran: float
    """Seconds it ran on a processor (cumulative)."""
    waited: float
    """Seconds it waited for one, counted once each wait ended (cumulative)."""
    runnable: bool = False
    """Whether it was running or waiting for a processor at the look (state ``R``)."""


Times = Mapping[int, Seen]
"""Each thread's times at a look, by its id."""


@attrs.define
class _Span:
    """One interval between two looks, as counted."""

    wall: float
    """Its wall seconds."""
    idle: float
    """Its idling as counted (0 for an interval counted none)."""
    covered: float = 0.0
    """The wall seconds at its end that a wait added late lay in (the most of all such waits: each
    lay in an end of it, up to the look after it)."""

    @property
    def left(self) -> float:
        """Its idling less what the late waits may have covered of it (all idling, at worst)."""
        return max(0.0, self.idle - self.covered)


@attrs.define
class Idled:
    """What a block's threads did, added up look by look: never negative; what they ran only grows."""

    seconds: float = 0.0
    """Wall seconds in which none of the threads ran or waited for a processor (a lower bound). It
    may shrink when a wait Linux counted late is taken back from the intervals it was in."""
    ran: float = 0.0
    """Seconds the threads (not the looker) ran on a processor, summed; threads that ended between
    two looks lose what they ran since the last (a lower bound too)."""
    looker: int | None = None
    """The id of the thread that looks: its waits for a processor count as busy, its running not."""
    _at: float | None = None
    _last: dict[int, Seen] = attrs.field(factory=dict)
    _spans: list[_Span] = attrs.field(factory=list)
    """Each interval counted so far, the latest last: a late wait is taken back from the ones it
    lay in."""

    def look(self, at: float, times: Times | None) -> None:
        """Add the interval since the last look, ending at ``at`` (a monotonic clock's seconds), in
        which the threads' times became ``times`` (None: not known, and the interval all idling)."""
        if self._at is None:
            self._at, self._last = at, dict(times or {})
            return
        wall, self._at = max(0.0, at - self._at), max(self._at, at)
        if times is None:
            self._add(wall, wall)
            return
        busy, ran, lates = 0.0, 0.0, []
        ended = any(tid not in times for tid in self._last)
        runnable = False
        for tid, now in times.items():
            was = self._last.get(tid, Seen(0.0, 0.0))
            if now.ran < was.ran or now.waited < was.waited:  # a new thread under an ended one's id
                ended, was = True, Seen(0.0, 0.0)
            if tid == self.looker:
                did = now.waited - was.waited
            else:
                did = (now.ran - was.ran) + (now.waited - was.waited)
                ran += now.ran - was.ran
                runnable = runnable or now.runnable or was.runnable
            busy += min(did, wall)
            if did > wall:
                lates.append(did - wall)  # it was in the intervals before this one
        self._last = dict(times)
        self.ran += ran
        for late in lates:
            self._take_back(late)
        idle = 0.0 if ended or runnable else max(0.0, wall - busy)
        self._add(wall, idle)

    def _add(self, wall: float, idle: float) -> None:
        if wall > 0.0:
            self._spans.append(_Span(wall, idle))
            self.seconds += idle

    def _take_back(self, late: float) -> None:
        """Take back a thread's wait (or run) of ``late`` seconds added after the intervals it was
        in: it lay in the ``late`` seconds of wall time before this interval (a thread waits once at
        a time, and the wait is added when it ends), of which each interval's idling may all have
        been. Late waits side by side lie in the same wall time: it is taken back once."""
        for span in reversed(self._spans):
            if late <= 0.0:
                break
            left = span.left
            span.covered = max(span.covered, min(late, span.wall))
            self.seconds = max(0.0, self.seconds - (left - span.left))
            late -= span.wall


def started(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def now_ticks() -> int:
    """The clock ticks since boot, as a process's start is counted in :func:`started`."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * _TICK)


def tree_times(root: int, children: bool = True, since: int | None = None) -> dict[int, Seen] | None:
    """The times of each thread of ``root`` and (with ``children``) of its descendants started at
    tick ``since`` or later (all, when None), by thread id; None when ``root``'s own are not known.
    The thread reading is never runnable: it runs to read."""
    found: dict[int, Seen] = {}
    me = threading.get_native_id()
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        if pid != root and since is not None and (began := started(pid)) is not None and began < since:
            continue  # a process that is not the block's: an orphan this one adopted, say
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            if pid == root:
                return None
            continue  # a child that has just ended
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    ran, waited, _ = f.read().split()
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
                if children:
                    with open(f"/proc/{pid}/task/{tid}/children") as f:
                        pending.extend(int(child) for child in f.read().split())
            except (OSError, ValueError):
                continue  # a thread that has just ended
            runnable = state == "R" and int(tid) != me
            found[int(tid)] = Seen(int(ran) / 1e9, int(waited) / 1e9, runnable)
    return found


@contextlib.contextmanager
def idling(children: bool = True) -> Iterator[Idled]:
    """Measure the block's real waiting (:class:`Idled`, read as it goes or once the block ended):
    the wall time in which none of this process's threads, nor (with ``children``) its child
    processes', ran or waited for a processor, and the processor time they ran. Without
    ``children`` a child's waits (for a processor, or its cgroup's quota) are this process's idling:
    where the referee's wait for a starved program is what is bounded. Only the child processes
    started in the block count (and their own): not the orphans this process adopted as a child
    subreaper (the referee makes itself one), nor a child started before."""
    done, root, since = threading.Event(), os.getpid(), now_ticks()
    idled = Idled()
    idled.look(time.monotonic(), tree_times(root, children, since))

    def look() -> None:
        idled.looker = threading.get_native_id()
        while not done.wait(LOOK):
            idled.look(time.monotonic(), tree_times(root, children, since))

    looker = threading.Thread(target=look, name="tests-idling", daemon=True)
    looker.start()
    try:
        yield idled
    finally:
        done.set()
        looker.join()
        idled.looker = None  # it has ended: the last look is this thread's
        idled.look(time.monotonic(), tree_times(root, children, since))

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

Times = Mapping[int, tuple[float, float]]
"""Each thread's seconds on a processor and seconds waiting for one, by its id."""


@attrs.define
class Idled:
    """What a block's threads did, added up look by look: both only grow, and are never negative."""

    seconds: float = 0.0
    """Wall seconds in which none of the threads ran or waited for a processor (a lower bound)."""
    ran: float = 0.0
    """Seconds the threads (not the looker) ran on a processor, summed; threads that ended between
    two looks lose what they ran since the last (a lower bound too)."""
    looker: int | None = None
    """The id of the thread that looks: its waits for a processor count as busy, its running not."""
    _at: float | None = None
    _last: dict[int, tuple[float, float]] = attrs.field(factory=dict)

    def look(self, at: float, times: Times | None) -> None:
        """Add the interval since the last look, ending at ``at`` (a monotonic clock's seconds), in
        which the threads' times became ``times`` (None: not known, and the interval all idling)."""
        if self._at is None:
            self._at, self._last = at, dict(times or {})
            return
        wall, self._at = max(0.0, at - self._at), max(self._at, at)
        if times is None:
            self.seconds += wall
            return
        busy, ran = 0.0, 0.0
        ended = any(tid not in times for tid in self._last)
        for tid, (now_ran, now_waited) in times.items():
            was_ran, was_waited = self._last.get(tid, (0.0, 0.0))
            if now_ran < was_ran or now_waited < was_waited:  # a new thread under an ended one's id
                ended, was_ran, was_waited = True, 0.0, 0.0
            if tid == self.looker:
                busy += now_waited - was_waited
                continue
            busy += (now_ran - was_ran) + (now_waited - was_waited)
            ran += now_ran - was_ran
        self._last = dict(times)
        self.ran += ran
        if not ended:
            self.seconds += max(0.0, wall - busy)


def tree_times(root: int, children: bool = True) -> dict[int, tuple[float, float]] | None:
    """The times of each thread of ``root`` and (with ``children``) of its descendants, by thread
    id; None when ``root``'s own are not known."""
    found: dict[int, tuple[float, float]] = {}
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
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
                if children:
                    with open(f"/proc/{pid}/task/{tid}/children") as f:
                        pending.extend(int(child) for child in f.read().split())
            except (OSError, ValueError):
                continue  # a thread that has just ended
            found[int(tid)] = (int(ran) / 1e9, int(waited) / 1e9)
    return found


@contextlib.contextmanager
def idling(children: bool = True) -> Iterator[Idled]:
    """Measure the block's real waiting (:class:`Idled`, read as it goes or once the block ended):
    the wall time in which none of this process's threads, nor (with ``children``) its child
    processes', ran or waited for a processor, and the processor time they ran. Without
    ``children`` a child's waits (for a processor, or its cgroup's quota) are this process's idling:
    where the referee's wait for a starved program is what is bounded."""
    done, root = threading.Event(), os.getpid()
    idled = Idled()
    idled.look(time.monotonic(), tree_times(root, children))

    def look() -> None:
        idled.looker = threading.get_native_id()
        while not done.wait(LOOK):
            idled.look(time.monotonic(), tree_times(root, children))

    looker = threading.Thread(target=look, name="tests-idling", daemon=True)
    looker.start()
    try:
        yield idled
    finally:
        done.set()
        looker.join()
        idled.looker = None  # it has ended: the last look is this thread's
        idled.look(time.monotonic(), tree_times(root, children))

"""The real waiting of this process in a block: wall time a loaded machine does not lengthen.

A test that means "nothing here waits on a real clock" once bounded the block's wall time (under
1 s); on a loaded machine (a load of 45 on 2 cores) a healthy run waited that long for a processor,
and failed. What it means is the wall time in which none of the process's threads ran or waited for
a processor: a sleep, a blocked read, a wait for another process. Each thread's times are Linux's
(``schedstat``, :func:`codecup.stopped.threads_busy`), read every :data:`LOOK` seconds by a thread of
the block's own, so that a thread that ends in the block (a bot's, a pool's) keeps what it ran and
waited up to its last look.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import attrs

from codecup.stopped import threads_busy

LOOK = 0.01
"""Seconds between two reads of the threads' times."""


@attrs.define
class Idled:
    """The seconds a block's process idled (asleep or blocked), read when the block has ended."""

    seconds: float = float("nan")


@contextlib.contextmanager
def idling() -> Iterator[Idled]:
    """Measure the block's real waiting: its wall time less the seconds the process's threads (not
    the measuring one) ran or waited for a processor; a thread that ran beside another makes it
    less, never more. Where the kernel does not say a thread's times, the block's wall time."""
    idled, done = Idled(), threading.Event()
    first = threads_busy() or {}
    last, gone = dict(first), [0.0]  # each thread's last look; what ended ones under a reused id had
    start = time.monotonic()

    def read() -> None:
        for tid, seconds in (threads_busy() or {}).items():
            if seconds < last.get(tid, 0.0):  # a new thread under an ended one's id
                gone[0] += last[tid] - first.pop(tid, 0.0)
            last[tid] = seconds

    def look() -> None:
        while True:
            read()
            if done.wait(LOOK):
                return

    looker = threading.Thread(target=look, name="tests-idling", daemon=True)
    looker.start()
    try:
        yield idled
    finally:
        done.set()
        looker.join()
        read()
        wall = time.monotonic() - start
        busy = sum(seconds - first.get(tid, 0.0) for tid, seconds in last.items() if tid != looker.native_id)
        idled.seconds = wall - busy - gone[0]

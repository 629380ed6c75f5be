"""An asyncio event loop with a fake clock, to test time-outs without waiting (trio's ``MockClock``).

Its clock starts at 0 and stands still while anything is ready to run; when
nothing is, it jumps to the next timer (``autojump``) instead of sleeping.
Code under test reads it through ``loop.time()`` (the referee's
:func:`codecup.clock.loop_time`), and a fake bot "thinks" by :meth:`FakeClockLoop.advance`.

With ``real_time``, the clock also runs at the real speed (for tests with
real programs, whose output arrives in real time); ``autojump`` can then be
switched off to let the programs be closed on real time.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from typing import Any


class _JumpingSelector(selectors.DefaultSelector):
    """A selector that, rather than block with a timeout, moves its loop's clock past it."""

    def __init__(self, loop: FakeClockLoop) -> None:
        super().__init__()
        self.loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if not self.loop.autojump or timeout is None:
            return super().select(timeout)  # no timer at all: only I/O can wake the loop
        ready: list[tuple[selectors.SelectorKey, int]] = super().select(0)
        if not ready and timeout > 0:
            self.loop.advance(timeout + self.loop.overshoot)
        return ready


class FakeClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock only moves when told to, or when nothing is ready to run."""

    def __init__(self, *, real_time: bool = False) -> None:
        self.autojump = True
        self.overshoot = 0.0
        """Seconds each jump to a timer goes past it (a real loop's epoll rounds a timeout up)."""
        self._offset = 0.0
        self._real_start = time.monotonic() if real_time else None
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        """Seconds since the loop was made: the jumps and advances, plus real time if it runs."""
        real = 0.0 if self._real_start is None else time.monotonic() - self._real_start
        return self._offset + real

    def advance(self, seconds: float) -> None:
        """Move the clock on (a fake bot's thinking)."""
        self._offset += seconds


current: FakeClockLoop | None = None
"""The loop :func:`run` runs now: a fake bot moves its clock on from the thread it thinks in."""


def run(coroutine: Any, *, real_time: bool = False) -> Any:
    """Run ``coroutine`` to its end on a new fake-clock loop."""
    global current
    loop = current = FakeClockLoop(real_time=real_time)
    try:
        return loop.run_until_complete(coroutine)
    finally:
        current = None
        loop.close()

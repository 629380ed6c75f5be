"""Ctrl-C during a match, whatever event loop runs it: the match is cancelled, so its bots end.

:func:`asyncio.run` turns SIGINT into cancelling its main task, so a match's
cleanup (its ``finally``, which ends every bot's process tree) runs. A loop run
otherwise (``loop.run_until_complete``, as IPython's and Jupyter's cells do)
keeps Python's default handler: the ``KeyboardInterrupt`` comes out of the
loop's ``select()``, outside every task, and the match stays pending with its
bots running, thawed, for as long as the process lives (a red team's bot spun
on in a notebook's kernel after its cell was interrupted).

While a match runs in the main thread under that default handler,
:func:`interruptible` puts a handler of its own in its place that cancels the
running matches, as :func:`asyncio.run` does; each match then ends its bots and
raises ``KeyboardInterrupt`` to its caller (:func:`codecup.runner.play_match`).
The previous handler is back once no match runs. A handler of the caller's own
(asyncio.run's, a program's) is left alone: it decides what Ctrl-C does.

A Ctrl-C that goes through as ``KeyboardInterrupt`` all the same (a third one
while the matches end, or one when their loop no longer runs: the caller left a
match pending) first kills the programs of every match not ended
(:meth:`~codecup.players.base.Player.end_now`), whose cleanup would never run.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import Any

import attrs

from codecup.players.base import Player


@attrs.define(eq=False)
class Watch:
    """One match's watch for Ctrl-C."""

    task: asyncio.Task[Any]
    interrupted: bool = False
    """Ctrl-C cancelled the match: it raises ``KeyboardInterrupt`` once its bots have ended."""
    players: Sequence[Player] = ()
    """The match's players, for the safety net (:func:`_end_abandoned`)."""
    ended: asyncio.Event = attrs.field(factory=asyncio.Event)
    """Set once the match has ended its players (:meth:`interrupted_after_all`)."""

    async def interrupted_after_all(self) -> None:
        """Once the match has ended its players: wait for the other matches Ctrl-C cancelled in its
        loop to have ended theirs (bounded), since the ``KeyboardInterrupt`` it raises then stops
        the loop, and theirs would stay running (matches gathered in one cell)."""
        self.ended.set()
        loop = self.task.get_loop()
        others = [w for w in _watches if w is not self and w.interrupted and w.task.get_loop() is loop]
        waits = [asyncio.ensure_future(w.ended.wait()) for w in others if not w.ended.is_set()]
        if waits:
            _, pending = await asyncio.wait(waits, timeout=OTHERS_LIMIT)
            for wait in pending:
                wait.cancel()
            if pending:  # their programs would outlive the loop: the safety net's
                _end_abandoned()


OTHERS_LIMIT = 10.0
"""Seconds a match stopped by Ctrl-C waits for the others to end their programs (each one's ending
is bounded by a few seconds)."""


_watches: list[Watch] = []  # the matches running in the main thread under our handler
_previous: Any = None  # the handler ours replaced (Python's default), while ours is in place
_presses = 0  # Ctrl-Cs since the first cancelled the matches


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    """Cancel every match running (their bots' trees end, each within its bounded close). A second
    Ctrl-C while they end is let be; a third, or one when no match's loop runs (its loop was
    stopped, so nothing would act on a cancel), is Python's default: ``KeyboardInterrupt`` here."""
    global _presses
    live = [w for w in _watches if not w.task.done() and w.task.get_loop().is_running()]
    _presses += 1
    if not live or _presses > 2:
        _end_abandoned()
        _restore()
        signal.default_int_handler(signum, frame)
        return
    for watch in live:
        if not watch.interrupted:
            watch.interrupted = True
            watch.task.cancel()
        # Wakes a loop waiting in select() (a handler runs between its calls, not inside them).
        watch.task.get_loop().call_soon_threadsafe(lambda: None)


def _end_abandoned() -> None:
    """The safety net, as Ctrl-C goes through as ``KeyboardInterrupt`` (out of a loop's select(),
    outside every task): the programs of each match not ended, whose cleanup would never run, are
    killed now (a match its caller left pending as its loop stopped; one whose own ending a third
    Ctrl-C cut short)."""
    for watch in _watches:
        if not watch.task.done():
            for player in watch.players:
                with contextlib.suppress(Exception):  # each one's, whatever another's did
                    player.end_now()


def _restore() -> None:
    """The previous handler back, if ours is still the one in place."""
    global _previous, _presses
    if _previous is not None and signal.getsignal(signal.SIGINT) is _on_sigint:
        signal.signal(signal.SIGINT, _previous)
    _previous, _presses = None, 0


@contextlib.contextmanager
def interruptible() -> Iterator[Watch | None]:
    """Within: Ctrl-C cancels the current task (a match), where Python's default handler would
    leave it pending (see the module's docstring). None: the task is not watched (not in the main
    thread, or another handler than Python's default decides what Ctrl-C does)."""
    global _previous
    task = asyncio.current_task()
    if task is None or threading.current_thread() is not threading.main_thread():
        yield None
        return
    if _previous is None:
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            yield None
            return
        _previous = signal.signal(signal.SIGINT, _on_sigint)
    watch = Watch(task)
    _watches.append(watch)
    try:
        yield watch
    finally:
        _watches.remove(watch)
        if not _watches:
            _restore()

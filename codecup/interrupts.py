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
running matches, as :func:`asyncio.run` does, and every match watched in their
loop until the Ctrl-C is raised (one that started just after it). Each match
ends its bots; once all have, the others end cancelled and the last raises
``KeyboardInterrupt`` to its caller (:func:`codecup.runner.play_match`), which
stops the loop with none of them pending. The previous handler is back once no
match runs. A handler of the caller's own
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
from types import CodeType, FrameType
from typing import Any

import attrs

from codecup.players.base import Player


@attrs.define(eq=False)
class Watch:
    """One match's watch for Ctrl-C."""

    task: asyncio.Task[Any]
    interrupted: bool = False
    """Ctrl-C cancelled the match: once every match it cancelled in the loop has ended its bots,
    the last of them raises ``KeyboardInterrupt`` (:meth:`wait_for_others`)."""
    players: Sequence[Player] = ()
    """The match's players, for the safety net (:func:`_end_abandoned`)."""
    ended: bool = False
    """The match has ended its players (or is done)."""
    released: asyncio.Future[bool] | None = None
    """While the match waits for the others Ctrl-C cancelled (:meth:`wait_for_others`): true if
    it is the one to raise ``KeyboardInterrupt``."""

    async def wait_for_others(self) -> bool:
        """Once the match has ended its players: wait (bounded) for the other matches the same
        Ctrl-C cancelled in its loop to have ended theirs. True: this match raises the
        ``KeyboardInterrupt`` (the last one), after the others have ended (``CancelledError``) in
        the loop's same step, so none is left pending (matches gathered in one cell: each raised
        its own, the first stopped the loop, the others stayed pending, their bots running, and
        raised theirs on the loop's next run)."""
        self.ended = True
        loop = self.task.get_loop()
        interrupt = _pending.get(loop)
        if interrupt is None:
            return True
        if interrupt.all_ended():
            del _pending[loop]  # delivered: a match watched from now on plays
            _release(interrupt, None)
            await asyncio.sleep(0)  # after the released matches' last steps (queued already)
            return True
        self.released = released = loop.create_future()
        timer = loop.call_later(OTHERS_LIMIT, released.set_result, True)
        try:
            raiser: bool = await released  # awaited at once: woken in the step the last one releases it
        finally:
            timer.cancel()
            self.released = None
        if not interrupt.all_ended():  # the others' ending overran: the safety net kills theirs
            _end_abandoned()
            _pending.pop(loop, None)
        return raiser

    def interrupt(self, cancelled: asyncio.CancelledError, coroutine: CodeType) -> BaseException:
        """What the last match (:meth:`wait_for_others` true) raises: ``KeyboardInterrupt``, through
        its caller's code, where the match is awaited in a coroutine of theirs. Where the match is
        the task itself (``coroutine``'s: gathered, ``wait_for``'s, ``create_task``'s), it ends
        cancelled, and a callback of its end raises the ``KeyboardInterrupt``, after those of
        what awaits it: a task's ``KeyboardInterrupt`` is kept for its awaiters, which raised it on
        the loop's next run (``wait_for``'s: a reviewer's next cell failed) or left it to be
        logged as never retrieved."""
        if self.task.get_coro().cr_code is not coroutine:  # type: ignore[union-attr]
            return KeyboardInterrupt()
        self.task.add_done_callback(_raise_interrupt)
        return cancelled

    def finish(self) -> None:
        """The match is done, however (also returned as the Ctrl-C came): if the others a Ctrl-C
        cancelled wait for it, they end, one of them raising the Ctrl-C."""
        self.ended = True
        loop = self.task.get_loop()
        interrupt = _pending.get(loop)
        if interrupt is None or not interrupt.all_ended():
            return
        waiting = [w for w in interrupt.watches if w.released is not None]
        if waiting:
            del _pending[loop]
            _release(interrupt, waiting[-1])


@attrs.define(eq=False)
class _Interrupt:
    """A Ctrl-C in one loop, until the loop raises it: the matches it cancelled, and every one
    watched there before that (a match that registered just after the Ctrl-C was left running)."""

    watches: list[Watch] = attrs.field(factory=list)

    def all_ended(self) -> bool:
        """Whether every match cancelled has ended its players."""
        return all(w.ended for w in self.watches)


OTHERS_LIMIT = 10.0
"""Seconds a match stopped by Ctrl-C waits for the others to end their programs (each one's ending
is bounded by a few seconds)."""


_watches: list[Watch] = []  # the matches running in the main thread under our handler
_pending: dict[asyncio.AbstractEventLoop, _Interrupt] = {}  # Ctrl-Cs not yet raised, by loop
_previous: Any = None  # the handler ours replaced (Python's default), while ours is in place
_presses = 0  # Ctrl-Cs since the first cancelled the matches


def _interrupt(watch: Watch) -> None:
    """Cancel ``watch``'s match for its loop's Ctrl-C."""
    if watch.interrupted:
        return
    watch.interrupted = True
    _pending.setdefault(watch.task.get_loop(), _Interrupt()).watches.append(watch)
    watch.task.cancel()


def _raise_interrupt(task: asyncio.Task[Any]) -> None:
    """The Ctrl-C, out of the loop (its run_until_complete raises it), as the last match ends."""
    raise KeyboardInterrupt


def _release(interrupt: _Interrupt, raiser: Watch | None) -> None:
    """Wake the matches waiting for the others, ``raiser`` last (its step after theirs)."""
    waiting = [w.released for w in interrupt.watches if w is not raiser and w.released is not None]
    if raiser is not None and raiser.released is not None:
        waiting.append(raiser.released)
    for released in waiting:
        if not released.done():
            released.set_result(released is waiting[-1] and raiser is not None)


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    """Cancel every match running (their bots' trees end, each within its bounded close). A second
    Ctrl-C while they end is let be; a third, or one when no match's loop runs (its loop was
    stopped, so nothing would act on a cancel), is Python's default: ``KeyboardInterrupt`` here."""
    global _presses
    live = [w for w in _watches if not w.task.done() and w.task.get_loop().is_running()]
    _presses += 1
    if not live or _presses > 2:
        _end_abandoned()
        _pending.clear()  # this one is the Ctrl-C raised
        _restore()
        signal.default_int_handler(signum, frame)
        return
    for watch in live:
        _interrupt(watch)
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
    if task.get_loop() in _pending:  # a Ctrl-C not yet raised in this loop stops this match too
        _interrupt(watch)
    try:
        yield watch
    finally:
        _watches.remove(watch)
        watch.finish()
        if not _watches:
            _restore()

"""A bound on the processor time of the game plugin's own code, within one step of a game.

The referee runs the game's code (its referee dialogue, its rules, its ``points``) in its own
thread, between its waits on the bots. Code of a plugin that loops for ever there held a whole
``play`` or tournament up, with no word. :func:`bounded` runs one such step under a watchdog:
a step that takes more than :data:`LIMIT` seconds of its thread's processor time is stopped by
an exception raised into that thread (as ``KeyboardInterrupt`` stops a loop), and is the
plugin's bug (:class:`~codecup.errors.GameBugError`): a referee error of both seats, the run
goes on.

Processor time, not wall time: a loaded machine slows the step without failing it. It stops
Python code, which checks for such exceptions between its instructions; a step blocked in a
system call, or in one long call of compiled code, runs on until that call returns. A step that
catches the exception (``except BaseException``) and spins on gets it again after each further
second of processor time. Where a thread's processor time cannot be read (no
``time.pthread_getcpuclockid``: macOS), steps are not bounded.

Once a stop came (SIGTERM, Ctrl-C), each step is bounded by :data:`AGAIN` (:func:`stop_came`), a
step running as a section of the run holds the stop till its end (a game's logging, which
redraws the live site's standings) too: one that takes longer is cut short, as
:class:`~codecup.errors.CutShortError`, its caller falls back (the default ranking, an undrawn
board), and the run stops in seconds. A red team's ``standing_key`` that spun there held a SIGTERM
back for its whole bound, and was asked again as the run stopped: minutes of a loaded machine's
wall time.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

import attrs

from codecup.errors import CutShortError, NeverEndsError

T = TypeVar("T")

#: Seconds of processor time one step of the game's code may take (loading a word list and its
#: tables, the slowest step of a built-in game, takes about a second).
LIMIT = 30.0
#: Seconds of further processor time after which a step that caught the exception gets it again.
AGAIN = 1.0
#: Seconds between the watchdog's looks at the steps it bounds.
EVERY = 0.05


class Overrun(BaseException):
    """Raised into a thread whose step of game code ran past its bound (a BaseException: a
    plugin's ``except Exception`` does not swallow it)."""


@attrs.define(eq=False)
class _Step:
    thread: int  # the thread's identifier (its pthread id)
    clock: int  # the thread's processor-time clock
    limit: float
    started: float  # the clock's reading at the step's start
    fired: float | None = None  # the clock's reading when the exception was last raised into it
    active: bool = True
    cut: str | None = None  # the stop that cut it short (cut_short), by its signal's name


# A plain lock: its ``with`` runs no Python code of its own, so an exception raised into a thread as
# it takes the lock cannot leave it taken (a Condition's __enter__ is Python code: a reviewer's
# thread left the watch holding it, and every later step and the watchdog waited for ever).
_lock = threading.Lock()
_wake = threading.Event()  # set while there are steps to watch
_steps: set[_Step] = set()
_watchdog: threading.Thread | None = None


def bounded(what: str, step: Callable[[], T]) -> T:
    """``step()``, stopped as the plugin's bug (``what``: whose code, for the message) once it has
    taken more than :data:`LIMIT` seconds of its thread's processor time."""
    if not hasattr(time, "pthread_getcpuclockid"):  # no thread's processor time here (macOS): unbounded
        return step()
    if _unwatched:  # a bot program: the referee's clock bounds it, and its watchdog would be a thread
        return step()
    clock = time.pthread_getcpuclockid(threading.get_ident())
    watched = _Step(threading.get_ident(), clock, LIMIT, time.clock_gettime(clock))
    if _stop is not None:  # the run is stopping: a step that takes long is cut short (stop_came)
        watched.cut, watched.limit = _stop, min(LIMIT, AGAIN)
    _watch(watched)
    try:
        try:
            _running().append(watched)
            return step()
        finally:
            _end(watched)
    except Overrun:
        _end(watched)  # raised in the first _end, before it ended the step: nothing is pending after this
        if watched.cut is not None:
            raise CutShortError(what, f"was cut short by {watched.cut} before it returned") from None
        raise NeverEndsError(
            what, f"ran {watched.limit:g} s of processor time without returning: it never ends"
        ) from None


_here = threading.local()  # .steps: the steps running in the thread, innermost last


def _running() -> list[_Step]:
    """The steps running in this thread, innermost last."""
    steps: list[_Step] | None = getattr(_here, "steps", None)
    if steps is None:
        steps = _here.steps = []
    return steps


_stop: str | None = None  # the stop the process acts on (its signal's name): steps bounded by AGAIN
_kept = 0  # the depth of stops_kept() blocks


def stop_came(stop: str, *, cut: bool = False) -> None:
    """A stop came (SIGTERM, Ctrl-C; ``stop``: its signal's name): until :func:`stop_over`, each step
    of plugin code started is bounded by :data:`AGAIN` seconds of processor time, not :data:`LIMIT`,
    and one that takes longer is cut short by the stop (its :func:`bounded` raises
    :class:`~codecup.errors.CutShortError`): what the run does as it stops (a live index that says so,
    ranked by the plugin's ``standing_key``) is done in seconds. A red team's ``standing_key`` that
    spun was asked again there, and the run ended minutes after its SIGTERM.

    With ``cut`` (a handler that holds the stop till the end of a section), the innermost step
    running in this thread (the main thread, where Python runs handlers) is bounded so too: it is
    cut short at once, by an exception raised into it from the handler as Ctrl-C stops a loop, if
    it has run that long already, else once it has. A step that catches it and runs on gets it
    again after each :data:`AGAIN` seconds more, as a step past its bound does.

    Never takes the watch's lock: the handler may run in this thread while it holds it."""
    global _stop
    if _stop is None:
        _stop = stop
    steps = _running() if cut else []
    if not steps:
        return
    step = steps[-1]
    if not step.active or step.cut is not None:
        return
    try:
        used = time.clock_gettime(step.clock)
    except OSError:
        return
    step.cut = stop  # before its bound is lowered: the watchdog's raise is then a cut
    if used - step.started < AGAIN:
        step.limit = min(step.limit, AGAIN)
        return
    step.fired = used  # the watchdog's next raise: AGAIN from now
    raise Overrun


def stop_over() -> None:
    """The stop that :func:`stop_came` said is acted on (raised to the caller): steps get their whole
    bound again, but within :func:`stops_kept`, where what follows is the run stopping."""
    global _stop
    if not _kept:
        _stop = None


@contextlib.contextmanager
def stops_kept() -> Iterator[None]:
    """Within the block (a command: a stop ends it), a stop that came bounds every later step by
    :data:`AGAIN` (:func:`stop_came`) until the block ends, its unwinding too."""
    global _kept, _stop
    _kept += 1
    try:
        yield
    finally:
        _kept -= 1
        if not _kept:
            _stop = None


_unwatched = False


@contextlib.contextmanager
def unwatched() -> Iterator[None]:
    """Within the block, :func:`bounded` runs its steps unwatched, with no watchdog thread: in a
    bot program (``codecup bot``), which a referee runs on its clock, the thread was one more than
    an organiser's ``--processes 1`` allowed, and the bot lost at its start (a reviewer's)."""
    global _unwatched
    before, _unwatched = _unwatched, True
    try:
        yield
    finally:
        _unwatched = before


def _watch(step: _Step) -> None:
    global _watchdog
    with _lock:
        _steps.add(step)
        _wake.set()
        if _watchdog is None or not _watchdog.is_alive():
            _watchdog = threading.Thread(target=_watch_steps, name="codecup-overrun", daemon=True)
            _watchdog.start()


def _end(step: _Step) -> None:
    """End the watch of ``step``: under the lock, so that no exception is raised into its thread
    after this, and any raised but not yet seen there is withdrawn."""
    with _lock:
        step.active = False
        _steps.discard(step)
        if step.fired is not None:
            raise_into(step.thread, None)
    running = _running()
    if step in running:
        running.remove(step)


def _watch_steps() -> None:
    while True:
        _wake.wait()
        time.sleep(EVERY)
        with _lock:
            if not _steps:
                _wake.clear()  # set again, under the lock, by the next step
            for step in list(_steps):
                if step.active:
                    _check(step)


def _check(step: _Step) -> None:
    """Raise :class:`Overrun` into a step's thread once it has run past its limit, and again after
    each :data:`AGAIN` seconds more (the lock is held)."""
    try:
        used = time.clock_gettime(step.clock)
    except OSError:  # the thread is gone
        _steps.discard(step)
        return
    due = step.started + step.limit if step.fired is None else step.fired + AGAIN
    if used >= due:
        step.fired = used
        raise_into(step.thread, Overrun)


def raise_into(thread: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` at its next Python instruction (None: withdraw one raised
    there that it has not seen yet)."""
    raised = None if exception is None else ctypes.py_object(exception)  # None: a NULL pointer
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), raised)

"""Stopping a long command cleanly on SIGTERM, SIGHUP or SIGQUIT, as on Ctrl-C.

Python turns SIGINT into :class:`KeyboardInterrupt`, so ``finally`` blocks
run: pool workers are ended, bots are closed, the results log stays whole.
SIGTERM, SIGHUP and SIGQUIT (Ctrl-\\) would kill the process outright (its workers then notice
and die too, but nothing is said); here they raise :class:`Stopped`, a
``KeyboardInterrupt``, so they take the same clean path and the command
exits with the conventional status 128 + the signal's number.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType

from codecup import overrun
from codecup.terminal import printable

HANDLED = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
"""Ctrl-\\ (SIGQUIT) too: it ended a red team's tournament with status 131, unsaid, its index left
saying "Live ... reloads itself"."""


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by a signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    overrun.stop_came(signal.Signals(signum).name)  # what the command does as it stops is bounded short
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM, SIGHUP and SIGQUIT raise :class:`Stopped` in the main thread; one the
    command was started ignoring stays ignored (``nohup codecup tournament ...`` was stopped by the
    SIGHUP that nohup is there to keep from it: a reviewer's)."""
    old = {sig: signal.signal(sig, _raise) for sig in HANDLED if signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        overrun.stop_over()  # a stop raised is the caller's now (a command keeps it: stops_kept)


def status_of(exc: KeyboardInterrupt) -> int:
    """The exit status for an interrupt: 128 + the signal's number (130 for Ctrl-C)."""
    return 128 + (exc.signum if isinstance(exc, Stopped) else signal.SIGINT)


def name_of(exc: KeyboardInterrupt) -> str:
    """The signal's name (SIGINT for Ctrl-C)."""
    return signal.Signals(exc.signum).name if isinstance(exc, Stopped) else "SIGINT"


def report(exc: KeyboardInterrupt, what: str) -> int:
    """Say in one line on stderr that the command stopped and ``what`` follows; the exit status.
    ``what`` is escaped (:func:`printable`): it names the results folder, which a user named."""
    said = f": {printable(what)}" if what else ""
    try:
        print(f"codecup: stopped by {name_of(exc)}{said}", file=sys.stderr, flush=True)
    except OSError:  # stderr is the terminal that closed (SIGHUP; EIO on its pty): the status still
        _drop_stderr()  # says it, where the error's handler said 1 (a red team's closed terminal)
    return status_of(exc)


def _drop_stderr() -> None:
    """Point stderr at /dev/null: what it holds unwritten would fail again as the process ends
    (Python then exits 120), and so would every later line."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = open(os.devnull, "w")  # noqa: SIM115 (stderr's from now on, for the process's life)
        sys.stderr = null

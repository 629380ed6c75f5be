"""Telling an exception raised in a bot's own code from the session's own errors.

A player session calls into the bot (making it, ``choose``, Lucky Words'
``prepare``, ``choose_pick``, ``choose_place``) inside :func:`bots_code`,
which marks what escapes as raised there. ``codecup bot`` shows a marked
exception with its traceback and a line that says the bot's code raised it,
whatever its type: a red team's bot whose own search called
``state.apply()`` on an illegal move printed only ``codecup: error: 'AaAa'
covers a pillar...`` (read as the referee refusing its move), and one whose
``__init__`` opened a missing file only ``codecup: error: openings.dat: No
such file or directory``, as the command's own errors are said. An exception
not marked is the session's, said as before.

A ``SystemExit`` the bot's code raised (``sys.exit(0)`` in its ``choose``) is marked too: the
bot's code ending its own program mid-game is its crash, shown as any other (a red team's
``sys.exit(0)`` ended ``codecup bot`` with status 0 and an empty log, ``raise SystemExit("...")``
with the bare message). A :class:`~codecup.errors.Stopping` is not marked (the framework's
own unwinding, such as a tournament worker's SIGTERM), nor a
``KeyboardInterrupt`` that a real interrupt raised while the bot ran
(:func:`counting_interrupts` tells them apart); one the bot raised itself is.
Nor is a :class:`~codecup.errors.ConfigError`: it is the user's mistake (a word
list that is missing or holds no word, which a bot's ``prepare`` found calling
``load_words()``), said in one line with exit status 2 wherever it was raised
(a reviewer's: ``--words badwords.dat`` was shown as the bot's own code failing).

The marks are read for a contestant's own bot only (``codecup bot GAME FILE.py:NAME``):
a built-in bot's code is the framework's, its exceptions said as the command's own.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from codecup.errors import ConfigError, Stopping

_MARK = "_codecup_raised_in_bots_code"
_DICT = BaseException.__dict__["__dict__"]  # an exception's own attributes, read past its class's code

_interrupts = 0
"""SIGINTs seen while :func:`counting_interrupts` was in force."""


@contextlib.contextmanager
def bots_code(what: str) -> Iterator[None]:
    """Run the body as the bot's code: an exception that escapes it is marked as raised in ``what``
    (``its choose(state)``), unless an inner :func:`bots_code` marked it first."""
    seen = _interrupts
    try:
        yield
    except (Stopping, ConfigError):  # the framework's unwinding; a ConfigError the user's mistake
        raise
    except BaseException as exc:
        if not (isinstance(exc, KeyboardInterrupt) and _interrupts != seen) and raised_in(exc) is None:
            with contextlib.suppress(AttributeError, TypeError):  # (an exception with no __dict__: unmarked)
                _DICT.__get__(exc)[_MARK] = what
        raise


def raised_in(exc: BaseException) -> str | None:
    """Where in the bot's code ``exc`` was raised (``its choose(state)``), or None: not in its code."""
    try:
        where = _DICT.__get__(exc).get(_MARK)
    except (AttributeError, TypeError):
        return None
    return where if isinstance(where, str) else None


@contextlib.contextmanager
def counting_interrupts() -> Iterator[None]:
    """Count real interrupts (SIGINT, Ctrl-C) while the body runs, each still a KeyboardInterrupt:
    one raised while the bot ran is not the bot's. Nothing is done outside the main thread, or where
    SIGINT has a handler other than Python's default."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def interrupted(number: int, frame: FrameType | None) -> None:
        global _interrupts
        _interrupts += 1
        signal.default_int_handler(number, frame)

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)

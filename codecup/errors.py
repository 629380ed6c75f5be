"""The error hierarchy: one base, then configuration, plugin and player errors.

A user's mistake (:class:`ConfigError` and its kin) is reported by the CLI as
one line with exit status 2. A bot's fault is never raised out of a match: the
runner turns it into a recorded result.
"""

from __future__ import annotations

import errno
import sys
import sysconfig
import traceback
from collections.abc import Callable
from pathlib import Path

from codecup.terminal import cut, one_line


class Stopping(BaseException):
    """codecup's own way of stopping a run from within (a tournament worker told to stop unwinds
    its match by one): never taken for a plugin's or a bot's failure."""


PASS_THROUGH: tuple[type[BaseException], ...] = (KeyboardInterrupt, Stopping)
"""What a handler of a plugin's or a bot's failure (any exception, ``sys.exit()`` too) lets pass:
Ctrl-C and codecup's own stopping."""


class CodecupError(Exception):
    """Base class of every error this project raises on purpose."""


class CodecupBug(CodecupError):
    """codecup's own code failed (not a user's, a bot's or an executor's): the command prints the
    traceback of its ``__cause__`` before its line, which says so."""


class ConfigError(CodecupError):
    """A user's mistake: bad arguments, a bad file, an unknown name."""


class InRunningLoopError(ConfigError, RuntimeError):
    """A synchronous call that runs its own event loop (``run_match``, ``check_game``) made where a
    loop is already running in the thread (a notebook's cell, an ``async def``): asyncio cannot run
    a second there. Says what to use instead. A ``RuntimeError`` too, as asyncio's own is."""


class RunChangedError(ConfigError):
    """What a run's games' results depend on (``Game.results_key``: Lucky Words' word list) is not,
    where a game of it is to be played, what the run started with: a file changed under it, or a
    Dask worker that sees another. The run stops rather than mix games of two kinds."""


class UnknownGameError(ConfigError):
    """No registered game has the requested name."""


class UnknownBotError(ConfigError):
    """The game has no built-in bot of the requested name."""


class UnknownVariantError(ConfigError):
    """The game has no dialogue variant of the requested name."""


class SetupError(ConfigError):
    """A ``--setup`` text is not a valid start position for the game."""


class PlayersFileError(ConfigError):
    """A ``players.yml`` (or ``tournament.yml``) is malformed."""


class RecordError(ConfigError):
    """A game record cannot be read or does not follow the schema."""


class DialogueError(ConfigError):
    """A line from the referee does not fit the game's dialogue (the input of ``codecup bot``).

    The bot program says which line and why in one line on stderr and exits
    with status 2, as for any other bad input, instead of guessing or
    crashing.
    """


class BotAnswerError(CodecupError):
    """A bot's answer the session cannot take (no move's text, a move with a line break, a Lucky
    Words letter or cell that is none): the bot's fault, a crash of its seat in a game in-process,
    and one line with no traceback from ``codecup bot`` (its code did not raise: the session
    refused what it gave)."""


class GameBugError(CodecupError):
    """A game plugin's own code failed during a game: its referee dialogue raised or asked
    for something that is not a request, or its rules raised on a move the referee had
    already accepted. No fault of either player: the runner records the game as a
    ``referee-error``, and ``codecup verify`` says the plugin, not the record, failed."""


class NeverEndsError(GameBugError):
    """A step of a game plugin's code ran past its bound of processor time
    (:func:`codecup.overrun.bounded`). ``how``: what it did, after the step's name."""

    def __init__(self, what: str, how: str) -> None:
        super().__init__(f"{what} {how}")
        self.how = how


class CutShortError(GameBugError):
    """A step of a game plugin's code cut short by a stop (SIGTERM, Ctrl-C) that a section of the
    run holds till its end (:func:`codecup.overrun.cut_short`): the run is stopping, so what the step
    was for (a ranking, a page's drawing) falls back; no failure of the plugin's. ``how``: what
    happened, after the step's name."""

    def __init__(self, what: str, how: str) -> None:
        super().__init__(f"{what} {how}")
        self.how = how


class PluginError(CodecupError):
    """A plugin failed to load or registered something invalid."""


class MoveError(CodecupError):
    """Base of move errors raised by game engines and notation parsers."""


class InvalidMoveError(MoveError):
    """The text is not a move at all (bad syntax)."""


class IllegalMoveError(MoveError):
    """The move is well formed but against the rules in this position."""


def naming(exc: OSError, name: object, *, instead_of: object = None) -> OSError:
    """A copy of ``exc`` (of its type: a closed pipe stays one) naming the file ``name`` where it
    names none (a write that found no room, on a descriptor) or names ``instead_of`` (a temporary
    file the user never gave), to be raised ``from exc``."""
    if exc.errno is None:
        return type(exc)(*exc.args)
    replaced = exc.filename is None or (instead_of is not None and exc.filename == str(instead_of))
    if replaced:
        return type(exc)(exc.errno, exc.strerror, str(name))
    return type(exc)(exc.errno, exc.strerror, exc.filename, None, exc.filename2)


def os_error_text(exc: OSError) -> str:
    """``path: strerror``, as codecup says an OSError (the strerror alone where it names no file,
    ``str(exc)`` where it has none): not Python's ``[Errno 30] Read-only file system: '...'``."""
    where = f"{exc.filename}: " if exc.filename else ""
    return where + (exc.strerror or str(exc))


NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT})
"""The errnos of a write that found no room (a full disk, a quota): freeing room is the remedy."""


#: Characters of a plugin's text (an exception's message, a value's repr) kept in a message: a
#: message holding a ``__str__``'s 200 MB went whole into a record and onto a terminal.
TEXT_LIMIT = 2000


def type_name(value: object) -> str:
    """The name of ``value``'s class, read past any metaclass (whose ``__name__`` could be a
    plugin's property that raises)."""
    name: str = type.__dict__["__name__"].__get__(type(value), type)
    return name


def said(exc: BaseException, limit: int | None = TEXT_LIMIT) -> str:
    """``str(exc)``, its middle cut past ``limit`` characters (:func:`~codecup.terminal.cut`: its end,
    the reason, kept; None: whole); "" when that raises, or never returns
    (bounded as the plugin's other code is: :func:`codecup.overrun.bounded`), or gives no str.

    An exception a plugin raises is the plugin's object: its ``__str__`` is the plugin's code. A
    red team's raised, or spun for ever, and crashed (or held up) every command that said it,
    whichever plugin raised it: every message of codecup's that says a plugin's (or a bot's)
    exception says it through this, or :func:`described`."""
    return _text(lambda: str(exc), f"the {type_name(exc)} exception's str", limit) or ""


def said_line(exc: BaseException, limit: int) -> str:
    """:func:`said` on one line of ``limit`` characters (:func:`~codecup.terminal.one_line`), cut
    once, from the whole message: cut first to :data:`TEXT_LIMIT` from its end, then in its middle,
    a line lost its reason and said a wrong number of characters left out (a red team's)."""
    return one_line(said(exc, None), limit)


def described(exc: BaseException, limit: int | None = TEXT_LIMIT) -> str:
    """``TypeName: message``, or ``TypeName`` where the message is empty or cannot be had
    (:func:`said`, cut past ``limit``)."""
    text = said(exc, limit)
    return f"{type_name(exc)}: {text}" if text else type_name(exc)


def shown(value: object, limit: int = TEXT_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a value a plugin (or a bot) gave; where its
    ``repr`` raises, never returns (bounded as :func:`said` is) or gives no str, ``<TypeName
    object>``."""
    text = _text(lambda: repr(value), f"the {type_name(value)} value's repr")
    if text is None:
        text = f"<{type_name(value)} object>"
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def _text(make: Callable[[], object], what: str, limit: int | None = TEXT_LIMIT) -> str | None:
    """The str ``make`` gives (a plugin's ``__str__`` or ``__repr__``), cut to ``limit`` characters
    (None: whole); None where it raises, does not return within the bound of a plugin's code, or
    gives no str."""
    from codecup.overrun import bounded  # it imports this module

    started = False

    def step() -> object:
        nonlocal started
        started = True
        return make()

    try:
        text = bounded(what, step)
    except PASS_THROUGH:
        raise
    except BaseException:  # sys.exit() too; an Overrun comes out as NeverEndsError
        if started:
            return None
        try:  # the bound could not be set up (its watchdog thread not started): unbounded, as where
            text = make()  # a thread's processor time cannot be read
        except PASS_THROUGH:
            raise
        except BaseException:
            return None
    if not isinstance(text, str):
        return None
    # str.__str__: an exact str, whatever subclass came back (its __getitem__, its __format__
    # would be the plugin's code again).
    exact = str.__str__(text)
    return exact if limit is None else cut(exact, limit)


def traced(exc: BaseException) -> str:
    """``exc``'s traceback as Python prints it (for a log: whole, its caller keeps its end), bounded
    as :func:`said` is; where that fails, ``TypeName`` (``traceback`` says an exception whose
    ``__str__`` raises, but waits for ever on one that never returns)."""
    made = _text(lambda: "".join(traceback.format_exception(exc)), "a traceback", None)
    return made or type_name(exc)


def hook_failure(hook: str, exc: BaseException) -> str:
    """``HOOK raised TypeName: message``, or for one that never returned, what
    :class:`NeverEndsError` says of it (``HOOK ran 30 s of processor time ...``)."""
    if isinstance(exc, NeverEndsError):
        return f"{hook} {exc.how}"
    return f"{hook} raised {described(exc)}"


def how_failed(exc: BaseException, limit: int | None = TEXT_LIMIT) -> str:
    """How a hook of a plugin failed, after its name: ``raised TypeName: message (at file:LINE)``,
    or, for one that never returned, what :class:`NeverEndsError` says (message cut past ``limit``)."""
    return exc.how if isinstance(exc, (NeverEndsError, CutShortError)) else f"raised {where(exc, limit)}"


_OWN = Path(__file__).resolve().parent  # codecup's own package
_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()  # Python's own library


def where(exc: BaseException, limit: int | None = TEXT_LIMIT) -> str:
    """``TypeName: message (at file.py:LINE)``: the innermost frame of ``exc``'s traceback outside
    codecup's own package and Python's library (a plugin's code that raised, not codecup's that
    called it, nor ``json``'s it called: "at decoder.py" read as the plugin's own file); where there
    is none, the innermost outside codecup, else codecup's own, named as such (``at
    codecup/game.py:LINE``): a plugin's value that failed in codecup's code was blamed on a
    ``game.py`` that read as the plugin's own. The message is cut past ``limit``."""
    text = described(exc, limit)
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        theirs = [frame for frame in frames if _own(frame.filename) is None]
        frame = plugin_frame(frames) or (theirs or frames)[-1]
        own = _own(frame.filename)
        name = Path(frame.filename).name if own is None else f"codecup/{own}"
        text += f" (at {name}:{frame.lineno})"
    return text


def plugin_frame(frames: traceback.StackSummary) -> traceback.FrameSummary | None:
    """The innermost of ``frames`` outside codecup's own package and Python's library: a plugin's
    code (or a bot's), or None where there is none."""
    theirs = [f for f in frames if _own(f.filename) is None and not _in_stdlib(f.filename)]
    return theirs[-1] if theirs else None


def _own(filename: str) -> str | None:
    """``filename``'s path within codecup's own package, or None for a file outside it."""
    try:
        return Path(filename).resolve().relative_to(_OWN).as_posix()
    except (ValueError, OSError):
        return None


def _in_stdlib(filename: str) -> bool:
    """Whether ``filename`` is in Python's own library (not in its site-packages), also one of its
    modules frozen into the interpreter (``<frozen os>``)."""
    if filename.startswith("<frozen "):
        return True
    try:
        path = Path(filename).resolve()
    except OSError:
        return False
    return path.is_relative_to(_STDLIB) and "site-packages" not in path.parts


def said_bug(exc: BaseException) -> None:
    """Print the traceback of a :class:`CodecupBug`'s cause on stderr (nothing for another error):
    a bug's line alone hid where it was (a reviewer's AttributeError in play)."""
    if isinstance(exc, CodecupBug) and exc.__cause__ is not None:
        traceback.print_exception(exc.__cause__, file=sys.stderr)

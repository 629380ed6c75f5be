"""Asking a game plugin: the framework's calls of a :class:`~codecup.game.Game`'s methods.

A game's methods are a plugin's code: one may raise, never return, or give a value
of the wrong kind. Each function here asks one of them under a guard
(:func:`~codecup.overrun.bounded`) and checks what it gives, so that a failure is
said as the plugin's (:class:`~codecup.errors.PluginError`,
:class:`~codecup.errors.GameBugError`), or, for what only informs (a result's
notes, a refusal's advice), said once and left out.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeGuard

from codecup.checked import per_seat_numbers, short
from codecup.dialogue import Outcome, Termination
from codecup.errors import (
    PASS_THROUGH,
    ConfigError,
    GameBugError,
    PluginError,
    hook_failure,
    how_failed,
    shown,
    where,
)
from codecup.game import Game, GameInfo, ProvidedFile
from codecup.overrun import bounded


def run_notes_of(game: Game, variant: str) -> tuple[str, ...]:
    """:meth:`Game.run_notes`, checked: lines of text, else :class:`PluginError` naming the plugin."""
    notes = _asked(game, "run_notes", variant)
    if not lines_of_text(notes):
        raise PluginError(
            f"the {game.info.name} plugin failed: its run_notes gave {short(notes)}, not lines of text"
        )
    return tuple(notes)


def results_key_of(game: Game, variant: str) -> str | None:
    """:meth:`Game.results_key`, checked: text or None, else :class:`PluginError` naming the plugin."""
    key = _asked(game, "results_key", variant)
    if key is not None and not isinstance(key, str):
        raise PluginError(
            f"the {game.info.name} plugin failed: its results_key gave {shown(key, 60)}, not text or None"
        )
    return key


def results_key_remedy_of(game: Game, key: str) -> str | None:
    """:meth:`Game.results_key_remedy`, where the plugin gives one line of text; None otherwise (a
    refusal's advice: a plugin failing at it leaves the advice its options give). A plugin that
    fails at it (raises, never returns, gives neither None nor a line of text) is said once, in one
    line naming it, as :func:`notes_of` says its notes' failure (it was silent), and not asked again
    (:mod:`codecup.failed`)."""
    from codecup import failed
    from codecup.plugins import say_once  # (plugins imports this module)

    if failed.failure(game, "results_key_remedy") is not None:
        return None
    exc: BaseException | None = None
    try:
        said = _asked(game, "results_key_remedy", key)
    except ConfigError:  # said on purpose: the user's to fix, as the options' advice is
        return None
    except PluginError as caught:
        why, exc = str(caught), caught
    else:
        if said is None:
            return None
        if isinstance(said, str) and said and _one_line_text(said):
            return said
        failing = f"the {game.info.name} plugin failed: its results_key_remedy"
        why = f"{failing} gave {short(said)}, not a line of text"
    line = f"codecup: {why}; the advice its options give is said instead"
    say_once(line, key=f"{game.info.name} results_key_remedy")
    failed.remember(game, "results_key_remedy", line, exc.__cause__ if exc is not None else None)
    return None


def record_results_key_of(game: Game, extra: Mapping[str, Any]) -> str | None:
    """:meth:`Game.record_results_key`, checked like :func:`results_key_of`; a record's game data
    that the plugin cannot read is its error (:class:`~codecup.errors.RecordError`), as it is."""
    key = _asked(game, "record_results_key", extra)
    if key is not None and not isinstance(key, str):
        raise PluginError(
            f"the {game.info.name} plugin failed: its record_results_key gave {shown(key, 60)},"
            " not text or None"
        )
    return key


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system: is_file raises it on Python 3.11
        return False


def provided_files_of(game: Game, variant: str) -> tuple[ProvidedFile, ...]:
    """:meth:`Game.provided_files`, checked: each a :class:`ProvidedFile` named by a plain file name
    whose source is a file; else :class:`PluginError` naming the plugin (it was a traceback, or a
    program's failure to start blamed on the player)."""
    files = _asked(game, "provided_files", variant)
    failed = f"the {game.info.name} plugin failed: its provided_files"
    if not isinstance(files, (tuple, list)) or not all(isinstance(f, ProvidedFile) for f in files):
        raise PluginError(f"{failed} gave {short(files)}, not ProvidedFile records")
    for provided in files:
        name, source = provided.name, provided.source
        if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\0" in name:
            raise PluginError(f"{failed} names a file {short(name)}, not a plain file name")
        if not isinstance(source, (str, Path)) or not _is_file(Path(source)):
            raise PluginError(f"{failed} gives {name} from {short(source)}, which is not a file")
        if not isinstance(provided.about, str) or not isinstance(provided.original, (str, Path, type(None))):
            said = f"{short(provided.about)}, {short(provided.original)}"
            raise PluginError(f"{failed} describes {name} as {said}, not a text and a path")
        # "" is no original, as Provision's (a reviewer's: it was taken for ".", said "not a file")
        if provided.original not in (None, "") and not _is_file(Path(provided.original)):
            raise PluginError(
                f"{failed} gives {name} made from {short(provided.original)}, which is not a file"
            )
    return tuple(files)


def _asked(game: Game, method: str, argument: object) -> object:
    """What the game's ``method`` gives for ``argument`` (a variant's name, a record's game data);
    one that raises (but a ConfigError, said on purpose: a word list it lacks) is the plugin's
    :class:`PluginError`."""
    try:
        return bounded(f"its {method}", lambda: getattr(game, method)(argument))
    except PASS_THROUGH:
        raise
    except ConfigError:
        raise
    except BaseException as exc:  # sys.exit() too: the plugin's failure
        raise PluginError(f"the {game.info.name} plugin failed: its {method} {how_failed(exc)}") from exc


def notes_of(game: Game, seat: int, extra: Mapping[str, Any]) -> tuple[str, ...]:
    """:meth:`Game.result_notes`, checked: lines of text. Where the plugin fails at it (raises, never
    returns, gives something else), none, and one line on stderr says so, once per process (a
    report spoils no result; it was silent); it is not asked again (:mod:`codecup.failed`)."""
    from codecup import failed
    from codecup.plugins import say_once  # (plugins imports this module)

    if failed.failure(game, "result_notes") is not None:
        return ()
    exc: BaseException | None = None
    try:
        notes = bounded("its result_notes", lambda: game.result_notes(seat, extra))
    except PASS_THROUGH:
        raise
    except BaseException as caught:  # sys.exit() too: the plugin's failure
        why, exc = how_failed(caught), caught
    else:
        if lines_of_text(notes):
            return tuple(notes)
        why = f"gave {short(notes)}, not lines of text"
    name = game.info.name
    line = f"codecup: the {name} plugin failed: its result_notes {why}; its notes are not shown"
    say_once(line, key=f"{name} result_notes")
    failed.remember(game, "result_notes", line, exc)
    return ()


def lines_of_text(notes: object) -> TypeGuard[Sequence[str]]:
    """Whether ``notes`` is a tuple or list of texts of one line each."""
    return isinstance(notes, (tuple, list)) and all(isinstance(n, str) and _one_line_text(n) for n in notes)


def _one_line_text(text: str) -> bool:
    """Whether ``text`` is one line: no line break of any kind (``str.splitlines``'s)."""
    return text.splitlines() in ([], [text])


def checked_points(game: Game, outcome: Outcome, variant: str) -> tuple[float, ...]:
    """The game's points for ``outcome``, one finite number per seat; else :class:`GameBugError`."""
    try:
        points = bounded("its points", functools.partial(game.points, outcome, variant))
    except PASS_THROUGH:
        raise
    except GameBugError:  # it never ends
        raise
    except BaseException as exc:  # sys.exit() too: the plugin's failure
        raise GameBugError(f"its points raised {where(exc)}") from exc
    return per_seat_numbers(points, len(game.info.seats), "its points")


def result_points(game: Game, outcome: Outcome, variant: str) -> tuple[float, ...]:
    """The points a game's record holds for ``outcome``: none (0 each) where any seat's end is a
    referee error (a game not played to its end has no result, whatever the game's points hook
    gives: docs/record-schema.md), else :func:`checked_points`. The runner records them, and
    ``codecup verify`` and a resumed run's check of its log expect them: one rule for the three
    (a referee error of one seat only was recorded without points, and refused by both)."""
    if any(end.kind is Termination.REFEREE_ERROR for end in outcome.ends):
        return (0.0,) * len(outcome.ends)
    return checked_points(game, outcome, variant)


def game_problems(game: Game) -> list[str]:
    """What makes a registered game unusable, a few words each (its ``info`` checked).

    Its ``info`` must be a record the game keeps, not computed on each read (:func:`_computed_info`)."""
    try:
        info = bounded("its info", lambda: getattr(game, "info", None))
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # sys.exit() too: the plugin's failure
        return [hook_failure("its info", exc)]
    if not isinstance(info, GameInfo):
        return [f"its info is {short(info, 80)}, not a codecup.game.GameInfo"]
    found = info.problems()
    if not found and (computed := _computed_info(game, info)):
        return [computed]
    derived = all(getattr(type(game), m) is getattr(Game, m) for m in ("new_player", "player_session"))
    if info.bots and not game.has_rules and derived and not found:
        # the derived player session plays on the rules: none of its bots could play a game
        found.append(
            f"it lists bots ({', '.join(info.bots)}) but gives neither its rules (new_state),"
            " from which their players are derived, nor a new_player of its own"
        )
    return found


def _computed_info(game: Game, info: GameInfo) -> str:
    """Why ``game``'s ``info`` is no record kept by the game ("" if it is one): an ``info`` computed
    on each read (a property, ``__getattr__``, a ``__getattribute__`` of its own) may raise, loop
    or change on a later read, and ``info`` is read everywhere (a red team's raised on its second
    read and broke every command, other games' too). A class or instance attribute it must be."""
    own_lookup = type(game).__getattribute__ is not object.__getattribute__
    static = inspect.getattr_static(game, "info", None)
    if isinstance(static, types.MemberDescriptorType):  # a slot (attrs, slotted dataclasses): storage
        try:
            static = static.__get__(game, type(game))
        except AttributeError:  # an empty slot, its info given by __getattr__: computed
            static = None
    if not own_lookup and static is info:
        return ""
    return "its info is computed on each read (a property?): give a GameInfo as a class attribute"

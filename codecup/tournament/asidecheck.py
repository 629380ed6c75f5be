"""A folder of games set aside (``OUT/set-aside/N``) checked against its own note (``codecup verify
OUT``), without replaying its games.

A run sets aside a player's games (``--set-aside NAME``: every game of the names its note's
``versions`` holds) and the games that ended in a referee error (``--replay-errors``: its note's
``errors``), and plays them again. A red team moved a game its player had lost, line and record,
into a set-aside folder made by hand whose note called it a referee error; the resume played it
again, and ``codecup verify OUT`` said "not checked". So each line of the folder's log is read,
and each game is one of its note's games, a game of a player the note names, or a referee error
the note names, whose record is one (every seat's end a referee error, nothing contradicting it:
:func:`~codecup.verify.referee_error_problem`: a record with a transcript is one of codecup's or the
plugin's failure during the game, the only referee errors that have one). What is not checked: the
games are not replayed (a finished game's record relabelled as codecup's or the plugin's failure,
its transcript kept, is a note in the log too), and a set-aside made by hand of games a note would
name (one of a player's games, where a run sets aside all of them) cannot be told from a run's
(docs/tournaments.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from codecup.errors import ConfigError, RecordError, said
from codecup.reading import MIB, read_file
from codecup.record import MAX_RECORD, Record
from codecup.tournament.log import LOG_NAME, entry_of, raw_lines
from codecup.verify import referee_error_problem, unlike_its_transcript

NOTE = "set-aside.json"
"""In a set-aside folder: its games, its players' programs and its referee errors."""

MAX_NOTE = 64 * MIB
"""The most bytes of a set-aside's note read."""


@attrs.frozen
class AsideCheck:
    """What checking one set-aside folder finds, each a line of its own."""

    problems: tuple[str, ...] = ()  # what its note does not explain
    unreadable: tuple[str, ...] = ()  # a file that cannot be read
    unchecked: tuple[str, ...] = ()  # a game whose replay the plugin failed: not checked


@attrs.frozen
class Replayed:
    """What a record's replay tells: nothing wrong, its first problem, the game's plugin failing
    in it (so the record is not checked), or the game missing here (it cannot be replayed)."""

    problem: str | None = None
    plugin_failure: str | None = None
    unreadable: str | None = None


@attrs.frozen
class _Note:
    games: frozenset[str] | None  # None: the note names none (an older one's)
    players: frozenset[str]
    errors: frozenset[str]


def check_aside(folder: Path, replayed: Callable[[Record], Replayed]) -> AsideCheck:
    """Check the set-aside ``folder``'s log against its note; ``replayed`` tells what a record's
    replay finds, asked of the referee errors only a replay can tell
    (:func:`~codecup.verify.unlike_its_transcript`)."""
    try:
        note = _read_note(folder / NOTE)
    except RecordError as exc:  # before ConfigError, which it is
        return AsideCheck(problems=(f"{folder / NOTE}: {said(exc)}",))
    except ConfigError as exc:
        return AsideCheck(unreadable=(said(exc),))
    problems: list[str] = []
    unreadable: list[str] = []
    unchecked: list[str] = []
    logged: set[str] = set()
    for number, item in _lines(folder / LOG_NAME, unreadable):
        if isinstance(item, str):
            unreadable.append(f"{folder / LOG_NAME}, line {number}: {item}")
            continue
        game_id, record = item
        logged.add(game_id)
        found = _game_problem(note, game_id, record, replayed)
        where = f"{folder / LOG_NAME}, line {number} (game {game_id})"
        if found.problem is not None:
            problems.append(f"{where}: {found.problem}")
        if found.plugin_failure is not None:
            unchecked.append(f"{where}: NOT CHECKED: {found.plugin_failure}")
        if found.unreadable is not None:
            unreadable.append(f"{where}: {found.unreadable}")
    missing = sorted(note.errors - logged)
    if missing:
        problems.append(
            f"{folder / NOTE}: names {len(missing)} referee error{'s' if len(missing) != 1 else ''} its log"
            f" does not hold ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})"
        )
    return AsideCheck(tuple(problems), tuple(unreadable), tuple(unchecked))


def _game_problem(
    note: _Note, game_id: str, record: Record, replayed: Callable[[Record], Replayed]
) -> Replayed:
    """What one logged game of the set-aside is, against the note: nothing wrong (an empty
    :class:`Replayed`), a problem, or what its replay could not tell."""
    if note.games is not None and game_id not in note.games:
        return Replayed(f"not one of the games its note ({NOTE}) sets aside")
    if game_id in note.errors:
        unlike = referee_error_problem(record, replayed=True)
        if unlike is None and unlike_its_transcript(record):
            found = replayed(record)
            if found.problem is None:
                return found
            unlike = found.problem
        if unlike is None:
            return Replayed()
        return Replayed(f"its note ({NOTE}) sets it aside as a referee error; {unlike}")
    if any(p.name in note.players for p in record.match.players):
        return Replayed()
    names = ", ".join(repr(p.name) for p in record.match.players)
    theirs = ", ".join(repr(n) for n in sorted(note.players)) or "none"
    return Replayed(
        f"a game of {names}, whom its note ({NOTE}) does not set aside (its players: {theirs}),"
        " and no referee error it names"
    )


def _read_note(path: Path) -> _Note:
    """The note; :class:`ConfigError` where it cannot be read, :class:`RecordError` where it is
    missing or not a note."""
    if not path.exists() and not path.is_symlink():
        raise RecordError("missing: its games cannot be told a player's or a referee error")
    doc: Any = read_file(path, MAX_NOTE, "a set-aside note")
    try:
        doc = json.loads(doc)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RecordError("not JSON") from None
    versions, errors, games = (
        doc.get(k) if isinstance(doc, dict) else None for k in ("versions", "errors", "games")
    )
    if not isinstance(versions, dict) or not isinstance(errors, (list, type(None))):
        raise RecordError("not a set-aside's note (its versions and errors)")
    return _Note(
        frozenset(str(g) for g in games) if isinstance(games, list) else None,
        frozenset(str(n) for n in versions),
        frozenset(str(g) for g in errors or ()),
    )


def _lines(path: Path, unreadable: list[str]) -> Iterator[tuple[int, tuple[str, Record] | str]]:
    """Each line of the set-aside's log: its number, and its game or why it cannot be read."""
    for line in raw_lines(path, unreadable.append):
        if line.raw is None:
            yield line.number, f"larger than {MAX_RECORD // MIB} MiB; not read"
            continue
        try:
            yield line.number, entry_of(line.raw)
        except RecordError as exc:
            yield line.number, said(exc)

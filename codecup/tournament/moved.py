"""A contest's folder moved or copied whole (its players file, its bots' folders and its results
together): resumed where it is now.

A game's record names its players' folders as absolute paths, so a results folder moved with its
bots (``mv /srv/contest /srv/contest2``, or ``cp -a``) held games of players "not as they are now
in the players list", and was refused: it resumed only where it had been. Now a run follows such a
move (:func:`follow`) where it is exact: every player of a logged game that is not as it is now
differs from the players list's player of its name in its folder alone; all those folders moved
with one folder (``/srv/contest/bots/a`` now ``/srv/contest2/bots/a``: the same place below it),
with the results folder in it now; and each such player runs the same program: the digests of its
files noted with the folder's schedule (:mod:`~codecup.tournament.identity`), their paths taken
from the old folder to the new, are those of its files now (a built-in bot's program is its name).
Anything else is refused as before (:mod:`~codecup.tournament.resumecheck`), saying why the move
was not followed (:func:`find_move`).

Nothing already logged is rewritten. The log and the games' records keep the folders the games
were played in (a record says where its programs ran, and ``codecup verify`` reads it as it was);
the folders a move maps are noted in the folder's hidden ``.codecup-moved.json`` (:data:`NAME`),
each logged folder with the one it is now, and a run reads the log's records through it. The note
is one small file replaced whole (:func:`~codecup.writing.write_atomic`, on the disk), written once
the run's checks have passed, before the schedule's note and any game played: a crash at any
moment leaves either no note (the folder as it was: the next run finds the same move again and
follows it) or the whole note. The schedule's note, written next, names the program files where
they are now; a crash before it leaves them named where they were, and the moves noted say where
they are (:func:`through`: a player's noted files are read where any of the last moves took them),
so the folder moved back, into a subfolder of its old place, or again resumes all the same (a
reviewer's, killed between the two notes written the other way round, was refused as a program
changed). A log rewritten instead would be a second copy of every game, its
records in ``games/`` then not their lines (each written again on the next resume), and a crash
between the two would leave them disagreeing. The note keeps every move followed, so a folder moved
twice (its games logged in two places) resumes too: each logged folder maps to where it is now.

An SPRT test's log names no folder (its two programs run in the folder it is run from), but its
settings' note names its programs' files: a test's folder moved whole with them resumes where it is
now, its note's paths taken to the new folder, where each file is of the same bytes
(:func:`programs_move`), and the note is then written with the paths of now.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from codecup.errors import ConfigError
from codecup.reading import MIB, read_file
from codecup.writing import write_atomic

if TYPE_CHECKING:
    from codecup.record import PlayerInfo, Record
    from codecup.tournament.identity import Digests
    from codecup.tournament.spec import TournamentSpec

NAME = ".codecup-moved.json"
"""The hidden file in a tournament's folder noting the moves of its folder a run followed."""

Folders = tuple[tuple[str, str, str], ...]
"""(player, a folder its logged games name, the folder it is now) for each folder a move maps."""


@attrs.frozen
class Move:
    """A move of the contest's folder, followed: ``was`` is now ``now`` (each a folder), and each
    player's folder the log names, now elsewhere (``folders``)."""

    was: str
    now: str
    folders: Folders

    def take(self, rows: Digests) -> Digests:
        """The program files ``rows`` (noted before the move) where the move took them: a moved
        player's file in ``was`` taken to ``now``; another player's as it is (it did not move)."""
        names = {name for name, _, _ in self.folders}
        return tuple((n, taken(f, self.was, self.now) if n in names else f, d) for n, f, d in rows)

    def line(self, out: Path) -> str:
        """What a run that follows it says (one line)."""
        players = sorted({name for name, _, _ in self.folders})
        shown = ", ".join(repr(n) for n in players[:4]) + (", ..." if len(players) > 4 else "")
        return (
            f"resumed the contest from its old place ({self.was} \u2192 {self.now}): its logged games name"
            f" the folders of {shown} there, whose program files here are the same (the move is noted in"
            f" {out / NAME})"
        )


@attrs.frozen
class Unfollowed:
    """Why a move of the contest's folder was not followed, in words (for the refusal), and the
    players whose programs are not as they were (``changed``: the move otherwise exact, setting
    aside their games alone resumes it)."""

    why: str
    changed: tuple[str, ...] = ()


@attrs.frozen
class Moves:
    """The moves of a folder a run followed (:data:`NAME`), in order (``history``), and every logged
    player's folder mapped to where it is now (``folders``)."""

    history: tuple[Move, ...] = ()
    folders: Folders = ()

    def then(self, move: Move) -> Moves:
        """These moves and ``move`` after them: each folder mapped to where ``move`` took it."""
        taken = {(name, was): now for name, was, now in move.folders}
        kept = tuple((name, logged, taken.get((name, now), now)) for name, logged, now in self.folders)
        known = {(name, logged) for name, logged, _ in kept}
        added = tuple(row for row in move.folders if (row[0], row[1]) not in known)
        return Moves((*self.history, move), kept + added)

    def to_json(self) -> dict[str, Any]:
        """The note's document."""
        return {
            "moves": [
                {"was": m.was, "now": m.now, "folders": [list(row) for row in m.folders]}
                for m in self.history
            ],
            "folders": [list(row) for row in self.folders],
        }


MAX_NOTE = 16 * MIB
"""The largest :data:`NAME` read (a few lines a player: one larger is no note of a run's)."""


def read_moves(out: Path) -> Moves:
    """The moves noted in ``out`` (none where there is no note, or none that can be read: the log's
    folders are then compared as they are, and a move followed again only where it is exact)."""
    if not (out / NAME).exists():
        return Moves()
    try:
        doc: Any = json.loads(read_file(out / NAME, MAX_NOTE, "a note of moves"))
        history = tuple(
            Move(str(m["was"]), str(m["now"]), tuple((str(n), str(a), str(b)) for n, a, b in m["folders"]))
            for m in doc["moves"]
        )
        folders = tuple((str(n), str(a), str(b)) for n, a, b in doc["folders"])
    except (ConfigError, ValueError, TypeError, KeyError, RecursionError):
        return Moves()
    return Moves(history, folders)


MAX_MOVES = 100
"""The most moves of a note :func:`noted_folders` reads (a run notes one each time the contest's
folder moves: a note of more is no run's)."""

MAX_FOLDERS = 10_000
"""The most folders (its rows and its moves' rows in all) of a note :func:`noted_folders` reads."""


@attrs.frozen
class Noted:
    """The folders a note of moves maps that its moves explain (:func:`noted_folders`), and why
    none is read, where the note is too large to be a run's (one line; None: it was read)."""

    folders: Folders = ()
    refused: str | None = None
    away: str | None = None  # said where the results folder is not where the last move put it


def noted_folders(out: Path) -> Noted:
    """The folders the moves noted in ``out`` map, as a resumed run reads its log through them
    (:func:`relocate`), but only those its noted moves explain, as a run writes them: each row's
    player and logged folder are one of a move's ``folders``, its logged folder taken through the
    moves from the first such move on, each from its ``was`` to its ``now`` (:func:`taken`), is the
    folder the row says it is now, and each of those moves' ``now``, taken through the moves after
    it, holds ``out`` (the results folder moves with the contest's: a move from a bot's folder to
    another's is no run's). ``codecup verify OUT`` reads the log so (a moved contest's games name
    the folders they were played in, its standings the folders of now: it said DOES NOT VERIFY of
    every honestly moved folder); a row no noted move explains (a hand-written one) is not read, and
    its games' folders are compared as they are. A note of more than :data:`MAX_MOVES` moves or
    :data:`MAX_FOLDERS` rows is not read at all (said: one of 6,000 forged moves kept verify busy for
    minutes); each row is walked through the moves once, from the first that names it (at most
    rows times moves steps)."""
    moves = read_moves(out)
    rows = len(moves.folders) + sum(len(m.folders) for m in moves.history)
    if len(moves.history) > MAX_MOVES or rows > MAX_FOLDERS:
        return Noted(
            refused=f"{out / NAME}: {len(moves.history)} moves and {rows} folders, more than a run notes"
            f" (at most {MAX_MOVES} moves and {MAX_FOLDERS} folders are read): not read"
        )
    here = str(_resolved(out))
    history = moves.history
    holds = [False] * len(history)  # each move's ``now``, where the later moves took it, holds ``out``
    for i in range(len(history) - 1, -1, -1):
        holds[i] = _within(here, _carried(history[i].now, history[i + 1 :]))
    away = None
    if history and not holds[-1]:  # the results folder copied away alone since (a reviewer's:
        # a third party's copy of it was told DOES NOT VERIFY): where it is tells nothing of the moves
        holds = [True] * len(history)
        away = (
            f"{out / NAME}: the results folder is not inside {history[-1].now}, where the contest's last"
            " noted move put it (copied away alone, or a move noted by hand: not told apart): the note's"
            " folders that its moves name are read"
        )
    first: dict[tuple[str, str], int] = {}
    for i, move in enumerate(history):
        for name, logged, _ in move.folders:
            first.setdefault((name, logged), i)
    return Noted(tuple(row for row in moves.folders if _explained(row, history, first, holds)), away=away)


def _explained(
    row: tuple[str, str, str],
    history: Sequence[Move],
    first: Mapping[tuple[str, str], int],
    holds: list[bool],
) -> bool:
    name, logged, now = row
    start = first.get((name, logged))
    if start is None or not all(holds[start:]):
        return False
    place = _carried(logged, history[start:])
    return place == now and place != logged


def _carried(path: str, moves: Sequence[Move]) -> str:
    for move in moves:
        path = taken(path, move.was, move.now)
    return path


def _within(path: str, folder: str) -> bool:
    return Path(path).is_relative_to(folder)


def note_move(out: Path, move: Move) -> None:
    """Note in ``out`` that its folder's ``move`` was followed (see the module's docstring)."""
    moves = read_moves(out).then(move)
    write_atomic(out / NAME, json.dumps(moves.to_json(), allow_nan=False) + "\n", durable=True)


def through(moves: Sequence[Move]) -> Callable[[Digests, Digests | None], Digests]:
    """How the program files noted with the folder's schedule (its note's rows, and the rows of
    now) are read where they are now, after ``moves`` (those noted, and the one followed now).
    The schedule's note is written after the move's (a crash between leaves it naming the files
    where they were before the last move), and again whenever the run's settings change: a
    player's noted files may be where any of the last moves found them. Each player's rows are
    taken through the last moves, none first, up to all, and read as the first of those that are
    its files now (each of the same bytes: its program as it was, wherever it was noted), else the
    first that names its files of now (a file of other bytes is said where it is now), else as
    noted."""

    def read(noted: Digests, now: Digests | None) -> Digests:
        frames = [noted]
        for start in range(len(moves) - 1, -1, -1):
            rows = noted
            for move in moves[start:]:
                rows = move.take(rows)
            frames.append(rows)
        found: list[tuple[str, str, str]] = []
        for name in dict.fromkeys(n for n, _, _ in noted):
            here = {(f, d) for n, f, d in now or () if n == name}
            mine = [[(n, f, d) for n, f, d in rows if n == name] for rows in frames]
            same = [rows for rows in mine if {(f, d) for _, f, d in rows} == here]
            places = [rows for rows in mine if {f for _, f, _ in rows} == {f for f, _ in here}]
            found += (same or places or mine)[0]
        return tuple(found)

    return read


def seen_moves(spec: TournamentSpec, records: Mapping[str, Record], out: Path) -> tuple[Move, ...]:
    """The moves noted in ``out``, and the one its log's (``records``) players' folders alone show
    since, its programs unchecked (:func:`find_move` checks them, as the run does): what a
    set-aside's plan reads the programs it noted through, before the run's checks."""
    moves = read_moves(out)
    logged = dict(records)
    relocate(logged, moves.folders)
    by_name = {p.name: p for p in spec.players}
    moved = list(
        dict.fromkeys(
            p for r in logged.values() for p in r.match.players if _folder_alone(p, by_name.get(p.name))
        )
    )
    root = moved_root([(p.directory, by_name[p.name].directory) for p in moved], out) if moved else None
    if root is None:
        return moves.history
    folders = tuple((p.name, str(p.directory), str(by_name[p.name].directory)) for p in moved)
    return (*moves.history, Move(*root, folders))


def same_version(noted: Any, now: Any, name: str, moves: Sequence[Move]) -> bool:
    """Whether player ``name``'s program ``noted`` (a set-aside's: its fields and its files'
    digests, as ``set-aside/players.json`` notes them) is ``now``, its folder and files
    where any of the last ``moves`` took them (a set-aside noted before the contest's folder
    moved is of the program as it is now, moved with it)."""
    if noted == now:
        return True
    try:
        player, files = dict(noted["player"]), [(str(f), str(d)) for f, d in noted["files"]]
    except (TypeError, KeyError, ValueError):
        return False
    for start in range(len(moves) - 1, -1, -1):
        rows = ((name, str(player.get("directory")), ""), *((name, f, d) for f, d in files))
        for move in moves[start:]:
            rows = move.take(rows)
        folder = rows[0][1] if player.get("directory") is not None else None
        taken_files = sorted([f, d] for _, f, d in rows[1:])
        if {"player": {**player, "directory": folder}, "files": taken_files} == now:
            return True
    return False


def relocate(records: MutableMapping[str, Record], folders: Folders) -> None:
    """Read ``records`` (a log's, in memory) with each player's folder that ``folders`` maps taken
    to where it is now."""
    if not folders:
        return
    mapped: dict[tuple[str, str | None], str] = {(name, was): now for name, was, now in folders}
    for game_id, record in records.items():
        players = record.match.players
        if not any((p.name, p.directory) in mapped for p in players):
            continue
        now = tuple(
            attrs.evolve(p, directory=mapped[(p.name, p.directory)]) if (p.name, p.directory) in mapped else p
            for p in players
        )
        records[game_id] = attrs.evolve(record, match=attrs.evolve(record.match, players=now))


def follow(spec: TournamentSpec, records: MutableMapping[str, Record], out: Path) -> Move | None:
    """Read ``records`` (the log of ``out``, in memory) through the moves noted in ``out``, then
    follow a move of the contest's folder since, where it is exact (:func:`find_move`): the move
    (to note with :func:`note_move` once the run's checks pass); None where there is none to
    follow (the log's refusal then says why, where a player's folder changed)."""
    relocate(records, read_moves(out).folders)
    found = find_move(spec, records, out)
    if not isinstance(found, Move):
        return None
    relocate(records, found.folders)
    return found


def find_move(spec: TournamentSpec, records: Mapping[str, Record], out: Path) -> Move | Unfollowed | None:
    """The move of the contest's folder that explains ``records``' players whose folders alone
    changed, where it is exact; else why it is not (:class:`Unfollowed`, for the refusal); None where no
    player of ``records`` differs from the players list in its folder alone."""
    by_name = {p.name: p for p in spec.players}
    strangers = list(
        dict.fromkeys(p for r in records.values() for p in r.match.players if p not in spec.players)
    )
    moved = [p for p in strangers if _folder_alone(p, by_name.get(p.name))]
    if not moved:
        return None
    if len(moved) != len(strangers):
        return Unfollowed("and other players changed too")
    pairs = [(p.directory, by_name[p.name].directory) for p in moved]
    root = moved_root(pairs, out)
    if root is None:
        return Unfollowed("not with one folder that holds the results folder now")
    folders = tuple((p.name, str(p.directory), str(by_name[p.name].directory)) for p in moved)
    move = Move(*root, folders)
    why = _other_program(spec, [by_name[p.name] for p in moved], (*read_moves(out).history, move), out)
    return move if why is None else why


def programs_move(noted: Digests | None, now: Digests | None, out: Path) -> tuple[str, str] | None:
    """The one folder ``(was, now)`` the program files ``noted`` in the folder ``out`` moved with
    to where ``now`` names them, with ``out`` in it now: an SPRT test's folder moved whole with its
    programs (its records name no folder, but its note names its programs' files). Each player's
    files are paired in the order its command names them (the same command names the same files),
    whatever their bytes now: the note's files are then compared where they are now (a file of
    other bytes is refused, named where it is: a reviewer's, moved twice, named the folder it had
    left). None where they did not move so: a player's file more or less, files moved with two
    folders, or none moved."""
    if not noted or not now:
        return None
    names = list(dict.fromkeys(name for name, _, _ in now))
    pairs: list[tuple[str | None, str | None]] = []
    for name in names:
        before = [path for who, path, _ in noted if who == name]
        after = [path for who, path, _ in now if who == name]
        if len(before) != len(after):
            return None
        pairs += [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    return moved_root(pairs, out) if pairs else None


def _folder_alone(logged: PlayerInfo, now: PlayerInfo | None) -> bool:
    """Whether ``logged`` is ``now`` in another folder (neither without one)."""
    return (
        now is not None
        and logged.directory is not None
        and now.directory is not None
        and logged.directory != now.directory
        and attrs.evolve(logged, directory=now.directory) == now
    )


def moved_root(pairs: Sequence[tuple[str | None, str | None]], out: Path) -> tuple[str, str] | None:
    """The one folder ``(was, now)`` every player's folder (``pairs``: as logged, as now) moved with,
    keeping its place below it (or being it: a player with no ``directory:`` runs in the contest's
    folder), with the results folder ``out`` in it now (a contest's folder moved or copied whole:
    ``/c/bots/a`` now ``/d/bots/a``, the results in ``/d/out``): the smallest such folder, so that
    nothing is taken to be in it that did not move (``mv /lab/X/contest /lab/Y/contest`` is the
    move of ``contest``, not of ``/lab/X``, where a player's folder ``/lab/X/shared/z`` stayed).
    None where the folders moved otherwise: a new version's own new folder (``bots/v1/a`` now
    ``bots/v2/a``, the results beside ``bots``: a reviewer's was told the folder ``bots/v1`` had
    moved, and to run it there), folders moved with two folders, or the results left behind in
    the folder they moved out of (``/lab/c/bots`` now ``/c/bots``, the results in ``/lab/c/out``:
    no move of ``/lab`` to its parent, though the names below match)."""
    common: list[tuple[str, str]] | None = None
    for was, now in pairs:
        if was is None or now is None:
            return None
        old, new = Path(was).parts, Path(now).parts
        roots = []  # the folders it may have moved with, the smallest first
        same = 0
        while True:
            roots.append((str(Path(*old[: len(old) - same])), str(Path(*new[: len(new) - same]))))
            if same + 1 >= min(len(old), len(new)) or old[-1 - same] != new[-1 - same]:
                break
            same += 1
        common = roots if common is None else [root for root in common if root in roots]
    here = _resolved(out)
    for was, now in common or ():
        if here.is_relative_to(now):
            # the results still in the folder the others moved out of, up into its parent: not moved
            left = Path(was).is_relative_to(now) and here.is_relative_to(was)
            return None if left else (was, now)
    return None


def _resolved(out: Path) -> Path:
    """``out`` with its links resolved, as the players' folders are (an ``--out`` given through a
    link to the moved folder was not in it); as given where that cannot be told (a loop of links)."""
    try:
        return out.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(out))


def _other_program(
    spec: TournamentSpec, players: Iterable[PlayerInfo], moves: Sequence[Move], out: Path
) -> Unfollowed | None:
    """Why the moved ``players`` may not run the programs their logged games were played with: a
    file's digest noted with the folder's schedule (its path taken through ``moves``, those noted
    and the one found now: :func:`through`) not the digest of the file now (each such player
    named), or no digest to tell (None: each runs the same files, or is a built-in bot, whose
    program is its name, or runs a command that names no file, its program)."""
    from codecup.tournament.identity import noted_programs, program_files

    noted = through(moves)(noted_programs(out) or (), spec.programs)
    changed: dict[str, str] = {}
    for player in players:
        if player.bot is not None:  # a built-in bot's program is its name, and its name is the same
            continue
        then = {(path, digest) for name, path, digest in noted if name == player.name}
        here = {(path, digest) for name, path, digest in spec.programs or () if name == player.name}
        if not then and not program_files(player):  # its command names no file (`codecup bot GAME
            continue  # NAME`): its program is its command, the same (its fields are: _folder_alone)
        if not here or not then:
            return Unfollowed(
                f"but no digest of player {player.name!r}'s program files was noted there to tell that they"
                " are the files its games were played with"
            )
        if then != here:
            changed[player.name] = sorted({p for p, _ in then ^ here})[0]
    if not changed:
        return None
    name, path = next(iter(changed.items()))
    others = (
        f" (and {len(changed) - 1} more player{'s' if len(changed) > 2 else ''}'s)"
        if len(changed) > 1
        else ""
    )
    return Unfollowed(
        f"but player {name!r}'s program is not as it was there: {shlex.quote(path)} differs{others}",
        tuple(changed),
    )


def taken(path: str, was: str, now: str) -> str:
    """``path`` taken from the folder ``was`` to ``now`` (as it is where it is not in ``was``)."""
    p = Path(path)
    return str(Path(now) / p.relative_to(was)) if p.is_relative_to(was) else path


def taken_rows(rows: Digests, _now: object = None, *, was: str, now: str) -> Digests:
    """The program files ``rows`` taken from the folder ``was`` to ``now`` (see :func:`taken`)."""
    return tuple((n, taken(f, was, now), d) for n, f, d in rows)

"""``codecup tournament --set-aside NAME``: a player's logged games moved out of the results,
kept beside them, so that the run plays them again with the player's program as it is now.

A changed program refuses a resumed run (its games were played by the file as it was); a red
team's organiser who wanted a player's new version to play its games deleted their lines, and
the run refused all the same (fixed: only a player with logged games is compared), and the
records and pages of the games deleted stayed under ``games/`` and ``view/``, where ``codecup
verify OUT/games/*.json`` verified games the tournament no longer counted (F4, F7). Setting aside
does it whole: the lines go to ``set-aside/N/results.jsonl``, the records to
``set-aside/N/games/``, the pages are removed (the site is the log's), nothing is deleted.

Which games: every logged game of the player, unless its games were set aside already for its
program as it is now (its command, folder, env and the digests of the files it runs, noted in
``set-aside/players.json``): the games logged since are that program's. So the same command run
again, after a stop or once done, sets none aside and resumes; a player whose code is where
codecup does not digest it (a wrapper script's target, ``python -m pkg``) has its games set aside
the first time it is asked for (a reviewer's: one decided by digests alone said "none", and
could not be replayed). A player no longer in the players list (withdrawn) has all its games set
aside, and they are not played again. Only a round robin's or a gauntlet's: a Swiss tournament's
or a knock-out's later games are paired by the results of those set aside.

The run sets games aside only once every check of the folder passed, of the log as it is without
them (a reviewer's: games were moved, then the folder refused as another format's, and it could
not be resumed). A stop as it sets them aside leaves the folder whole (a reviewer's killed at each
step left lines in both logs, or pages of games not logged): the set-aside folder is built as
``set-aside/.pending`` with links to the records, the log replaced in one rename, and only then
the records and pages removed and the folder named; the next run finishes it, or undoes it where
the log was not replaced yet (:func:`finish_pending`).

``--replay-errors`` sets aside so the games logged as referee errors (the referee died, the game
plugin failed, a program could not be contained: no fault of either player, no points), with or
without players' games, so that the run plays them again once the cause is mended; before, the
organiser deleted their log lines, leaving their records and pages behind as above.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from codecup.errors import ConfigError, RecordError
from codecup.reading import MIB, read_file
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.identity import NAME as NOTE_NAME
from codecup.tournament.identity import noted_challenger, withdrawn_challenger
from codecup.tournament.log import LOG_NAME, entry_of, logged_ids
from codecup.tournament.moved import read_moves, same_version, seen_moves

if TYPE_CHECKING:
    from codecup.record import PlayerInfo, Record
    from codecup.tournament.spec import TournamentSpec

FOLDER = "set-aside"
"""The folder of a tournament's results where set-aside games go, each time in a numbered folder."""

FORMATS = ("round-robin", "gauntlet")
"""The formats whose games can be set aside: no pairing depends on a game's result."""

PLAYERS = "players.json"
"""In :data:`FOLDER`: each player's program its games were last set aside for (see the module)."""

PENDING = ".pending"
"""In :data:`FOLDER`: a set-aside being made (the next run finishes or undoes it)."""

KEPT = f".{LOG_NAME}.kept"
"""Beside the results log: the log without the games set aside, being written (renamed over it)."""

_NOTE = "set-aside.json"  # in a set-aside folder: its games and its players' programs


@attrs.frozen
class SetAside:
    """The games of one player set aside (``games``: their ids, in the log's order)."""

    player: str
    games: tuple[str, ...]
    folder: Path | None  # where they went (None: none was set aside)
    listed: bool  # the player is in the players list: its games are played again

    def line(self) -> str:
        """What the run says of it (one line, on stderr)."""
        if not self.games:
            why = (
                "its games were set aside for its program as it is now already: those logged since are"
                f" its; to set them aside all the same, delete {FOLDER}/{PLAYERS} in the --out folder"
                if self.listed
                else "none"
            )
            return f"no logged game of player {self.player!r} set aside ({why})"
        n, first = len(self.games), self.games[0]
        games = f"the {n} logged game{'s' if n != 1 else ''} of player {self.player!r} (the first {first})"
        then = (
            "this run plays them again with its program as it is now"
            if self.listed
            else "it is not in the players list, so they are not played again"
        )
        return f"set aside {games} into {self.folder}/ (their log lines and records): {then}"


@attrs.frozen
class ErrorsAside:
    """The games logged as referee errors set aside by ``--replay-errors`` (``games``: their ids,
    in the log's order), to be played again."""

    games: tuple[str, ...]
    folder: Path | None  # where they went (None: none was set aside)

    def line(self) -> str:
        """What the run says of it (one line, on stderr)."""
        if not self.games:
            return "no logged game of players in the players list ended in a referee error: none set aside"
        n, first = len(self.games), self.games[0]
        games = (
            f"the {n} logged game{'s' if n != 1 else ''} that ended in a referee error (the first {first})"
        )
        return (
            f"set aside {games} into {self.folder}/ (their log lines and records): this run plays them again"
        )


@attrs.frozen
class Plan:
    """What ``--set-aside`` does to a folder, decided from its log before anything is changed."""

    names: tuple[str, ...]
    games: tuple[str, ...]  # the ids set aside, in the log's order
    of_player: Mapping[str, tuple[str, ...]]  # each name's games set aside (a game of two: both's)
    versions: Mapping[str, Any]  # each listed name's program, noted once done (PLAYERS)
    listed: frozenset[str]
    errors: tuple[str, ...] | None = None  # --replay-errors: the referee errors set aside (None: not asked)

    def changes(self) -> bool:
        """Whether carrying it out changes the folder (games to move, or a program to note)."""
        return bool(self.games) or bool(self.versions)


@attrs.frozen
class Archived:
    """A numbered folder of games set aside, as the standings name it."""

    folder: str  # relative to the results folder: set-aside/N
    games: int
    players: tuple[str, ...]  # whose games they were (as its note says; none where it cannot be read)
    referee_errors: int = 0  # of them, those set aside as referee errors (--replay-errors)

    def to_json(self) -> dict[str, Any]:
        """The form of standings.json's ``set_aside`` (docs/standings-schema.md)."""
        return {
            "folder": self.folder,
            "games": self.games,
            "players": list(self.players),
            "referee_errors": self.referee_errors,
        }

    def said(self) -> str:
        """How the standings' line says it: ``set-aside/1 (4 of 'a')``, ``set-aside/2 (3 referee
        errors)``, ``set-aside/3 (6 of 'a', and 2 referee errors)`` (8 games in all)."""
        return f"{self.folder} ({self.whose() or self.games})"

    def whose(self) -> str:
        """Whose games they were: ``4 of 'a'``, ``3 referee errors``, ``6 of 'a', and 2 referee
        errors`` (empty where its note names neither)."""
        errors = f"{self.referee_errors} referee error{'s' if self.referee_errors != 1 else ''}"
        if not self.players:
            return errors if self.referee_errors else ""
        names = ", ".join(repr(p) for p in self.players)
        theirs = self.games - self.referee_errors  # a player's game that failed is the player's
        return f"{theirs} of {names}{', and ' + errors if self.referee_errors else ''}"


def archived(out: Path) -> tuple[Archived, ...]:
    """The folders of games set aside in ``out`` (``set-aside/1``, ``set-aside/2`` ...), in their
    order: the standings and the site say them (a set-aside left no trace there: a red team's)."""
    top = out / FOLDER
    if not top.is_dir() or top.is_symlink():
        return ()
    found = []
    for entry in top.iterdir():
        if not entry.name.isdigit() or not entry.is_dir() or entry.is_symlink():
            continue
        note = _json_of(entry / _NOTE)
        versions = note.get("versions") if isinstance(note, dict) else None
        errors = note.get("errors") if isinstance(note, dict) else None
        players = tuple(str(n) for n in versions) if isinstance(versions, dict) else ()
        count = len(logged_ids(entry / LOG_NAME))
        aside = Archived(
            f"{FOLDER}/{entry.name}", count, players, len(errors) if isinstance(errors, list) else 0
        )
        found.append((int(entry.name), aside))
    return tuple(a for _, a in sorted(found, key=lambda pair: pair[0]))


NOTE_CAP = 64 * MIB
"""The most bytes of a set-aside's note read (its games' ids and its players' programs)."""


def _json_of(path: Path) -> Any:
    """The JSON of a set-aside's note ``path``; None where it is missing, no regular file (a FIFO
    hung its reader), over :data:`NOTE_CAP`, or not JSON (too deep for the parser too)."""
    try:
        return json.loads(read_file(path, NOTE_CAP, "a set-aside note"))
    except (ConfigError, ValueError, RecursionError):
        return None


def archived_line(folders: Sequence[Archived]) -> str | None:
    """One line saying the games set aside (None: none), for standings.txt and the site's index."""
    n = sum(a.games for a in folders)
    if not folders:
        return None
    said = ", ".join(a.said() for a in folders)
    return f"{n} game{'s' if n != 1 else ''} set aside, not in these standings: see {said}"


def check_set_aside(names: Sequence[str], spec: TournamentSpec, errors: bool = False) -> None:
    """Refuse ``--set-aside`` (``names``) or ``--replay-errors`` (``errors``) in a format whose
    pairings depend on results, before anything is done."""
    if (names or errors) and spec.format not in FORMATS:
        raise ConfigError(
            f"{_option(names)} applies to a round robin or a gauntlet, not a {spec.format} tournament"
            f" (its later games are paired by the results of those set aside): {_instead(names)}"
        )


def _option(names: Sequence[str]) -> str:
    """The option asked for, as a refusal names it (``names`` given: ``--set-aside``)."""
    return "--set-aside" if names else "--replay-errors"


def _instead(names: Sequence[str]) -> str:
    """What a refusal of :func:`_option` in another format advises."""
    if names:
        return "use another --out folder"
    return "use another --out folder, or delete a game's line from results.jsonl to have it played again"


def plan(
    out: Path, names: Sequence[str], spec: TournamentSpec, records: Mapping[str, Record], errors: bool = False
) -> Plan:
    """Which of the logged games ``records`` (the log of ``out``, in its order) ``--set-aside``
    of ``names`` moves, and ``--replay-errors`` (``errors``: those that ended in a referee error);
    refused (before anything is changed) in a folder whose noted format is not one of
    :data:`FORMATS`, for a name neither in the players list nor in the log, or for a gauntlet's
    challenger withdrawn (:func:`~codecup.tournament.identity.noted_challenger`)."""
    check_set_aside(names, spec, errors)
    noted = _noted_format(out)
    if (names or errors) and noted is not None and noted not in FORMATS:  # the folder's, not the command's
        raise ConfigError(
            f"{_option(names)} applies to a round robin or a gauntlet, and {out} holds a {noted} tournament's"
            f" games (its later games are paired by the results of those set aside): {_instead(names)}"
        )
    challenger = noted_challenger(out, list(records.values())) if spec.format == "gauntlet" else None
    if challenger is not None and challenger in names and challenger not in spec.names:
        # with the note it was refused as another schedule; without it, every game was set aside
        raise ConfigError(f"--set-aside {challenger}: {withdrawn_challenger(challenger)}")
    playing = {p.name for record in records.values() for p in record.match.players}
    done = _noted_versions(out)  # a withdrawn player's too: the same command again is no mistake
    unknown = [name for name in names if name not in spec.names and name not in playing and name not in done]
    if unknown:
        raise ConfigError(
            f"--set-aside {unknown[0]}: no player of that name is in the players list or has a game"
            f" logged in {out}: give a player's name"
        )
    versions = {name: _version(spec, name) if name in spec.names else None for name in names}
    moves = seen_moves(spec, records, out)  # noted before the folder moved: read where it is now
    again = {
        name
        for name in names
        if versions[name] is None or not same_version(done.get(name), versions[name], name, moves)
    }
    of_player: dict[str, list[str]] = {name: [] for name in names}
    games = []
    failed = []
    for game_id, record in records.items():
        mine = [p.name for p in record.match.players if p.name in again]
        # a referee error of a player no longer listed is not played again: left as it is (a
        # reviewer's line promised to play such games again)
        all_listed = all(p.name in spec.names for p in record.match.players)
        if mine or (errors and all_listed and is_referee_error(record)):
            games.append(game_id)
            for name in dict.fromkeys(mine):
                of_player[name].append(game_id)
            if not mine:  # a player's game set aside is played again as the player's, whatever its end
                failed.append(game_id)
    return Plan(
        tuple(names),
        tuple(games),
        {name: tuple(ids) for name, ids in of_player.items()},
        {name: versions[name] for name in again},
        frozenset(name for name in names if name in spec.names),
        tuple(failed) if errors else None,
    )


def still_to_do(
    out: Path, names: Sequence[str], spec: TournamentSpec, logged: int, errors: bool = False
) -> str | None:
    """What ``--set-aside`` of ``names`` may still do in ``out`` (``logged`` games in its log), said
    for a run stopped before it carried it out (a red team's SIGTERM then said "every game is logged
    (60 of 60), not the standings", and the same command set 24 games aside and played them again).

    Said at once, from what is known without reading the log (a reviewer's, planned from the log
    at the stop, took 3.7 s of CPU over 5,040 games, and a second stop meanwhile killed the command
    unsaid): the names given, the players list, the programs noted in ``set-aside/players.json``.
    How many games, and whether the folder's checks pass (they may not have run: a changed clock is
    refused), are not known: the line promises neither. None where it sets none aside (each name's
    program noted as it is now, a withdrawn player's games set aside already). ``errors``
    (``--replay-errors``): the games logged as referee errors, which may be none (or set aside
    already: the line does not say "none set aside yet")."""
    done = _noted_versions(out)
    moves = read_moves(out).history
    listed = [
        n for n in names if n in spec.names and not same_version(done.get(n), _version(spec, n), n, moves)
    ]
    withdrawn = [n for n in names if n not in spec.names and n not in done]
    whose = [n for n in names if n in listed or n in withdrawn]
    if not whose and not errors:
        return None
    parts = [f"the logged games of {_said(whose)}"] if whose else []
    if errors:
        parts.append("those logged as referee errors (if any)")
    what = " and ".join(parts)
    if not withdrawn:
        then = " and plays them again"
    elif errors:
        then = f" and plays them again, but those of {_said(withdrawn)} (not in the players list)"
    elif not listed:
        then = (
            f" ({'it is' if len(withdrawn) == 1 else 'they are'} not in the players list: not played again)"
        )
    else:
        then = f" and plays those of {_said(listed)} again"
    # whether the referee errors were set aside already is known only from the log (a stop can
    # come once they were, before the run said so: a reviewer's line said "none set aside yet")
    yet = "" if errors else ", none set aside yet"
    return (
        f"{logged} game{'s are' if logged != 1 else ' is'} logged in {out}/{yet}: the same"
        f" command, once its checks of the folder pass, sets aside {what}{then}"
    )


def _said(names: Sequence[str]) -> str:
    """``player 'a'``, ``players 'a' and 'b'``, ``players 'a', 'b' and 'c'``."""
    quoted = [repr(name) for name in names]
    if len(quoted) == 1:
        return f"player {quoted[0]}"
    return f"players {', '.join(quoted[:-1])} and {quoted[-1]}"


def set_aside(out: Path, todo: Plan) -> list[SetAside | ErrorsAside]:
    """Carry out ``todo`` in ``out`` (whose lock the caller holds; :func:`finish_pending` done):
    what was done, a :class:`SetAside` per name, then an :class:`ErrorsAside` if asked for."""
    try:
        folder = _set_aside(out, todo) if todo.changes() else None
    except OSError as exc:
        raise ConfigError(
            f"{out}: setting games aside failed ({exc.strerror or exc}); its results log is whole, and"
            " the same command tries again"
        ) from None
    done: list[SetAside | ErrorsAside] = [
        SetAside(name, todo.of_player[name], folder if todo.of_player[name] else None, name in todo.listed)
        for name in todo.names
    ]
    if todo.errors is not None:
        done.append(ErrorsAside(todo.errors, folder if todo.errors else None))
    return done


def _set_aside(out: Path, todo: Plan) -> Path | None:
    top = _top(out)
    if not todo.games:  # a program noted (no game of it logged yet): its games from now are its own
        _note_versions(top, todo.versions)
        return None
    pending = top / PENDING
    pending.mkdir()
    (pending / "games").mkdir()
    ids = set(todo.games)
    log = out / LOG_NAME
    kept = out / KEPT
    with log.open("rb") as f, kept.open("wb") as keep, (pending / LOG_NAME).open("wb") as put:
        for raw in iter(f.readline, b""):
            found = _game_of(raw)
            if found is not None and found[0] in ids:
                put.write(raw if raw.endswith(b"\n") else raw + b"\n")
            else:
                keep.write(raw)
        for handle in (keep, put):
            handle.flush()
            os.fsync(handle.fileno())
    for game_id in todo.games:  # linked, not moved: until the log is replaced they are its games'
        record = out / "games" / f"{game_id}.json"
        if record.is_file() and not record.is_symlink():
            try:
                os.link(record, pending / "games" / record.name)
            except OSError:  # a file system without hard links
                shutil.copy2(record, pending / "games" / record.name)
    note = {"games": list(todo.games), "versions": dict(todo.versions), "errors": list(todo.errors or ())}
    _write(pending / _NOTE, note)  # last: whole
    _sync(pending / "games")
    _sync(pending)
    _sync(top)
    kept.replace(log)  # the set-aside happens here, in one rename
    _sync(out)
    return _complete(out, pending)


def finish_pending(out: Path) -> str | None:
    """Finish a set-aside a stop cut short in ``out`` (its log replaced: the records and pages of
    its games removed, the folder named), or undo it (not replaced: the folder being built
    removed); what was done, as a line to say (None: there was none). The caller holds ``out``'s
    lock."""
    (out / KEPT).unlink(missing_ok=True)  # a log not yet put in place: stale now
    pending = out / FOLDER / PENDING
    if not pending.is_dir() or pending.is_symlink():
        return None
    note = _json_of(pending / _NOTE)  # not written whole: the log is as it was
    games = note.get("games") if isinstance(note, dict) else None
    try:
        if not isinstance(games, list) or set(games) & logged_ids(out / LOG_NAME):
            shutil.rmtree(pending)  # links and copies only: the records are still under games/
            return "a set-aside a stop cut short was undone: its games are in the results log as they were"
        folder = _complete(out, pending)
        return (
            f"a set-aside a stop cut short was finished: its {len(games)} games are in {folder}/ (their log"
            " lines and records)"
        )
    except OSError as exc:
        raise ConfigError(
            f"{pending}: finishing the set-aside a stop cut short failed ({exc.strerror or exc}): the"
            " same command tries again"
        ) from None


def _complete(out: Path, pending: Path) -> Path:
    """The set-aside ``pending``, its games out of the log: their records and pages removed (kept
    in it), its programs noted, and it named (numbered). Each step can be done again."""
    note = json.loads((pending / _NOTE).read_text("utf-8"))
    for game_id in note["games"]:
        record = out / "games" / f"{game_id}.json"
        if (pending / "games" / record.name).is_file() and not record.is_symlink():
            record.unlink(missing_ok=True)
        (out / "view" / f"{game_id}.html").unlink(missing_ok=True)  # the site is the log's
    _note_versions(pending.parent, note.get("versions") or {})
    number = 1
    while (pending.parent / str(number)).exists() or (pending.parent / str(number)).is_symlink():
        number += 1
    folder = pending.parent / str(number)
    os.rename(pending, folder)
    _sync(pending.parent)
    return folder


def _top(out: Path) -> Path:
    top = out / FOLDER
    if top.is_symlink() or (top.exists() and not top.is_dir()):
        raise ConfigError(f"{top} is not a folder, where --set-aside keeps the games it sets aside: move it")
    top.mkdir(exist_ok=True)
    return top


def _version(spec: TournamentSpec, name: str) -> Any:
    """Player ``name``'s program as ``spec`` has it: its fields and its files' digests (as JSON)."""
    player: PlayerInfo = next(p for p in spec.players if p.name == name)
    files = sorted([path, digest] for who, path, digest in spec.programs or () if who == name)
    fields = {f.name: getattr(player, f.name) for f in attrs.fields(type(player)) if f.eq}
    return json.loads(json.dumps({"player": fields, "files": files}))


def _noted_versions(out: Path) -> dict[str, Any]:
    doc = _json_of(out / FOLDER / PLAYERS)
    return doc if isinstance(doc, dict) else {}


def _note_versions(top: Path, versions: Mapping[str, Any]) -> None:
    if versions:
        _write(top / PLAYERS, {**_noted_versions(top.parent), **versions})


def _write(path: Path, doc: object) -> None:
    """``doc`` as ``path``, whole or not at all (written aside, then renamed)."""
    part = path.with_name(f".{path.name}.part")
    with part.open("w", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    part.replace(path)


def _noted_format(out: Path) -> str | None:
    """The format noted in ``out`` (:mod:`~codecup.tournament.identity`); None: none."""
    doc = _json_of(out / NOTE_NAME)
    found = doc.get("format") if isinstance(doc, dict) else None
    return found if isinstance(found, str) else None


def _game_of(raw: bytes) -> tuple[str, Record] | None:
    try:
        return entry_of(raw)
    except RecordError:
        return None


def _sync(folder: Path) -> None:
    """The folder's entries on disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

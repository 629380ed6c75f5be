"""``codecup verify OUT``: a results folder checked as a whole, as a third party receives it.

Records are the truth (docs/record-schema.md), the log (``results.jsonl``) holds them, and the
rest is made from it: every logged record is replayed (:func:`~codecup.verify.verdict`), ``games/``
must hold exactly the log's games, each file its line's record, and the standings must be what the
log gives (:mod:`~codecup.tournament.standingscheck`). A red team's folder, its last player crowned
in every standings file, one record deleted and one made up, passed ``codecup verify
OUT/games/*.json`` whole. Nothing is written: a torn last line is said, not cut; the lock is looked
at, not taken.

A folder still being played (its lock held, or no standings yet) is said as such; its games
set aside (``set-aside/N``) are said and not counted; an ``sprt`` log (no standings) has its
records checked; a demo's folder has each game's folder checked.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from codecup import jsonfields as jf
from codecup.errors import ConfigError, described, said
from codecup.plugins import GameRegistry
from codecup.reading import MIB
from codecup.record import MAX_RECORD, NotJSONError, Record, document
from codecup.tournament.asidecheck import Replayed, check_aside
from codecup.tournament.gamefiles import game_path, holds
from codecup.tournament.lock import held_by_a_run
from codecup.tournament.log import LOG_NAME, raw_lines
from codecup.tournament.setaside import FOLDER, PENDING, archived
from codecup.tournament.standingscheck import check_standings, read_standings, spec_of
from codecup.verify import Verdict, verdict

PROBLEM, UNREADABLE, PLUGIN, NOTE = "problem", "unreadable", "plugin", "note"
"""The kinds of a finding: exit status 1, 2, 3, or none (said only)."""


@attrs.frozen
class Finding:
    """One line of what checking a folder finds, and of which kind (:data:`PROBLEM` ...)."""

    kind: str
    text: str


@attrs.frozen
class Logged:
    """A logged game: its id, its line's number, its record (slim) and the line's record document."""

    game_id: str
    line: int
    record: Record
    size: int  # the line's bytes
    # the line's record document, as its line holds it (None once compared: not kept for every game)
    doc: Any = attrs.field(default=None, eq=False, repr=False)


@attrs.define
class FolderCheck:
    """What checking a results folder finds, in order; ``games``: the logged games checked."""

    folder: Path
    findings: list[Finding] = attrs.field(factory=list)
    games: int = 0
    what: str = ""  # what kind of folder it is ("tournament folder", "sprt log"); empty: none
    unplayed: list[str] = attrs.field(factory=list)  # the logged games that were referee errors
    unconfirmed: list[str] = attrs.field(factory=list)  # of them: the plugin's failure, not met again
    whole: list[str] = attrs.field(factory=list)  # of them: codecup's failure, replayed to the game's end
    log_whole: bool = True  # every line of the log read (a record that cannot be read is not its line)

    def add(self, kind: str, text: str) -> None:
        """Note one finding."""
        self.findings.append(Finding(kind, text))

    def unread(self, text: str) -> None:
        """Note that the log cannot be read whole (:data:`UNREADABLE`): its standings not compared."""
        self.log_whole = False
        self.add(UNREADABLE, text)

    def kinds(self) -> set[str]:
        """The kinds found."""
        return {f.kind for f in self.findings}


def check_folder(registry: GameRegistry, out: Path, tell: Callable[[FolderCheck], None]) -> None:
    """Check ``out`` (a tournament's, an sprt's or a demo's folder), telling each checked folder's
    findings as it is done; a folder that is none of these is one :data:`UNREADABLE` finding."""
    if (out / LOG_NAME).exists() or (out / LOG_NAME).is_symlink():
        tell(_check_run(registry, out))
        return
    games = sorted(p for p in _entries(out) if (p / LOG_NAME).is_file() and not p.is_symlink())
    if games and (out / "index.html").is_file():  # a demo's: a folder per game
        for folder in games:
            tell(_check_run(registry, folder))
        return
    check = FolderCheck(out)
    check.add(UNREADABLE, f"{out}: is a folder, but no results folder (no {LOG_NAME} in it)")
    tell(check)


def _entries(out: Path) -> list[Path]:
    try:
        return [p for p in out.iterdir() if p.is_dir()]
    except OSError:
        return []


def _check_run(registry: GameRegistry, out: Path) -> FolderCheck:
    """A tournament's or an sprt's folder."""
    check = FolderCheck(out)
    held = held_by_a_run(out)
    if held:
        check.add(
            NOTE, f"{out}: a run is writing it right now (its lock is held): its games so far are checked"
        )
    games = (out / "games").is_dir() and not (out / "games").is_symlink()
    readable = games and _listable(out / "games", check)  # not: said once, its records not looked at
    logged: dict[str, Logged] = {}
    for item in _read_log(registry, out / LOG_NAME, check):
        if item.game_id in logged:
            first = logged[item.game_id].line
            check.add(
                PROBLEM, f"{out / LOG_NAME}, line {item.line}: game {item.game_id} again (line {first})"
            )
            continue
        if readable:
            _check_file(out, item, check)
        logged[item.game_id] = Logged(item.game_id, item.line, item.record.slim(), item.size)
        check.games += 1
    sprt = bool(logged) and all(k.startswith("sprt") for k in logged)
    check.what = "sprt log" if sprt else "tournament folder"
    finished = not held and ((out / "standings.json").exists() or (out / "standings.json").is_symlink())
    if readable:
        if check.log_whole:  # a line not read: its record is no stranger
            _check_extra_files(out, logged, check, finished)
    elif not games and not sprt and logged:
        check.add(PROBLEM, f"{out / 'games'}: no folder of records (the log holds {len(logged)} games)")
    _say_set_aside(registry, out, check)
    if not sprt:
        _check_standings(registry, out, logged, check)
    _say_unplayed(out, check)
    return check


def _say_unplayed(out: Path, check: FolderCheck) -> None:
    """The logged referee errors, one note: a game not played to its end has no result to check,
    and no standings count it (the standings, recomputed without them, were compared above: a
    file that counts one does not agree). A single record of one does not verify (``verify RECORD``)."""
    if not check.unplayed:
        return
    n = len(check.unplayed)
    first = ", ".join(check.unplayed[:3]) + (", ..." if n > 3 else "")
    were = f"{n} game{'s were' if n != 1 else ' was'} {'referee errors' if n != 1 else 'a referee error'}"
    sprt = check.what == "sprt log"
    where = "for either side" if sprt else "in the standings"
    they = "they are" if n != 1 else "it is"
    check.add(NOTE, f"{out / LOG_NAME}: {were} ({first}): no result to check; {they} not counted {where}")
    if check.unconfirmed:
        k = len(check.unconfirmed)
        which = ", ".join(check.unconfirmed[:3]) + (", ..." if k > 3 else "")
        says = f"{k} of them say{'s' if k == 1 else ''}"
        again = "" if sprt else " (--replay-errors plays them again)"
        check.add(
            NOTE,
            f"{out / LOG_NAME}: {says} the game plugin failed ({which}), which {'its' if k == 1 else 'their'}"
            f" replay does not now: a plugin mended since{again}, a failure of the rules in a bot's"
            " session, or a record changed (not told apart)",
        )
    if check.whole:
        k = len(check.whole)
        which = ", ".join(check.whole[:3]) + (", ..." if k > 3 else "")
        says = f"{k} of them say{'s' if k == 1 else ''}"
        check.add(
            NOTE,
            f"{out / LOG_NAME}: {says} codecup itself failed ({which}), yet {'its' if k == 1 else 'their'}"
            " transcript replays to the game's end: codecup's own failure after a game's last line (a bug"
            " of codecup, to be reported), or a record changed (not told apart)",
        )


def _listable(folder: Path, check: FolderCheck) -> bool:
    """Whether ``folder`` can be listed; if not, it is said (a user's mode 000: exit 2; it was a
    PermissionError out of every record's look-up, exit 4)."""
    try:
        os.listdir(folder)
    except OSError as exc:
        check.add(UNREADABLE, f"cannot read {folder}: {exc.strerror or exc} (its records not compared)")
        return False
    return True


def _read_log(registry: GameRegistry, path: Path, check: FolderCheck) -> Iterator[Logged]:
    """Each whole line of the log read, checked as a record and replayed (problems into ``check``),
    a line at a time, each at most :data:`~codecup.record.MAX_RECORD` bytes."""
    for line in raw_lines(path, check.unread):
        number, raw = line.number, line.raw
        if raw is None:
            check.unread(f"{path}, line {number}: larger than {MAX_RECORD // MIB} MiB; not read")
            continue
        try:
            game_id, doc, record = _entry(raw)
        except NotJSONError as exc:
            if line.cut:  # a write cut short, as a kill leaves it
                why = "a run killed as it wrote it: the next run drops it and plays that game again"
                check.add(NOTE, f"{path}, line {number}: cut short ({exc}; {why})")
                break
            check.unread(f"{path}, line {number}: {said(exc)}")
            continue
        except ConfigError as exc:
            check.unread(f"{path}, line {number}: {said(exc)}")
            continue
        _replay(registry, path, number, game_id, record, check)
        yield Logged(game_id, number, record, len(raw), doc.get("record"))


def _entry(raw: bytes) -> tuple[str, Any, Record]:
    doc = document(raw)
    line = jf.obj(doc, "the line")
    return jf.string(line, "id"), line, Record.from_json(jf.required(line, "record"))


def _replayed(registry: GameRegistry, record: Record) -> Replayed:
    """What ``record``'s replay finds (a set-aside's referee error only a replay tells), as
    :func:`_replay` takes it for a logged game: a game missing here is unreadable, the plugin's
    failure leaves the record not checked (a reviewer's: it was counted a problem)."""
    try:
        game = registry.get(record.match.game)
        game.info.variant(record.match.variant)
        found = verdict(game, record)
    except ConfigError as exc:
        return Replayed(unreadable=said(exc, None))
    except Exception as exc:  # the record's contents are input too
        return Replayed(f"cannot replay the record: {described(exc, None)}")
    if found.plugin_failure is not None:
        return Replayed(plugin_failure=found.plugin_failure)
    if found.unplayed:  # a referee error its replay gives again: no result to check, as in the log
        return Replayed()
    return Replayed(found.problems[0] if found.problems else None)


def _replay(
    registry: GameRegistry, path: Path, number: int, game_id: str, record: Record, check: FolderCheck
) -> None:
    """Replay one logged record as ``codecup verify RECORD`` does."""
    where = f"{path}, line {number} (game {game_id})"
    try:
        game = registry.get(record.match.game)
        game.info.variant(record.match.variant)
        found = verdict(game, record)
    except ConfigError as exc:
        check.unread(f"{where}: {said(exc, None)}")
        return
    except Exception as exc:  # the record's contents are input too
        found = Verdict((f"cannot replay the record: {described(exc, None)}",))
    if found.plugin_failure is not None:
        check.add(PLUGIN, f"{where}: NOT CHECKED: {found.plugin_failure}")
    elif found.unplayed:  # no result: counted for no one (said once the standings are compared)
        check.unplayed.append(game_id)
        if found.unconfirmed:
            check.unconfirmed.append(game_id)
        if found.replays_whole:
            check.whole.append(game_id)
    elif found.problems:
        check.add(PROBLEM, f"{where}: DOES NOT VERIFY: {'; '.join(found.problems)}")


def _check_file(out: Path, item: Logged, check: FolderCheck) -> None:
    """The logged game's file in ``games/`` is its line's record."""
    path = game_path(out, item.game_id)
    try:  # a record that cannot be read is said so, not taken for another record (mode 000)
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
    except FileNotFoundError:
        pass
    except OSError as exc:
        if not path.is_symlink() or path.exists():  # a dangling link is missing, said below
            check.add(UNREADABLE, f"cannot read {path}: {exc.strerror or exc} (game {item.game_id})")
            return
    if not path.exists() and not path.is_symlink():
        check.add(PROBLEM, f"{path}: missing (the log holds game {item.game_id}, line {item.line})")
    elif not path.is_file():  # a FIFO would block its reader for ever
        check.add(
            PROBLEM, f"{path}: not a regular file (the log holds game {item.game_id}, line {item.line})"
        )
    elif not holds(path, item.doc, item.size):
        check.add(PROBLEM, f"{path}: not the record of its log line ({out / LOG_NAME}, line {item.line})")


def _check_extra_files(out: Path, logged: dict[str, Logged], check: FolderCheck, finished: bool) -> None:
    """No record in ``games/`` that the log does not hold: one line for all of them. In a folder
    not finished they may be a crash's (a record written, its line not yet: played again by the
    next run, docs/tournaments.md), said but not counted."""
    try:
        names = sorted(os.listdir(out / "games"))
    except OSError as exc:
        check.add(UNREADABLE, f"cannot read {out / 'games'}: {exc.strerror or exc}")
        return
    extra = [name for name in names if name.endswith(".json") and name[: -len(".json")] not in logged]
    if not extra:
        return
    n = len(extra)
    first = ", ".join(extra[:3]) + (", ..." if n > 3 else "")
    what = f"{n} record{'s' if n != 1 else ''} the log ({out / LOG_NAME}) does not hold ({first})"
    if finished:
        check.add(PROBLEM, f"{out / 'games'}: {what}")
    else:
        why = (
            "a run stopped between writing a game's record and logging it leaves one (played again next run)"
        )
        check.add(NOTE, f"{out / 'games'}: {what}: {why}")


def _say_set_aside(registry: GameRegistry, out: Path, check: FolderCheck) -> None:
    """Each folder of games set aside: said, and its log checked against its note (replayed only
    where a referee error's transcript asks it)."""
    for a in archived(out):
        whose = f" ({a.whose()})" if a.whose() else ""
        n = f"{a.games} game{'s' if a.games != 1 else ''}"
        check.add(
            NOTE,
            f"{out / a.folder}: {n} set aside{whose}, not counted in the standings (checked against its"
            " note; replayed only where a referee error's transcript asks it)",
        )
        found = check_aside(out / a.folder, functools.partial(_replayed, registry))
        for line in found.problems:
            check.add(PROBLEM, line)
        for line in found.unreadable:
            check.add(UNREADABLE, line)
        for line in found.unchecked:
            check.add(PLUGIN, line)
    if (out / FOLDER / PENDING).exists():
        check.add(
            NOTE, f"{out / FOLDER / PENDING}: a set-aside not finished (the next run finishes or undoes it)"
        )


def _check_standings(
    registry: GameRegistry, out: Path, logged: dict[str, Logged], check: FolderCheck
) -> None:
    path = out / "standings.json"
    if not path.exists() and not path.is_symlink():
        check.add(NOTE, f"{out}: no standings yet (the run has not finished: the same command writes them)")
        return
    try:
        doc = read_standings(out)
        spec = spec_of(doc)
        game = registry.get(spec.game)
    except ConfigError as exc:
        why = said(exc).removeprefix("malformed record: ")
        check.add(UNREADABLE, why if str(path) in why else f"{path}: not the standings schema: {why}")
        return
    if not check.log_whole:
        check.add(NOTE, f"{path}: not compared (the log cannot be read whole)")
        return
    try:
        found = check_standings(out, doc, spec, game, {k: v.record for k, v in logged.items()})
    except ConfigError as exc:
        check.add(UNREADABLE, f"{path}: cannot be recomputed: {said(exc)}")
        return
    except MemoryError:
        raise
    except Exception as exc:  # what the file names is input: anything it breaks is its fault
        check.add(UNREADABLE, f"{path}: cannot be recomputed: {described(exc)}")
        return
    for line in found.problems:
        check.add(PROBLEM, line)
    for line in found.unreadable:
        check.add(UNREADABLE, line)
    for line in found.notes:
        check.add(NOTE, line)

"""A finished tournament's standings checked against its results log (``codecup verify OUT``).

The standings (``standings.json``, ``.txt``, ``.csv``) are recomputed from the log's records by the
run's own code (its schedule walked again, :func:`~codecup.tournament.tournament.format_standings`,
:func:`~codecup.tournament.tournament.final_order`, the ratings) under the tournament the file itself
names (its players, format and seed), and compared with what the files say: the first difference of
each file is said in one line (a red team crowned the last player in all three files, and nothing a
consumer could run found it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup import jsonfields as jf
from codecup.errors import ConfigError, RecordError, said, shown
from codecup.game import Game
from codecup.reading import MIB, read_file
from codecup.record import PlayerInfo, Record
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.machine import limits_had
from codecup.tournament.moved import NAME as MOVED
from codecup.tournament.moved import noted_folders, relocate
from codecup.tournament.ratings import bradley_terry
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.setaside import archived
from codecup.tournament.spec import TournamentSpec
from codecup.tournament.standings import SCHEMA, counted, ranker, reorder
from codecup.tournament.tournament import TournamentResult, final_order, format_standings

OLDER = "codecup-standings/1"
"""The schema of an older codecup's standings.json (docs/standings-schema.md): said, not compared."""

MAX_STANDINGS = 64 * MIB
"""The most bytes a standings file is read to (a 5,000-game tournament's standings.json is ~2 MB)."""


@attrs.frozen
class StandingsCheck:
    """What comparing a folder's standings with its log finds: each a line of its own."""

    problems: tuple[str, ...] = ()  # the files say what the log does not give
    notes: tuple[str, ...] = ()  # what was not compared, and why
    unreadable: tuple[str, ...] = ()  # a file that cannot be read (mode 000, a FIFO, too large)


def read_standings(out: Path) -> Any:
    """``OUT/standings.json``'s document; :class:`ConfigError` (one line) if it cannot be read or
    is no JSON of this schema's version."""
    path = out / "standings.json"
    data = read_file(path, MAX_STANDINGS, "a standings file")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ConfigError(f"{path}: not JSON") from None
    if not isinstance(doc, dict) or doc.get("schema") not in (SCHEMA, OLDER):
        found = doc.get("schema") if isinstance(doc, dict) else None
        raise ConfigError(f"{path}: not a {SCHEMA} file (schema {shown(found, 60)})")
    return doc


def spec_of(doc: Mapping[str, Any]) -> TournamentSpec:
    """The tournament a standings document names (its ``tournament``); :class:`RecordError` or
    :class:`ConfigError` naming the field where it is not one."""
    t = jf.obj(jf.required(doc, "tournament"), "tournament")
    entrants = jf.required(t, "entrants", "tournament")
    if not isinstance(entrants, list):
        raise RecordError(f"tournament.entrants must be a list, not {jf.kind(entrants)}")
    players = []
    for i, e in enumerate(entrants):
        where = f"tournament.entrants[{i}]"
        e = jf.obj(e, where)
        players.append(
            PlayerInfo(
                name=jf.string(e, "name", where),
                command=jf.strings(e, "command", where),
                bot=jf.optional_string(e, "bot", where),
                directory=jf.optional_string(e, "directory", where),
                language=jf.optional_string(e, "language", where),
            )
        )
    swiss = t.get("swiss_rounds")
    spec = TournamentSpec(
        game=jf.string(t, "game", "tournament"),
        variant=jf.string(t, "variant", "tournament"),
        clock=jf.number(t, "clock", "tournament"),
        players=tuple(players),
        seed=jf.integer(t, "seed", "tournament"),
        format=jf.string(t, "format", "tournament"),
        rounds=jf.integer(t, "rounds", "tournament"),
        challenger=jf.optional_string(t, "challenger", "tournament"),
        swiss_rounds=None if swiss is None else jf.integer(t, "swiss_rounds", "tournament"),
        top=jf.integer(t, "top", "tournament"),
        clock_mode=jf.string(t, "clock_mode", "tournament"),
        notes=jf.strings(t, "notes", "tournament"),
        limits=jf.optional_string(t, "limits", "tournament"),
        results_key=jf.optional_string(t, "results_key", "tournament"),
        seeded=bool(t.get("seeded", True)),
        bots_clock_mode=jf.optional_string(t, "bots_clock_mode", "tournament"),
    )
    spec.check()
    return spec


def check_standings(
    out: Path, doc: Mapping[str, Any], spec: TournamentSpec, game: Game, records: Mapping[str, Record]
) -> StandingsCheck:
    """Compare ``out``'s standings files with what the logged ``records`` (slim, by game id) give
    under ``spec`` (the tournament ``doc``, standings.json, names)."""
    log = ResultsLog(out / LOG_NAME, records=dict(records))
    scheduled, missing = walk_schedule(spec, game, log)
    problems = []
    if missing:
        problems.append(
            f"{out / 'standings.json'}: standings of a tournament whose game {missing} is not in the log"
            " (its schedule is not played to its end)"
        )
        return StandingsCheck(tuple(problems))
    ids = {g.id for g in scheduled}
    extra = [k for k in records if k not in ids]
    if extra:
        problems.append(
            f"{out / LOG_NAME}: game {extra[0]} is not one of the tournament's schedule"
            f" ({len(extra)} such game{'s' if len(extra) != 1 else ''})"
        )
    # a contest moved whole: its games name the folders they were played in, the standings those
    # of now, as the resume read them through the note of its moves (never rewritten)
    here = dict(records)
    noted = noted_folders(out)
    relocate(here, noted.folders)
    problems.extend(_game_problems(out, spec, game, here, scheduled))
    notes: tuple[str, ...] = _moved_notes(out, records, here)
    notes = tuple(said for said in (noted.refused, noted.away) if said is not None) + notes
    result = recomputed(out, spec, game, log, scheduled)
    given_doc = json.loads(json.dumps(result.to_json(), allow_nan=False))
    # the tournament is what the file names (its games are checked above); set_aside is absent
    # from the files of a codecup before 2026-11-27
    # the ratings of a file of schema 1 differ for a player without a game (docs/standings-schema.md)
    unlike = ("schema", "tournament", "ratings") if doc.get("schema") == OLDER else ("schema", "tournament")
    keys = [k for k in given_doc if k not in unlike and (k in doc or k != "set_aside")]
    found = first_difference(keys, doc, given_doc, result.standings.order)
    if found is not None:
        problems.append(f"{out / 'standings.json'}: {found}")
    played = [r for r in records.values() if not is_referee_error(r)]
    older = sum(1 for r in played if not r.codecup)
    if doc.get("schema") == OLDER:
        notes += (
            f"{out / 'standings.json'}: standings of an older codecup ({OLDER}: its ratings not compared)",
        )
    # an older codecup's folder: every record names no version (a folder resumed by this one is
    # compared whole: this codecup wrote its text); never on the schema alone (a tamperer's /1)
    if played and older == len(played):
        why = f"{older} logged games played by an older codecup (their records name no version)"
        notes += (f"{out}: {why}: standings.txt and standings.csv not compared (it wrote them otherwise)",)
        return StandingsCheck(tuple(problems), notes=notes)
    unreadable: list[str] = []
    problems.extend(_text_problems(out, "standings.txt", result.summary() + "\n", unreadable))
    problems.extend(_text_problems(out, "standings.csv", result.standings.csv(), unreadable))
    return StandingsCheck(tuple(problems), notes=notes, unreadable=tuple(unreadable))


def _game_problems(
    out: Path, spec: TournamentSpec, game: Game, records: Mapping[str, Record], scheduled: list[ScheduledGame]
) -> list[str]:
    """The first logged game whose record is not the match its schedule plays: its players, its seed,
    or its setup, which a tournament derives from the seed (a record alone cannot tell a setup given
    with ``play --setup`` from its seed's; a red team's record with another setup and its lines to
    match verified)."""
    setups: dict[int, str] = {}
    for g in scheduled:
        match = records[g.id].match
        named = [p.name for p in match.players]
        given = [spec.names[i] for i in g.seats]
        where = f"{out / LOG_NAME}: game {g.id}"
        ours = (spec.game, spec.variant, spec.clock)
        if (match.game, match.variant, match.clock) != ours:
            theirs = f"{match.game} {match.variant}, a {match.clock:g} s clock"
            tournament = f"{ours[0]} {ours[1]}, a {ours[2]:g} s clock"
            return [f"{where}: its record is of {theirs}; the tournament's, {tournament}"]
        if named != given or match.seed != g.seed:
            return [
                f"{where}: its record's players {named} and seed {match.seed} are not the schedule's"
                f" ({given}, seed {g.seed})"
            ]
        entrants = [spec.players[i] for i in g.seats]
        if (unlike := _entrant_problem(records[g.id], entrants, spec)) is not None:
            return [f"{where}: {unlike}"]
        try:
            setup = setups.get(g.seed) or setups.setdefault(g.seed, game.start_position(g.seed, spec.variant))
        except ConfigError as exc:
            return [f"{where}: the game gives no start for its seed {g.seed} ({said(exc)})"]
        if match.setup != setup:
            return [f"{where}: its record's setup is not the one its seed {g.seed} gives {shown(setup, 80)}"]
    return []


def _moved_notes(out: Path, records: Mapping[str, Record], here: Mapping[str, Record]) -> tuple[str, ...]:
    """A note of the logged games read in the folders their contest moved to (none: none was)."""
    moved = [k for k in records if here[k] is not records[k]]
    if not moved:
        return ()
    names = sorted(
        {
            p.name
            for k in moved
            for p, q in zip(records[k].match.players, here[k].match.players, strict=True)
            if p != q
        }
    )
    n = len(moved)
    whose = ", ".join(repr(name) for name in names[:4]) + (", ..." if len(names) > 4 else "")
    return (
        f"{out / MOVED}: {n} logged game{'s name' if n != 1 else ' names'} the folders of {whose} where"
        " the contest was before it moved: compared with the tournament's entrants where its noted moves"
        " took them (as its resumed run read them)",
    )


def _who(p: PlayerInfo) -> str:
    """A player as the run plays it: its built-in bot, or its command, and its folder."""
    what = f"bot {p.bot!r}" if p.bot is not None else f"command {list(p.command)}"
    return what + (f" in {p.directory!r}" if p.directory else "")


def _entrant_problem(record: Record, entrants: Sequence[PlayerInfo], spec: TournamentSpec) -> str | None:
    """What of a logged game's players or clock is not what the tournament's entrants and
    clock mode give (None: all is): the file's ``tournament`` is otherwise its own input, and a
    tampered entrant's command, or its clock mode, was never compared with the games (a
    reviewer's). A changed ``command:`` is refused by a resume, so every game has its entrant's.
    The clock mode of a game of built-in bots alone is compared where the file says it
    (``bots_clock_mode``: a codecup before it may have played them otherwise), and of a record
    naming its codecup's version (an older one's may name none: read as ``wall``)."""
    match = record.match
    for p, q in zip(match.players, entrants, strict=False):
        if (p.command, p.bot, p.directory) != (q.command, q.bot, q.directory):
            return f"its record's {p.name!r} is {_who(p)}; the tournament's entrant, {_who(q)}"
    if not record.codecup or (all(p.bot is not None for p in entrants) and spec.bots_clock_mode is None):
        return None
    mode = spec.clock_mode_of(entrants)
    if match.clock_mode != mode:
        return f"its record's clock mode is {match.clock_mode}; the tournament's, {mode}"
    return None


def walk_schedule(
    spec: TournamentSpec, game: Game, log: ResultsLog
) -> tuple[list[ScheduledGame], str | None]:
    """The tournament's schedule as its run walks it over the logged points, and the first game of
    it the log does not hold (None: every one is logged)."""
    points = {k: tuple(r.result.points) for k, r in log.records.items()}
    rank = ranker(game, spec.names, log)
    scheduled: list[ScheduledGame] = []
    for batch in spec.batches(points, rank):
        scheduled += batch
        for g in batch:
            if g.id not in log.records:
                return scheduled, g.id
    return scheduled, None


def recomputed(
    out: Path, spec: TournamentSpec, game: Game, log: ResultsLog, scheduled: list[ScheduledGame]
) -> TournamentResult:
    """The result the run writes at its end (``tournament._run``), of the logged games."""
    games = tuple((g, log.records[g.id]) for g in scheduled)
    records = counted(r for _, r in games)
    order, final = final_order(game, spec, scheduled, log)
    standings = reorder(format_standings(game, spec, records), order, final)
    ratings = tuple(bradley_terry(spec.names, records))
    said_spec = attrs.evolve(spec, limits=limits_had(spec.limits, (r for _, r in games)))
    return TournamentResult(said_spec, games, standings, ratings, 0, None, archived(out))


def first_difference(keys: Sequence[str], said_doc: Any, given: Any, order: Sequence[str]) -> str | None:
    """The first of ``keys`` where the file's document differs from the log's, in one line: where,
    what the file says, what the log gives (a standings line named by the log's player there)."""
    for key in keys:
        found = _differ([key], said_doc.get(key, _ABSENT), given[key])
        if found is not None:
            path, mine, theirs = found
            return f"{_where(path, order)}: the file says {_shown(mine)}, the log gives {_shown(theirs)}"
    return None


_ABSENT = object()


def _differ(path: list[Any], a: Any, b: Any) -> tuple[list[Any], Any, Any] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in [*b, *(k for k in a if k not in b)]:
            found = _differ([*path, k], a.get(k, _ABSENT), b.get(k, _ABSENT))
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _differ([*path, i], x, y)
            if found is not None:
                return found
        if len(a) != len(b):
            return [*path, "length"], len(a), len(b)
        return None
    if _number(a) and _number(b):
        return None if math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) else (path, a, b)
    if type(a) is not type(b) or a != b:
        return path, a, b
    return None


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _where(path: list[Any], order: Sequence[str]) -> str:
    text = str(path[0])
    for step in path[1:]:
        text += f"[{step}]" if isinstance(step, int) else f".{step}"
    if path[0] == "standings" and len(path) > 1 and isinstance(path[1], int) and path[1] < len(order):
        text += f" (rank {path[1] + 1}: the log's {order[path[1]]!r})"
    return text


def _shown(value: Any) -> str:
    if value is _ABSENT:
        return "nothing"
    return shown(value, 120)


def _text_problems(out: Path, name: str, given: str, unreadable: list[str]) -> list[str]:
    """The first line where ``out/name`` differs from the text the log gives (none if absent); a
    file that cannot be read (mode 000, a FIFO, too large) into ``unreadable``, not a difference."""
    path = out / name
    if not path.exists() and not path.is_symlink():
        return []
    try:
        text = read_file(path, MAX_STANDINGS, "a standings file").decode("utf-8")
    except ConfigError as exc:
        unreadable.append(said(exc))
        return []
    except UnicodeDecodeError:
        return [f"{path}: not UTF-8 text"]
    said_lines, given_lines = text.split("\n"), given.split("\n")
    for i, (a, b) in enumerate(zip(said_lines, given_lines, strict=False), start=1):
        if a.rstrip("\r") != b.rstrip("\r"):
            mine, theirs = shown(a.rstrip("\r"), 160), shown(b.rstrip("\r"), 160)
            return [f"{path}, line {i}: the file says {mine}, the log gives {theirs}"]
    if len(said_lines) != len(given_lines):
        return [f"{path}: {len(said_lines)} lines, the log gives {len(given_lines)}"]
    for i, (a, b) in enumerate(zip(said_lines, given_lines, strict=False), start=1):
        if a.endswith("\r") != b.endswith("\r"):
            ends = ("CRLF", "LF") if a.endswith("\r") else ("LF", "CRLF")
            return [f"{path}, line {i}: ends in {ends[0]}, the log gives {ends[1]}"]
    return []

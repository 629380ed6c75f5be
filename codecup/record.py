"""The record of one game: a typed attrs tree with a versioned JSON form.

The schema is documented in ``docs/record-schema.md``; bump
:data:`SCHEMA` when a field changes meaning.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import attrs

from codecup import jsonfields as jf
from codecup import matchfields as mf
from codecup.dialogue import SeatEnd, Termination
from codecup.errors import ConfigError, RecordError
from codecup.names import shown_language
from codecup.reading import MIB, read_file
from codecup.terminal import log_tail
from codecup.writing import write_in_place

SCHEMA = "codecup-record/1"

MAX_RECORD = 64 * MIB
"""The largest record file read: a built-in game's record is tens of KiB, with both bots' stderr
tails (64 KiB each) at most a MiB, and one of the most answers a game may take
(:data:`codecup.dispatch.MAX_ANSWERS`) of short lines about ten."""

MAX_VALUES = 2_000_000
"""The most lists, objects and values a record may hold (its brackets, braces and commas): one
of :data:`codecup.dispatch.MAX_ANSWERS` answers holds under a million."""

TO = "to"  # referee -> player
FROM = "from"  # player -> referee
FAULT = "fault"  # a transport fault instead of a line
DIRECTIONS = (TO, FROM, FAULT)
SEAT_FAULTS = tuple(t.value for t in Termination if t not in (Termination.NORMAL, Termination.REFEREE_ERROR))
"""The kinds of a seat's fault (a transcript's fault line): a referee error is no seat's fault."""


@attrs.frozen
class PlayerInfo:
    """A player as the record names it: a program's argv, or a built-in bot.

    Checked as it is built, by the rules the record's reader applies
    (:mod:`codecup.matchfields`): a :class:`~codecup.errors.ConfigError` says what is wrong. A
    command may be given as a list, an environment as a mapping: they are kept as tuples.
    """

    name: str
    command: tuple[str, ...] = attrs.field(default=(), converter=mf.words)
    bot: str | None = None
    directory: str | None = None
    # variables players.yml sets for the program
    env: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=mf.pairs)
    # Informative, as the Word Racer kit's players.yml gives it: not part of who the player is
    # (a language added to the players file does not make a results log another tournament's).
    language: str | None = attrs.field(default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        problem = mf.player_problem(
            self.name, self.command, self.bot, self.directory, self.env, self.language
        )
        if problem is not None:
            raise ConfigError(f"player {self.name!r:.40}: {problem}")

    def describe(self) -> str:
        """A short human description."""
        return f"bot:{self.bot}" if self.bot else " ".join(self.command)

    @property
    def label(self) -> str:
        """The name as shown with the player: with its language, if one was given (as
        :func:`~codecup.names.shown_language` shows it)."""
        return f"{self.name} ({shown_language(self.language)})" if self.language else self.name


LOGGED_PLACES = 6
"""Decimal places a record's times keep in its JSON form: a record holds them so rounded from the
start, so what a run computes from it (its standings' clock means) is what ``verify OUT``
recomputes from the log (rounded there after, they differed near a midpoint: 0.000249761 -> 0.0002,
logged 0.00025 -> 0.0003)."""


def _logged_time(value: float) -> float:
    """A time as a record's JSON form keeps it (:data:`LOGGED_PLACES`)."""
    return round(float(value), LOGGED_PLACES)


def _logged_times(values: Sequence[float]) -> tuple[float, ...]:
    """Each time as a record's JSON form keeps it."""
    return tuple(_logged_time(v) for v in values)


def _logged_used(value: float | None) -> float | None:
    """A transcript line's clock used, as a record's JSON form keeps it (None stays None)."""
    return None if value is None else _logged_time(value)


def _seats(value: Sequence[PlayerInfo]) -> tuple[PlayerInfo, ...]:
    """The players as a tuple, from a list or a tuple (anything else is left for the checks)."""
    return tuple(value) if isinstance(value, list | tuple) else cast(tuple[PlayerInfo, ...], value)


@attrs.frozen
class MatchInfo:
    """What is fixed before a match starts."""

    game: str
    variant: str
    seed: int
    setup: str
    players: tuple[PlayerInfo, ...] = attrs.field(converter=_seats)
    clock: float
    clock_mode: str = "wall"  # "wall": real time waited; "cpu": the bot's CPU time (wall backstop)
    seat_key: str = attrs.field(default="", eq=False)  # not who plays what: a game resumed draws another
    """A secret mixed into the seats' seeds (:func:`codecup.drive.seat_seed`), drawn for each game
    when the user gave no seed: a bot that knows the seed (0 unless given) could otherwise compute
    its opponent's seed, and so the choices of a built-in bot, or of a program seeding itself from
    ``$CODECUP_SEED``. Empty: the seats' seeds follow from the seed alone (a run reproduced)."""
    results_key: str | None = attrs.field(default=None, eq=False)
    """What the run's results depend on (``Game.results_key``), as the run started: where the game
    is played its own must be the same, or it is not played (:class:`~codecup.errors.RunChangedError`).
    None: not checked (a single game). Not kept in the record, whose game data names it."""

    def __attrs_post_init__(self) -> None:
        """Checked as it is built, by the rules the record's reader applies (:mod:`codecup.matchfields`):
        a seed of "7", a clock of NaN, a clock mode "cpux" played, and wrote a record that does not
        load (a red team's)."""
        problem = match_problem(self)
        if problem is not None:
            raise ConfigError(f"match: {problem}")


def match_problem(info: MatchInfo) -> str | None:
    """What is wrong with ``info``'s fields (None: nothing), by :mod:`codecup.matchfields`' rules."""
    for field in ("game", "variant", "setup", "seat_key"):
        if (problem := mf.text_problem(getattr(info, field))) is not None:
            return f"{field} {problem}"
    if (problem := mf.text_problem(info.results_key, optional=True)) is not None:
        return f"results_key {problem}"
    if (problem := mf.seed_problem(info.seed)) is not None:
        return f"seed {problem}"
    if (problem := mf.clock_problem(info.clock)) is not None:
        return f"clock {problem}"
    if (problem := mf.clock_mode_problem(info.clock_mode)) is not None:
        return f"clock_mode {problem}"
    if not isinstance(info.players, tuple) or not all(isinstance(p, PlayerInfo) for p in info.players):
        return f"players must be PlayerInfo objects, not {info.players!r:.60}"
    return None


@attrs.frozen
class TranscriptLine:
    """One line (or fault) between the referee and a seat, with its time in microseconds."""

    t_us: int
    seat: int
    dir: str
    text: str
    kind: str | None = None  # the fault kind, for dir == FAULT
    # the seat's clock used after this answer or fault, if it was on the clock (rounded as logged)
    used: float | None = attrs.field(default=None, converter=_logged_used)


@attrs.frozen
class MoveEntry:
    """A move as the game's dialogue announced it."""

    seat: int
    move: str
    t_us: int


DROPPED_MOVE = MoveEntry(-1, "", 0)
"""A move of a :meth:`Record.slim` record: one object shared by all, so only their count is held."""


@attrs.frozen
class Result:
    """The result: the game's scores, competition points and each seat's termination."""

    scores: tuple[float, ...]
    points: tuple[float, ...]
    termination: tuple[SeatEnd, ...]


def _not_negative(value: float, path: str) -> float:
    """``value``, a time in seconds, which is never negative (a tampered record's was)."""
    if value < 0:
        raise RecordError(f"malformed record: {path} {value:g} is negative (a time in seconds)")
    return value


def _clock(value: float) -> float:
    """``value``, a clock in seconds, which is above 0 (one of 0 or -5 s read as a game "answered
    in time having used 0s of a -5s clock", not as the malformed record it is: a red team's)."""
    if (problem := mf.clock_problem(value)) is not None:
        raise RecordError(f"malformed record: clock_limit {problem}")
    return value


def _moment(text: str) -> str:
    """``text``, when a game started: ISO 8601 (as ``datetime.fromisoformat`` reads it), or empty
    (an older record)."""
    if text:
        try:
            datetime.datetime.fromisoformat(text)
        except ValueError:
            raise RecordError(
                f"malformed record: started {text[:40]!r} is not an ISO 8601 date and time"
            ) from None
    return text


class _DuplicateKey(Exception):
    """A JSON object with one key twice: JSON readers differ on which value wins."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (a tampered record's second ``game`` went unseen)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


@attrs.frozen
class Record:
    """One game, complete enough to be re-checked offline (``codecup verify``)."""

    match: MatchInfo
    moves: tuple[MoveEntry, ...]
    transcript: tuple[TranscriptLine, ...]
    clock_used: tuple[float, ...] = attrs.field(converter=_logged_times)  # rounded as logged
    result: Result
    extra: Mapping[str, Any] = attrs.field(factory=dict)
    started: str = ""
    duration: float = attrs.field(default=0.0, converter=_logged_time)  # rounded as logged
    logs: tuple[str, ...] = ()  # a capped tail of each seat's stderr
    containment: tuple[str, ...] = ()  # per seat: how its program was contained ("in-process" for bots)
    codecup: str = ""  # the version of codecup that played it (a Dask worker's may differ): "" unknown

    def slim(self) -> Record:
        """What standings, ratings, summaries and a site's index need of this game, to hold for a
        whole run: its match, result, extra, clocks, how many moves (their texts dropped: each
        :data:`DROPPED_MOVE`), the stderr tails of faulty seats only, as a summary shows them
        (:func:`~codecup.terminal.log_tail`), and its containment, each text held once for all
        the games that share it (a resume checks the limits it names against the run's); no
        transcript. Records of every game held whole grew a run by ~59 KB a game
        (a red team's 3,800 games: 46 -> 263 MB); the whole record stays in the results log and
        ``games/ID.json``."""
        faulty = {
            seat for seat, end in enumerate(self.result.termination) if end.kind is not Termination.NORMAL
        }
        # only the lines a summary shows (a faulty seat's whole stderr, up to 64 KiB, was held: a red
        # team's bot spamming stderr then crashing held 47 KB a game)
        logs = (
            tuple(log_tail(log) if seat in faulty else "" for seat, log in enumerate(self.logs))
            if faulty
            else ()
        )
        return attrs.evolve(
            self,
            moves=(DROPPED_MOVE,) * len(self.moves),
            transcript=(),
            logs=logs,
            containment=tuple(sys.intern(text) for text in self.containment),
        )

    # --- JSON form -------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON document (a plain dict) of this record."""
        m = self.match
        return {
            "schema": SCHEMA,
            "game": m.game,
            "variant": m.variant,
            "seed": m.seed,
            "setup": m.setup,
            "clock_limit": m.clock,
            "clock_mode": m.clock_mode,
            **({"seat_key": m.seat_key} if m.seat_key else {}),
            "players": [_player_json(p) for p in m.players],
            "started": self.started,
            "duration": self.duration,
            "moves": [attrs.asdict(mv) for mv in self.moves],
            "transcript": [_line_json(t) for t in self.transcript],
            "clock": list(self.clock_used),
            "result": {
                "scores": list(self.result.scores),
                "points": list(self.result.points),
                "termination": [
                    {"kind": e.kind.value, "message": e.message} for e in self.result.termination
                ],
            },
            "extra": dict(self.extra),
            "logs": list(self.logs),
            "containment": list(self.containment),
            **({"codecup": self.codecup} if self.codecup else {}),
        }

    def dumps(self) -> str:
        """The record as one line of JSON (:func:`~codecup.jsonfields.text_of`)."""
        return jf.text_of(self.to_json())

    def write(self, path: Path) -> None:
        """Write the record as indented JSON, in place, its room claimed first
        (:func:`~codecup.writing.write_in_place`)."""
        write_in_place(path, (jf.text_of(self.to_json(), indent=1) + "\n").encode("utf-8"))

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        """Parse a record document; raise :class:`RecordError`, naming the field, if it is malformed."""
        doc = jf.obj(doc, "the record")
        if doc.get("schema") != SCHEMA:
            raise RecordError(f"not a {SCHEMA} record (schema {doc.get('schema')!r})")
        match = MatchInfo(
            game=jf.string(doc, "game"),
            variant=jf.string(doc, "variant"),
            seed=jf.integer(doc, "seed"),
            setup=jf.string(doc, "setup"),
            players=tuple(
                _player_from(jf.obj(p, where), where)
                for where, p in jf.items(jf.required(doc, "players"), "players")
            ),
            clock=_clock(jf.number(doc, "clock_limit")),
            clock_mode=_clock_mode(jf.string(doc, "clock_mode", default="wall")),
            seat_key=jf.string(doc, "seat_key", default=""),
        )
        result = jf.obj(jf.required(doc, "result"), "result")
        extra = doc.get("extra") or {}
        return cls(
            match=match,
            moves=tuple(
                _move_from(jf.obj(m, where), where)
                for where, m in jf.items(jf.required(doc, "moves"), "moves")
            ),
            transcript=tuple(
                _line_from(jf.obj(t, where), where)
                for where, t in jf.items(jf.required(doc, "transcript"), "transcript")
            ),
            clock_used=tuple(_not_negative(float(c), "clock") for c in jf.numbers(doc, "clock")),
            result=Result(
                scores=jf.numbers(result, "scores", "result"),
                points=jf.numbers(result, "points", "result"),
                termination=tuple(
                    _end_from(jf.obj(e, where), where)
                    for where, e in jf.items(
                        jf.required(result, "termination", "result"), "result.termination"
                    )
                ),
            ),
            extra=jf.obj(extra, "extra"),
            started=_moment(jf.string(doc, "started", default="")),
            duration=_not_negative(jf.number(doc, "duration", default=0.0), "duration"),
            logs=jf.strings(doc, "logs"),
            containment=jf.strings(doc, "containment"),
            codecup=jf.string(doc, "codecup", default=""),
        )

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Parse a record from JSON text; raise :class:`RecordError` if it is not one."""
        return cls.from_json(document(text))

    @classmethod
    def read(cls, path: Path) -> Record:
        """Read a record file; a file that is not a readable record is one :class:`RecordError`
        (so is one that is no regular file, or larger than :data:`MAX_RECORD`)."""
        data = read_file(path, MAX_RECORD, "a record", RecordError)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path}: not UTF-8 text (bad byte at offset {exc.start})") from None
        try:
            return cls.loads(text)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None

    @property
    def move_texts(self) -> list[str]:
        """The moves' texts in order (what a game's renderer takes)."""
        return [m.move for m in self.moves]


def _player_from(doc: Mapping[str, Any], path: str) -> PlayerInfo:
    fields = (
        jf.string(doc, "name", path),
        jf.strings(doc, "command", path),
        jf.optional_string(doc, "bot", path),
        jf.optional_string(doc, "directory", path),
        jf.string_pairs(doc, "env", path),
        jf.optional_string(doc, "language", path),
    )
    if (problem := mf.player_problem(*fields)) is not None:  # as PlayerInfo is checked as it is built
        raise RecordError(f"malformed record: {path} {problem}")
    name, command, bot, directory, env, language = fields
    return PlayerInfo(name, command, bot, directory, env, language)


def _move_from(doc: Mapping[str, Any], path: str) -> MoveEntry:
    return MoveEntry(jf.integer(doc, "seat", path), jf.string(doc, "move", path), _moment_us(doc, path))


MAX_T_US = 10**15
"""The latest ``t_us`` a record's line or move may have: 31 years into the game. A red team's
``10**400`` verified, and crashed the site's clocks (a float cannot hold it)."""


def _moment_us(doc: Mapping[str, Any], path: str) -> int:
    """A line's or move's ``t_us``: microseconds since the game started, never negative, at most
    :data:`MAX_T_US`."""
    t_us = jf.integer(doc, "t_us", path)
    if t_us < 0:
        raise RecordError(f"malformed record: {path}.t_us {t_us} is negative (microseconds into the game)")
    if t_us > MAX_T_US:
        size = t_us if t_us < 10**30 else f"a whole number of {len(str(t_us))} digits"
        raise RecordError(
            f"malformed record: {path}.t_us {size} is out of range (microseconds into the game, at most"
            f" {MAX_T_US:,})"
        )
    return t_us


def _clock_mode(mode: str) -> str:
    if (problem := mf.clock_mode_problem(mode)) is not None:
        raise RecordError(f"malformed record: clock_mode {problem}")
    return mode


def _line_from(doc: Mapping[str, Any], path: str) -> TranscriptLine:
    direction = jf.string(doc, "dir", path)
    if direction not in DIRECTIONS:
        raise RecordError(
            f"malformed record: {path}.dir must be one of {', '.join(DIRECTIONS)}, not {direction!r}"
        )
    kind = jf.optional_string(doc, "kind", path)
    if direction == FAULT and kind not in SEAT_FAULTS:
        raise RecordError(
            f"malformed record: {path}.kind of a fault must be one of {', '.join(SEAT_FAULTS)}, not {kind!r}"
        )
    if direction != FAULT and kind is not None:
        raise RecordError(f"malformed record: {path}.kind is a fault's, not a line's {direction} the seat")
    if direction == TO and doc.get("used") is not None:
        raise RecordError(f"malformed record: {path}.used is an answer's charge, not a line to the seat")
    return TranscriptLine(
        _moment_us(doc, path),
        jf.integer(doc, "seat", path),
        direction,
        jf.string(doc, "text", path),
        kind,
        _used(jf.optional_number(doc, "used", path), path),
    )


def _used(used: float | None, path: str) -> float | None:
    """An answer's charge to its seat's clock, in seconds: never negative (as ``clock`` is not)."""
    return None if used is None else _not_negative(used, f"{path}.used")


def _end_from(doc: Mapping[str, Any], path: str) -> SeatEnd:
    name = jf.string(doc, "kind", path)
    try:
        kind = Termination(name)
    except ValueError:
        known = ", ".join(t.value for t in Termination)
        raise RecordError(f"malformed record: {path}.kind must be one of {known}, not {name!r}") from None
    return SeatEnd(kind, jf.string(doc, "message", path, default=""))


def _player_json(p: PlayerInfo) -> dict[str, Any]:
    doc = attrs.asdict(p)
    if p.language is None:  # optional: records of players without one stay as they were
        del doc["language"]
    return doc


def _line_json(t: TranscriptLine) -> dict[str, Any]:
    doc: dict[str, Any] = {"t_us": t.t_us, "seat": t.seat, "dir": t.dir, "text": t.text}
    if t.kind is not None:
        doc["kind"] = t.kind
    if t.used is not None:
        doc["used"] = t.used
    return doc


class NotJSONError(RecordError):
    """The text is no JSON at all (or not UTF-8): what a write cut short leaves, unlike JSON that
    is not a record. A results log's last line that is this is taken for a torn write."""


def document(text: str | bytes) -> Any:
    """The JSON document of a record's ``text``; :class:`NotJSONError` if it is no JSON,
    :class:`RecordError` if it holds more values than a record does (:data:`MAX_VALUES`: refused
    before any is built).

    A :class:`MemoryError` is let through as it is: the values are counted first, so past that it
    is the machine that is short of memory, not the text that is wrong. Taken for a bad record, it
    made a resumed tournament cut its last logged game out of ``results.jsonl`` as a torn write (a
    reviewer's), and said "not a codecup results log" of a good one.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise NotJSONError("not UTF-8 text") from None
    _check_values(text)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise RecordError(f"not a record (the key {exc.args[0]!r} twice in one object)") from None
    except json.JSONDecodeError as exc:
        raise NotJSONError(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise RecordError("not a record (JSON nested too deeply)") from None
    except ValueError as exc:  # a number past what Python converts (an integer of 4,300 digits)
        raise RecordError(f"not a record ({exc})") from None


_STRING = re.compile(r'"[^"]*+"')
"""A JSON string, once its escaped backslashes and quotes are taken out (so it holds no quote)."""


def _check_values(text: str) -> None:
    """Refuse ``text`` holding more than :data:`MAX_VALUES` values, counted cheaply from its
    brackets, braces and commas (outside strings, where there are that many in all): each costs
    tens of bytes in memory for its few bytes of text, and a red team's 96 MiB record of ``[]``
    took 2.6 GB and 10 s, or ended in a MemoryError."""
    marks = ("[", "{", ",")
    if sum(text.count(m) for m in marks) <= MAX_VALUES:  # in a record, nearly always: no more work
        return
    plain = text.replace("\\\\", "").replace('\\"', "")  # what is left of a string holds no quote
    outside = _STRING.sub("", plain)
    count = sum(outside.count(m) for m in marks)
    if count > MAX_VALUES:
        raise RecordError(
            f"not a record (it holds {count:,} lists, objects and values; a game's record holds at"
            f" most a few hundred thousand, and {MAX_VALUES:,} are read)"
        )

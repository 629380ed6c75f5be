"""The results log: one JSON line per finished game, flushed and fsynced before it counts.

A tournament killed at any moment (``kill -9`` included) leaves at worst a
half-written last line; reading ignores it (and the writer cuts it off), so
that game is simply played again. A game id appears at most once.

Only a last line that is no JSON is such a tail: one that is JSON but no entry
was written whole, and is someone else's; and a :class:`MemoryError` while reading
is the machine's, never the file's (it stops the command, and every line is kept).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import attrs

from codecup import jsonfields as jf
from codecup.dialogue import Termination
from codecup.errors import ConfigError, RecordError, naming
from codecup.reading import MIB
from codecup.record import MAX_RECORD, NotJSONError, Record, document
from codecup.tournament.lock import FolderLock

if TYPE_CHECKING:
    from codecup.game import Game

LOG_NAME = "results.jsonl"

REMEDY = (
    " (the line was edited, or the game's plugin changed since it was played): correct the line, or"
    " delete it to have the game played again"
)
"""What a logged game's line that is no record of the game is said with: how to go on. Not only a
hand edit makes one: a plugin upgraded between two runs gives other points (a reviewer's)."""


@attrs.define(eq=False)
class ResultsLog:
    """An append-only log of finished games, keyed by scheduled game id.

    It holds each game's :meth:`~codecup.record.Record.slim` record only (what standings, ratings
    and a site's index need) and where its line is; :meth:`record` reads a game's whole record
    from the file again. Held whole, a run's records grew it by ~59 KB a game, and its resume by
    ~137 KB (a red team's 3,800 games: 520 MB to resume).
    """

    path: Path
    records: dict[str, Record] = attrs.field(factory=dict)  # slim: Record.slim
    lines: dict[str, int] = attrs.field(factory=dict)  # each game's line in the file, from 1
    offsets: dict[str, int] = attrs.field(factory=dict)  # each game's line in the file: its first byte
    _count: int = 0  # the file's whole lines
    ignored_tail: bool = False
    _lock: FolderLock | None = None  # the folder's lock, when the log took it (and releases it)
    _folder: FolderLock | None = None  # the folder's lock, whoever took it: checked before each append
    _game: Game | None = None  # the game whose records the read checked (open(..., game=))
    _problem: tuple[str, str] | None = None  # the first logged record it found inconsistent: id, why

    @classmethod
    def open(cls, path: Path, *, lock: bool | FolderLock = False, game: Game | None = None) -> ResultsLog:
        """Read what an earlier run left (if anything) and make the file ready to append.

        With ``lock``, hold the folder's lock (:class:`FolderLock`) until :meth:`close`, so two
        runs cannot write one log at once; or ``lock`` is that lock, which the caller took
        before it looked at the folder, and releases. With ``game``, each record is checked
        against it as it is read, for :meth:`check_records` to say (a second reading of the whole
        file, after the first, made a resume of 3,800 games parse it twice: a reviewer's).
        """
        if isinstance(lock, FolderLock) and not lock.held:
            raise ValueError(f"the lock of {lock.folder} is not held")
        log = cls(path)
        log._game = game
        if lock is True:
            log._lock = FolderLock.take(path.parent, path)
        log._folder = log._lock or (lock if isinstance(lock, FolderLock) else None)
        try:
            log._read()
        except BaseException:
            log.close()
            raise
        return log

    def _read(self) -> None:
        """Take in what an earlier run logged, dropping a torn last line.

        Line by line: the file's bytes were held whole, and split into a second copy, as the
        records were built (a red team's resume peaked at 137 KB a game)."""
        path = self.path
        try:
            f = path.open("rb")
        except FileNotFoundError:
            return
        from codecup.verify import consistency_problem  # the replay's checks: not at every import

        with f:
            size = os.fstat(f.fileno()).st_size
            good = 0  # bytes of complete, parsable lines
            whole = size  # the log's bytes, with the newline a whole last entry lacks
            unended = False  # the last line, a whole entry, lacks its newline: written once all is read
            # Lines end at LF alone, as the log writes them (splitlines also split at a lone CR, and a
            # CR inside the log made a line "without its newline" in its middle: a reviewer's).
            for number, raw in enumerate(iter(f.readline, b""), start=1):
                # A last line without its newline is parsed like any other: only one that is no JSON
                # is a write cut short. A whole entry, or someone else's JSON, was cut out unread (a
                # reviewer's): the entry is kept (its newline written), the JSON refused.
                try:
                    game_id, record = entry_of(raw)
                except RecordError as exc:
                    # only the last line may be cut short (a kill during a write: no JSON); anything
                    # else is not ours. A MemoryError is not caught: it is no torn write, and a good
                    # game was cut out of the log when it was taken for one (a reviewer's)
                    if isinstance(exc, NotJSONError) and good + len(raw) == size:
                        self.ignored_tail = True
                        break
                    raise _refused(path, number, good, raw, exc) from None
                if not raw.endswith(b"\n"):  # the last line: a whole entry whose newline was lost
                    unended = True
                    raw += b"\n"
                    whole += 1
                if game_id in self.records:  # the same game twice: with different results, which is true?
                    here = f.tell()
                    if _read_entry(f, self.offsets[game_id])[1] != record:
                        raise ConfigError(
                            f"{path} holds game {game_id} twice, with different records (the second"
                            f" after byte {good}): remove the line that is wrong"
                        )
                    f.seek(here)
                else:
                    if self._game is not None and self._problem is None:
                        why = consistency_problem(self._game, record)
                        if why is not None:  # said by check_records: after the log's other checks
                            self._problem = (game_id, why)
                    self.records[game_id] = record.slim()
                    self.lines[game_id] = number
                    self.offsets[game_id] = good
                self._count = number
                good += len(raw)
        if unended:  # only now: a log refused above is left as it was (a reviewer's)
            with path.open("ab") as end:  # appends go after it
                end.write(b"\n")
                end.flush()
                os.fsync(end.fileno())
        if good < whole:
            with path.open("r+b") as torn:  # drop the torn tail so appends start on a clean line
                torn.truncate(good)
                torn.flush()
                os.fsync(torn.fileno())

    def record(self, game_id: str) -> Record:
        """The game's whole record, read from its line of the log (:attr:`records` holds slim ones)."""
        with self.path.open("rb") as f:
            return self._entry(f, game_id)

    def whole_records(self) -> Iterator[tuple[str, Record]]:
        """Every logged game's whole record, in the log's order, one at a time."""
        if not self.offsets:  # nothing logged: perhaps no file yet
            return
        with self.path.open("rb") as f:
            for game_id in self.offsets:
                yield game_id, self._entry(f, game_id)

    def record_docs(self) -> Iterator[tuple[str, Any, int]]:
        """Every logged game's record as its line holds it (its JSON, not a :class:`Record`: the
        line was checked as the log was read), with the line's length in bytes, in the log's order,
        one at a time."""
        if not self.offsets:
            return
        with self.path.open("rb") as f:
            for game_id, offset in self.offsets.items():
                f.seek(offset)
                raw = f.readline()
                try:
                    line = json.loads(raw)
                except ValueError:
                    line = None
                if not isinstance(line, dict) or line.get("id") != game_id or "record" not in line:
                    raise self._changed(game_id, offset)
                yield game_id, line["record"], len(raw)

    def _changed(self, game_id: str, offset: int) -> ConfigError:
        return ConfigError(
            f"{self.path} changed while the run held it: game {game_id}'s line (after byte {offset})"
            " is no longer there; run the same command again to resume from the log as it is"
        )

    def _entry(self, f: BinaryIO, game_id: str) -> Record:
        """The whole record of ``game_id``, from the open log ``f``: a :class:`ConfigError` if its line
        is no longer there (the file was edited, or replaced, while the run held it)."""
        offset = self.offsets.get(game_id)
        if offset is None:  # a bare KeyError of the id, which said nothing of where it was looked for
            raise KeyError(f"no game {game_id!r} in {self.path}")
        try:
            found, record = _read_entry(f, offset)
        except RecordError:
            found = None
        if found != game_id:
            raise self._changed(game_id, offset)
        return record

    def close(self) -> None:
        """Release the lock, if this log took it."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.records

    def check_folder(self) -> None:
        """Raise :class:`~codecup.tournament.lock.FolderGone` if the log's folder is no longer the
        one locked (a log opened without a lock: never)."""
        if self._folder is not None:
            self._folder.check()

    def append(self, game_id: str, record: Record) -> None:
        """Write one finished game durably; only then does it count. Into the folder locked only:
        the folder is never made again here (a red team's, who removed it as a run went on: the
        next game made it anew, and a second run wrote the same log)."""
        if game_id in self.records:
            raise ValueError(f"game {game_id} is already in the log")
        line = jf.text_of({"id": game_id, "record": record.to_json()})
        self.check_folder()
        try:
            with self.path.open("ab") as f:
                offset = f.seek(0, os.SEEK_END)
                f.write(line.encode("utf-8") + b"\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:  # a write's error (a full disk) names the file it was for
            raise naming(exc, self.path) from exc
        self.records[game_id] = record.slim()
        self._count += 1
        self.lines[game_id] = self._count
        self.offsets[game_id] = offset

    def check_records(self, game: Game) -> None:
        """Refuse a logged game's record that is no consistent record of ``game``
        (:func:`~codecup.verify.consistency_problem`): one :class:`ConfigError` naming the file, the
        line and what is wrong. Found without replaying the game (``codecup verify`` on its
        ``games/ID.json`` does that): a hand-edited line crashed a resumed run (a seat 5 of 2), or
        put what it said into the standings (a red team's)."""
        from codecup.verify import consistency_problem  # the replay's checks: not at every import

        if game is self._game:  # checked as the log was read
            found = self._problem
        else:
            found = next(
                (
                    (k, why)
                    for k, r in self.whole_records()
                    if (why := consistency_problem(game, r)) is not None
                ),
                None,
            )
        if found is not None:
            game_id, why = found
            raise ConfigError(f"{self.path}, line {self.lines[game_id]} (game {game_id}): {why}{REMEDY}")


def _refused(path: Path, number: int, good: int, raw: bytes, exc: RecordError) -> ConfigError:
    """Why the log's line ``number`` (after byte ``good``) cannot be read: a line shaped as an entry
    (its ``id`` text, its ``record`` an object) is a logged game whose field is wrong, said with
    :data:`REMEDY` as a line checked against the game is (a reviewer's edited number was said to
    make the whole file no results log, and no way on); any other is not a line of a results log."""
    try:
        line = document(raw)  # parsed again: only a line that is refused is
    except RecordError:
        line = None
    game_id = line.get("id") if isinstance(line, dict) else None
    if isinstance(game_id, str) and isinstance(line, dict) and isinstance(line.get("record"), dict):
        return ConfigError(f"{path}, line {number} (game {game_id}): {exc}{REMEDY}")
    return ConfigError(f"{path} is not a codecup results log (line {number}, after byte {good}: {exc})")


def is_results_log(path: Path) -> bool:
    """Whether ``path`` is a codecup results log: empty (a run's that stopped before its first game)
    or its first line a whole, readable entry (a file of that name that is not one is a user's, not
    a run's to take over, or to cut as a torn last line)."""
    try:
        with path.open("rb") as f:
            first = f.readline()
    except OSError:
        return False
    if not first:
        return True
    if not first.endswith(b"\n"):
        return False
    try:
        entry_of(first)
    except RecordError:
        return False
    return True


def logged_game(path: Path) -> str | None:
    """The game of the first record of the results log ``path`` (None: none, or not a log)."""
    try:
        with path.open("rb") as f:
            first = f.readline()
        return entry_of(first)[1].match.game
    except (OSError, RecordError):
        return None


def quick_lines(path: Path) -> Iterator[Any]:
    """Each whole line of the results log ``path`` as JSON, read only and not checked as a record,
    up to the first that is torn, not JSON (too deep for the parser too), or over
    :data:`~codecup.record.MAX_RECORD` bytes (none of which a run writes but as its last line);
    nothing where ``path`` is missing, cannot be read or is no regular file. Read a line at a time
    without blocking: a set-aside folder's log that was a FIFO hung ``verify OUT`` and the run's
    standings, one that was a link to ``/dev/zero`` grew it without end, a line of 300 MB was
    held whole, and one nested 200,000 deep was a RecursionError traceback (a reviewer's)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return
        f = os.fdopen(fd, "rb")
    except OSError:
        os.close(fd)
        return
    with f:
        while True:
            try:
                raw = f.readline(MAX_RECORD + 1)
            except OSError:
                return
            if not raw.endswith(b"\n") or len(raw) > MAX_RECORD:  # torn, or no line a run writes
                return
            try:
                line = json.loads(raw)
            except (ValueError, RecursionError):
                return
            yield line


def logged_ids(path: Path) -> set[str]:
    """The ids of the games in the results log ``path``, read only (:func:`quick_lines`: a torn or
    foreign line ends the reading; no log: none): what a stopped run says it leaves comes from the
    log itself, not from what it was told (a reviewer's stop as a game was logged said "2 of 6"
    over 3 in the log). Only the id, not the record: validating every record of a 9,900-game log
    took 6 s before a stopped run said anything (a reviewer's); the run itself logged these lines."""
    ids: set[str] = set()
    for line in quick_lines(path):
        game_id = line.get("id") if isinstance(line, dict) else None
        if not isinstance(game_id, str):
            break
        ids.add(game_id)
    return ids


def logged_names(path: Path) -> set[str]:
    """The names of the players of the games in the results log ``path``, as the records spell
    them, read only as :func:`logged_ids` reads (a torn or foreign line ends the reading; no log:
    none): a folder of a players list whose names were decomposed (NFD: a file saved on macOS) is
    resumed under those spellings (:func:`codecup.tournament.players.spelled_as_logged`)."""
    names: set[str] = set()
    for line in quick_lines(path):
        record = line.get("record") if isinstance(line, dict) else None
        players = record.get("players") if isinstance(record, dict) else None
        for player in players if isinstance(players, list) else ():
            name = player.get("name") if isinstance(player, dict) else None
            if isinstance(name, str):
                names.add(name)
    return names


def older_logged(path: Path) -> list[str]:
    """The ids, in the log's order, of the games in the results log ``path`` whose records name no
    codecup version (an older codecup's; not a referee error, which a run's own dead worker leaves
    without one), read only as :func:`logged_ids` reads (the lines' JSON, not each record checked
    again): a resumed Swiss tournament or knock-out hands its logged games over stage by stage,
    and the first stage's were all it counted (a reviewer's: 6 said of 20)."""
    older: list[str] = []
    for line in quick_lines(path):
        id_ = _older_id(line)
        if id_ is False:
            break
        if isinstance(id_, str):
            older.append(id_)
    return older


def _older_id(line: Any) -> str | bool | None:
    """The id of the log line ``line`` (its JSON) if its record names no codecup version and is no
    referee error; None if it is not such a line; False if it is no log line (the reading stops)."""
    record = line.get("record") if isinstance(line, dict) else None
    if not isinstance(record, dict) or not isinstance(line.get("id"), str):
        return False
    result = record.get("result")
    ends = result.get("termination") if isinstance(result, dict) else None
    faulted = isinstance(ends, list) and any(
        isinstance(end, dict) and end.get("kind") == Termination.REFEREE_ERROR.value for end in ends
    )
    return None if record.get("codecup") or faulted else str(line["id"])


def _read_entry(f: BinaryIO, offset: int) -> tuple[str, Record]:
    """The entry whose line starts at byte ``offset`` of the open log ``f``."""
    f.seek(offset)
    return entry_of(f.readline())


def entry_of(raw: bytes) -> tuple[str, Record]:
    """One line of the log: its game id and record; :class:`RecordError` says what is wrong
    (:class:`NotJSONError`: no JSON at all), and a :class:`MemoryError` passes as it is."""
    doc = document(raw)  # as a record file is read: its values counted before any is built
    line = jf.obj(doc, "the line")
    return jf.string(line, "id"), Record.from_json(jf.required(line, "record"))


@attrs.frozen
class RawLine:
    """A line of a log as :func:`raw_lines` reads it."""

    number: int  # from 1
    raw: bytes | None  # None: longer than MAX_RECORD bytes, not read
    cut: bool  # the file's last line, with no line end: a write cut short (a kill leaves it so)


def raw_lines(path: Path, unread: Callable[[str], None]) -> Iterator[RawLine]:
    """Each line of the log ``path`` (``codecup verify OUT``: the run's, a set-aside's), a line at
    a time, at most :data:`~codecup.record.MAX_RECORD` bytes held; where the file cannot be read,
    why, said to ``unread`` (a FIFO would block its reader for ever, a folder cannot be read)."""
    if not path.is_file():
        unread(f"{path}: not a regular file")
        return
    try:
        f = path.open("rb")
    except OSError as exc:
        unread(f"cannot read {path}: {exc.strerror or exc}")
        return
    with f:
        number = 0
        try:
            while raw := f.readline(MAX_RECORD + 1):
                number += 1
                if len(raw) > MAX_RECORD:
                    while raw and not raw.endswith(b"\n"):
                        raw = f.readline(MIB)
                    yield RawLine(number, None, cut=False)
                    continue
                yield RawLine(number, raw, cut=not raw.endswith(b"\n"))
        except OSError as exc:  # a read that fails midway (a link to /proc/self/mem: EIO; a reviewer's)
            unread(f"cannot read {path} past line {number}: {exc.strerror or exc}")

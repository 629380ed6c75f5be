"""A tournament's game records (``games/ID.json``): each written durably before its game is logged,
and each made again from the results log where a resume finds it is not the logged record.

The log is the truth: its lines are fsynced as written (:mod:`codecup.tournament.log`). A record
was written through a temporary file renamed over its name, unsynced, after its line: a red team's
power cut (ext4, commit=60) kept the log's four lines, and three of their records came back as
16 KB of NUL bytes, which the resume kept (it wrote a record only where none was), and
``codecup verify`` refused ("not JSON"). Now a record is fsynced, and then its folder, before its
line is written, and a resume writes again every logged game's record that is missing, unreadable,
not JSON, or not its line's record (:func:`mend_records`), and says how many.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from codecup import jsonfields as jf
from codecup.errors import naming
from codecup.record import Record
from codecup.tournament.log import ResultsLog
from codecup.writing import synced_replace, write_in_place


def game_path(out: Path, game_id: str) -> Path:
    """The record file of game ``game_id`` in the tournament folder ``out``."""
    return out / "games" / f"{game_id}.json"


def record_bytes(doc: Any) -> bytes:
    """The bytes of a record file holding the record document ``doc`` (as :meth:`Record.write`)."""
    return (jf.text_of(doc, indent=1) + "\n").encode("utf-8")


def write_game(out: Path, game_id: str, record: Record) -> None:
    """Write game ``game_id``'s record into ``out``'s ``games/``, durably (see the module's docstring)."""
    write_record_file(game_path(out, game_id), record_bytes(record.to_json()))


def write_record_file(path: Path, data: bytes) -> None:
    """Write ``data`` to the record file ``path`` through ``ID.tmp``, fsynced, renamed over it, and
    the folder fsynced. An error names ``path``, not the temporary file (which is removed): the
    user never gave that name (a red team's full disk said games/ID.tmp)."""
    tmp = path.with_suffix(".tmp")
    try:
        tmp.unlink(missing_ok=True)  # our own, made anew: a leftover link there is not followed
        write_in_place(tmp, data, durable=True)
        synced_replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise naming(exc, path, instead_of=tmp) from exc


def mend_records(out: Path, log: ResultsLog) -> int:
    """Write again, from the log, the record file of each logged game that is not its line's record
    (missing, unreadable, not JSON, cut short, another record); the number written.

    Each line is parsed once more and its file read and parsed, and compared as JSON (not as the
    text it would be written as: the indented text is made by Python's slow encoder, ten times the
    cost): measured at about twice the log's own reading per game (see docs/tournaments.md)."""
    mended = 0
    for game_id, doc, size in log.record_docs():
        path = game_path(out, game_id)
        if not holds(path, doc, size):
            write_record_file(path, record_bytes(doc))
            mended += 1
    return mended


LARGER = 64
"""How many times its log line's size a game's record file may be and still be read as it."""


def holds(path: Path, doc: Any, size: int) -> bool:
    """Whether the file ``path`` holds the record ``doc`` (whose log line is ``size`` bytes: a file
    far larger is not read, and is not it).

    Far larger is :data:`LARGER` times: the file is indented, one value a line, so a value of two
    bytes in the line (``0,``) takes a line as long as its depth in the file; a plugin's board
    snapshots in ``extra`` (small numbers five deep) made a valid record's file 4.95 times its line,
    read as not it at every resume, and written again (a reviewer's: 4 times was the bound)."""
    try:
        with path.open("rb") as f:
            found = f.read(LARGER * size + 4096)
            if f.read(1):
                return False
    except OSError:
        return False
    try:
        return bool(json.loads(found) == doc)
    except (ValueError, RecursionError):
        return False

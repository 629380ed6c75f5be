"""``codecup tournament --set-aside NAME``: a player's logged games moved out of the results,
kept beside them, so that the run plays them again with the player's program as it is now.

A changed program refuses a resumed run (its games were played by the file as it was); a red
team's organiser who wanted a player's new version to play its games deleted their lines, and
the run refused all the same (fixed: only a player with logged games is compared), and the
records and pages of the games deleted stayed under ``games/`` and ``view/``, where ``codecup
verify OUT/games/*.json`` verified games the tournament no longer counted (F4, F7). Setting aside
does it whole: the lines go to ``set-aside/N/results.jsonl``, the records to
``set-aside/N/games/``, the pages are removed (the site is the log's), nothing is deleted.

Only the games that the player as it is now did not play are set aside: a game whose record's
player is not the players list's (another ``command:``, folder, ...), or every one of its games
where the program file it names is not as the folder's note says its games were played by (or
the note cannot tell). So the same command run again, after a stop or once done, sets none aside
and resumes. A player no longer in the players list (withdrawn) has all its games set aside, and
they are not played again. Only a round robin's or a gauntlet's: a Swiss tournament's or a
knock-out's later games are paired by the results of those set aside.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from codecup.errors import ConfigError, RecordError
from codecup.tournament.identity import NAME as NOTE_NAME
from codecup.tournament.identity import Schedule
from codecup.tournament.log import LOG_NAME, entry_of

if TYPE_CHECKING:
    from codecup.record import PlayerInfo, Record
    from codecup.tournament.tournament import TournamentSpec

FOLDER = "set-aside"
"""The folder of a tournament's results where set-aside games go, each time in a numbered folder."""

FORMATS = ("round-robin", "gauntlet")
"""The formats whose games can be set aside: no pairing depends on a game's result."""


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
            why = "none that its program as it is now did not play" if self.listed else "none"
            return f"no logged game of player {self.player!r} set aside ({why})"
        n, first = len(self.games), self.games[0]
        games = f"the {n} logged game{'s' if n != 1 else ''} of player {self.player!r} (the first {first})"
        then = (
            "this run plays them again with its program as it is now"
            if self.listed
            else "it is not in the players list, so they are not played again"
        )
        return f"set aside {games} into {self.folder}/ (their log lines and records): {then}"


def check_set_aside(names: Sequence[str], spec: TournamentSpec) -> None:
    """Refuse ``--set-aside`` in a format whose pairings depend on results, before anything is done."""
    if names and spec.format not in FORMATS:
        raise ConfigError(
            f"--set-aside applies to a round robin or a gauntlet, not a {spec.format} tournament (its"
            " later games are paired by the results of those set aside): use another --out folder"
        )


def set_aside(out: Path, names: Sequence[str], spec: TournamentSpec) -> list[SetAside]:
    """Move the logged games in ``out`` of each player of ``names`` that the player as ``spec``
    lists it did not play (see the module's docstring) out of its results; what was done, a
    :class:`SetAside` per name. The caller holds ``out``'s lock. A line of the log that is no
    game's is left as it is, for the run's checks to say."""
    check_set_aside(names, spec)
    log = out / LOG_NAME
    if not names or not log.is_file():
        return [SetAside(name, (), None, name in spec.names) for name in names]
    replays = {name: _replayed(out, name, spec) for name in names}
    moved: dict[str, list[str]] = {name: [] for name in names}
    kept, aside = log.with_name(f".{LOG_NAME}.kept"), log.with_name(f".{LOG_NAME}.aside")
    try:
        with log.open("rb") as f, kept.open("wb") as keep, aside.open("wb") as put:
            for raw in iter(f.readline, b""):
                found = _game_of(raw)
                whose = None if found is None else _whose(found[1], replays)
                if found is not None and found[1].match.game != spec.game:
                    raise ConfigError(
                        f"{log} holds game {found[0]} of {found[1].match.game}, not {spec.game}: use"
                        " another --out folder"
                    )
                if found is None or whose is None:
                    keep.write(raw)
                else:
                    moved[whose].append(found[0])
                    put.write(raw if raw.endswith(b"\n") else raw + b"\n")
            for handle in (keep, put):
                handle.flush()
                os.fsync(handle.fileno())
        games = [game_id for ids in moved.values() for game_id in ids]
        folder = _new_folder(out) if games else None
        if folder is not None:
            aside.replace(folder / LOG_NAME)  # first: then the records, last the log without them
            (folder / "games").mkdir()
            for game_id in games:  # a stop before the log is replaced: the run writes them anew
                record = out / "games" / f"{game_id}.json"
                if record.is_file() and not record.is_symlink():
                    record.replace(folder / "games" / record.name)
            kept.replace(log)
            _sync(out)
            for game_id in games:  # the site is the log's: a page of a game set aside is gone
                (out / "view" / f"{game_id}.html").unlink(missing_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"{out}: setting games aside failed ({exc.strerror or exc}); its results log is whole, and"
            " the same command tries again"
        ) from None
    finally:
        kept.unlink(missing_ok=True)
        aside.unlink(missing_ok=True)
    return [SetAside(name, tuple(moved[name]), folder, name in spec.names) for name in names]


def _game_of(raw: bytes) -> tuple[str, Record] | None:
    try:
        return entry_of(raw)
    except RecordError:
        return None


def _whose(record: Record, replays: dict[str, _Replay]) -> str | None:
    """The player of ``replays`` whose game ``record`` is, and is to be set aside (None: no such)."""
    for player in record.match.players:
        replay = replays.get(player.name)
        if replay is not None and replay.sets_aside(player):
            return player.name
    return None


@attrs.frozen
class _Replay:
    """Which of a player's logged games are set aside."""

    now: PlayerInfo | None  # as the players list has it (None: not in it, withdrawn)
    program_changed: bool  # its program files are not those its logged games were played by

    def sets_aside(self, logged: PlayerInfo) -> bool:
        """Whether a game this player played as ``logged`` is set aside."""
        return self.now is None or self.program_changed or logged != self.now


def _replayed(out: Path, name: str, spec: TournamentSpec) -> _Replay:
    now = next((p for p in spec.players if p.name == name), None)
    current = {(path, digest) for player, path, digest in spec.programs or () if player == name}
    noted = _noted_programs(out)
    before = None if noted is None else {(path, digest) for player, path, digest in noted if player == name}
    # The note cannot tell (an older codecup's, or its files not digested then): every game set aside
    return _Replay(now, bool(current) and current != before if before else bool(current))


def _noted_programs(out: Path) -> tuple[tuple[str, str, str], ...] | None:
    """The program digests noted in ``out`` (:mod:`~codecup.tournament.identity`); None: none."""
    try:
        doc: Any = json.loads((out / NOTE_NAME).read_text("utf-8"))
        return Schedule(**doc).programs if isinstance(doc, dict) else None
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def _new_folder(out: Path) -> Path:
    """A new numbered folder under ``out/set-aside``: each setting aside keeps its own."""
    top = out / FOLDER
    if top.is_symlink() or (top.exists() and not top.is_dir()):
        raise ConfigError(f"{top} is not a folder, where --set-aside keeps the games it sets aside: move it")
    top.mkdir(exist_ok=True)
    number = 1
    while True:
        folder = top / str(number)
        try:
            folder.mkdir()
        except FileExistsError:
            number += 1
            continue
        return folder


def _sync(folder: Path) -> None:
    """The folder's entries (the log replaced) on disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

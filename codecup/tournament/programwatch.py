"""A run's players' program files, watched as its games finish: a game is logged only while its
players' programs are the files the run started with.

The digests noted with a run's settings (:func:`codecup.tournament.identity.program_digests`)
refuse a resumed run whose program changed since its games were played, but nothing looked again
once a run had started: a red team's bot replaced 4 s into a run played its last round as the new
version under the same name, exit status 0, the folder's note still holding the old digest (and
the refusal of the next run then said "put the file back", after which the old version played on:
three versions under one name). Now each finished game's players' files are digested again before
the game is logged, and a file that is not as the run started stops the run in one line, the game
not logged, the games logged before it kept (as a program removed mid-run does, and as the Lucky
Words list does: :meth:`codecup.game.Game.results_key`).

A file is read again only where its ``stat`` says it may have changed (its size, inode, modified
or changed time): a game costs a ``stat`` of each file, not a digest of a big executable. The
files are this machine's: on a Dask cluster the workers run the programs at the same paths
(``docs/tournaments.md``), and a worker's copy changed alone is not seen.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from codecup.errors import ConfigError

if TYPE_CHECKING:
    from codecup.record import Record

Digests = tuple[tuple[str, str, str], ...]  # as identity.Digests: (player, file, sha256)

GAME_NOT_LOGGED = (
    "game {game} is not logged (the games logged before it are kept): put the file back as it was and"
    " the same command resumes{again}, or use another --out folder"
)
"""What a tournament whose program changed during the run says then (``{game}``: the game's id;
``{again}``: :data:`SET_ASIDE` where it applies, else nothing): its logged games were played by
the file as it was."""

SET_ASIDE = ", give --set-aside {name} to play its games again with the new one"
"""How a round robin's or a gauntlet's games are played again with the new program (a reviewer's
Swiss run was told it, then refused)."""


class ProgramChanged(ConfigError):
    """A run stopped by a program file not as it started (``player``'s ``path``): the site's index
    says so, not "the same command resumes", true only once the file is put back (a reviewer's)."""

    def __init__(self, message: str, player: str, path: str) -> None:
        super().__init__(message)
        self.player = player
        self.path = path


_Stat = tuple[int, int, int, int, int]  # device, inode, size, modified and changed times (ns)
_SETTLED = 2_000_000_000  # ns since its last change after which a file's stat tells its bytes


def _stat_of(path: Path) -> _Stat:
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@attrs.define(eq=False)
class ProgramWatch:
    """The program files of a run's players as the run started, to be checked as its games end."""

    started: Digests
    seen: dict[str, tuple[_Stat, str]] = attrs.Factory(dict)  # a file's stat when last digested

    @classmethod
    def of(cls, programs: Digests | None) -> ProgramWatch | None:
        """A watch of ``programs`` (a spec's :attr:`~codecup.tournament.spec.TournamentSpec.programs`);
        None where there is nothing to watch (built-in bots only)."""
        return cls(tuple(programs)) if programs else None

    def digest(self, path: str) -> str | None:
        """``path``'s sha256 now (None: it cannot be read, or is gone), read again only where its
        stat differs from when it was last read."""
        try:
            before = _stat_of(Path(path))
            known = self.seen.get(path)
            if known is not None and known[0] == before:
                return known[1]
            with open(path, "rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
            # Kept only for a file not written as it was read, nor within the last seconds: a write
            # in the same clock tick as the read leaves the stat as it was ("racy git").
            if _stat_of(Path(path)) == before and before[4] < time.time_ns() - _SETTLED:
                self.seen[path] = (before, digest)
        except OSError:
            return None
        return digest

    def changed(self, players: Iterable[str]) -> tuple[str, str] | None:
        """The first of ``players``' files that is not as the run started: (player, file); None if
        none is."""
        names = set(players)
        for name, path, digest in self.started:
            if name in names and self.digest(path) != digest:
                return name, path
        return None

    def check(self, players: Iterable[str], then: str) -> None:
        """Refuse to go on where a file of one of ``players`` is not as the run started: one
        :class:`ConfigError` naming the player and the file, then ``then`` (what is not logged, and
        how the run goes on; ``{name}`` in it: the player's name, as a shell word)."""
        found = self.changed(players)
        if found is not None:
            name, path = found
            raise ProgramChanged(
                f"the program of player {name!r} changed during the run: {path} is not the file the run"
                f" started with, so {then.replace('{name}', shlex.quote(name))}",
                name,
                path,
            )


def of_logged_players(programs: Digests | None, records: Mapping[str, Record]) -> Digests | None:
    """The rows of ``programs`` of the players who play a game of ``records`` (a log's): a player
    changed since the run noted its program, but with no game logged (its lines deleted to play
    them again, a run stopped before its first game), changed no game played, and is no reason to
    refuse the folder (a red team's F4: it was refused all the same)."""
    if programs is None:
        return None
    playing = {p.name for record in records.values() for p in record.match.players}
    return tuple(row for row in programs if row[0] in playing) or None

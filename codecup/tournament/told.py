"""Whom a tournament run tells what happens: its callbacks, one typed record (:class:`RunCallbacks`)
passed once from the caller to the run, and what each is told.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, overload

import attrs

from codecup.record import Record
from codecup.tournament.moved import Move
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.setaside import ErrorsAside, SetAside

if TYPE_CHECKING:
    from codecup.tournament.tournament import TournamentResult

OnRecord = Callable[[ScheduledGame, Record], None]
"""Told of every game as it is logged (and of the games a resumed run finds in its log, where no
:data:`OnLogged` is given)."""

OnComplete = Callable[["TournamentResult"], None]
"""Told of the result once every game is logged and the standings are written (a stop that comes
later finds the run complete: the site is finished, not marked stopped)."""

Load = Callable[[str], Record]
"""A logged game's whole record, by its id (read from the results log again)."""

OnLogged = Callable[[Sequence[tuple[ScheduledGame, Record]]], None]
"""Told of the games a resumed run finds in its log, all of a batch at once, before it plays any
game of that batch (a results site then never shows part of its log): a :class:`LoggedGames`."""


@attrs.frozen
class LoggedGames(Sequence[tuple[ScheduledGame, Record]]):
    """The games of a batch a resumed run found in its log, each with its whole record, read from the
    log as it is taken: a batch's records all held at once took a red team's resume of 3,800 games
    to 520 MB. ``slim`` holds them slim (:meth:`~codecup.record.Record.slim`), for an index."""

    slim: tuple[tuple[ScheduledGame, Record], ...]
    load: Load = attrs.field(eq=False)

    def __len__(self) -> int:
        return len(self.slim)

    @overload
    def __getitem__(self, index: int) -> tuple[ScheduledGame, Record]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[ScheduledGame, Record]]: ...

    def __getitem__(
        self, index: int | slice
    ) -> tuple[ScheduledGame, Record] | Sequence[tuple[ScheduledGame, Record]]:
        if isinstance(index, slice):
            return LoggedGames(self.slim[index], self.load)
        g = self.slim[index][0]
        return g, self.load(g.id)


OnPlaying = Callable[[], None]
"""Told once, before a run plays its first game its log does not hold, and before an earlier run's
standings (of fewer games: a longer run, more rounds) are removed: a results site then never links
them, gone (a red team's "Finished: 12 games" index, its three links dead while the first new game
was played, and for good when the run was killed then)."""


OnSetAside = Callable[[SetAside | ErrorsAside], None]
"""Told of each set-aside done (``--set-aside``: a player at a time, then ``--replay-errors``)."""

OnMended = Callable[[int], None]
"""Told of the number of logged games whose records in ``games/`` were not as the log says (a
crash's: missing, cut, zeroed) and were written again from it."""

OnMoved = Callable[[Move], None]
"""Told of the move of the contest's folder (players' folders and ``out`` together) the run
followed, resuming its log where it is now (:mod:`~codecup.tournament.moved`)."""


@attrs.frozen(kw_only=True)
class RunCallbacks:
    """Whom a run tells what happens, each optional (see
    :func:`~codecup.tournament.tournament.run_tournament` for when each is called)."""

    on_record: OnRecord | None = None
    on_logged: OnLogged | None = None
    on_complete: OnComplete | None = None
    on_playing: OnPlaying | None = None
    on_set_aside: OnSetAside | None = None
    on_mended: OnMended | None = None
    on_moved: OnMoved | None = None

    def record(self, g: ScheduledGame, record: Record) -> None:
        """A game the run played, as it is logged."""
        if self.on_record is not None:
            self.on_record(g, record)

    def logged(self, games: LoggedGames) -> None:
        """The games of a batch found in the log (each to ``on_record`` without ``on_logged``)."""
        if games and self.on_logged is not None:
            self.on_logged(games)
        elif self.on_record is not None:
            for g, record in games:  # each read whole as it comes
                self.on_record(g, record)

    def playing(self) -> None:
        """The run plays its first game not in the log (the earlier standings go next)."""
        if self.on_playing is not None:
            self.on_playing()

    def complete(self, result: TournamentResult) -> None:
        """Every game is logged and the standings are written."""
        if self.on_complete is not None:
            self.on_complete(result)

    def set_aside(self, done: SetAside | ErrorsAside) -> None:
        """A set-aside was done."""
        if self.on_set_aside is not None:
            self.on_set_aside(done)

    def mended(self, count: int) -> None:
        """``count`` logged games' records were written again from the log (none: not told)."""
        if count and self.on_mended is not None:
            self.on_mended(count)

    def moved(self, move: Move | None) -> None:
        """The run follows ``move`` of the contest's folder (None: it did not move; not told)."""
        if move is not None and self.on_moved is not None:
            self.on_moved(move)

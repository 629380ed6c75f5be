"""The results site written while a tournament runs.

A tournament calls :meth:`LiveSite.add` for every finished game (and for each
game a resumed run finds in its log). The game's page is written at once; the
index at most every ``interval`` seconds, saying the run is live and how far
it is, and reloading itself in the browser. :meth:`LiveSite.finish` writes
the final site, whose index no longer reloads.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import attrs

from codecup.dialogue import Termination
from codecup.game import Game
from codecup.record import Record
from codecup.site import build_site, write_assets, write_atomic, write_game_page
from codecup.tournament.ratings import bradley_terry
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.tournament import TournamentResult, TournamentSpec, format_standings


@attrs.define(eq=False)
class LiveSite:
    """A site kept up to date as games finish."""

    out: Path
    game: Game
    spec: TournamentSpec
    interval: float = 5.0  # seconds between index rewrites (ratings cost more than a page)
    refresh: int = 10  # seconds between the browser's reloads of a live index
    clock: Callable[[], float] = time.monotonic
    games: dict[str, tuple[ScheduledGame, Record]] = attrs.field(factory=dict)
    _written: float | None = None
    _started: bool = False
    _broken: bool = False  # writing failed once (disk full, folder gone): the run goes on without it

    def start(self) -> None:
        """The shared files (on the first game: a run refused at its start touches nothing)."""
        self.out.mkdir(parents=True, exist_ok=True)
        write_assets(self.out, self.game)
        self._started = True

    def add(self, g: ScheduledGame, record: Record) -> None:
        """A game finished: write its page, and the index if it is due.

        A site that cannot be written does not stop the tournament: one line on
        stderr, and the site is tried again when the run ends.
        """
        self.games[g.id] = (g, record)
        if self._broken:
            return
        try:
            if not self._started:
                self.start()
            write_game_page(self.out, self.game, g.id, record)
            if self._written is None or self.clock() - self._written >= self.interval:
                self.write_index()
        except OSError as exc:
            self._broken = True
            print(f"codecup: warning: cannot write the live site in {self.out}: {exc}", file=sys.stderr)

    __call__ = add  # a tournament's on_record callback

    def write_index(self) -> None:
        """The live index: standings and games so far, how far the run is."""
        from codecup.site.pages import LiveState, index_page

        games = list(self.games.values())
        records = [r for _, r in games]
        standings = format_standings(self.game, self.spec, records)
        ratings = bradley_terry(self.spec.names, records) if records else []
        faults = sum(any(e.kind is not Termination.NORMAL for e in r.result.termination) for r in records)
        live = LiveState(updated=time.strftime("%H:%M:%S"), refresh=self.refresh, faults=faults)
        html = index_page(
            self.game, self.spec, games, standings, ratings, total=self.spec.estimated_games(), live=live
        )
        write_atomic(self.out / "index.html", html)
        self._written = self.clock()

    def finish(self, result: TournamentResult) -> Path:
        """The final site: the pages not written yet, and an index that no longer reloads."""
        return build_site(self.out, self.game, result, written=() if self._broken else self.games.keys())

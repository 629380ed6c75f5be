"""The results site written while a tournament runs.

A tournament calls :meth:`LiveSite.add` for every finished game (and for each
game a resumed run finds in its log). The game's page is written at once; the
index at most every ``interval`` seconds, and at most ``interval`` seconds
after a game it does not show yet (a timer writes it when no game comes),
and at least every ``beat`` seconds while the run lives (a reader's page says
when it has seen no rewrite for longer: the run may have stopped), saying the
run is live and how far it is, and reloading itself in the browser. An index
that is slow to write (the ratings of a thousand players take seconds) is
written less often: the thread that logs games and starts new ones spends at
most about ``busy`` of its time on it.
:meth:`LiveSite.stopped` leaves an index that says the run was stopped and how far it
got; :meth:`LiveSite.finish` writes the final site, whose index no longer reloads.

A run without its site (``--no-site``) has :class:`WithoutSite` instead: the index an earlier run
left is marked out of date before this run plays a game it does not show, and the page of a game
it plays is removed (an earlier site's, of an earlier play of it).

Both are told (``playing``) before a run plays its first new game, which is before the standings
files an earlier run left are removed: no index links them once they are gone.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import attrs

from codecup.dialogue import Termination
from codecup.errors import NO_ROOM, os_error_text
from codecup.game import Game
from codecup.record import Record
from codecup.site import (
    build_site,
    replace_index,
    write_assets,
    write_final_index,
    write_game_page,
    write_stale_index,
)
from codecup.terminal import one_line, printable, shown_path
from codecup.tournament.lock import FolderLock
from codecup.tournament.ratings import bradley_terry
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.spec import TournamentSpec
from codecup.tournament.standings import counted
from codecup.tournament.told import LoggedGames
from codecup.tournament.tournament import TournamentResult, format_standings
from codecup.writing import write_atomic


class Cancellable(Protocol):
    """A timer started: it may be cancelled."""

    def cancel(self) -> None:
        """Do not run after all (a no-op once it has run)."""


def _start_timer(seconds: float, then: Callable[[], None]) -> Cancellable:
    """Call ``then`` in ``seconds``, on a thread of its own that does not keep the program alive."""
    timer = threading.Timer(seconds, then)
    timer.daemon = True
    timer.start()
    return timer


@attrs.define(eq=False)
class LiveSite:
    """A site kept up to date as games finish."""

    out: Path
    game: Game
    spec: TournamentSpec
    interval: float = 5.0  # seconds between index rewrites (ratings cost more than a page)
    busy: float = 0.1  # at most this share of the logging thread's time goes to rewriting the index
    refresh: int = 10  # seconds between the browser's reloads of a live index
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # when an index is written, as it says
    # Seconds after which an index no game has rewritten is rewritten (its time with it), so that a
    # reader's page tells a run that writes no more (killed: it said "Live" and reloaded for ever)
    # from one whose games are long; 0: never
    beat: float = 60.0
    start_timer: Callable[[float, Callable[[], None]], Cancellable] = _start_timer  # a test's fake one
    games: dict[str, tuple[ScheduledGame, Record]] = attrs.field(factory=dict)
    _written: float | None = None
    _gap: float = 0.0  # seconds from one index rewrite to the next: the interval, or more if slow
    _started: bool = False
    _shown: bool = False  # an index is in the folder, to be kept true (playing found one)
    _broken: bool = False  # a write failed once (disk full, view/ read-only): no more pages till the end
    _warned: bool = False  # its one warning was said
    _lock: threading.Lock = attrs.field(factory=threading.Lock)  # the timer's thread writes too
    _timer: Cancellable | None = None
    _timers: int = 0  # timers started: one that fires after a write cancelled it knows it is stale
    _over: bool = False  # stopped or finished: the timer writes no more
    _beat_timer: Cancellable | None = None  # the timer of the next rewrite if no game comes (beat)
    _beats: int = 0  # as _timers, for it
    _took: float = 0.0  # seconds the last index write took
    _resume: Path | None = None  # the --out that resumes the run, once its folder was moved
    _resumable: bool = True  # False: moved where no --out resumes it (out of a demo's folder)
    _why: str | None = None  # why the run stopped, where the same command does not resume it
    unwritten: str | None = None  # why the final site is not whole (finish() gave None), for the run's line
    no_room: bool = False  # it was a full disk (or quota): the remedy is room, not a folder made writable
    # The folder's lock, held by the run: once the folder is not the one locked (removed, moved, made
    # anew by another run), the site writes nothing there (it marked another run's index "stopped")
    folder_lock: FolderLock | None = None

    def start(self) -> None:
        """The shared files (on the first game: a run refused at its start touches nothing)."""
        if self.folder_lock is None:
            self.out.mkdir(parents=True, exist_ok=True)
        else:  # a run's folder is made by the run, never again here (write_assets makes view/ with its
            self.folder_lock.check()  # parents): removed as it went, it was made anew (a red team's)
        write_assets(self.out, self.game)
        self._started = True

    def add(self, g: ScheduledGame, record: Record) -> None:
        """A game finished: write its page, and the index if it is due (else soon, by a timer).

        A site that cannot be written does not stop the tournament: one line on
        stderr, no more pages, and the site is tried again when the run ends; the
        index is still written where it can be, so it says how far the run is
        (a red team's read-only view/ left it saying "Live: 1 of 24" to the end).
        """
        with self._lock:
            self.games[g.id] = (g, record.slim())  # held for the index: all of a run's games
            self._guarded(lambda: self._add_page(g, record))
            self._guarded(self._index_if_due, index=True)

    def logged(self, games: Sequence[tuple[ScheduledGame, Record]]) -> None:
        """The games a resumed run found in its log (a :class:`LoggedGames`, read from the log as
        they are taken): all join the index's games at once (slim), then the pages not written yet,
        or written in another format or from another record of the game
        (:func:`~codecup.site.pages.is_current_game_page`), are written. The index itself
        comes just before the next game played (:meth:`playing`), or when the run stops, with all
        of them (a run stopped, or killed, while it wrote those pages left an index of the first few
        games)."""
        with self._lock:
            slim = games.slim if isinstance(games, LoggedGames) else [(g, r.slim()) for g, r in games]
            self.games.update((g.id, (g, record)) for g, record in slim)
            self._guarded(lambda: self._add_logged_pages(games))

    __call__ = add  # a tournament's on_record callback

    def playing(self) -> None:
        """The run is about to play its first new game, and the standings files an earlier run left
        are removed next: the index is written now, live, with every game logged (an earlier run's
        "Finished" index linked them, dead, till the first new game's index, and for good if the run
        was killed then: a red team's). A folder with no index yet gets one with its first game."""
        with self._lock:
            if not self._started and not (self.out / "index.html").is_file():
                return
            # an index is there, this run's or an earlier one's: it is kept true from now on, even if
            # the site's other files cannot be written (it would link the standings, gone, for good)
            self._shown = True
            self._guarded(self._start_once)
            self._guarded(self._write_index, index=True)

    def _start_once(self) -> None:
        if not self._started:
            self.start()

    def _add_page(self, g: ScheduledGame, record: Record) -> None:
        self._start_once()
        write_game_page(self.out, self.game, g.id, record)

    def _index_if_due(self) -> None:
        if not (self._started or self._shown):  # nothing of the site was written: no index to keep true
            return
        waited = None if self._written is None else self.clock() - self._written
        if waited is None or waited >= self._gap:
            self._write_index()
        elif self._timer is None:
            self._timers += 1
            number = self._timers
            self._timer = self.start_timer(self._gap - waited, lambda: self._on_time(number))

    def _add_logged_pages(self, games: Sequence[tuple[ScheduledGame, Record]]) -> None:
        from codecup.site.pages import game_href, game_page_format, is_current_game_page

        self._start_once()
        page_format = game_page_format(self.game)
        for k, (g, held) in enumerate(games.slim if isinstance(games, LoggedGames) else games):
            # a page a run of this version and plugin drew from this very record is kept: every page
            # re-rendered took a resume of 3,800 games 25 s, from records all held at once (a red
            # team's); one drawn from an earlier play of the game is not (its line deleted, replayed)
            if not is_current_game_page(self.out / game_href(g.id), page_format, held):
                write_game_page(self.out, self.game, g.id, games[k][1])  # a whole record, read now

    def _on_time(self, number: int) -> None:
        with self._lock:
            if number != self._timers or self._timer is None or self._over:
                return  # a write came first (a slow one's next write was due seconds later), or the end
            self._timer = None
            self._guarded(self._write_index, index=True)

    def _guarded(self, write: Callable[[], None], *, index: bool = False) -> None:
        """Write, unless the site is broken (but an ``index``, which says how far the run is)."""
        if self._broken and not index:
            return
        if self.folder_lock is not None and not self.folder_lock.intact():
            self._broken = self._warned = True  # the run stops, saying why (FolderGone): no warning
            return
        try:
            write()
        except OSError as exc:
            self._broken = True
            if self.folder_lock is not None and not self.folder_lock.intact():
                self._warned = True  # the folder went as it was written: the run says so (FolderGone)
            self._warn(exc)

    def _warn(self, exc: OSError) -> None:
        """One line on stderr, the first time the site cannot be written (not at every game)."""
        if not self._warned:
            self._warned = True
            why = printable(one_line(os_error_text(exc), 500))
            print(
                f"codecup: warning: cannot write the live site in {shown_path(self.out)}: {why}",
                file=sys.stderr,
            )

    def _write_index(self, stopped: bool = False) -> None:
        """The index; a ``stopped`` one is the last, and replaces the live one whatever it takes."""
        from codecup.site.pages import LiveState, index_page

        began = self.clock()
        self._cancel_timer()  # this index shows every game the timer was for
        beat_gap = self._beat_gap()  # the next beat's, told in the index before this write's time is known
        games = list(self.games.values())
        records = counted(r for _, r in games)  # as the final standings: no referee errors
        standings = format_standings(self.game, self.spec, records)
        ratings = bradley_terry(self.spec.names, records) if records else []
        faults = sum(any(e.kind is not Termination.NORMAL for e in r.result.termination) for r in records)
        resume = None if self._resume is None else str(self._resume)
        live = LiveState(
            updated=self.wall(),
            refresh=self.refresh,
            stale_after=self._stale_after(beat_gap) if self.beat > 0 else None,
            faults=faults,
            stopped=stopped,
            resume=resume,
            resumable=self._resumable,
            why=self._why,
        )
        html = index_page(
            self.game, self.spec, games, standings, ratings, total=self.spec.estimated_games(), live=live
        )
        try:
            (replace_index if stopped else write_atomic)(self.out / "index.html", html)
            self._written = self.clock()
            self._took = self._written - began
            self._gap = max(self.interval, self._took * (1 - self.busy) / self.busy)
        finally:
            # also after a failed write (a full disk): it is tried again at the next beat; a
            # reviewer's failed beat ended the beats until a game's write came and succeeded
            if not stopped and not self._over and self.beat > 0:
                self._next_beat(beat_gap)

    def _beat_gap(self) -> float:
        """Seconds till the next rewrite of an index if no game comes (a slow one's later)."""
        return max(self.beat, self._gap)

    def _stale_after(self, beat_gap: float) -> float:
        """Seconds a reader's page may show an index unchanged before it says the run may have
        stopped: the next beat's ``beat_gap`` (scheduled so whatever this write takes), then the
        next write's time, not known yet (half a beat, or three times the last write's if longer:
        a reviewer's index, taking more than 7 s to write, carried a bound its next beat, put off
        by that time, came after), and three reloads."""
        return beat_gap + max(self.beat / 2, 3 * self._took) + 3 * self.refresh

    def _next_beat(self, gap: float) -> None:
        if self._beat_timer is not None:
            self._beat_timer.cancel()
        self._beats += 1
        number = self._beats
        self._beat_timer = self.start_timer(gap, lambda: self._on_beat(number))

    def _on_beat(self, number: int) -> None:
        with self._lock:
            if number != self._beats or self._beat_timer is None or self._over:
                return  # a write came first (and started the next beat), or the end
            self._beat_timer = None
            self._guarded(self._write_index, index=True)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _end(self) -> None:
        self._over = True
        self._cancel_timer()
        if self._beat_timer is not None:
            self._beat_timer.cancel()
            self._beat_timer = None

    def stopped(self, why: str | None = None) -> None:
        """The run was stopped: an index that says so, with the games played, and no more reloads;
        ``why``: why, and how it resumes, where the same command does not (a program changed)."""
        with self._lock:
            self._why = why
            self._end()
            lock = self.folder_lock
            moved = lock.moved_to() if lock is not None else None
            if lock is not None and moved is not None and self._started:  # its folder, still locked,
                self.out = moved  # moved as it ran: its index there says the run stopped (it said
                self._resume = lock.resume_out(moved)  # "Live" for good), and which --out resumes it
                self._resumable = self._resume is not None  # or that none does
                self.folder_lock = None
                self._broken = False
            if self._started or self._shown:
                self._guarded(lambda: self._write_index(stopped=True), index=True)

    def finish(self, result: TournamentResult) -> Path | None:
        """The final site: the pages not written yet, and an index that no longer reloads; None if
        it cannot be written whole (:attr:`unwritten` says why, for the run's last line: its
        standings and summary follow all the same), then the final index alone where it can be (else
        none: not one that says the run is live)."""
        with self._lock:
            self._end()
            if self.folder_lock is not None:
                self.folder_lock.check()
            try:
                index = build_site(
                    self.out, self.game, result, written=() if self._broken else self.games.keys()
                )
            except OSError as exc:  # a red team's read-only view/: the run ended rc 1 with no summary
                self._warn(exc)
                self.unwritten = printable(one_line(os_error_text(exc), 500))
                self.no_room = exc.errno in NO_ROOM
            else:
                self.unwritten = None
                return index
            # Its index alone, saying the run finished; not through build_site, whose shared files
            # come first, and failed on a full disk: the index said "Live" for good (a red team's).
            with contextlib.suppress(OSError):
                write_final_index(self.out, self.game, result, last=True)
            return None


@attrs.define(eq=False)
class WithoutSite:
    """A run's callback when it writes no site: before it plays its first new game (or at the first
    game it logs), an index an earlier run wrote into ``out`` is replaced by a page that says it is
    out of date (it went on saying "Finished: 6 games" over a log of 12, linking standings files
    that were gone)."""

    out: Path
    game: Game
    _told: bool = False
    _unpage_warned: bool = False  # a page that could not be removed was said (once, not every game)
    folder_lock: FolderLock | None = None  # as LiveSite's: no write into a folder not the one locked

    def add(self, g: ScheduledGame, record: Record) -> None:
        """A game was logged: the first one marks an earlier site's index out of date, and the game's
        page an earlier site drew, of an earlier play of it (its line deleted from the log to replay
        it), is removed: it showed the old game beside the new record and index (a red team's)."""
        self._mark()
        self._unpage(g.id)

    def _unpage(self, game_id: str) -> None:
        if self.folder_lock is not None and not self.folder_lock.intact():
            return
        from codecup.site.pages import game_href

        try:
            (self.out / game_href(game_id)).unlink(missing_ok=True)
        except OSError as exc:  # said once, as a mark that failed; a later site run draws it again
            if self._unpage_warned:
                return
            self._unpage_warned = True
            said = f"{shown_path(self.out / game_href(game_id))}: {printable(str(exc))}"
            print(f"codecup: warning: cannot remove the out-of-date page {said}", file=sys.stderr)

    def playing(self) -> None:
        """The run is about to play its first new game (and to remove the earlier standings, which
        the earlier site's index links): that index is marked out of date first."""
        self._mark()

    def _mark(self) -> None:
        if self._told:
            return
        self._told = True
        if self.folder_lock is not None and not self.folder_lock.intact():
            return
        if not (self.out / "index.html").is_file():
            return
        try:
            write_stale_index(self.out, self.game)
        except OSError as exc:
            said = f"{shown_path(self.out)} out of date: {printable(str(exc))}"
            print(f"codecup: warning: cannot mark the site in {said}", file=sys.stderr)

    def logged(self, games: Sequence[tuple[ScheduledGame, Record]]) -> None:
        """The games a resumed run found in its log: an earlier site showed them, or was marked."""

    __call__ = add  # a tournament's on_record callback

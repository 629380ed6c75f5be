"""Running a tournament: schedule, executor, results log, standings.

The loop asks the format for a batch, skips the games the results log
already holds, hands the rest to the executor, and logs each game as it
finishes (only a logged game counts). Re-running the same command over the
same output folder therefore plays only the missing games. Which games are
played is the spec's (:mod:`codecup.tournament.spec`); a log that holds games
of another tournament is refused before anything is written
(:mod:`codecup.tournament.resumecheck`).

A game whose referee process died is logged as a referee error (see
:mod:`codecup.tournament.dispatch`); it gives neither player points and is
left out of the standings and ratings, and the summary lists it.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup.asking import results_key_of
from codecup.dialogue import Termination
from codecup.errors import ConfigError
from codecup.game import Game
from codecup.record import MatchInfo, Record
from codecup.terminal import STDERR_LINES, log_lines, printable, shown_line
from codecup.tournament import schedule as sched
from codecup.tournament.dispatch import is_referee_error, play_batch
from codecup.tournament.executor import GamePool, held_stops
from codecup.tournament.gamefiles import mend_records, write_game
from codecup.tournament.identity import note_schedule
from codecup.tournament.lock import FolderLock
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.machine import Gives, limits_had
from codecup.tournament.moved import follow, note_move
from codecup.tournament.programwatch import GAME_NOT_LOGGED, SET_ASIDE, ProgramWatch
from codecup.tournament.progress import Progress
from codecup.tournament.ratings import Rating, bradley_terry, ratings_table
from codecup.tournament.resumecheck import check_log
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.setaside import FORMATS as SET_ASIDE_FORMATS
from codecup.tournament.setaside import (
    Archived,
    archived,
    archived_line,
    finish_pending,
)
from codecup.tournament.setaside import plan as plan_set_aside
from codecup.tournament.setaside import set_aside as aside
from codecup.tournament.spec import TournamentSpec, match_for
from codecup.tournament.standings import SCHEMA as STANDINGS_SCHEMA
from codecup.tournament.standings import Standings, compute_standings, counted, ranker, reorder
from codecup.tournament.told import (
    Load,
    LoggedGames,
    OnComplete,
    OnLogged,
    OnMended,
    OnMoved,
    OnPlaying,
    OnRecord,
    OnSetAside,
    RunCallbacks,
)
from codecup.tournament.worker import PlayFn
from codecup.writing import write_atomic


@attrs.frozen
class TournamentResult:
    """A finished tournament: every game with its record (slim: :meth:`record` reads a whole one),
    the standings and ratings."""

    spec: TournamentSpec
    games: tuple[tuple[ScheduledGame, Record], ...]
    standings: Standings
    ratings: tuple[Rating, ...]
    played: int  # games played by this run (the rest came from the log)
    load: Load | None = attrs.field(default=None, eq=False)  # a game's whole record (records are slim)
    set_aside: tuple[Archived, ...] = ()  # the folder's games set aside (--set-aside), not in the standings

    def record(self, game_id: str) -> Record:
        """A game's whole record: :attr:`games` holds slim ones (:meth:`~codecup.record.Record.slim`),
        as the log does, where ``load`` reads it (without ``load``: the record held)."""
        if self.load is not None:
            return self.load(game_id)
        found = next((r for g, r in self.games if g.id == game_id), None)
        if found is None:  # a bare StopIteration, which said nothing (a reviewer's)
            raise KeyError(f"no game {game_id!r} in this tournament")
        return found

    @property
    def records(self) -> list[Record]:
        """The records in schedule order."""
        return [r for _, r in self.games]

    def summary(self) -> str:
        """Standings, ratings, referee errors and faults as text."""
        s = self.spec
        title = f"{s.game} ({s.variant}), {s.format}, {len(self.games)} games, {s.seeds_said}"
        text = (
            self.standings.table(title)
            + "\n\nRatings (Bradley-Terry maximum likelihood, Elo scale, field mean 0):\n"
            + ratings_table(self.ratings)
        )
        dead = [g.id for g, r in self.games if is_referee_error(r)]
        if dead:
            again = (  # a round robin's, a gauntlet's: set aside, not deleted (codecup.tournament.setaside)
                "the same command with --replay-errors plays them again"
                if s.format in SET_ASIDE_FORMATS
                else "delete a game's line from results.jsonl to have it played again"
            )
            text += (
                f"\n\nReferee errors: {len(dead)} game{'s' if len(dead) != 1 else ''} whose referee process "
                "died or failed, whose game plugin failed, or whose programs could not be contained alike"
                f" (no points, left out of the standings and ratings; {again}): " + ", ".join(dead)
            )
        faults = fault_summary(self.games)
        if faults:
            text += "\n\n" + faults
        if s.notes:
            text += "\n\n" + "\n".join(printable(note) for note in s.notes)
        if (aside := archived_line(self.set_aside)) is not None:
            text += "\n\n" + printable(aside)
        return text

    def to_json(self) -> dict[str, Any]:
        """The JSON form of standings.json."""
        return {
            "schema": STANDINGS_SCHEMA,
            "tournament": self.spec.to_json(),
            **self.standings.to_json(),
            "ratings": [r.to_json() for r in self.ratings],
            "games": [
                {
                    "id": g.id,
                    "stage": g.stage,
                    "round": g.round,
                    "seed": g.seed,
                    "players": [p.name for p in r.match.players],
                    "points": list(r.result.points),
                    "scores": list(r.result.scores),
                    "termination": [e.kind.value for e in r.result.termination],
                    "file": f"games/{g.id}.json",
                }
                for g, r in self.games
            ],
            "set_aside": [a.to_json() for a in self.set_aside],
        }


FAULTS_SHOWN = 20  # faults listed in a summary; the rest are counted


def fault_summary(games: Iterable[tuple[ScheduledGame, Record]], limit: int = FAULTS_SHOWN) -> str:
    """Each bot fault (not referee errors) with its message and the last lines of the bot's stderr."""
    lines: list[str] = []
    shown = total = 0
    for g, record in games:
        for seat, end in enumerate(record.result.termination):
            if end.kind in (Termination.NORMAL, Termination.REFEREE_ERROR):
                continue
            total += 1
            if shown >= limit:
                continue
            shown += 1
            lines += fault_lines(g.id, record, seat)
    if not total:
        return ""
    if total > shown:
        lines.append(f"  ... and {total - shown} more (see games/ID.json)")
    return f"Faults ({total}; with the last lines of the bot's stderr):\n" + "\n".join(lines)


def fault_lines(game_id: str, record: Record, seat: int) -> list[str]:
    """One bot fault, as a summary lists it (``sprt`` too): the game, the player, the kind and its
    message, then the last lines of the bot's stderr."""
    end = record.result.termination[seat]
    why = f" ({printable(end.message)})" if end.message else ""
    lines = [f"  {game_id}: {record.match.players[seat].name} {end.kind.value}{why}"]
    log = record.logs[seat] if seat < len(record.logs) else ""
    return lines + [f"    | {shown_line(line)}" for line in log_lines(log.rstrip())[-STDERR_LINES:]]


def final_order(
    game: Game, spec: TournamentSpec, games: list[ScheduledGame], log: ResultsLog
) -> tuple[list[str], dict[str, float]]:
    """The format's own final ranking, best first, and a Swiss tournament's finalists with their
    points in the final (empty in other formats)."""
    names = spec.names
    if spec.format == "swiss":
        return swiss_ranking(game, spec, games, log)
    if spec.format == "knockout":
        points = {g.id: tuple(log.records[g.id].result.points) for g in games}
        return [names[i] for i in sched.knockout_ranking(len(names), games, points)], {}
    records = counted(log.records[g.id] for g in games)
    rates = spec.format == "gauntlet"  # unequal numbers of games: rank per-game rates
    return compute_standings(game, names, records, rates=rates).order, {}


def swiss_ranking(
    game: Game, spec: TournamentSpec, games: list[ScheduledGame], log: ResultsLog
) -> tuple[list[str], dict[str, float]]:
    """A Swiss tournament's ranking: the finalists by the final's totals under the game's ranking
    (points, then its tie-breaks), finalists equal in all of it by the Swiss rounds, not by the
    players list; then the others by the Swiss rounds. With the finalists' points in the final."""
    final = [g for g in games if g.stage == "f"]
    finalists = {spec.names[i] for g in final for i in g.seats}
    swiss = counted(log.records[g.id] for g in games if g.stage == "s")
    by_swiss = compute_standings(game, spec.names, swiss).order
    top = compute_standings(
        game, [n for n in by_swiss if n in finalists], counted(log.records[g.id] for g in final)
    )
    points = {row.standing.player: row.standing.points for row in top.rows}
    return [*points, *(n for n in by_swiss if n not in finalists)], points


def format_standings(game: Game, spec: TournamentSpec, records: list[Record]) -> Standings:
    """Standings as the format ranks them (a gauntlet: per-game rates, with its challenger)."""
    if spec.format == "gauntlet":
        st = compute_standings(game, spec.names, records, rates=True)
        return attrs.evolve(st, challenger=spec.names[spec.challenger_index])
    return compute_standings(game, spec.names, records)


def _check_game_plays(spec: TournamentSpec, game: Game) -> None:
    """Refuse a spec ``game`` cannot play, before anything is written (a spec built in code with a
    variant the game does not have wrote the run's folder, then stopped at its first game)."""
    if spec.game != game.info.name:
        raise ConfigError(f"the spec is of game {spec.game!r}, not {game.info.name!r}")
    game.info.variant(spec.variant)
    for player in spec.players:
        if player.bot is not None:
            game.info.check_bot(player.bot)


def run_tournament(
    spec: TournamentSpec,
    game: Game,
    out: Path,
    *,
    executor: concurrent.futures.Executor,
    play: PlayFn,
    progress: Progress | None = None,
    jobs: int = 1,
    on_record: OnRecord | None = None,
    on_logged: OnLogged | None = None,
    lock: FolderLock | None = None,
    on_complete: OnComplete | None = None,
    on_playing: OnPlaying | None = None,
    set_aside: Sequence[str] = (),
    on_set_aside: OnSetAside | None = None,
    gives: Gives | None = None,
    on_mended: OnMended | None = None,
    replay_errors: bool = False,
    on_moved: OnMoved | None = None,
    callbacks: RunCallbacks | None = None,
) -> TournamentResult:
    """Play (or finish) the tournament into ``out`` and return its result.

    ``on_record(game, record)`` is called for every game as it is logged (and
    for every game already in the log, unless ``on_logged`` is given: then
    ``on_logged(games)`` gets those, a batch's at once), e.g. to write the
    results site live.
    ``executor`` runs ``play`` on each match; a :class:`GamePool` (the CLI's
    local pool) also survives a dead referee process, a plain executor does not.
    ``lock``: ``out``'s, if the caller holds it (else the run takes it, and releases it).
    ``on_complete(result)`` is called once the standings are written, before a stop that came as
    they were written is raised (a stop is held over that, and over each game's logging).
    ``on_playing()`` is called once, before the first game not in the log is played and before the
    standings an earlier run wrote into ``out`` are removed (a site's index linking them is rewritten).
    ``gives``: what the machine playing the games gives their programs (a log whose games had more is
    refused: :func:`~codecup.tournament.machine.check_log_gives`); None: no program plays (a Dask
    cluster's workers each give what this machine does, or refuse the game).

    A log that holds games this tournament does not play is refused before anything is written, as
    is a spec ``game`` cannot play (another game's, a variant or a bot it does not have).
    ``set_aside``: the players whose logged games are set aside first (:mod:`~codecup.tournament.setaside`;
    ``lock`` must be given), once every check passed of the log without them; ``replay_errors``:
    the logged games that ended in a referee error are set aside so too, and played again;
    ``on_set_aside`` is told what was done, a player at a time, then of the referee errors.
    ``on_mended(n)``: told of the ``n`` logged games whose records in ``games/`` were not as the log
    says (a crash's: missing, cut, zeroed) and were written again from it
    (:func:`~codecup.tournament.gamefiles.mend_records`).
    ``on_moved(move)``: told of the move of the contest's folder (players' folders and ``out``
    together) the run followed, resuming its log where it is now (:mod:`~codecup.tournament.moved`).
    ``callbacks``: these, in one record (:class:`~codecup.tournament.told.RunCallbacks`), given instead
    of the ``on_*`` keywords (not both).
    """
    told = RunCallbacks(
        on_record=on_record,
        on_logged=on_logged,
        on_complete=on_complete,
        on_playing=on_playing,
        on_set_aside=on_set_aside,
        on_mended=on_mended,
        on_moved=on_moved,
    )
    if callbacks is not None:
        if told != RunCallbacks():
            raise ValueError("give the callbacks as one record or as on_* keywords, not both")
        told = callbacks
    spec.check()
    _check_game_plays(spec, game)
    out.mkdir(parents=True, exist_ok=True)
    if (set_aside or replay_errors) and lock is None:
        raise ValueError("set_aside and replay_errors need the folder's lock held by the caller")
    if lock is not None:  # a set-aside a stop cut short, finished or undone before the log is read
        finish_pending(out)
    log = ResultsLog.open(out / LOG_NAME, lock=lock or True, game=game)  # its records checked as read
    try:
        setups: dict[int, str] = {}
        asked = set_aside or replay_errors
        todo = plan_set_aside(out, set_aside, spec, log.records, replay_errors) if asked else None
        if todo is not None:  # checked as the log is without them: a refused run has moved none (a
            # reviewer's: games were moved, then the folder refused as another format's)
            has_games = bool(log.records)
            for game_id in todo.games:
                del log.records[game_id]
            check_log(spec, game, log, out, setups, has_games, gives, follow(spec, log.records, out))
            log.close()
            for done in aside(out, todo):
                told.set_aside(done)
            log = ResultsLog.open(out / LOG_NAME, lock=lock or True, game=game)
            setups.clear()
        move = follow(spec, log.records, out)  # the contest's folder moved whole: read where it is now
        check_log(spec, game, log, out, setups, bool(log.records), gives, move)
        key = results_key_of(game, spec.variant)
        if move is not None:  # before the schedule's note, which names the files where they are now:
            note_move(out, move)  # a crash between leaves it naming them where they were, and the
            # move noted, through which they are read (moved.through)
        note_schedule(spec, out, results_key=key)  # only now: a run refused above leaves none
        told.moved(move)
        (out / "games").mkdir(exist_ok=True)
        told.mended(mend_records(out, log))  # a crash's: each logged game's record as its line says
        pool = executor if isinstance(executor, GamePool) else GamePool(executor, jobs)
        watch = ProgramWatch.of(spec.programs)
        run = _Run(game, spec.variant, key, watch, spec.format in SET_ASIDE_FORMATS)
        try:
            return _run(spec, game, out, log, pool, play, progress or Progress(), told, setups, run)
        except OSError:  # a write failed as the folder went away: that is what to say, not the file
            log.check_folder()
            raise
    finally:
        log.close()


def _run(
    spec: TournamentSpec,
    game: Game,
    out: Path,
    log: ResultsLog,
    executor: GamePool,
    play: PlayFn,
    progress: Progress,
    told: RunCallbacks,
    setups: dict[int, str],
    run: _Run,
) -> TournamentResult:
    names = spec.names
    points: dict[str, tuple[float, ...]] = {k: tuple(r.result.points) for k, r in log.records.items()}
    scheduled: list[ScheduledGame] = []
    rank = ranker(game, names, log)
    progress.start(spec.estimated_games(), resumed=0)
    played = 0
    try:
        for batch in spec.batches(points, rank):
            scheduled += batch
            todo, logged = [], []
            for g in batch:
                # the run's results key: checked where the game is played (runner)
                match = attrs.evolve(match_for(game, spec, g, setups), results_key=run.key)
                if g.id in log:  # the same match: resumecheck.check_log; its record mended (run_tournament)
                    progress.done += 1
                    logged.append((g, log.records[g.id]))
                else:
                    todo.append((g, match))
            told.logged(LoggedGames(tuple(logged), log.record))
            progress.grow(len(scheduled))
            if todo and played == 0:  # an earlier run's standings are of fewer games: gone till the end
                told.playing()  # first, so that no index links them once they are gone
                log.check_folder()  # by their path: only the folder locked's (a moved one's were another's)
                remove_results(out)
            _run_batch(todo, executor, play, log, points, progress, out, told.record, run)
            played += len(todo)
    finally:
        progress.set_running(0)
        progress.close()
    games = tuple((g, log.records[g.id]) for g in scheduled)
    records = counted(r for _, r in games)
    order, final = final_order(game, spec, scheduled, log)
    standings = reorder(format_standings(game, spec, records), order, final)
    ratings = tuple(bradley_terry(names, records))
    said = attrs.evolve(spec, limits=limits_had(spec.limits, (r for _, r in games)))  # what they had
    result = TournamentResult(said, games, standings, ratings, played, log.record, archived(out))
    log.check_folder()  # the standings only into the folder the run locked (as each game: log.append)
    with held_stops():  # a stop as they are written: raised once the caller knows the run is complete
        write_results(out, result)
        told.complete(result)
    return result


def _run_batch(
    todo: list[tuple[ScheduledGame, MatchInfo]],
    pool: GamePool,
    play: PlayFn,
    log: ResultsLog,
    points: dict[str, tuple[float, ...]],
    progress: Progress,
    out: Path,
    on_record: OnRecord | None = None,
    run: _Run | None = None,
) -> None:
    """Play a batch's games in parallel, logging each as it finishes (and, given ``run``, only
    while what the games' results depend on is what the run started with)."""

    def finished(g: ScheduledGame, record: Record) -> None:
        if run is not None:
            run.check_unchanged(g.id)
            run.check_programs(g.id, [p.name for p in record.match.players])
        # A stop that lands once the game is logged waits for its record and page: a red team's SIGTERM
        # there left games/ and the site a game short of the log ("Stopped: 6 of 12" over 7 logged).
        with held_stops():
            # The record on the disk before its line: a logged game's record is then there after a
            # crash (its folder checked first: written only into the folder the run locked)
            log.check_folder()
            write_game(out, g.id, record)
            log.append(g.id, record)
            points[g.id] = tuple(record.result.points)
            if on_record is not None:  # the site before the terminal: a closed pipe may land in the
                on_record(g, record)  # printing, and the run stop there
        progress.finished(g.id, record)

    play_batch(todo, pool, play, finished, progress)


@attrs.frozen
class _Run:
    """What a run's games' results depend on (:meth:`Game.results_key`), as it started."""

    game: Game
    variant: str
    key: str | None
    programs: ProgramWatch | None = None  # the players' program files as the run started
    set_aside: bool = False  # --set-aside applies (a round robin, a gauntlet): said on a change

    def check_unchanged(self, game_id: str) -> None:
        """Refuse to go on (and to log game ``game_id``) once the results key has changed: a red
        team's tournament scored 3 games with one word list and 9 with another that took its
        file's place, in one standings."""
        now = results_key_of(self.game, self.variant)  # Lucky Words: refuses a changed list itself
        if now != self.key:
            raise ConfigError(
                f"what the games' results depend on changed during the run (it was {self.key}, it is now"
                f" {now}): game {game_id} is not logged; put it back, or start again into another folder"
            )

    def check_programs(self, game_id: str, players: Sequence[str]) -> None:
        """Refuse to go on (and to log game ``game_id``) once a program file of one of its
        ``players`` is not as the run started (:mod:`~codecup.tournament.programwatch`)."""
        if self.programs is not None:
            again = SET_ASIDE if self.set_aside else ""
            self.programs.check(players, GAME_NOT_LOGGED.replace("{game}", game_id).replace("{again}", again))


RESULT_FILES = ("standings.txt", "standings.json", "standings.csv")
"""What :func:`write_results` writes, once every game is played."""


def remove_results(out: Path) -> None:
    """Remove the standings a run into ``out`` wrote at its end, before a longer run (more rounds)
    plays its first new game: stopped, it left them saying the earlier run's games were all, while
    its results site showed the games played since."""
    for name in RESULT_FILES:
        (out / name).unlink(missing_ok=True)


def write_results(out: Path, result: TournamentResult) -> None:
    """standings.txt, standings.json (docs/standings-schema.md) and standings.csv, each whole or
    not at all (a full disk left standings.json cut short, not JSON, naming no file)."""
    write_atomic(out / "standings.txt", result.summary() + "\n")
    write_atomic(out / "standings.json", json.dumps(result.to_json(), indent=1, allow_nan=False) + "\n")
    write_atomic(out / "standings.csv", result.standings.csv())

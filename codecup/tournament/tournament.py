"""Running a tournament: schedule, executor, results log, standings.

The loop asks the format for a batch, skips the games the results log
already holds, hands the rest to the executor, and logs each game as it
finishes (only a logged game counts). Re-running the same command over the
same output folder therefore plays only the missing games.

A game whose referee process died is logged as a referee error (see
:mod:`codecup.tournament.dispatch`); it gives neither player points and is
left out of the standings and ratings, and the summary lists it.
"""

from __future__ import annotations

import concurrent.futures
import json
import shlex
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import attrs

from codecup import matchfields as mf
from codecup.checks import check_clock
from codecup.clock import CLOCK_MODES, CPU, DEFAULT_CLOCK_MODE, WALL
from codecup.dialogue import Termination
from codecup.drive import new_seat_key
from codecup.errors import ConfigError
from codecup.game import Game, results_key_of
from codecup.names import names_problem
from codecup.record import MatchInfo, PlayerInfo, Record
from codecup.terminal import STDERR_LINES, log_lines, printable, shown_line
from codecup.tournament import schedule as sched
from codecup.tournament.dispatch import is_referee_error, play_batch
from codecup.tournament.executor import GamePool, held_stops
from codecup.tournament.identity import Schedule, check_logged_records, check_schedule, note_schedule
from codecup.tournament.lock import FolderLock
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.machine import Gives, check_log_gives, limits_had
from codecup.tournament.programwatch import GAME_NOT_LOGGED, SET_ASIDE, ProgramWatch, of_logged_players
from codecup.tournament.progress import Progress
from codecup.tournament.ratings import Rating, bradley_terry, ratings_table
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.setaside import FORMATS as SET_ASIDE_FORMATS
from codecup.tournament.setaside import SetAside, finish_pending
from codecup.tournament.setaside import plan as plan_set_aside
from codecup.tournament.setaside import set_aside as aside
from codecup.tournament.standings import SCHEMA as STANDINGS_SCHEMA
from codecup.tournament.standings import Standings, compute_standings, reorder
from codecup.tournament.worker import PlayFn
from codecup.writing import write_atomic

MAX_GAMES = 1_000_000
"""The most games one run may schedule: a mistyped ``--rounds`` would otherwise build a schedule
that fills memory before the first game (a CodeCup final is a few thousand games)."""


def check_game_count(games: int, what: str = "the tournament") -> None:
    """Refuse a run of more than :data:`MAX_GAMES` games, naming the count, before anything is built."""
    if games > MAX_GAMES:
        raise ConfigError(
            f"{what} would schedule {games} games; a run may schedule at most {MAX_GAMES:,} "
            "(fewer --rounds, or fewer players)"
        )


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


@attrs.frozen
class TournamentSpec:
    """Everything that decides which games are played (not how or where)."""

    game: str
    variant: str
    clock: float
    players: tuple[PlayerInfo, ...]
    seed: int = 0
    format: str = "round-robin"
    rounds: int = 1
    challenger: str | None = None
    swiss_rounds: int | None = None
    top: int = 4
    clock_mode: str = DEFAULT_CLOCK_MODE
    notes: tuple[str, ...] = ()  # what the game says a reader must know (Game.run_notes): not the schedule
    limits: str | None = None  # each bot's sandbox limits, in words (Limits.describe); None: not said
    results_key: str | None = None  # what the game's results depend on (Game.results_key)
    # each player's program files' digests, as the run started (identity.program_digests): a run
    # resumed with one changed is refused. None: not said (built-in bots, or a run in-process)
    programs: tuple[tuple[str, str, str], ...] | None = None
    # The seed was given (the run to be reproduced): no secret in the seats' seeds (MatchInfo.seat_key)
    seeded: bool = attrs.field(default=True, eq=False)
    # The clock mode of a game of built-in bots alone where it is not clock_mode: the one asked for,
    # where this machine runs the programs' cpu clock as wall (no cgroup of their own). An in-process
    # bot's clock is measured alike on every machine, so its games keep what was asked (a red team's
    # folder of built-in bots, a program added on a machine without cgroup2, was told to give
    # --clock-mode cpu, which it had been given). None: as clock_mode.
    bots_clock_mode: str | None = attrs.field(default=None, eq=False)

    def clock_mode_of(self, players: Sequence[PlayerInfo]) -> str:
        """The clock mode of a game between ``players``: :attr:`bots_clock_mode` where all are
        built-in bots (and it is said), else :attr:`clock_mode`."""
        if self.bots_clock_mode is not None and all(p.bot is not None for p in players):
            return self.bots_clock_mode
        return self.clock_mode

    @property
    def asked_clock_mode(self) -> str:
        """The clock mode the run was asked for (before the machine made the programs' cpu wall)."""
        return self.bots_clock_mode or self.clock_mode

    @property
    def seeds_said(self) -> str:
        """How the standings and the site say the run's seeds: "seed 0" of a run given none invited
        --seed 0 over a folder of secret seeds (a red team's; the site said it after the text did not)."""
        if not self.seeded and any(p.bot is None for p in self.players):
            return "bots' seeds drawn in secret"
        return f"seed {self.seed}"

    @property
    def names(self) -> list[str]:
        """The players' names, in the order given (the seeding order)."""
        return [p.name for p in self.players]

    def check(self) -> None:
        """Raise :class:`ConfigError` for a combination that cannot be scheduled."""
        if self.format not in sched.FORMATS:
            raise ConfigError(f"unknown format {self.format!r} (known: {', '.join(sched.FORMATS)})")
        if len(self.players) < 2:
            raise ConfigError("a tournament needs at least two players")
        if self.rounds < 1:
            raise ConfigError("--rounds must be at least 1")
        if self.challenger is not None and self.challenger not in self.names:
            raise ConfigError(
                f"the challenger {self.challenger!r} is not one of the players ({', '.join(self.names)})"
            )
        if self.swiss_rounds is not None and self.swiss_rounds < 1:
            raise ConfigError("--swiss-rounds must be at least 1")
        n = len(self.players)
        if self.format == "swiss" and self.swiss_rounds is not None and self.swiss_rounds > n - 1:
            # more would pair players again and again (3 players, 100 rounds: a and b met 98 times)
            raise ConfigError(
                f"--swiss-rounds must be at most {n - 1} with {n} players (no more rounds than there "
                f"are opponents), not {self.swiss_rounds}"
            )
        if self.top < 2:
            raise ConfigError("--top must be at least 2")
        if self.clock_mode not in CLOCK_MODES:
            raise ConfigError(f"clock mode {self.clock_mode!r} is not one of: {', '.join(CLOCK_MODES)}")
        self._check_match_fields()
        check_game_count(self.estimated_games())

    def _check_match_fields(self) -> None:
        """What each game's :class:`MatchInfo` takes from the spec, by the rules the command line and
        the record's reader apply: a clock of -1 played, each game lost on time, and its log was then
        refused; two players of one name played, then their second game was refused (a red team's)."""
        check_clock(self.clock)
        for field, problem in (
            ("seed", mf.seed_problem(self.seed)),
            ("game", mf.text_problem(self.game)),
            ("variant", mf.text_problem(self.variant)),
        ):
            if problem is not None:
                raise ConfigError(f"{field} {problem}")
        if not all(isinstance(p, PlayerInfo) for p in self.players):
            raise ConfigError(f"players must be PlayerInfo objects, not {self.players!r:.80}")
        if (problem := names_problem(self.names)) is not None:
            raise ConfigError(problem)

    @property
    def challenger_index(self) -> int:
        """The gauntlet's challenger (the first player unless named)."""
        return self.names.index(self.challenger) if self.challenger else 0

    def n_swiss_rounds(self) -> int:
        """Swiss rounds to play."""
        return self.swiss_rounds or sched.default_swiss_rounds(len(self.players))

    def estimated_games(self) -> int:
        """How many games the schedule should have (exact except for knock-out replays)."""
        n = len(self.players)
        if self.format == "round-robin":
            return n * (n - 1) * self.rounds
        if self.format == "gauntlet":
            return 2 * (n - 1) * self.rounds
        if self.format == "swiss":
            top = max(2, min(self.top, n))
            return self.n_swiss_rounds() * (n // 2) * 2 + top * (top - 1) * self.rounds
        return 2 * (n - 1)

    def batches(self, points: sched.Points, rank: sched.Ranker) -> Iterator[list[ScheduledGame]]:
        """The schedule, batch by batch (later batches may read ``points`` of earlier ones)."""
        names = self.names
        if self.format == "round-robin":
            yield sched.round_robin(names, self.seed, self.rounds)
        elif self.format == "gauntlet":
            yield sched.gauntlet(names, self.seed, self.challenger_index, self.rounds)
        elif self.format == "swiss":
            # the log's pairs as they are (``points``: the logged games' at first)
            yield from sched.swiss(
                names, self.seed, rank, self.n_swiss_rounds(), self.top, self.rounds, logged=list(points)
            )
        else:
            yield from sched.knockout(names, self.seed, points)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (for standings.json)."""
        from codecup.tournament.identity import Schedule  # identity imports this module

        doc = attrs.asdict(self, recurse=True)
        doc["players"] = [p.describe() for p in self.players]
        doc["entrants"] = [
            {"name": p.name, "command": list(p.command), "bot": p.bot, "directory": p.directory}
            | ({"language": p.language} if p.language else {})
            for p in self.players
        ]
        doc["schedule"] = attrs.asdict(Schedule.of(self))
        return doc


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
            text += (
                f"\n\nReferee errors: {len(dead)} game{'s' if len(dead) != 1 else ''} whose referee process "
                "died or failed, whose game plugin failed, or whose programs could not be contained alike"
                " (no points, left out of the standings and ratings; delete a game's line from results.jsonl"
                " to have it played again): " + ", ".join(dead)
            )
        faults = fault_summary(self.games)
        if faults:
            text += "\n\n" + faults
        if s.notes:
            text += "\n\n" + "\n".join(printable(note) for note in s.notes)
        return text

    def to_json(self) -> dict[str, Any]:
        """The JSON form of standings.json."""
        return {
            "schema": STANDINGS_SCHEMA,
            "tournament": self.spec.to_json(),
            **self.standings.to_json(),
            "ratings": [attrs.asdict(r) | {"interval": list(r.interval)} for r in self.ratings],
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
        }


def _setup(game: Game, spec: TournamentSpec, seed: int, cache: dict[int, str]) -> str:
    if seed not in cache:
        cache[seed] = game.start_position(seed, spec.variant)  # its random setup, checked
    return cache[seed]


def match_for(game: Game, spec: TournamentSpec, g: ScheduledGame, cache: dict[int, str]) -> MatchInfo:
    """The match a scheduled game plays."""
    players = (spec.players[g.seats[0]], spec.players[g.seats[1]])
    return MatchInfo(
        game=spec.game,
        variant=spec.variant,
        seed=g.seed,
        setup=_setup(game, spec, g.seed, cache),
        players=players,
        clock=spec.clock,
        clock_mode=spec.clock_mode_of(players),
        seat_key=new_seat_key(spec.seeded, players),
    )


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


def counted(records: Iterable[Record]) -> list[Record]:
    """The records that count for standings and ratings (not referee errors)."""
    return [r for r in records if not is_referee_error(r)]


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
    on_set_aside: Callable[[SetAside], None] | None = None,
    gives: Gives | None = None,
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
    ``lock`` must be given), once every check passed of the log without them; ``on_set_aside``
    is told what was done, a player at a time.
    """
    spec.check()
    _check_game_plays(spec, game)
    out.mkdir(parents=True, exist_ok=True)
    if set_aside and lock is None:
        raise ValueError("set_aside needs the folder's lock held by the caller")
    if lock is not None:  # a set-aside a stop cut short, finished or undone before the log is read
        finish_pending(out)
    log = ResultsLog.open(out / LOG_NAME, lock=lock or True, game=game)  # its records checked as read
    try:
        setups: dict[int, str] = {}
        todo = plan_set_aside(out, set_aside, spec, log.records) if set_aside else None
        if todo is not None:  # checked as the log is without them: a refused run has moved none (a
            # reviewer's: games were moved, then the folder refused as another format's)
            has_games = bool(log.records)
            for game_id in todo.games:
                del log.records[game_id]
            _check_log(spec, game, log, out, setups, has_games, gives)
            log.close()
            for done in aside(out, todo):
                if on_set_aside is not None:
                    on_set_aside(done)
            log = ResultsLog.open(out / LOG_NAME, lock=lock or True, game=game)
            setups.clear()
        _check_log(spec, game, log, out, setups, bool(log.records), gives)
        key = results_key_of(game, spec.variant)
        note_schedule(spec, out, results_key=key)  # only now: a run refused above leaves none
        (out / "games").mkdir(exist_ok=True)
        pool = executor if isinstance(executor, GamePool) else GamePool(executor, jobs)
        tell = _Tell(on_record, on_logged, on_playing)
        watch = ProgramWatch.of(spec.programs)
        run = _Run(game, spec.variant, key, on_complete, watch, spec.format in SET_ASIDE_FORMATS)
        try:
            return _run(spec, game, out, log, pool, play, progress or Progress(), jobs, tell, setups, run)
        except OSError:  # a write failed as the folder went away: that is what to say, not the file
            log.check_folder()
            raise
    finally:
        log.close()


def _check_log(
    spec: TournamentSpec,
    game: Game,
    log: ResultsLog,
    out: Path,
    setups: dict[int, str],
    has_games: bool,
    gives: Gives | None,
) -> None:
    """Refuse a log of games this tournament does not play, or plays otherwise (see
    :func:`run_tournament`); ``has_games``: the folder's log holds games (some maybe set aside);
    ``gives``: what this machine gives programs (None: no program plays)."""
    if gives is not None:  # first: another clock mode logged may be one this machine cannot give
        check_log_gives(log.records, gives, out / LOG_NAME)
    _check_log_is_this_tournaments(spec, log, out, gives)
    log.check_records(game)  # before anything reads their points (a schedule, the standings)
    key = results_key_of(game, spec.variant)
    logged = attrs.evolve(spec, programs=of_logged_players(spec.programs, log.records))
    check_schedule(logged, out, has_games=has_games, results_key=key)
    check_logged_records(game, log.records, Schedule.of(spec, key), out, out / LOG_NAME)
    _check_logged_games(spec, game, log, out, setups)


def _ranker(game: Game, names: list[str], log: ResultsLog) -> sched.Ranker:
    """The ranking of players by the logged games of the given ids (a Swiss round's pairing)."""

    def rank(ids: Iterable[str]) -> list[int]:
        order = compute_standings(game, names, counted(log.records[i] for i in ids)).order
        return [names.index(n) for n in order]

    return rank


def _check_logged_games(
    spec: TournamentSpec, game: Game, log: ResultsLog, out: Path, setups: dict[int, str]
) -> None:
    """Refuse a log holding a game this tournament would not play, or would play otherwise.

    The schedule is followed as far as the log's games decide it: to its first batch the log does
    not hold whole (a Swiss round, a knock-out round), since no later batch can have begun before
    that one ended. Every logged game must be one of the batches so far and be the match it plays
    there: a log of a folder without its schedule's file (copied without its hidden files, or from
    before that file) holds its games of other rounds, another format or other players.
    """
    points = {k: tuple(r.result.points) for k, r in log.records.items()}
    scheduled: set[str] = set()
    for batch in spec.batches(points, _ranker(game, spec.names, log)):
        for g in batch:
            scheduled.add(g.id)
            if g.id in log and log.records[g.id].match != match_for(game, spec, g, setups):
                raise ConfigError(
                    f"{out / LOG_NAME} holds game {g.id} of a different tournament "
                    "(other players, seed or options): use another --out folder"
                )
        if any(g.id not in log for g in batch):
            break
    unscheduled = sorted(log.records.keys() - scheduled)
    if unscheduled:
        rounds = f"{spec.rounds} round{'s' if spec.rounds != 1 else ''}"
        more = f", and {len(unscheduled) - 1} more" if len(unscheduled) > 1 else ""
        this = f"{spec.format}, {rounds}, seed {spec.seed}, {len(spec.players)} players"
        raise ConfigError(
            f"{out / LOG_NAME} holds game {unscheduled[0]}{more}, which this tournament ({this}) "
            "does not play: use another --out folder"
        )


def _check_log_is_this_tournaments(
    spec: TournamentSpec, log: ResultsLog, out: Path, gives: Gives | None = None
) -> None:
    """Refuse a log that holds games this tournament cannot have played, before anything is written.

    A game of the log is this tournament's only if it is of the same game, variant and clock (and
    the clock mode this run gives a game of its kind: :meth:`TournamentSpec.clock_mode_of`),
    between players of this players list (a player added since is fine; the schedule's own
    check then compares each game it finds in the log with the game it would play). ``gives``:
    what this machine gives programs, for which --clock-mode resumes the log (None: everything).
    """
    for game_id, record in log.records.items():
        m = record.match
        same_clock = (m.game, m.variant, m.clock) == (spec.game, spec.variant, spec.clock)
        same_game = same_clock and m.clock_mode == spec.clock_mode_of(m.players)
        stranger = next((p for p in m.players if p not in spec.players), None)
        if not same_game or stranger is not None:
            if same_clock and not same_game:
                _check_clock_modes(spec, log, out, gives)
            why = (
                _changed(stranger, spec.players)
                if same_game and stranger is not None
                else f"{_kind(m.game, m.variant, m.clock, m.clock_mode)}, this one "
                f"{_kind(spec.game, spec.variant, spec.clock, spec.clock_mode_of(m.players))}"
            )
            strangers = [p for r in log.records.values() for p in r.match.players if p not in spec.players]
            moved = same_game and all(
                _changed_fields(p, _counterpart(p, spec.players)) == ["directory"] for p in strangers
            )
            logged = {p for r in log.records.values() for p in r.match.players}
            renamed = _renamed(strangers, spec.players, logged) if same_game else None
            advice = (
                renamed
                if renamed is not None
                else "its players' folders have moved: move them back to resume it (a game's record names"
                " its players' folders), or use another --out folder"
                if moved
                else _resumed_by(m, spec, _fitting_modes(spec, log, gives))
                if stranger is None
                else _set_aside_or_another(stranger, spec)
            )
            raise ConfigError(
                f"{out / LOG_NAME} holds game {game_id} of a different tournament ({why}): {advice}"
            )


def _set_aside_or_another(logged: PlayerInfo, spec: TournamentSpec) -> str:
    """What to do with a log of games of a player withdrawn or changed since: ``--set-aside``
    where it applies (a reviewer's: it solves this, and the refusal did not say it)."""
    if spec.format not in SET_ASIDE_FORMATS:
        return "use another --out folder"
    name = shlex.quote(logged.name)
    then = "play its games again as it is now" if logged.name in spec.names else "set its games aside"
    return f"give --set-aside {name} to {then}, or use another --out folder"


def _fitting_modes(spec: TournamentSpec, log: ResultsLog, gives: Gives | None) -> list[str]:
    """The clock modes which, asked for on this machine (``gives``), give each game of the log
    of this game, variant and clock the clock mode it had: built-in bots' games the one asked,
    programs' games the one this machine gives for it (wall for cpu without a cgroup)."""
    logged = [
        r.match
        for r in log.records.values()
        if (r.match.game, r.match.variant, r.match.clock) == (spec.game, spec.variant, spec.clock)
    ]

    def fits(asked: str) -> bool:
        programs = asked if gives is None or asked != CPU or gives.cpu_clock else WALL
        return all(m.clock_mode == (asked if all(p.bot for p in m.players) else programs) for m in logged)

    return [mode for mode in CLOCK_MODES if fits(mode)]


def _check_clock_modes(spec: TournamentSpec, log: ResultsLog, out: Path, gives: Gives | None) -> None:
    """Refuse, in one line, a log whose games no one clock mode asked for gives here: a run of an
    older codecup resumed where the cpu clock could not be given mixed wall games into a cpu log,
    and each mode was told to give the other (a red team's)."""
    if _fitting_modes(spec, log, gives):
        return
    bots = {r.match.clock_mode for r in log.records.values() if all(p.bot for p in r.match.players)}
    programs = {r.match.clock_mode for r in log.records.values() if not all(p.bot for p in r.match.players)}
    if bots == {CPU} and programs == {WALL}:  # cpu asked where the programs' CPU time was not measured
        raise ConfigError(
            f"{out / LOG_NAME} holds built-in bots' games under the cpu clock and programs' games under the"
            " wall clock (cpu asked on a machine without cgroup2), which no --clock-mode plays here, where"
            " programs get the cpu clock: resume it on a machine without cgroup2, or use another --out folder"
        )
    counts = Counter(r.match.clock_mode for r in log.records.values())
    said = ", ".join(f"{n} {mode}" for mode, n in sorted(counts.items()))
    raise ConfigError(
        f"{out / LOG_NAME} holds games of both clock modes ({said} clock games), which no one run"
        " plays as one tournament (--clock-mode gives its programs' games one): it cannot be resumed;"
        " use another --out folder for a new tournament (this one's games and pages stay as they are)"
    )


def _changed(logged: PlayerInfo, players: Sequence[PlayerInfo]) -> str:
    """How a player of a logged game differs from the players list's player of that name, if any."""
    now = _counterpart(logged, players)
    if now is None:
        return f"player {logged.name!r} is not in this players list"
    said = "; ".join(
        f"its {field} was {_shown(getattr(logged, field))}, now {_shown(getattr(now, field))}"
        for field in _changed_fields(logged, now)
    )
    return f"player {logged.name!r} is not as it is now in this players list: {said}"


def _renamed(
    strangers: Sequence[PlayerInfo], players: Sequence[PlayerInfo], in_log: Collection[PlayerInfo]
) -> str | None:
    """What to do where every player of the log that is not in ``players`` as it is now is a player
    of ``players`` under another name (its command, folder and the rest alike): names swapped in
    the list, which was said to be folders moved (a red team's). None where one is not. A player of
    ``players`` that has games in the log as it is (``in_log``) is itself, not another renamed: a
    player removed whose command another runs was said renamed to it (a reviewer's)."""
    pairs = []
    for logged in dict.fromkeys(strangers):
        now = next(
            (
                p
                for p in players
                if p.name != logged.name and p not in in_log and attrs.evolve(p, name=logged.name) == logged
            ),
            None,
        )
        if now is None:
            return None
        pairs.append(f"{logged.name!r} is now named {now.name!r}")
    if not pairs:
        return None
    shown = ", ".join(pairs[:4]) + (", ..." if len(pairs) > 4 else "")
    return (
        f"the players list names its players otherwise ({shown}):"
        " give them back their names to resume it (a game's record names who played with which program),"
        " or use another --out folder"
    )


def _counterpart(logged: PlayerInfo, players: Sequence[PlayerInfo]) -> PlayerInfo | None:
    """The players list's player of a logged game's player's name, if any."""
    return next((p for p in players if p.name == logged.name), None)


def _changed_fields(logged: PlayerInfo, now: PlayerInfo | None) -> list[str]:
    """The fields in which a player of a logged game differs from ``now`` (none: no such player)."""
    if now is None:
        return []
    return [
        f.name for f in attrs.fields(PlayerInfo) if f.eq and getattr(logged, f.name) != getattr(now, f.name)
    ]


def _shown(value: object) -> str:
    """A player's field as the players list would give it: a command or env as words."""
    if isinstance(value, tuple):
        return " ".join("=".join(v) if isinstance(v, tuple) else str(v) for v in value) or "none"
    return "none" if value is None else repr(value)


def _resumed_by(logged: MatchInfo, spec: TournamentSpec, modes: Sequence[str] = ()) -> str:
    """What to do with a log of games of another clock, clock mode or variant than ``spec``'s: the
    options they were played with resume it (an older codecup's folder, played under a wall clock,
    was refused by the cpu clock of now with only "use another --out folder"; a red team's).
    ``modes``: the clock modes that resume the log's games here (:func:`_fitting_modes`)."""
    if logged.game != spec.game:
        return "use another --out folder"
    other_mode = logged.clock_mode != spec.clock_mode_of(logged.players)
    options = [
        option
        for option, differs in (
            (f"--variant {logged.variant}", logged.variant != spec.variant),
            (f"--clock {logged.clock:g}", logged.clock != spec.clock),
            (f"--clock-mode {_mode_given(logged, spec, modes)}", other_mode),
        )
        if differs
    ]
    return f"give {' '.join(options)} to resume it, or use another --out folder"


def _mode_given(logged: MatchInfo, spec: TournamentSpec, modes: Sequence[str]) -> str:
    """The --clock-mode that resumes a game logged under another: one of ``modes`` that fits all the
    log's games where one does (a program's wall game on a machine without cgroup2 was cpu asked)."""
    fitting = [mode for mode in modes if mode != spec.asked_clock_mode]
    return fitting[0] if fitting else logged.clock_mode


def _kind(game: str, variant: str, clock: float, clock_mode: str) -> str:
    return f"{game} {variant} with a {clock:g} s {clock_mode} clock"


def _run(
    spec: TournamentSpec,
    game: Game,
    out: Path,
    log: ResultsLog,
    executor: GamePool,
    play: PlayFn,
    progress: Progress,
    jobs: int,
    tell: _Tell,
    setups: dict[int, str],
    run: _Run,
) -> TournamentResult:
    names = spec.names
    points: dict[str, tuple[float, ...]] = {k: tuple(r.result.points) for k, r in log.records.items()}
    scheduled: list[ScheduledGame] = []
    rank = _ranker(game, names, log)
    progress.start(spec.estimated_games(), resumed=0)
    played = 0
    try:
        for batch in spec.batches(points, rank):
            scheduled += batch
            todo, logged = [], []
            for g in batch:
                # the run's results key: checked where the game is played (runner)
                match = attrs.evolve(match_for(game, spec, g, setups), results_key=run.key)
                if g.id in log:  # the same match: _check_logged_games
                    progress.done += 1
                    if not _game_path(out, g).exists():  # a whole record read only for a file missing
                        _write_game(out, g, log.record(g.id))
                    logged.append((g, log.records[g.id]))
                else:
                    todo.append((g, match))
            tell.logged(LoggedGames(tuple(logged), log.record))
            progress.grow(len(scheduled))
            if todo and played == 0:  # an earlier run's standings are of fewer games: gone till the end
                tell.playing()  # first, so that no index links them once they are gone
                log.check_folder()  # by their path: only the folder locked's (a moved one's were another's)
                remove_results(out)
            _run_batch(todo, executor, play, log, points, progress, out, tell.on_record, run)
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
    result = TournamentResult(said, games, standings, ratings, played, log.record)
    log.check_folder()  # the standings only into the folder the run locked (as each game: log.append)
    with held_stops():  # a stop as they are written: raised once the caller knows the run is complete
        write_results(out, result)
        if run.on_complete is not None:
            run.on_complete(result)
    return result


@attrs.frozen
class _Tell:
    """Whom a run tells of its games."""

    on_record: OnRecord | None
    on_logged: OnLogged | None
    on_playing: OnPlaying | None = None

    def playing(self) -> None:
        """The run plays its first game not in the log (the earlier standings go next)."""
        if self.on_playing is not None:
            self.on_playing()

    def logged(self, games: LoggedGames) -> None:
        """The games of a batch found in the log."""
        if games and self.on_logged is not None:
            self.on_logged(games)
        elif self.on_record is not None:
            for g, record in games:  # each read whole as it comes
                self.on_record(g, record)


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
            log.append(g.id, record)
            points[g.id] = tuple(record.result.points)
            _write_game(out, g, record)
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
    on_complete: OnComplete | None = None  # told once the standings are written
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


def _game_path(out: Path, g: ScheduledGame) -> Path:
    return out / "games" / f"{g.id}.json"


def _write_game(out: Path, g: ScheduledGame, record: Record) -> None:
    path = _game_path(out, g)
    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)  # our own, made anew: a leftover link there is not followed
    record.write(tmp)
    tmp.replace(path)


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

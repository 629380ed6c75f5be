"""A tournament's spec: everything that decides which games are played (not how or where).

:class:`TournamentSpec` is what a run is given (built by ``codecup tournament`` from a players
file, by ``codecup demo``, or in code), checked before anything is written; its schedule is
:meth:`TournamentSpec.batches`, and the match each scheduled game plays :func:`match_for` (a run
and its resume check build it alike). How the games are played and logged is
:mod:`codecup.tournament.tournament`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from codecup import matchfields as mf
from codecup.checks import check_clock
from codecup.clock import CLOCK_MODES, DEFAULT_CLOCK_MODE
from codecup.drive import new_seat_key
from codecup.errors import ConfigError
from codecup.game import Game
from codecup.names import names_problem
from codecup.record import MatchInfo, PlayerInfo
from codecup.tournament import schedule as sched
from codecup.tournament.identity import Schedule
from codecup.tournament.schedule import ScheduledGame

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
        doc = attrs.asdict(self, recurse=True)
        doc["players"] = [p.describe() for p in self.players]
        doc["entrants"] = [
            {"name": p.name, "command": list(p.command), "bot": p.bot, "directory": p.directory}
            | ({"language": p.language} if p.language else {})
            for p in self.players
        ]
        doc["schedule"] = attrs.asdict(Schedule.of(self))
        return doc


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

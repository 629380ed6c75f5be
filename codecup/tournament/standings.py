"""Standings from game records, ranked by each game's own ``standing_key``.

Formats in which every player plays as many games (round robin, a Swiss
final) rank totals. A gauntlet does not: the challenger plays every game and
each opponent only its own pairs, so there standings rank per-game rates
(``per_game``: the game's key applied to points, score and irregular losses
divided by games played), and :meth:`Standings.challenger_table` shows the
challenger against each opponent as a match of its own.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from codecup import failed
from codecup.checked import is_number, short
from codecup.dialogue import Termination
from codecup.errors import PASS_THROUGH, how_failed
from codecup.game import Game, Standing
from codecup.overrun import bounded
from codecup.plugins import say_once
from codecup.record import Record
from codecup.terminal import columns, pad
from codecup.tournament.dispatch import is_referee_error

if TYPE_CHECKING:
    from codecup.tournament.log import ResultsLog
    from codecup.tournament.schedule import Ranker

SCHEMA = "codecup-standings/2"
"""standings.json's version (docs/standings-schema.md); 2: a player without a game has a null rating."""


NONE = "\u2014"
"""What a table shows for a rate or a clock of a player without a game yet (an em dash)."""


@attrs.frozen
class PlayerStats:
    """One player's line in the standings."""

    rank: int
    standing: Standing
    clock_mean: float
    clock_max: float
    faults: Mapping[str, int]  # termination kind -> count, for kinds other than normal

    @property
    def points_per_game(self) -> float:
        """Competition points per game played (0 before any game)."""
        s = self.standing
        return s.points / s.games if s.games else 0.0

    @property
    def score_per_game(self) -> float:
        """The game's score per game played (0 before any game)."""
        s = self.standing
        return s.score / s.games if s.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON form of this line."""
        return {
            "rank": self.rank,
            **attrs.asdict(self.standing),
            "points_per_game": round(self.points_per_game, 6),
            "score_per_game": round(self.score_per_game, 6),
            "clock_mean": round(self.clock_mean, 4),
            "clock_max": round(self.clock_max, 4),
            "faults": dict(self.faults),
        }


@attrs.frozen
class Cell:
    """What one player did against one opponent: games and points."""

    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0


@attrs.frozen
class Standings:
    """Ranked lines and the cross-table (``cross[a][b]``: a's results against b)."""

    rows: tuple[PlayerStats, ...]
    cross: Mapping[str, Mapping[str, Cell]]
    per_game: bool = False  # ranked by per-game rates (a gauntlet), not totals
    challenger: str | None = None  # a gauntlet's challenger
    final: Mapping[str, float] = attrs.field(factory=dict)
    """A Swiss tournament's finalists, best first, with their points in the final, where the game's
    ranking (points, then its tie-breaks) puts them above the others (finalists equal in all of it
    by the Swiss rounds); empty in other formats."""

    @property
    def ranked_by(self) -> str:
        """``"per-game"`` or ``"total"``: what the ranking compares."""
        return "per-game" if self.per_game else "total"

    def challenger_rows(self) -> list[tuple[str, Cell]]:
        """A gauntlet's challenger against each opponent, in ranking order of the opponents."""
        if self.challenger is None:
            return []
        mine = self.cross.get(self.challenger, {})
        return [(name, mine[name]) for name in self.order if name in mine]

    def challenger_table(self) -> str:
        """The challenger's match against each opponent, as text (empty unless a gauntlet)."""
        rows = self.challenger_rows()
        if not rows:
            return ""
        width = max([len("opponent"), *(columns(name) for name, _ in rows)])
        head = f"{'opponent':<{width}} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'points':>8}"
        lines = [f"{self.challenger} against each opponent:", head, "-" * len(head)]
        for name, c in rows:
            lines.append(
                f"{pad(name, width)} {c.games:>5} {c.wins:>4} {c.draws:>5} {c.losses:>4} {c.points:>8g}"
            )
        return "\n".join(lines)

    @property
    def order(self) -> list[str]:
        """Player names, best first."""
        return [row.standing.player for row in self.rows]

    def to_json(self) -> dict[str, Any]:
        """The JSON form (standings.json)."""
        return {
            "ranked_by": self.ranked_by,
            "challenger": self.challenger,
            "final": dict(self.final) or None,
            "standings": [row.to_json() for row in self.rows],
            "cross": {a: {b: attrs.asdict(c) for b, c in row.items()} for a, row in self.cross.items()},
        }

    def table(self, title: str = "") -> str:
        """A plain-text table of the standings."""
        faults_shown = any(row.faults for row in self.rows)
        width = max([len("player"), *(columns(row.standing.player) for row in self.rows)])
        head = (
            f"{'#':>3}  {'player':<{width}} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} "
            f"{'points':>8} {'pts/game':>8} {'score':>8} {'clock avg':>9} {'clock max':>9}"
        )
        if faults_shown:
            head += "  faults"
        lines = [title] if title else []
        lines += [head, "-" * len(head)]
        for row in self.rows:
            s = row.standing
            # no game yet (a Swiss bye in round 1, the index live): no rate and no clock, not 0.00 and 0.000
            rate = f"{row.points_per_game:>8.2f}" if s.games else f"{NONE:>8}"
            clocks = f"{row.clock_mean:>8.3f}s {row.clock_max:>8.3f}s" if s.games else f"{NONE:>9} {NONE:>9}"
            line = (
                f"{row.rank:>3}  {pad(s.player, width)} {s.games:>5} {s.wins:>4} {s.draws:>5} {s.losses:>4} "
                f"{s.points:>8g} {rate} {s.score:>8g} {clocks}"
            )
            if row.faults:
                line += "  " + ", ".join(f"{k} {v}" for k, v in sorted(row.faults.items()))
            lines.append(line)
        if self.per_game:
            lines.append("(ranked by per-game rates: players played different numbers of games)")
        if self.final:
            final = ", ".join(f"{name} {points:g}" for name, points in self.final.items())
            lines.append(
                f"(the finalists ranked by the final, by the game's ranking, points first: {final}; "
                "finalists equal in all of it by the Swiss rounds; then the others by the Swiss rounds)"
            )
        if self.challenger_rows():
            lines += ["", self.challenger_table()]
        return "\n".join(lines)

    def csv(self) -> str:
        """The standings as CSV (standings.csv), one line per player, best first."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; a field with \r or \n is then quoted
        writer.writerow(CSV_COLUMNS)
        for row in self.rows:
            s = row.standing
            writer.writerow(
                [
                    row.rank,
                    spreadsheet_text(s.player),
                    s.games,
                    s.wins,
                    s.draws,
                    s.losses,
                    f"{s.points:g}",
                    f"{s.score:g}",
                    f"{row.points_per_game:.6g}",
                    f"{row.score_per_game:.6g}",
                    s.irregular_losses,
                    f"{row.clock_mean:.4f}",
                    f"{row.clock_max:.4f}",
                    " ".join(f"{k}={v}" for k, v in row.faults.items()),
                ]
            )
        return out.getvalue()


CSV_COLUMNS = (
    "rank",
    "player",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "score",
    "points_per_game",
    "score_per_game",
    "irregular_losses",
    "clock_mean",
    "clock_max",
    "faults",
)


def outcome_for(record: Record, seat: int) -> int:
    """+1 win, 0 draw, -1 loss for ``seat``, by competition points."""
    mine = record.result.points[seat]
    theirs = max(p for s, p in enumerate(record.result.points) if s != seat)
    return (mine > theirs) - (mine < theirs)


def rates_of(standing: Standing) -> Standing:
    """The standing's points, score and irregular losses divided by its games (for fair ranking)."""
    n = standing.games or 1
    return attrs.evolve(
        standing,
        points=standing.points / n,
        score=standing.score / n,
        irregular_losses=standing.irregular_losses / n,
    )


def ranking_keys(game: Game, standings: Mapping[str, Standing]) -> dict[str, tuple[float, ...]]:
    """Each player's ``game.standing_key``; the default key for all where the plugin's raises or
    gives something that is not a tuple of finite numbers (said once, on stderr, naming it), and
    from then on without asking it again (:mod:`codecup.failed`: a red team's that spun was asked
    at every redraw of the live standings, each time to its bound)."""
    if failed.failure(game, "standing_key") is None:
        exc: BaseException | None = None
        try:
            keys = bounded(
                "its standing_key", lambda: {name: game.standing_key(s) for name, s in standings.items()}
            )
            bad = next((k for k in keys.values() if not _is_key(k)), None)
            if bad is None:
                return {name: tuple(float(x) for x in key) for name, key in keys.items()}
            why = f"gave {short(bad)}, not a tuple of finite numbers"
        except PASS_THROUGH:
            raise
        except BaseException as caught:  # sys.exit() too: the plugin's failure
            why, exc = how_failed(caught), caught
        line = (
            f"codecup: the {game.info.name} plugin's standing_key {why}:"
            " the standings rank by points, then score, then fewer irregular losses"
        )
        say_once(line)
        failed.remember(game, "standing_key", line, exc)
    return {name: Game.standing_key(game, s) for name, s in standings.items()}


def _is_key(key: object) -> bool:
    return isinstance(key, (tuple, list)) and all(is_number(x) for x in key)


def compute_standings(
    game: Game,
    players: Sequence[str],
    records: Iterable[Record],
    order: Sequence[str] | None = None,
    *,
    rates: bool = False,
) -> Standings:
    """Totals per player, ranked by ``game.standing_key`` (of per-game rates with ``rates``).

    Ties left by the game's key keep ``order`` (default: the players list),
    so a ranking never depends on the order games finished in.
    """
    totals = {name: Standing(player=name) for name in players}
    clocks: dict[str, list[float]] = {name: [] for name in players}
    faults: dict[str, dict[str, int]] = {name: {} for name in players}
    cross: dict[str, dict[str, Cell]] = {a: {} for a in players}
    for record in records:
        names = [p.name for p in record.match.players]
        for seat, name in enumerate(names):
            if name not in totals:
                continue
            res = outcome_for(record, seat)
            end = record.result.termination[seat]
            s = totals[name]
            totals[name] = attrs.evolve(
                s,
                games=s.games + 1,
                wins=s.wins + (res > 0),
                draws=s.draws + (res == 0),
                losses=s.losses + (res < 0),
                points=s.points + record.result.points[seat],
                score=s.score + record.result.scores[seat],
                irregular_losses=s.irregular_losses + (end.kind is not Termination.NORMAL),
            )
            clocks[name].append(record.clock_used[seat])
            if end.kind is not Termination.NORMAL:
                faults[name][end.kind.value] = faults[name].get(end.kind.value, 0) + 1
            for other_seat, other in enumerate(names):
                if other_seat == seat:
                    continue
                c = cross[name].get(other, Cell())
                cross[name][other] = Cell(
                    games=c.games + 1,
                    points=c.points + record.result.points[seat],
                    wins=c.wins + (res > 0),
                    draws=c.draws + (res == 0),
                    losses=c.losses + (res < 0),
                )
    position = {name: i for i, name in enumerate(order or players)}
    ranked_on = {n: rates_of(s) if rates else s for n, s in totals.items()}
    keys = ranking_keys(game, ranked_on)
    ranked = sorted(players, key=lambda n: (tuple(-x for x in keys[n]), position.get(n, len(position))))
    rows = []
    for i, name in enumerate(ranked):
        used = clocks[name]
        rows.append(
            PlayerStats(
                rank=i + 1,
                standing=totals[name],
                clock_mean=sum(used) / len(used) if used else 0.0,
                clock_max=max(used, default=0.0),
                faults=dict(sorted(faults[name].items())),
            )
        )
    return Standings(rows=tuple(rows), cross=cross, per_game=rates)


def counted(records: Iterable[Record]) -> list[Record]:
    """The records that count for standings and ratings (not referee errors)."""
    return [r for r in records if not is_referee_error(r)]


def ranker(game: Game, names: list[str], log: ResultsLog) -> Ranker:
    """The ranking of players by the logged games of the given ids (a Swiss round's pairing): the
    run and its resume check walk the schedule with the same one."""

    def rank(ids: Iterable[str]) -> list[int]:
        order = compute_standings(game, names, counted(log.records[i] for i in ids)).order
        return [names.index(n) for n in order]

    return rank


def reorder(
    standings: Standings, order: Sequence[str], final: Mapping[str, float] | None = None
) -> Standings:
    """The same lines in another order (a format's own final ranking), renumbered; ``final``: a
    Swiss tournament's finalists with their points in the final."""
    by_name = {row.standing.player: row for row in standings.rows}
    rows = tuple(attrs.evolve(by_name[name], rank=i + 1) for i, name in enumerate(order))
    return attrs.evolve(standings, rows=rows, final=dict(final or {}))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (CSV injection)."""


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV cell, a leading ``'`` before a formula start so a spreadsheet shows it as text.

    A player's name comes from whoever entered the player: ``=HYPERLINK(...)`` must not run
    in the organiser's spreadsheet. A name that starts with ``'`` gets one more too, so that
    every name is written distinctly: a reader drops one leading ``'`` to get the name back
    (``'=1`` is written ``''=1``, ``=1`` is written ``'=1``).
    """
    return "'" + text if text.startswith((*FORMULA_STARTS, "'")) else text

"""Ratings with 95% intervals: Bradley-Terry by maximum likelihood, on the Elo scale.

Every game counts as a win, a draw or a loss (by competition points); a draw
is half a win for each side. P(i beats j) = 1 / (1 + 10^((R_j - R_i)/400)).
The likelihood is maximised by Newton's method with a weak prior (two
virtual draws against a 0-rated player each), which keeps ratings finite
when a player wins or loses everything. Intervals come from the inverse
of the observed information (the Hessian at the optimum), for ratings
centred on the field's mean.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from codecup.record import Record
from codecup.terminal import columns, pad
from codecup.tournament.standings import outcome_for

ELO = 400 / math.log(10)
PRIOR_GAMES = 2.0  # virtual drawn games against a 0-rated player, to keep estimates finite
Z95 = 1.959964


@attrs.frozen
class Rating:
    """A player's rating (mean of the field = 0) and the half-width of its 95% interval."""

    player: str
    elo: float
    margin: float
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval."""
        return (self.elo - self.margin, self.elo + self.margin)

    def to_json(self) -> dict[str, Any]:
        """Its line of ``standings.json``'s ratings (docs/standings-schema.md): a player without a
        game yet has no rating (``elo``, ``margin`` and ``interval`` null), not the prior's 0 ± 434,
        which the file gave as a rating above a real -131 (a red team's)."""
        if not self.games:
            return {"player": self.player, "elo": None, "margin": None, "games": 0, "interval": None}
        return attrs.asdict(self) | {"interval": list(self.interval)}


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive-definite matrix."""
    n = len(m)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def results_matrix(players: Sequence[str], records: Iterable[Record]) -> list[list[float]]:
    """``w[i][j]``: how many games i won against j (draws count half)."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    w = [[0.0] * n for _ in range(n)]
    for record in records:
        names = [p.name for p in record.match.players]
        if len(names) != 2 or not all(x in index for x in names):
            continue
        i, j = index[names[0]], index[names[1]]
        res = outcome_for(record, 0)
        w[i][j] += (1.0 + res) / 2
        w[j][i] += (1.0 - res) / 2
    return w


def bradley_terry(players: Sequence[str], records: Iterable[Record]) -> list[Rating]:
    """Ratings of ``players`` from the games among them, best first."""
    w = results_matrix(players, records)
    n = len(players)
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    theta = [0.0] * n
    for _ in range(100):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]  # the observed information, -H
        for i in range(n):
            p0 = _sigmoid(theta[i])
            grad[i] += PRIOR_GAMES * (0.5 - p0)
            hess[i][i] += PRIOR_GAMES * p0 * (1 - p0)
            for j in range(n):
                if i == j or not games[i][j]:
                    continue
                p = _sigmoid(theta[i] - theta[j])
                grad[i] += w[i][j] - games[i][j] * p
                hess[i][i] += games[i][j] * p * (1 - p)
                hess[i][j] -= games[i][j] * p * (1 - p)
        inv = _inverse(hess)
        step = [sum(inv[i][k] * grad[k] for k in range(n)) for i in range(n)]
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    mean = sum(theta) / n
    total = sum(sum(row) for row in inv) / n**2
    ratings = []
    for i, name in enumerate(players):
        var = inv[i][i] - 2 * sum(inv[i]) / n + total
        ratings.append(
            Rating(
                player=name,
                elo=(theta[i] - mean) * ELO,
                margin=Z95 * math.sqrt(max(var, 0.0)) * ELO,
                games=round(sum(games[i])),
            )
        )
    return sorted(ratings, key=lambda r: -r.elo)


def ratings_table(ratings: Sequence[Rating]) -> str:
    """A plain-text table of ratings."""
    width = max([len("player"), *(columns(r.player) for r in ratings)])
    lines = [f"{'player':<{width}} {'Elo':>7}  95% interval", "-" * (width + 30)]
    for r in ratings:
        lo, hi = r.interval
        if not r.games:  # only the prior's 0 ± 434: no rating yet (a Swiss bye in round 1)
            lines.append(f"{pad(r.player, width)} {chr(0x2014):>7}  (no game yet)")
            continue
        lines.append(f"{pad(r.player, width)} {signed(r.elo):>7}  [{signed(lo)}, {signed(hi)}]")
    return "\n".join(lines)


def signed(value: float) -> str:
    """A whole number with its sign, and plain ``0`` (never ``-0`` or ``+0``)."""
    n = round(value)
    return f"{n:+d}" if n else "0"

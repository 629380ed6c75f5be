"""The geometry of the index's small SVG figures; ``templates/figures.html`` draws them.

Only numbers are computed here; names and labels go into the template, which
escapes them, so a player's name can never become markup.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from codecup.tournament.ratings import Rating, signed
from codecup.tournament.standings import Standings

ROW = 22
LABEL = 130
WIDTH = 520


@attrs.frozen
class Bar:
    """One labelled row of a bar chart: widths in pixels, and the text after the bar."""

    label: str
    y: float
    width: float
    x: float = 0.0  # where the bar starts, right of the labels (left of 0 for a negative value)
    back: float = 0.0  # a lighter bar behind (a maximum), 0 for none
    frame: float = 0.0  # the full span drawn as a grey track, 0 for none
    text: str = ""


@attrs.frozen
class BarChart:
    """A horizontal bar chart."""

    title: str
    bars: tuple[Bar, ...]
    height: float
    label_x: float = LABEL
    width: float = WIDTH


@attrs.frozen
class Interval:
    """One rating: the dot and its 95% interval, in pixels."""

    label: str
    y: float
    x: float
    lo: float
    hi: float


@attrs.frozen
class IntervalPlot:
    """Ratings as dots with intervals around a dashed zero line."""

    rows: tuple[Interval, ...]
    height: float
    zero: float
    lo_text: str
    hi_text: str
    label_x: float = LABEL
    width: float = WIDTH


def points_chart(standings: Standings) -> BarChart:
    """Points per player (per game in a gauntlet, where games differ)."""
    span = WIDTH - LABEL - 70
    if standings.per_game:
        values = [row.points_per_game for row in standings.rows]
        title = "Points per game"
    else:
        values = [row.standing.points for row in standings.rows]
        title = "Points"
    # From a zero line: right for points above 0, left for points below (a game may give those)
    lo, hi = min([*values, 0.0]), max([*values, 0.0])
    scale = span / max(hi - lo, 1e-9)
    zero = -lo * scale
    bars = tuple(
        Bar(
            label=row.standing.player,
            y=24 + i * ROW,
            x=zero + min(v, 0.0) * scale,
            width=max(1.0, abs(v) * scale) if v else 0.0,
            text=f"{v:.3g}" if standings.per_game else f"{v:g}",
        )
        for i, (row, v) in enumerate(zip(standings.rows, values, strict=True))
    )
    return BarChart(title, bars, ROW * len(bars) + 30)


def clock_chart(standings: Standings, limit: float) -> BarChart:
    """Mean (dark) and maximum (light) clock used per player, against the clock limit."""
    span = WIDTH - LABEL - 110
    bars = []
    for i, row in enumerate(standings.rows):
        bars.append(
            Bar(
                label=row.standing.player,
                y=24 + i * ROW,
                width=span * min(row.clock_mean / limit, 1.0) if limit else 0.0,
                back=span * min(row.clock_max / limit, 1.0) if limit else 0.0,
                frame=span,
                text=f"{row.clock_mean:.2f}/{row.clock_max:.2f}s",
            )
        )
    return BarChart(f"Clock used (mean / max of {limit:g}s)", tuple(bars), ROW * len(bars) + 30)


def rating_plot(ratings: Sequence[Rating]) -> IntervalPlot | None:
    """Each rating as a dot with its 95% interval (None without ratings)."""
    if not ratings:
        return None
    lo = min(min(r.interval[0] for r in ratings), -50.0)
    hi = max(max(r.interval[1] for r in ratings), 50.0)
    span = WIDTH - LABEL - 20

    def x(v: float) -> float:
        return round(LABEL + span * (v - lo) / (hi - lo), 1)

    rows = tuple(
        Interval(r.player, 24 + i * ROW + ROW / 2, x(r.elo), x(r.interval[0]), x(r.interval[1]))
        for i, r in enumerate(ratings)
    )
    return IntervalPlot(rows, ROW * len(rows) + 44, x(0.0), signed(lo), signed(hi))

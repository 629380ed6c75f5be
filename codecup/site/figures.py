"""The geometry of the index's small SVG figures; ``templates/figures.html`` draws them.

Only numbers are computed here; names and labels go into the template, which
escapes them, so a player's name can never become markup.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

import attrs

from codecup.tournament.ratings import Rating, signed
from codecup.tournament.standings import Standings

ROW = 22
#: The label column's width at least; it widens to the longest name (names may be 64 characters:
#: a fixed 130 pixels showed "Team Rocket's Pillars Bot v2" as "Team Rocket's Pillars", the
#: bar drawn over the rest, a red team's), up to :data:`MAX_LABEL`.
LABEL = 130
#: The label column's width at most: a longer name is cut with "…", whole in its tooltip.
MAX_LABEL = 330
#: A figure's width with the narrowest label column; a wider column widens the figure.
WIDTH = 520
FONT_PX = 12  # the figures' text size (style.css), for the estimate of a label's width
_GAP = 8  # between a label's end and the bar or interval

# Widths in ems, on the wide side of common sans-serif fonts: an estimate, as the browser's font
# is not known here (a label too wide would run under its bar again).
_NARROW = frozenset(" !'(),-./:;I[]`fijlrt|")
_WIDE = frozenset("%@MWmw")
_SYMBOLS = frozenset('"#$&*+<=>^~')


def text_width(text: str) -> float:
    """An estimate (generous) of ``text``'s width in pixels in the figures' font."""
    ems = 0.0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):  # accents, joiners: no room of their own
            continue
        if unicodedata.east_asian_width(char) in ("W", "F"):
            ems += 1.05  # an emoji a little wider than the text's em
        elif char in _NARROW:
            ems += 0.36
        elif char in _WIDE:
            ems += 1.0
        elif char in _SYMBOLS or not char.isascii():  # Cyrillic's Ж and Щ, Æ, Œ: wide ones
            ems += 0.85
        elif char.isupper() or char.isdigit():
            ems += 0.75
        else:
            ems += 0.6
    return ems * FONT_PX


def fitted(text: str, room: float) -> str:
    """``text`` if it fits in ``room`` pixels, else as much of it as fits, then "…"."""
    if text_width(text) <= room:
        return text
    cut = text
    while cut and text_width(cut.rstrip() + "…") > room:
        cut = cut[:-1]
    return cut.rstrip() + "…"


def label_column(labels: Iterable[str]) -> float:
    """The label column's width: the longest label's and a gap, within LABEL and MAX_LABEL."""
    widest = max((text_width(label) for label in labels), default=0.0)
    return float(min(MAX_LABEL, max(LABEL, round(4 + widest + _GAP))))


def _shown(label: str, column: float) -> str:
    return fitted(label, column - 4 - _GAP)


@attrs.frozen
class Bar:
    """One labelled row of a bar chart: widths in pixels, and the text after the bar."""

    label: str  # the whole name: the tooltip
    y: float
    width: float
    shown: str = attrs.field(  # the label as drawn, cut to its column
        default=attrs.Factory(lambda bar: bar.label, takes_self=True)
    )
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

    label: str  # the whole name: the tooltip
    shown: str  # the label as drawn, cut to its column
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
    column = label_column(row.standing.player for row in standings.rows)
    bars = tuple(
        Bar(
            label=row.standing.player,
            shown=_shown(row.standing.player, column),
            y=24 + i * ROW,
            x=zero + min(v, 0.0) * scale,
            width=max(1.0, abs(v) * scale) if v else 0.0,
            text=f"{v:.3g}" if standings.per_game else f"{v:g}",
        )
        for i, (row, v) in enumerate(zip(standings.rows, values, strict=True))
    )
    return BarChart(title, bars, ROW * len(bars) + 30, column, column + WIDTH - LABEL)


def clock_chart(standings: Standings, limit: float) -> BarChart:
    """Mean (dark) and maximum (light) clock used per player, against the clock limit."""
    span = WIDTH - LABEL - 110
    column = label_column(row.standing.player for row in standings.rows)
    bars = []
    for i, row in enumerate(standings.rows):
        bars.append(
            Bar(
                label=row.standing.player,
                shown=_shown(row.standing.player, column),
                y=24 + i * ROW,
                width=span * min(row.clock_mean / limit, 1.0) if limit else 0.0,
                back=span * min(row.clock_max / limit, 1.0) if limit else 0.0,
                frame=span,
                text=f"{row.clock_mean:.2f}/{row.clock_max:.2f}s",
            )
        )
    title = f"Clock used (mean / max of {limit:g}s)"
    return BarChart(title, tuple(bars), ROW * len(bars) + 30, column, column + WIDTH - LABEL)


def rating_plot(ratings: Sequence[Rating]) -> IntervalPlot | None:
    """Each rating as a dot with its 95% interval (None without ratings)."""
    if not ratings:
        return None
    lo = min(min(r.interval[0] for r in ratings), -50.0)
    hi = max(max(r.interval[1] for r in ratings), 50.0)
    span = WIDTH - LABEL - 20
    column = label_column(r.player for r in ratings)

    def x(v: float) -> float:
        return round(column + span * (v - lo) / (hi - lo), 1)

    rows = tuple(
        Interval(
            r.player,
            _shown(r.player, column),
            24 + i * ROW + ROW / 2,
            x(r.elo),
            x(r.interval[0]),
            x(r.interval[1]),
        )
        for i, r in enumerate(ratings)
    )
    height = ROW * len(rows) + 44
    return IntervalPlot(rows, height, x(0.0), signed(lo), signed(hi), column, column + WIDTH - LABEL)

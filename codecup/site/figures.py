"""The geometry of the index's small SVG figures; ``templates/figures.html`` draws them.

Only numbers are computed here; names and labels go into the template, which
escapes them, so a player's name can never become markup.
"""

from __future__ import annotations

import math
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

# Widths in ems: the mean of DejaVu Sans and Liberation Sans (Arial's widths), measured in
# Chromium. An estimate, as the browser's font is not known here: it sizes the label column and
# cuts the names too long for it, and the template then draws each label to its estimated width
# (``textLength``), so a font wider or narrower than this squeezes or stretches it a little and a
# label never runs under its bar.
_ASCII_EMS = {
    "'ijl": 0.25,
    " ,./:;I\\f|": 0.3,
    "!()-[]rt": 0.35,
    '"J`': 0.4,
    "*": 0.45,
    "csz{}": 0.5,
    "?L_kvxy": 0.55,
    "$0123456789FTabdeghnopqu": 0.6,
    "EKPSYZ^": 0.65,
    "#&+<=>ABCRVX~": 0.7,
    "DHNUw": 0.75,
    "GOQ": 0.8,
    "M": 0.85,
    "%m": 0.9,
    "W": 0.95,
    "@": 1.0,
}
_ASCII = {char: ems for chars, ems in _ASCII_EMS.items() for char in chars}
# Cyrillic's wide letters (36 of \u0416 ran 74 pixels under the bars: a reviewer's)
_WIDE_LETTERS = {"\u0416\u0428\u0429\u042e": 1.0, "\u0436\u0448\u0449\u044e\u041c": 0.85}
_LETTERS = {char: ems for chars, ems in _WIDE_LETTERS.items() for char in chars}
#: Characters much wider than a letter (ems): per mille and per ten thousand, long dashes.
_MEASURED = {"\u2030": 1.35, "\u2031": 1.75, "\u2014": 1.0, "\u2026": 1.0, "\u2e3a": 2.0, "\u2e3b": 3.0}
_EMOJI = 1.25  # an emoji in a colour emoji font (Noto Color Emoji: 1.248 em)
_ZWJ = "\u200d"
_EMOJI_STYLE = "\ufe0f"  # the selector that asks for a character's emoji glyph (a heart, a chess pawn)
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_REGIONAL = range(0x1F1E6, 0x1F200)  # two of them are one flag


def _ems(char: str, next_char: str) -> float:
    """``char``'s width in ems; ``next_char`` is what follows it ("" at the end)."""
    if char in _MEASURED:
        return _MEASURED[char]
    category = unicodedata.category(char)
    wide = unicodedata.east_asian_width(char) in ("W", "F")
    # A symbol followed by the emoji selector is drawn as an emoji: "\u265f\ufe0f" is 1.25 em, and
    # was estimated 0.85 as the selector was skipped (a reviewer's)
    if next_char == _EMOJI_STYLE or (wide and category == "So") or ord(char) in _REGIONAL:
        return _EMOJI
    if wide:
        return 1.0  # an ideograph, a fullwidth letter
    if char in _ASCII:
        return _ASCII[char]
    if char in _LETTERS:
        return _LETTERS[char]
    base = unicodedata.normalize("NFD", char)[0]
    if base.isascii():  # an accented Latin letter is as wide as its letter
        return _ems(base, "")
    parts = unicodedata.normalize("NFKC", char)
    if len(parts) > 1:  # a ligature or a symbol of letters (\u213b FAX, \u2116 No, \u2167 VIII)
        return max(1.0, 0.8 * sum(_ems(part, "") for part in parts))
    if category == "Lu":
        return 0.7  # Greek's and Cyrillic's capitals
    if category.startswith("L"):
        return 0.6 if category == "Ll" else 0.55  # Hebrew, Arabic, Devanagari: Lo
    return 0.9  # other symbols (\u2605, \u2192) and marks that take room


def text_width(text: str) -> float:
    """An estimate of ``text``'s width in pixels in the figures' font."""
    ems = 0.0
    previous = ""
    based = False  # a mark just after a letter (or a sign) sits on it: no room of its own
    emoji = False  # the last character drawn was an emoji (with its tone, selector or sequence)
    links = 0  # 0: the picture drawn last may take joined emoji; -1: its chain is too long to be one
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        width = _ems(char, text[i + 1 : i + 2])
        # The rest of an emoji sequence (a family): one picture. Only an emoji joined to an emoji:
        # letters joined ("W\u200dm\u200dw...", 63 characters) are each drawn, and were estimated
        # 0.95 em, neither cut nor drawn readably (a reviewer's); and at most as many as the longest
        # real sequence holds: 32 emoji chained by joiners, estimated one picture, drew 33 em (a
        # second reviewer's).
        linked = previous == _ZWJ and emoji and (width == _EMOJI or category == "So") and links >= 0
        joined = (
            (char == " " and previous == " ")  # an SVG text draws a run of spaces as one
            or linked
            or (ord(char) in _SKIN_TONES and emoji)  # a skin tone: part of the emoji before it
            or (ord(char) in _REGIONAL and ord(previous or "\0") in _REGIONAL and not _flag_start(text, i))
        )
        previous = char
        if joined or category == "Cf" or (category in ("Mn", "Me") and based):  # accents, joiners
            based = category not in ("Mn", "Me") and based
            continue
        # A mark after a mark (or first) is drawn beside it: 64 keycap marks, estimated 0 pixels,
        # drew 465 pixels across the bars, with no width to fit them to (a reviewer's).
        ems += _MARK_EMS if category in ("Mn", "Me") else width
        based = category not in ("Mn", "Me")
        emoji = width == _EMOJI and based
        links = 0 if _links_ahead(text, i) <= _MOST_LINKS else -1  # -1: no sequence, each drawn
    return ems * FONT_PX


_MOST_LINKS = 3
"""The most pictures joined to the first in a real sequence (a family of four, a kiss): a longer
chain is no sequence, and a browser draws each of its pictures."""


def _links_ahead(text: str, i: int) -> int:
    """How many joiners, each followed by a character, chain on from ``text[i]`` (a selector or a
    skin tone belongs to the picture before the next joiner)."""
    links = 0
    j = i + 1
    while True:
        while (
            j < len(text)
            and text[j] != _ZWJ
            and (unicodedata.category(text[j]) in _MARKS or ord(text[j]) in _SKIN_TONES)
        ):
            j += 1
        if j + 1 >= len(text) or text[j] != _ZWJ:
            return links
        links += 1
        j += 2


_MARKS = ("Mn", "Me", "Cf")
"""Categories drawn on a picture, not beside it: a variation selector, a keycap."""


_MARK_EMS = 0.6
"""The width of a mark with no letter under it (an accent after an accent, or first)."""


def _flag_start(text: str, i: int) -> bool:
    """Whether the regional indicator at ``i`` begins a flag (they pair from the run's start)."""
    run = 0
    while i - run - 1 >= 0 and ord(text[i - run - 1]) in _REGIONAL:
        run += 1
    return run % 2 == 0


def fitted(text: str, room: float) -> str:
    """``text`` if it fits in ``room`` pixels, else as much of it as fits, then "…"."""
    if text_width(text) <= room + _SLACK:
        return text
    cut = text
    while cut and text_width(cut.rstrip() + "…") > room + _SLACK:
        cut = cut[:-1]
    return cut.rstrip() + "…"


#: Pixels a sum of widths may be off by its floats: ten emoji were 126.00000000000001 pixels, more
#: than the 126 their column gave them, and were cut (a reviewer's).
_SLACK = 1e-6


def label_column(labels: Iterable[str]) -> float:
    """The label column's width: the longest label's and a gap, within LABEL and MAX_LABEL.

    Rounded up: rounded to the nearest pixel, the column was narrower than its longest label,
    which was then cut with "…" (890 of 1,883 random names that set the column: a reviewer's)."""
    widest = max((text_width(label) for label in labels), default=0.0)
    return float(min(MAX_LABEL, max(LABEL, math.ceil(4 + widest + _GAP - _SLACK))))


def _label(label: str, column: float) -> tuple[str, float]:
    """The label as drawn in ``column``, and the width the template fits it to (``textLength``)."""
    shown = fitted(label, column - 4 - _GAP)
    return shown, round(min(text_width(shown), column - 4 - _GAP), 1)


@attrs.frozen
class Bar:
    """One labelled row of a bar chart: widths in pixels, and the text after the bar."""

    label: str  # the whole name: the tooltip
    y: float
    width: float
    shown: str = attrs.field(  # the label as drawn, cut to its column
        default=attrs.Factory(lambda bar: bar.label, takes_self=True)
    )
    length: float = 0.0  # the width the label is drawn to (its estimate): 0 for its own
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
    length: float = 0.0  # the width the label is drawn to (its estimate): 0 for its own


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
    unrated: int = 0  # players left out: without a game yet, so without a rating (said under it)

    @property
    def axis_y(self) -> float:
        """Where the scale's numbers are: at the foot, or above the note of the players left out."""
        return self.height - (22 if self.unrated else 4)

    @property
    def note(self) -> str:
        """What the plot leaves out, under it ("" for nothing)."""
        if not self.unrated:
            return ""
        who = "1 player" if self.unrated == 1 else f"{self.unrated} players"
        return f"Not shown: {who} without a counted game (no rating)."


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
            shown=shown,
            length=length,
            y=24 + i * ROW,
            x=zero + min(v, 0.0) * scale,
            width=max(1.0, abs(v) * scale) if v else 0.0,
            text=f"{v:.3g}" if standings.per_game else f"{v:g}",
        )
        for i, (row, v) in enumerate(zip(standings.rows, values, strict=True))
        for shown, length in [_label(row.standing.player, column)]
    )
    return BarChart(title, bars, ROW * len(bars) + 30, column, column + WIDTH - LABEL)


def clock_chart(standings: Standings, limit: float) -> BarChart:
    """Mean (dark) and maximum (light) clock used per player, against the clock limit."""
    span = WIDTH - LABEL - 110
    column = label_column(row.standing.player for row in standings.rows)
    bars = []
    for i, row in enumerate(standings.rows):
        shown, length = _label(row.standing.player, column)
        bars.append(
            Bar(
                label=row.standing.player,
                shown=shown,
                length=length,
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
    """Each rating of a player with games as a dot with its 95% interval (None without any). A player
    without a game yet has only the prior's 0 ± 434, no rating: drawn, it stood at 0 ± 360 above a
    real -131 while the table said "—" (a red team's); it is left out, and the plot says how many."""
    unrated = sum(not r.games for r in ratings)
    ratings = [r for r in ratings if r.games]
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
            shown,
            24 + i * ROW + ROW / 2,
            x(r.elo),
            x(r.interval[0]),
            x(r.interval[1]),
            length,
        )
        for i, r in enumerate(ratings)
        for shown, length in [_label(r.player, column)]
    )
    height = ROW * len(rows) + (62 if unrated else 44)
    return IntervalPlot(rows, height, x(0.0), signed(lo), signed(hi), column, column + WIDTH - LABEL, unrated)

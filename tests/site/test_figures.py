"""The index's figures: a label column that fits the players' names (``codecup/site/figures.py``)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from codecup.site.figures import (
    LABEL,
    MAX_LABEL,
    WIDTH,
    clock_chart,
    points_chart,
    rating_plot,
    text_width,
)
from codecup.site.pages import NAME_EMS, environment, may_be_cut
from codecup.tournament.ratings import Rating

ROCKET = "Team Rocket's Pillars Bot v2"
LONGEST = "Q" * 64  # names may be 64 characters


def standings(*names: str) -> SimpleNamespace:
    rows = [
        SimpleNamespace(
            standing=SimpleNamespace(player=n, points=3 - i),
            points_per_game=1.0,
            clock_mean=0.5,
            clock_max=1.0,
        )
        for i, n in enumerate(names)
    ]
    return SimpleNamespace(per_game=False, rows=rows)


def figures_of(*names: str):
    ratings = [Rating(n, 40.0 - 40 * i, 30.0, 10) for i, n in enumerate(names)]
    plot = rating_plot(ratings)
    assert plot is not None
    return points_chart(standings(*names)), clock_chart(standings(*names), 5.0), plot


def test_the_label_column_fits_the_longest_name():
    """A fixed 130-pixel column showed "Team Rocket's Pillars Bot v2" as "Team Rocket's Pillars",
    the bar drawn over the rest, and the ratings' interval line through it (a red team's)."""
    points, clocks, plot = figures_of("a", ROCKET)
    for figure in (points, clocks, plot):
        assert figure.label_x >= 4 + text_width(ROCKET) + 4
        assert figure.width == figure.label_x + WIDTH - LABEL  # the drawing keeps its room
    for chart in (points, clocks):
        assert [b.shown for b in chart.bars] == ["a", ROCKET]
        assert min(chart.label_x + b.x for b in chart.bars) >= chart.label_x
    assert [r.shown for r in plot.rows] == ["a", ROCKET]
    assert min(r.lo for r in plot.rows) >= plot.label_x  # the interval lines right of the names


def test_short_names_keep_the_figures_as_they_were():
    for figure in figures_of("alpha", "beta"):
        assert (figure.label_x, figure.width) == (LABEL, WIDTH)


def test_a_name_too_long_is_cut_with_its_whole_name_in_a_tooltip():
    points, clocks, plot = figures_of("a", LONGEST)
    for figure in (points, clocks, plot):
        assert figure.label_x == MAX_LABEL
    for shown, whole in [(b.shown, b.label) for b in points.bars + clocks.bars] + [
        (r.shown, r.label) for r in plot.rows
    ]:
        assert text_width(shown) + 4 <= MAX_LABEL - 4
        assert shown == whole or (shown.endswith("…") and whole.startswith(shown[:-1]))
    assert points.bars[1].shown.startswith("QQQQ") and points.bars[1].shown != LONGEST
    template = environment().from_string(
        '{% from "figures.html" import bar_chart, interval_plot %}{{ bar_chart(c) }}{{ interval_plot(p) }}'
    )
    svg = template.render(c=points, p=plot)
    assert svg.count(f"<title>{LONGEST}</title>") == 2
    assert f"</title>\u2068{points.bars[1].shown}\u2069</text>" in svg  # isolated: see test_browser.py


def test_wide_letters_count_wider():
    assert text_width("神神") > text_width("ab") and text_width("WW") > text_width("ii")
    assert text_width("e\u0301") == text_width("e")  # an accent takes no room of its own


def test_a_name_that_sets_the_column_is_shown_whole():
    """The column was rounded to the nearest pixel, and a sum of widths could exceed it by its
    floats (ten emoji: 126.00000000000001 > 126): 890 of 1,883 random names that set the
    column were cut with "…" (a reviewer's). Below the cap, the longest name is shown whole."""
    rng = random.Random(36)
    pool = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.'éüЖжΩ神🤖\u2031\u2116"
    names = ["\U0001f916" * 10] + [
        "".join(rng.choices(pool, k=rng.randint(10, 40))).strip() for _ in range(2000)
    ]
    for name in names:
        points, clocks, plot = figures_of("ab", name)
        if points.label_x < MAX_LABEL:
            assert [b.shown for b in points.bars + clocks.bars] == ["ab", name] * 2, ascii(name)
            assert plot.rows[1].shown == name


@pytest.mark.parametrize(
    ("text", "ems"),
    [
        ("\u265f\ufe0f", 1.25),  # a symbol asked for as an emoji: estimated 0.85 (a reviewer's)
        ("\u2764\ufe0f", 1.25),
        ("\U0001f916", 1.25),
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", 1.25),  # a family: one picture
        ("\U0001f44d\U0001f3fd", 1.25),  # a skin tone: part of its emoji
        ("\U0001f469\U0001f3fd\u200d\U0001f4bb", 1.25),  # a toned emoji joined to another
        ("\U0001f3f4\u200d\u2620\ufe0f", 1.25),  # a flag joined to a symbol asked for as emoji
        ("\U0001f1f3\U0001f1f1", 1.25),  # a flag
        ("\u2031", 1.75),  # per ten thousand: 20 of them ended at 421 pixels in a 216 column
        ("\u2e3b", 3.0),  # a three-em dash
    ],
)
def test_wide_characters_are_estimated_near_their_drawn_width(text, ems):
    assert text_width(text) == pytest.approx(ems * 12)


@pytest.mark.parametrize(
    "text",
    [
        "W\u200dm" * 31 + "W",  # a joiner inside a name is allowed: each letter is still drawn
        "a\u200db",
        "\u05e9\u200d\u05d7\u200d\u05e7",
        "\U0001f600\u200dab",  # an emoji joined to a letter: no sequence, the letter drawn
    ],
)
def test_letters_joined_are_each_drawn(text):
    """Only an emoji joined to an emoji is one picture: a 63-character name of letters joined was
    estimated 0.95 em, so it was neither cut nor drawn readably (a reviewer's)."""
    assert text_width(text) == pytest.approx(text_width(text.replace("\u200d", "")))


@pytest.mark.parametrize("link", ["\U0001f600", "\u2605"])
def test_a_chain_of_emoji_longer_than_any_sequence_is_drawn_one_by_one(link):
    """A second reviewer's: 32 emoji (or symbols) chained by joiners, no real sequence, were
    estimated one picture (1.25 em) and drawn 28 to 33 em wide; a family of four stays one."""
    chain = "\U0001f600" + ("\u200d" + link) * 31
    assert text_width(chain) >= 20 * 12
    assert may_be_cut(chain, NAME_EMS)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    assert text_width(family) == pytest.approx(text_width("\U0001f468"))


def test_a_long_name_of_joined_letters_carries_its_title():
    assert may_be_cut("W\u200dm" * 31 + "W", NAME_EMS)  # the site's tables cut it: a title then


def test_symbols_of_letters_count_as_wide_as_drawn():
    for symbol in ("\u213b", "\u2116", "\u2167", "\u2177"):  # FAX, No, VIII, viii: 1.0-1.3 em drawn
        assert 12 <= text_width(symbol) <= 1.6 * 12, ascii(symbol)
    assert text_width("\u0416" * 36) >= 36 * 12  # 36 of them were drawn 404 pixels wide, estimated 330


def test_each_label_is_fitted_to_its_estimated_width():
    """However the browser's font draws it, a label is drawn to the width its column gave it
    (``textLength``): emoji, per-mille signs and Cyrillic ran under the bars (a reviewer's)."""
    names = ["ab", "\u2031" * 20, "Bot \u265f\ufe0f\u2694\ufe0f win", LONGEST]
    points, _, plot = figures_of(*names)
    template = environment().from_string(
        '{% from "figures.html" import bar_chart, interval_plot %}{{ bar_chart(c) }}{{ interval_plot(p) }}'
    )
    svg = template.render(c=points, p=plot)
    lengths = [
        float(n) for n in re.findall(r'textLength="([0-9.]+)" lengthAdjust="spacingAndGlyphs"><title>', svg)
    ]
    assert len(lengths) == 2 * len(names)
    assert max(lengths) <= points.label_x - 4 - 8
    for item in points.bars + plot.rows:
        assert item.length == pytest.approx(min(text_width(item.shown), points.label_x - 12), abs=0.05)


def test_a_label_of_marks_alone_is_fitted_too():
    """64 keycap marks, no letter under them, were estimated 0 pixels, got no width to be fitted
    to, and were drawn 465 pixels across the bars (a reviewer's): a mark with no letter under it
    takes room, one on a letter none."""
    assert text_width("\u20e3" * 64) > 0 and text_width("\u0489" * 3) > 0
    assert text_width("Ren\u00e9") == text_width("Rene\u0301")  # an accent on its letter: no room
    points, _, _ = figures_of("\u20e3" * 64, "ab")
    assert all(bar.length > 0 for bar in points.bars)


def test_the_ratings_figure_leaves_out_players_without_a_game_and_says_so():
    """A player without a game yet has only the prior's 0 ± 434: drawn, it stood at 0 ± 360 above a
    real -131, while the table said "—" (a red team's). It is left out, and the figure says so."""
    ratings = [Rating("a", 131.0, 90.0, 4), Rating("idle", 0.0, 360.0, 0), Rating("b", -131.0, 90.0, 4)]
    plot = rating_plot(ratings)
    assert plot is not None
    assert [r.label for r in plot.rows] == ["a", "b"] and plot.unrated == 1
    assert plot.lo_text == "-221" and plot.hi_text == "+221"  # the scale of those drawn: not ± 360
    svg = environment().from_string('{% from "figures.html" import interval_plot %}{{ interval_plot(p) }}')
    drawn = svg.render(p=plot)
    assert "idle" not in drawn and "Not shown: 1 player without a counted game (no rating)." in drawn
    numbers = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)"', drawn)]
    assert max(numbers) <= plot.height and plot.axis_y < plot.height - 4  # the note under the scale
    two = rating_plot([*ratings, Rating("late", 0.0, 360.0, 0)])
    assert two is not None and two.note == "Not shown: 2 players without a counted game (no rating)."
    assert rating_plot([Rating("idle", 0.0, 434.0, 0)]) is None  # no rating: no figure
    whole = rating_plot([ratings[0], ratings[2]])
    assert whole is not None and whole.note == "" and whole.axis_y == whole.height - 4

"""The index's figures: a label column that fits the players' names (``codecup/site/figures.py``)."""

from __future__ import annotations

from types import SimpleNamespace

from codecup.site.figures import (
    LABEL,
    MAX_LABEL,
    WIDTH,
    clock_chart,
    points_chart,
    rating_plot,
    text_width,
)
from codecup.site.pages import environment
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
    assert f"</title>{points.bars[1].shown}</text>" in svg


def test_wide_letters_count_wider():
    assert text_width("神神") > text_width("ab") and text_width("WW") > text_width("ii")
    assert text_width("e\u0301") == text_width("e")  # an accent takes no room of its own

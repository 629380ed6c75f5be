"""Text and SVG drawings."""

from __future__ import annotations

from xml.etree import ElementTree

from codecup_games.spaghetti.game import Spaghetti

GAME = Spaghetti()
SETUP = "cds\nebr"


def test_text_board_marks_the_last_move_and_scores():
    text = GAME.render_text(SETUP, "codecup2022", ["aal", "abs"])
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert "[S]" in lines[1] and " L " in lines[1]
    assert "Blue 50  Red 50" in text and "Blue to move (3/61)" in text


def test_text_board_shows_path_ends_at_the_side_walls():
    # Row d straight across: both walls show '#'.
    moves = [
        "das",
        "aaa"[:0] or "ias",
        "dbs",
        "ibs",
        "dcs",
        "ics",
        "dds",
        "ids",
        "des",
        "ies",
        "dfs",
        "ifs",
        "dgs",
    ]
    text = GAME.render_text("bbl\nfbl", "codecup2022", moves)
    row_d = text.splitlines()[4]
    assert row_d.startswith(" d #|") and row_d.endswith("|#")
    assert "Blue 57  Red 50" in text  # dgs closed row d seven segments from Blue's wall
    row_a = text.splitlines()[1]
    assert row_a.startswith(" a  |")


def test_svg_draws_tiles():
    svg = GAME.render_svg(SETUP, "codecup2022", ["aal", "abs", "acr"])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    ElementTree.fromstring(svg)  # well-formed XML
    assert svg.count("<path") == 3 * 2  # aal, acr and the jury's ebr: two arcs each
    assert svg.count("<line") >= 4 + 2 * 2  # walls, and two straight tiles
    assert "#fff3a0" in svg  # the last move highlighted


def test_svg_arcs_turn_about_the_cell_corners():
    # An l tile's N-W arc starts at the middle of the north side, ends at the middle of the
    # west side, sweeping about the north-west corner (sweep flag 1 in SVG's y-down frame).
    svg = GAME.render_svg("cds\nebr", "codecup2022", ["aal"])
    assert 'd="M 44.0 24 A 20.0 20.0 0 0 1 24 44.0"' in svg

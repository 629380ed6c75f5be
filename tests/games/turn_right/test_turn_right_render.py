"""Text and SVG rendering, and the Game object's setup handling."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from codecup.errors import SetupError
from codecup_games.turn_right.game import TurnRight
from tests.games.turn_right.tr_support import THREE_WHITE, placements

V = "codecup2006"


def three_game() -> list[str]:
    wp, bp = placements(THREE_WHITE)
    moves = [sq for pair in zip(wp, [*bp, None], strict=True) for sq in pair if sq]
    return [*moves, "d4-d6-f6-f4"]


def test_text_shows_both_colours_and_marks_the_last_circuit():
    game = TurnRight()
    text = game.render_text("", V, three_game())
    lines = text.splitlines()
    assert "3x3: White wins" in lines[0] and "points White 9 - Black 1" in lines[0]
    assert lines[1] == "last circuit d4-d6-f6-f4"
    board = lines[2:8]
    assert board[0].startswith("6 ") and board[5].startswith("1 ")
    assert sum(row.count("W") for row in board) == 18 and sum(row.count("B") for row in board) == 18
    assert "^" in text and ">" in text and "v" in text and "<" in text
    assert board[5] == "1 W  W  W  B  W  B "


def test_text_during_placement_and_empty():
    game = TurnRight()
    assert "placement 0/36" in game.render_text("", V, [])
    text = game.render_text("", V, three_game()[:35])
    # Black's automatic last piece is on the board although it was never announced.
    assert "circuit 0/26" in text and "." not in "".join(text.splitlines()[1:7])


def test_svg_is_a_board_drawing():
    game = TurnRight()
    svg = game.render_svg("", V, three_game())
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    circles = root.findall(f"{ns}circle")
    assert len(circles) == 36
    assert {c.get("fill") for c in circles} == {"#ffffff", "#202020"}
    arrows = [line for line in root.findall(f"{ns}line") if line.get("marker-end")]
    assert len(arrows) == 4  # one per side of the circuit just played
    assert len(ET.fromstring(game.render_svg("", V, [])).findall(f"{ns}circle")) == 0


def test_setup_is_empty():
    game = TurnRight()
    import random

    assert game.random_setup(random.Random(1), V) == ""
    assert game.check_setup("", V) == "" and game.check_setup("  ", V) == ""
    with pytest.raises(SetupError, match="no setup"):
        game.check_setup("a1", V)


def test_info():
    info = TurnRight().info
    assert info.name == "turn_right" and info.seats == ("white", "black")
    assert [v.name for v in info.variants] == [V] and info.default_variant.clock == 30.0
    assert set(info.bots) == {"random", "baseline"}

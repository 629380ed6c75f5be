"""Text and SVG drawings of a position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from codecup_games.pillars.game import Pillars
from tests.games.pillars.pillars_support import DIAGONAL, greedy_game

GAME = Pillars()
VARIANT = "codecup2009"


def test_text_start_position():
    text = GAME.render_text(DIAGONAL, VARIANT, [])
    lines = text.split("\n")
    assert lines[0] == "   a b c d e f g h i j"
    assert lines[1] == "A  # . . . . . . . . ."
    assert lines[10] == "J  . . . . . . . . . #"
    assert lines[11] == "move 0: 90 empty, Red to move"


def test_text_marks_tiles_last_move_and_strips_the_joker():
    text = GAME.render_text(DIAGONAL, VARIANT, ["AcBd", "!AeAj"])
    lines = text.split("\n")
    assert lines[1] == "A  # . r r B B B B B B"  # Blue's joker move is the last: upper case
    assert lines[2] == "B  . # r r . . . . . ."
    assert lines[11] == "move 2: 80 empty, Red to move; Blue joker"
    assert "!" not in "\n".join(lines[:11])
    earlier = GAME.render_text(DIAGONAL, VARIANT, ["AcBd"]).split("\n")
    assert earlier[1] == "A  # . R R . . . . . ."


def test_text_final_position_names_the_loser():
    moves = greedy_game()
    loser = ("Red", "Blue")[(len(moves) - 1) % 2]
    text = GAME.render_text(DIAGONAL, VARIANT, moves)
    assert "." not in "".join(text.split("\n")[1:11])
    assert text.endswith(f"board full, {loser} moved last and loses")


def test_svg_is_a_board_drawing():
    svg = GAME.render_svg(DIAGONAL, VARIANT, ["AcBd", "!AeAj"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    cells = [r for r in root.iter(f"{ns}rect") if r.get("class") in {"pillar", "red", "blue", "empty"}]
    kinds = [r.get("class") for r in cells]
    assert len(cells) == 100
    assert kinds.count("pillar") == 10 and kinds.count("red") == 4 and kinds.count("blue") == 6
    assert [r for r in root.iter(f"{ns}rect") if r.get("class") == "last"]
    labels = {t.text for t in root.iter(f"{ns}text")}
    assert {"a", "j", "A", "J"} <= labels


def _luminance(colour: str) -> float:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def test_blue_tiles_are_told_from_red_by_more_than_colour():
    """Red and Blue tiles differed by colour only, at a contrast of 1.3:1 (a red team's): Blue's
    are hatched, with a line of at least 3:1 against Blue's colour and Red's."""
    from codecup_games.pillars.render import COLOURS

    svg = GAME.render_svg(DIAGONAL, VARIANT, ["AcBd", "!AeAj"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    hatches = [p for p in root.iter(f"{ns}path") if p.get("stroke") == COLOURS["hatch"]]
    assert len(hatches) == 6  # one per Blue field, none on Red's

    def contrast(a: str, b: str) -> float:
        la, lb = sorted((_luminance(a), _luminance(b)))
        return (lb + 0.05) / (la + 0.05)

    assert contrast(COLOURS["red"], COLOURS["blue"]) < 3  # why colour alone was not enough
    assert (
        contrast(COLOURS["hatch"], COLOURS["blue"]) >= 3 and contrast(COLOURS["hatch"], COLOURS["red"]) >= 3
    )

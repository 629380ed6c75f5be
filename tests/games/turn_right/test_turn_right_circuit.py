"""Circuit rules and the spec's examples (rules 6-10)."""

from __future__ import annotations

import pytest

from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup_games.turn_right.board import parse_square, square_name
from codecup_games.turn_right.circuit import Circuit, normal_form, signed_area
from codecup_games.turn_right.notation import format_move, parse_move, read_move
from tests.games.turn_right.tr_support import mask


def moved(circuit: Circuit, name: str) -> str:
    """Where the piece on square ``name`` goes."""
    after = circuit.rotate(1 << parse_square(name))
    assert after.bit_count() == 1
    return square_name(after.bit_length() - 1)


def test_spec_rotation_example():
    c = read_move("a1-a2-b2-b3-f3-f1")
    assert moved(c, "b3") == "c3"
    assert moved(c, "a1") == "a2"
    assert moved(c, "a2") == "b2"
    assert moved(c, "f3") == "f2"
    assert moved(c, "f1") == "e1"
    assert moved(c, "b1") == "a1"
    assert moved(c, "c2") == "c2"  # inside the loop, off the path
    assert c.path == mask("a1 a2 b2 b3 c3 d3 e3 f3 f2 f1 e1 d1 c1 b1")


def test_spec_normal_form_example():
    assert format_move(read_move("a4-d4-d1-a1")) == "a1-a4-d4-d1"
    assert format_move(read_move("b2-b5-c5-c2")) == "b2-b5-c5-c2"


def test_square_order_is_file_then_rank():
    # a2 comes before b1: the normal form of a loop through both starts at a2.
    assert format_move(read_move("b2-b1-a1-a2")) == "a1-a2-b2-b1"
    assert normal_form([parse_square("b1"), parse_square("a2")])[0] == parse_square("a2")


def test_counter_clockwise_listing_rejected():
    with pytest.raises(IllegalMoveError, match="counter-clockwise"):
        read_move("a1-d1-d4-a4")
    assert signed_area(read_move("a1-a4-d4-d1").corners) < 0


def test_crossing_circuit_rejected():
    # A figure of eight through c3: the runs c1-c5 and a3-e3 cross there.
    with pytest.raises(IllegalMoveError, match="twice"):
        read_move("c1-c5-d5-d3-a3-a2-e2-e1")
    with pytest.raises(IllegalMoveError, match="twice"):
        read_move("a1-a3-c3-c1-b1-b4-e4-e1")


def test_non_corner_square_rejected():
    with pytest.raises(IllegalMoveError, match="a2 is not a corner"):
        read_move("a1-a2-a3-b3-b1")
    with pytest.raises(IllegalMoveError, match="not a corner"):
        read_move("a1-a3-b3-c3-c1")


def test_corners_must_share_file_or_rank():
    with pytest.raises(IllegalMoveError, match="share no file or rank"):
        read_move("a1-a2-b3-b1")


@pytest.mark.parametrize("text", ["a1-a2", "a1-a2-b2", "a1-a1-b1-b2", "a1-a3-a2-b2"])
def test_degenerate_loops_rejected(text):
    with pytest.raises(IllegalMoveError):
        read_move(text)


@pytest.mark.parametrize("text", ["b2-b2-b3-c3-c2", "b2-b3-b3-c3-c2", "b2-b3-c3-c2-c2"])
def test_a_corner_listed_twice_in_a_row_is_illegal(text):
    """Not a corner more of the loop b2-b3-c3-c2: a fifth corner would count against the limit
    and be passed on in the normal form."""
    with pytest.raises(IllegalMoveError, match="listed twice in a row"):
        read_move(text)


@pytest.mark.parametrize(
    "text", ["", "z9", "a1-", "a1--a2-b2-b1", "A1", "a1 a2", "a0", "a1-a2-b2-b7", "x" * 300]
)
def test_bad_syntax_is_invalid(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


def test_placement_parses_to_a_square():
    assert parse_move("a4") == parse_square("a4") == 3
    assert format_move(read_move(" f6 ")) == "f6"


def test_from_masks_matches_from_corners():
    c = read_move("a1-a2-b2-b3-f3-f1")
    assert Circuit.from_masks(c.up, c.right, c.down, c.left) == c.normal()
    assert c.size == 6

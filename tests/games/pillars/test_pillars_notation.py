"""Move and field notation: the settled strict reading of rule 5."""

from __future__ import annotations

import pytest

from codecup.errors import InvalidMoveError
from codecup_games.pillars.engine import Rect
from codecup_games.pillars.notation import Move, format_field, format_rect, parse_field, parse_rect


def test_fields():
    assert parse_field("Aa") == (0, 0)
    assert parse_field("Jj") == (9, 9)
    assert parse_field("Cd") == (2, 3)
    assert format_field(2, 3) == "Cd"


def test_moves_round_trip():
    assert parse_rect("BdCh") == Rect(1, 3, 2, 7)
    assert parse_rect("CdCd") == Rect(2, 3, 2, 3)
    for text in ("BdCh", "CdCd", "AaJj"):
        assert format_rect(parse_rect(text)) == text


def test_joker_prefix():
    move = Move.from_text("!AeAj")
    assert move.joker and move.rect == Rect(0, 4, 0, 9)
    assert move.text() == "!AeAj"
    assert Move.from_text("AeAj").text() == "AeAj"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("CdBh", "below the bottom row"),  # rows reversed
        ("BhCd", "right of the right column"),  # columns reversed
        ("bdCh", "upper-case"),  # lower-case row
        ("BDCh", "lower-case"),  # upper-case column
        ("KaKa", "upper-case"),  # off the board
        ("AkAk", "lower-case"),
        ("BdC", "four letters"),
        ("BdChA", "four letters"),
        ("", "four letters"),
        ("!!BdCh", "four letters"),
        ("Bd Ch", "four letters"),
    ],
)
def test_bad_moves_are_invalid_with_a_reason(text, why):
    with pytest.raises(InvalidMoveError, match=why):
        Move.from_text(text)

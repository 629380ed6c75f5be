"""Pillars notation: fields ``Aa``..``Jj`` (row letter upper case, column lower case),
moves ``BdCh`` (top row, left column, bottom row, right column), jokers ``!BdCh``."""

from __future__ import annotations

import attrs

from codecup.errors import InvalidMoveError
from codecup_games.pillars.engine import SIZE, Rect

ROWS = "ABCDEFGHIJ"
COLS = "abcdefghij"
JOKER = "!"


@attrs.frozen
class Move:
    """A rectangle as a player wrote it, with or without the joker prefix."""

    rect: Rect
    joker: bool = False

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse ``BdCh`` or ``!BdCh``; raise :class:`InvalidMoveError` on anything else."""
        joker = text.startswith(JOKER)
        return cls(parse_rect(text[1:] if joker else text), joker)

    def text(self) -> str:
        """The move as written, ``!`` included when it is a joker."""
        return (JOKER if self.joker else "") + format_rect(self.rect)


def parse_field(text: str) -> tuple[int, int]:
    """``Cd`` -> ``(2, 3)``; raise :class:`InvalidMoveError` unless row upper and column lower case."""
    if len(text) != 2:
        raise InvalidMoveError(f"a field is two letters like 'Cd', not {text!r}")
    row, col = text[0], text[1]
    if row not in ROWS:
        raise InvalidMoveError(f"{text!r}: the row must be an upper-case letter A..J, not {row!r}")
    if col not in COLS:
        raise InvalidMoveError(f"{text!r}: the column must be a lower-case letter a..j, not {col!r}")
    return ROWS.index(row), COLS.index(col)


def format_field(row: int, col: int) -> str:
    """``(2, 3)`` -> ``Cd``."""
    return ROWS[row] + COLS[col]


def parse_rect(text: str) -> Rect:
    """``BdCh`` -> the rectangle; the top-left field must come first (rule 5)."""
    if len(text) != 4:
        raise InvalidMoveError(f"a move is four letters like 'BdCh', not {text!r}")
    top, left = parse_field(text[:2])
    bottom, right = parse_field(text[2:])
    if top > bottom:
        raise InvalidMoveError(f"{text!r}: the top row {ROWS[top]} is below the bottom row {ROWS[bottom]}")
    if left > right:
        raise InvalidMoveError(
            f"{text!r}: the left column {COLS[left]} is right of the right column {COLS[right]}"
        )
    return Rect(top, left, bottom, right)


def format_rect(rect: Rect) -> str:
    """The rectangle as four letters."""
    return format_field(rect.top, rect.left) + format_field(rect.bottom, rect.right)


assert len(ROWS) == len(COLS) == SIZE

"""Moves as text: a placement is a square (``a4``), a circuit its corners joined by ``-``.

Parsing checks syntax only and raises :class:`InvalidMoveError`; the rules of a
circuit (rule 6-9) are checked by :meth:`Circuit.from_corners`, which raises
:class:`IllegalMoveError`, so a misspelt square is *invalid* and a crossing
loop is *illegal*.
"""

from __future__ import annotations

from codecup.errors import InvalidMoveError
from codecup.rules import trimmed
from codecup_games.turn_right.board import parse_square, square_name
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.engine import Move
from codecup_games.turn_right.settled import SETTLED, Settled

MAX_TEXT = 200
"""Longer than any legal circuit (36 corners x 3 characters); longer lines are not read as moves."""


def parse_squares(text: str) -> list[int]:
    """``"a1-a2-b2-b1"`` -> its squares; :class:`InvalidMoveError` on bad syntax."""
    text = trimmed(text)
    if not text:
        raise InvalidMoveError("an empty line is not a move")
    if len(text) > MAX_TEXT:
        raise InvalidMoveError(f"a line of {len(text)} characters is not a move")
    return [parse_square(part) for part in text.split("-")]


def parse_move(text: str) -> list[int] | int:
    """A placement (one square index) or the listed corners of a circuit, unchecked against the rules."""
    squares = parse_squares(text)
    return squares[0] if len(squares) == 1 else squares


def to_move(parsed: list[int] | int, rules: Settled = SETTLED) -> Move:
    """Turn parsed text into a move, checking a circuit's rules (except the corner limit)."""
    if isinstance(parsed, int):
        return parsed
    return Circuit.from_corners(parsed, rules)


def read_move(text: str, rules: Settled = SETTLED) -> Move:
    """Parse and check a move under ``rules``: :class:`InvalidMoveError` or :class:`IllegalMoveError`."""
    return to_move(parse_move(text), rules)


def format_move(move: Move) -> str:
    """The move as passed on: a square, or a circuit in normal form (rule 10)."""
    if isinstance(move, int):
        return square_name(move)
    return move.normal().text()

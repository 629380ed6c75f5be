"""Shared test helpers: squares by name, scripted placements."""

from __future__ import annotations

from codecup_games.turn_right.board import FULL, bits, parse_square, square_name
from codecup_games.turn_right.engine import Position

CHECKER_WHITE = " ".join(square_name(s) for s in range(36) if (s // 6 + s % 6) % 2 == 0)
"""White on the dark squares of a chessboard colouring: no 2x2 window of either colour."""

THREE_WHITE = "a1 a2 a3 b1 b2 b3 c1 c2 c3 a5 b6 c4 d2 d6 e1 e4 f3 f5"
"""White already holds a 3x3 (a1-c3) when placement ends; Black holds none."""


def mask(names: str) -> int:
    """The mask of space-separated square names."""
    return sum(1 << parse_square(n) for n in names.split())


def placements(white: str) -> tuple[list[str], list[str]]:
    """White's 18 and Black's 17 placement lines for a final board where White holds ``white``.

    Black's 18th square (the last free one) is the highest of its squares.
    """
    w = [square_name(s) for s in bits(mask(white))]
    b = [square_name(s) for s in bits(FULL & ~mask(white))]
    assert len(w) == 18 and len(b) == 18
    return w, b[:17]


def placed(white: str) -> Position:
    """The position after the placements of :func:`placements`."""
    w, b = placements(white)
    pos = Position()
    for i in range(18):
        pos = pos.place(parse_square(w[i]))
        if i < 17:
            pos = pos.place(parse_square(b[i]))
    return pos


BLACK_CIRCUITS = ["a4-d4-d1-a1", "c3-c6-f6-f3", "b1-b4-e4-e1", "a2-a5-d5-d2"]
WHITE_CIRCUITS = ["b2-b5-c5-c2", "a1-a6-f6-f1", "c1-c4-f4-f1", "a3-a6-d6-d3"]


def circuit_lines(count: int = 26) -> tuple[list[str], list[str]]:
    """White's and Black's circuit lines of a 26-circuit game from :data:`CHECKER_WHITE` (no 3x3).

    With these the game ends 26-7 in circuit points.
    """
    white, black = [], []
    for k in range(count):
        if k % 2 == 0:
            black.append(BLACK_CIRCUITS[(k // 2) % 4])
        else:
            white.append(WHITE_CIRCUITS[(k // 2) % 4])
    return white, black

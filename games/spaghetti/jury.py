"""The jury's two opening tiles: the official generator, and checking a given setup."""

from __future__ import annotations

import random

from codecup.errors import InvalidMoveError, SetupError
from codecup_games.spaghetti.engine import COLS, ROWS
from codecup_games.spaghetti.notation import format_move, parse_move

CENTRE = (ROWS // 2) * COLS + COLS // 2  # row e, column d
# The generator's cells: rows b..h, columns b..f, never the centre.
JURY_CELLS = tuple(
    r * COLS + c for r in range(1, ROWS - 1) for c in range(1, COLS - 1) if r * COLS + c != CENTRE
)


def mirror(cell: int) -> int:
    """The cell point-symmetric to ``cell`` about the centre."""
    return ROWS * COLS - 1 - cell


def random_jury(rng: random.Random) -> tuple[int, int]:
    """Two jury moves as the official generator makes them (spec rule 5).

    Two different cells in rows b..h and columns b..f other than the centre,
    random tiles; two point-symmetric cells get different tiles.
    """
    first, second = rng.sample(JURY_CELLS, 2)
    t1 = rng.randrange(3)
    t2 = rng.randrange(3)
    if second == mirror(first):
        t2 = rng.choice([t for t in range(3) if t != t1])
    return first * 3 + t1, second * 3 + t2


def format_setup(moves: tuple[int, int]) -> str:
    """The setup text: the jury moves one per line, as the players receive them."""
    return "\n".join(format_move(m) for m in moves)


def parse_setup(text: str) -> tuple[int, int]:
    """The two jury moves of a setup text (space- or newline-separated); raise ``SetupError``.

    Any two different cells are accepted (settled reading): the generator's
    region is how random starts are made, not a rule of the game.
    """
    words = text.split()
    if len(words) != 2:
        raise SetupError(f"a Spaghetti setup is two jury moves such as 'cds ebr', not {text!r}")
    try:
        moves = (parse_move(words[0]), parse_move(words[1]))
    except InvalidMoveError as exc:
        raise SetupError(f"bad jury move: {exc}") from None
    if moves[0] // 3 == moves[1] // 3:
        raise SetupError(f"the two jury tiles must be on different cells, not {words[0]} and {words[1]}")
    return moves

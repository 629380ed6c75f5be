"""Squares, bit masks and window counts of the 6x6 board.

Square ``a1`` is index 0; the index is ``file * 6 + rank`` (both 0..5), so the
natural order of indices is the spec's order of squares (file first, then
rank: ``a2`` < ``b1``), and a mask of squares is a 36-bit int. Moving one rank
up is ``+1``, one file right is ``+6``.
"""

from __future__ import annotations

from codecup.errors import InvalidMoveError

SIZE = 6
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1
FILES = "abcdef"

UP, RIGHT, DOWN, LEFT = 1, SIZE, -1, -SIZE
"""Index steps of the four directions (clockwise order)."""


def _origins(span: int) -> int:
    """Squares that are the lower-left corner of a ``span`` x ``span`` window."""
    return sum(1 << (f * SIZE + r) for f in range(SIZE - span + 1) for r in range(SIZE - span + 1))


ORIGINS2 = _origins(2)
ORIGINS3 = _origins(3)


def file_of(square: int) -> int:
    """0 for file a .. 5 for file f."""
    return square // SIZE


def rank_of(square: int) -> int:
    """0 for rank 1 .. 5 for rank 6."""
    return square % SIZE


def square_at(file: int, rank: int) -> int:
    """The index of the square at ``file``, ``rank`` (both 0-based)."""
    return file * SIZE + rank


def square_name(square: int) -> str:
    """``0`` -> ``"a1"``."""
    return f"{FILES[square // SIZE]}{square % SIZE + 1}"


_NAMES = {square_name(s): s for s in range(SQUARES)}


def parse_square(text: str) -> int:
    """``"a1"`` -> ``0``; raise :class:`InvalidMoveError` for anything else."""
    try:
        return _NAMES[text]
    except KeyError:
        raise InvalidMoveError(f"{text!r} is not a square a1..f6") from None


def squares2(mask: int) -> int:
    """The origins of the 2x2 windows filled by ``mask``."""
    return mask & (mask >> 1) & (mask >> SIZE) & (mask >> (SIZE + 1)) & ORIGINS2


def count2(mask: int) -> int:
    """How many of the 25 overlapping 2x2 windows ``mask`` fills (the points of rule 12)."""
    return squares2(mask).bit_count()


def has3(mask: int) -> bool:
    """Whether ``mask`` fills some 3x3 window (the instant win of rule 13)."""
    s = squares2(mask)
    return bool(s & (s >> 1) & (s >> SIZE) & (s >> (SIZE + 1)) & ORIGINS3)


def bits(mask: int) -> list[int]:
    """The squares of ``mask`` in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

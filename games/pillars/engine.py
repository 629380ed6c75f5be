"""The rules of Pillars on bitboards: a position is a 100-bit int of empty fields.

Field ``(row, col)`` is bit ``10 * row + col`` (row A = 0 at the top, column a = 0
at the left). Every rectangle's mask is precomputed, so legality is one AND and
applying a move one XOR; bots and tests run these millions of times.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

SIZE = 10
FIELDS = SIZE * SIZE
FULL = (1 << FIELDS) - 1
RED, BLUE = 0, 1

# Column masks for neighbour shifts: a shift by one column must not wrap to the next row.
COL = tuple(sum(1 << (r * SIZE + c) for r in range(SIZE)) for c in range(SIZE))
ROW = tuple(((1 << SIZE) - 1) << (r * SIZE) for r in range(SIZE))
NOT_FIRST_COL = FULL & ~COL[0]
NOT_LAST_COL = FULL & ~COL[SIZE - 1]


def bit(row: int, col: int) -> int:
    """The mask of one field."""
    return 1 << (row * SIZE + col)


def rect_mask(top: int, left: int, bottom: int, right: int) -> int:
    """The mask of rows ``top..bottom`` and columns ``left..right`` (inclusive)."""
    row = ((1 << (right - left + 1)) - 1) << left
    mask = 0
    for r in range(top, bottom + 1):
        mask |= row << (r * SIZE)
    return mask


@attrs.frozen
class Rect:
    """A rectangle of fields, inclusive bounds; ``top <= bottom`` and ``left <= right``."""

    top: int
    left: int
    bottom: int
    right: int

    @property
    def mask(self) -> int:
        """Its fields as a bitboard."""
        return MASK_OF[(self.top, self.left, self.bottom, self.right)]

    @property
    def area(self) -> int:
        """How many fields it covers."""
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)


def _all_rects() -> tuple[Rect, ...]:
    return tuple(
        Rect(t, lft, b, r)
        for t in range(SIZE)
        for lft in range(SIZE)
        for b in range(t, SIZE)
        for r in range(lft, SIZE)
    )


RECTS: tuple[Rect, ...] = _all_rects()
MASK_OF: dict[tuple[int, int, int, int], int] = {
    (x.top, x.left, x.bottom, x.right): rect_mask(x.top, x.left, x.bottom, x.right) for x in RECTS
}
RECT_OF_MASK: dict[int, Rect] = {MASK_OF[(x.top, x.left, x.bottom, x.right)]: x for x in RECTS}
ALL_MASKS: tuple[int, ...] = tuple(MASK_OF[(x.top, x.left, x.bottom, x.right)] for x in RECTS)

# For each top-left field, per bottom row, the masks of growing width. A rectangle
# that does not fit means no wider one fits either (and no taller one of that
# width), so generation stops early: its cost follows the number of legal moves.
_GROWTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(rect_mask(p // SIZE, p % SIZE, b, r) for r in range(p % SIZE, SIZE))
        for b in range(p // SIZE, SIZE)
    )
    for p in range(FIELDS)
)


def fields(mask: int) -> Iterator[int]:
    """The field indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def legal_masks(empty: int) -> list[int]:
    """Every rectangle of empty fields, as masks (each rectangle once)."""
    out: list[int] = []
    append = out.append
    rest = empty
    while rest:
        low = rest & -rest
        rest ^= low
        limit = SIZE  # widest width still possible for the next bottom row
        for row in _GROWTH[low.bit_length() - 1]:
            width = 0
            for m in row[:limit]:
                if m & empty != m:
                    break
                append(m)
                width += 1
            if width == 0:
                break
            limit = width
    return out


def count_legal(empty: int) -> int:
    """How many rectangles of empty fields there are (without building the list)."""
    n = 0
    rest = empty
    while rest:
        low = rest & -rest
        rest ^= low
        limit = SIZE
        for row in _GROWTH[low.bit_length() - 1]:
            width = 0
            for m in row[:limit]:
                if m & empty != m:
                    break
                width += 1
            if width == 0:
                break
            n += width
            limit = width
    return n


def grow(region: int, within: int) -> int:
    """``region`` plus its orthogonal neighbours, kept inside ``within``."""
    return (
        region
        | (region << SIZE)
        | (region >> SIZE)
        | ((region << 1) & NOT_FIRST_COL)
        | ((region >> 1) & NOT_LAST_COL)
    ) & within


def components(empty: int) -> list[int]:
    """The orthogonally connected regions of ``empty``.

    A rectangle never spans two regions, so the regions are independent games.
    """
    out: list[int] = []
    rest = empty
    while rest:
        region = rest & -rest
        while True:
            bigger = grow(region, rest)
            if bigger == region:
                break
            region = bigger
        out.append(region)
        rest ^= region
    return out


def normalise(region: int) -> int:
    """The region shifted to the top-left corner: equal shapes get equal keys."""
    low = (region & -region).bit_length() - 1
    top = low // SIZE
    for left in range(SIZE):
        if region & COL[left]:
            return region >> (top * SIZE + left)
    raise ValueError("empty region")


def random_pillars(rng: random.Random) -> tuple[int, ...]:
    """A random permutation: ``result[row]`` is the column of that row's pillar."""
    cols = list(range(SIZE))
    rng.shuffle(cols)
    return tuple(cols)


def pillars_mask(cols: tuple[int, ...]) -> int:
    """The bitboard of the pillars given as one column per row."""
    return sum(bit(row, col) for row, col in enumerate(cols))


@attrs.frozen
class Board:
    """A position: the pillars, each side's tiles, and who is to move."""

    pillars: int
    red: int = 0
    blue: int = 0
    to_move: int = RED

    @classmethod
    def start(cls, cols: tuple[int, ...]) -> Board:
        """The start position for pillars given as one column per row."""
        return cls(pillars_mask(cols))

    @property
    def empty(self) -> int:
        """The empty fields."""
        return FULL & ~(self.pillars | self.red | self.blue)

    @property
    def empty_count(self) -> int:
        """How many fields are still empty."""
        return self.empty.bit_count()

    @property
    def over(self) -> bool:
        """No empty field is left: the player who moved last has lost."""
        return self.empty == 0

    def is_legal(self, rect: Rect) -> bool:
        """Whether ``rect`` covers only empty fields."""
        m = rect.mask
        return m & self.empty == m

    def legal_moves(self) -> list[Rect]:
        """Every legal rectangle."""
        return [RECT_OF_MASK[m] for m in legal_masks(self.empty)]

    def play(self, rect: Rect) -> Board:
        """The position after the side to move fills ``rect`` (which must be legal)."""
        m = rect.mask
        if self.to_move == RED:
            return Board(self.pillars, self.red | m, self.blue, BLUE)
        return Board(self.pillars, self.red, self.blue | m, RED)


def random_playout(empty: int, rng: random.Random) -> int:
    """Play uniformly random rectangles until the board is full; return the number of moves.

    The player who made the last move loses, so an odd count means the side to
    move at ``empty`` lost. The legal list is built once; a pick that has gone
    stale (it overlaps a filled field) triggers one filtering pass, so the pick
    is uniform over the rectangles still legal without rebuilding every move.
    """
    moves = legal_masks(empty)
    filled = 0
    n = 0
    rnd = rng.random
    while moves:
        m = moves[int(rnd() * len(moves))]
        if m & filled:
            moves = [x for x in moves if not x & filled]
            continue
        filled |= m
        n += 1
    return n

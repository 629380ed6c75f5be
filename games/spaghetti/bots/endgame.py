"""Move equivalences for the exact endgame search: what of a position its future depends on.

A position's future (the points still to be scored) depends only on the path
ends at the sides of the empty cells: for each such side, where its path
leads (a side of an empty cell, Blue's wall, Red's wall) and how long it is.
A path that ends on the top or bottom wall can never score, whatever joins
it, so such a side is *dead*, however long its path. :func:`side_code` gives
a side that summary, :func:`state_key` the position's (a transposition key
that merges boards differing only in what no longer matters).

Two consequences prune the exact search (:func:`distinct_moves`):

- a cell whose four sides are all dead is *inert*: any tile there scores
  nothing and changes no other path, so one move stands for every tile on
  every inert cell (only the tempo counts, and the key keeps just their number);
- two tiles on one cell that join the same pairs of side codes leave the same
  future and score the same, so one of them stands for both (a cell with two
  or three dead sides has two or one distinct tiles, not three).
"""

from __future__ import annotations

from codecup_games.spaghetti.engine import KIND, NEUTRAL_WALL, SEGMENTS, Position

Codes = tuple[int, int, int, int]  # the codes of a cell's sides: north, west, south, east
DEAD = NEUTRAL_WALL  # the code of a side whose path ends on the top or bottom wall
_LENGTHS = 256  # paths are shorter than this (126 segments at most)


def side_code(other: list[int], plen: list[int], side: int) -> int:
    """The summary of ``side``'s path: dead, or its far end (a wall's kind, or the node) and its length."""
    far = other[side]
    kind = KIND[far]
    if kind == NEUTRAL_WALL:
        return DEAD
    if kind:  # Blue's or Red's wall: the kind (2 or 3) and the length
        return kind + 4 * plen[side]
    return 4 * (plen[side] + _LENGTHS * (far + 1))


def cell_codes(pos: Position, cell: int) -> Codes:
    """The codes of ``cell``'s four sides (north, west, south, east)."""
    other, plen = pos.other, pos.plen
    n, w, s, e = SEGMENTS[cell * 3]
    return (
        side_code(other, plen, n),
        side_code(other, plen, w),
        side_code(other, plen, s),
        side_code(other, plen, e),
    )


def is_inert(codes: Codes) -> bool:
    """Whether a cell with these side codes is inert (every side dead)."""
    return codes[0] == DEAD and codes[1] == DEAD and codes[2] == DEAD and codes[3] == DEAD


def empty_cells(pos: Position) -> list[tuple[int, Codes]]:
    """Each empty cell, in cell order, with its sides' codes: what the key and the moves are built from."""
    return [(cell, cell_codes(pos, cell)) for cell in sorted(pos.empties)]


def state_key(pos: Position, cells: list[tuple[int, Codes]] | None = None) -> tuple[int, ...]:
    """A key equal for positions with the same future: the empty count, each live cell's codes.

    ``cells`` is :func:`empty_cells`'s list for ``pos``, if already made.
    """
    key = [len(pos.empties)]
    for cell, codes in empty_cells(pos) if cells is None else cells:
        if not is_inert(codes):
            key.append(cell)
            key += codes
    return tuple(key)


def _tile_signature(move: int, codes: Codes) -> tuple[tuple[int, int], tuple[int, int]]:
    """The pairs of side codes ``move``'s two segments join, in a canonical order."""
    n, w, s, e = codes
    tile = move % 3
    if tile == 0:  # l: N-W and S-E
        x, y = (n, w), (s, e)
    elif tile == 1:  # s: N-S and W-E
        x, y = (n, s), (w, e)
    else:  # r: N-E and S-W
        x, y = (n, e), (s, w)
    px = (x[0], x[1]) if x[0] <= x[1] else (x[1], x[0])
    py = (y[0], y[1]) if y[0] <= y[1] else (y[1], y[0])
    return (px, py) if px <= py else (py, px)


def distinct_moves(
    pos: Position, seat: int, first: int = -1, cells: list[tuple[int, Codes]] | None = None
) -> list[tuple[int, int]]:
    """``(gain, move)`` for one move of each class of equivalent moves, in ``pos.empties``'s order.

    ``first``, if legal, stands for its class (the transposition table's best
    move); ``cells`` is :func:`empty_cells`'s list for ``pos``, if already made.
    """
    if first >= 0 and pos.board[first // 3] >= 0:
        first = -1
    delta = pos.delta
    out: list[tuple[int, int]] = []
    inert = -1
    codes_of = dict(empty_cells(pos) if cells is None else cells)
    for cell in pos.empties:
        m = cell * 3
        codes = codes_of[cell]
        if is_inert(codes):
            if inert < 0 or m <= first < m + 3:
                inert = first if m <= first < m + 3 else m
            continue
        tiles: tuple[int, ...] = (m, m + 1, m + 2)
        if m <= first < m + 3:
            tiles = (first, *(t for t in tiles if t != first))
        seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        for move in tiles:
            signature = _tile_signature(move, codes)
            if signature not in seen:
                seen.add(signature)
                out.append((delta(move, seat), move))
    if inert >= 0:
        out.append((0, inert))
    return out

"""The Spaghetti rules engine: tiles, incremental path ends, scoring.

The board is 9 rows by 7 columns. Every side of every cell is a *node*; a
tile's two segments each join two sides of its cell. Paths are chains of
segments through nodes, so a path is fully described, for scoring, by its two
end nodes and its length.

The engine keeps, for every node that is currently the end of a path, the node
at the path's other end (``other``) and the path's length in segments
(``plen``). A node no segment touches is a path of length 0 that is its own
other end. Placing a segment that joins node ``a`` and node ``b`` links the far
end of ``a``'s path to the far end of ``b``'s: two list writes per end, so a
move costs constant time however long its paths are. Nodes in the middle of a
path keep stale entries; they are never read again, because both cells next
to them are full.

Node numbering: the sides facing north or south are ``H(line, col)`` with
``line`` 0 (the top wall) to 9 (the bottom wall); the sides facing west or
east are ``V(row, line)`` with ``line`` 0 (Blue's left wall) to 7 (Red's
right wall).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import attrs

ROWS = 9
COLS = 7
CELLS = ROWS * COLS
TILES = "lsr"
START_SCORE = 50
PLAYER_MOVES = CELLS - 2  # two cells hold the jury's tiles
BLUE, RED = 0, 1

CYCLE_PENALTY = -5
SAME_WALL_PENALTY = -3

_H_NODES = (ROWS + 1) * COLS
NODES = _H_NODES + ROWS * (COLS + 1)

# Node kinds: an interior side, the top or bottom wall, Blue's wall, Red's wall.
INTERIOR, NEUTRAL_WALL, LEFT_WALL, RIGHT_WALL = 0, 1, 2, 3
# A seat's own wall kind is OWN_WALL[seat].
OWN_WALL = (LEFT_WALL, RIGHT_WALL)


def h_node(line: int, col: int) -> int:
    """The node on horizontal grid line ``line`` (0 = top wall) at column ``col``."""
    return line * COLS + col


def v_node(row: int, line: int) -> int:
    """The node on vertical grid line ``line`` (0 = left wall) at row ``row``."""
    return _H_NODES + row * (COLS + 1) + line


def _node_kinds() -> tuple[int, ...]:
    kinds = [INTERIOR] * NODES
    for col in range(COLS):
        kinds[h_node(0, col)] = kinds[h_node(ROWS, col)] = NEUTRAL_WALL
    for row in range(ROWS):
        kinds[v_node(row, 0)] = LEFT_WALL
        kinds[v_node(row, COLS)] = RIGHT_WALL
    return tuple(kinds)


KIND: tuple[int, ...] = _node_kinds()


def _segments() -> tuple[tuple[int, int, int, int], ...]:
    """For move ``cell * 3 + tile``: the two segments ``(a, b, c, d)`` as a-b and c-d."""
    table = []
    for cell in range(CELLS):
        row, col = divmod(cell, COLS)
        n, s = h_node(row, col), h_node(row + 1, col)
        w, e = v_node(row, col), v_node(row, col + 1)
        table.append((n, w, s, e))  # l: N-W and S-E
        table.append((n, s, w, e))  # s: N-S and W-E
        table.append((n, e, s, w))  # r: N-E and S-W
    return tuple(table)


SEGMENTS: tuple[tuple[int, int, int, int], ...] = _segments()


def move_of(cell: int, tile: int) -> int:
    """The move number of placing ``tile`` (0 l, 1 s, 2 r) on ``cell``."""
    return cell * 3 + tile


def _path_score(e1: int, e2: int, d1: int, d2: int, own: int) -> int:
    """The score of a path with ends ``e1``/``e2`` for the seat whose wall kind is ``own``.

    ``d1``/``d2`` are the segment counts from the counted segment to each end.
    """
    k1 = KIND[e1]
    k2 = KIND[e2]
    if k1 <= NEUTRAL_WALL or k2 <= NEUTRAL_WALL:  # open, or on the top or bottom wall
        return 0
    if k1 == k2:
        return SAME_WALL_PENALTY
    return d1 if k1 == own else d2


@attrs.define(eq=False)
class Position:
    """A Spaghetti position: tiles, path ends, scores and whose turn it is.

    ``ply`` counts the player moves made (jury tiles excluded); Blue moves on
    even plies. ``empties`` lists the empty cells in no particular order, with
    ``where[cell]`` its index there (-1 once filled), for O(1) removal.
    """

    board: list[int]
    other: list[int]
    plen: list[int]
    empties: list[int]
    where: list[int]
    scores: list[int]
    ply: int = 0

    @classmethod
    def empty(cls) -> Position:
        """An empty board, both players at 50 points."""
        return cls(
            board=[-1] * CELLS,
            other=list(range(NODES)),
            plen=[0] * NODES,
            empties=list(range(CELLS)),
            where=list(range(CELLS)),
            scores=[START_SCORE, START_SCORE],
        )

    @classmethod
    def start(cls, jury: Iterable[int]) -> Position:
        """The position after the jury's tiles (moves as ``cell * 3 + tile``), which score for nobody."""
        pos = cls.empty()
        for move in jury:
            pos.put(move)
        return pos

    @classmethod
    def from_board(
        cls, rows: Sequence[str], scores: tuple[int, int] = (START_SCORE, START_SCORE), ply: int | None = None
    ) -> Position:
        """A position from a drawn board: 9 strings of 7 of ``L``/``S``/``R``/``.``.

        Scores are given, not recomputed; ``ply`` defaults to the number of
        tiles minus the two jury tiles (so the parity says whose turn it is).
        """
        if len(rows) != ROWS or any(len(r) != COLS for r in rows):
            raise ValueError("a board is 9 rows of 7 characters")
        pos = cls.empty()
        for row, text in enumerate(rows):
            for col, ch in enumerate(text):
                if ch != ".":
                    pos.put(move_of(row * COLS + col, "LSR".index(ch.upper())))
        pos.scores = list(scores)
        pos.ply = CELLS - len(pos.empties) - 2 if ply is None else ply
        return pos

    def copy(self) -> Position:
        """An independent copy (cheap: five list copies)."""
        return Position(
            self.board[:],
            self.other[:],
            self.plen[:],
            self.empties[:],
            self.where[:],
            self.scores[:],
            self.ply,
        )

    @property
    def mover(self) -> int:
        """The seat to move: 0 Blue, 1 Red."""
        return self.ply & 1

    @property
    def finished(self) -> bool:
        """True once every cell holds a tile."""
        return not self.empties

    def is_empty(self, cell: int) -> bool:
        """True if ``cell`` holds no tile."""
        return self.board[cell] < 0

    def legal_moves(self) -> list[int]:
        """Every legal move, as ``cell * 3 + tile``."""
        out: list[int] = []
        for cell in self.empties:
            m = cell * 3
            out += (m, m + 1, m + 2)
        return out

    def delta(self, move: int, seat: int) -> int:
        """The score change ``seat`` would get for ``move`` (an empty cell), without playing it.

        Follows spec rules 8 and 9: each path through a placed segment is
        scored once; a path holding both segments counts from the farther one.
        """
        a, b, c, d = SEGMENTS[move]
        other = self.other
        plen = self.plen
        own = OWN_WALL[seat]
        ea = other[a]
        eb = other[b]
        if ea == b:  # the first segment closes a cycle on its own
            ec = other[c]
            if ec == d:
                return 2 * CYCLE_PENALTY
            return CYCLE_PENALTY + _path_score(ec, other[d], plen[c] + 1, plen[d] + 1, own)
        la = plen[a]
        lb = plen[b]
        l1 = la + lb + 1
        # The second segment's sides c and d: each is either an end of the first
        # segment's new path (ea..eb) or an end of some other path.
        c_on = c in (ea, eb)
        d_on = d in (ea, eb)
        if c_on:
            if d_on:  # the second segment closes the first one's path into a cycle
                return CYCLE_PENALTY
            # One path holding both segments: ends ec (the far end of the first
            # segment's path from c) and ed.
            ed = other[d]
            ld = plen[d]
            if c == ea:
                ec, seg1_from_c = eb, lb + 1
                seg1_from_d = ld + la + 2
            else:
                ec, seg1_from_c = ea, la + 1
                seg1_from_d = ld + lb + 2
            return _path_score(ec, ed, max(seg1_from_c, l1 + 1), max(seg1_from_d, ld + 1), own)
        if d_on:
            ec = other[c]
            lc = plen[c]
            if d == ea:
                ed, seg1_from_d = eb, lb + 1
                seg1_from_c = lc + la + 2
            else:
                ed, seg1_from_d = ea, la + 1
                seg1_from_c = lc + lb + 2
            return _path_score(ec, ed, max(seg1_from_c, lc + 1), max(seg1_from_d, l1 + 1), own)
        # Two different paths, scored separately.
        first = _path_score(ea, eb, la + 1, lb + 1, own)
        ec = other[c]
        if ec == d:
            return first + CYCLE_PENALTY
        return first + _path_score(ec, other[d], plen[c] + 1, plen[d] + 1, own)

    def put(self, move: int) -> None:
        """Place a tile without scoring it (jury tiles, boards drawn for tests)."""
        cell = move // 3
        self.board[cell] = move - cell * 3
        empties = self.empties
        where = self.where
        i = where[cell]
        last = empties.pop()
        if last != cell:
            empties[i] = last
            where[last] = i
        where[cell] = -1
        a, b, c, d = SEGMENTS[move]
        other = self.other
        plen = self.plen
        ea = other[a]
        eb = other[b]
        if ea != b:  # a cycle needs no bookkeeping: its nodes are never ends again
            n = plen[a] + plen[b] + 1
            other[ea] = eb
            other[eb] = ea
            plen[ea] = n
            plen[eb] = n
        ec = other[c]
        ed = other[d]
        if ec != d:
            n = plen[c] + plen[d] + 1
            other[ec] = ed
            other[ed] = ec
            plen[ec] = n
            plen[ed] = n

    def play(self, move: int) -> int:
        """Play ``move`` for the seat to move, update its score and return the change."""
        seat = self.ply & 1
        gain = self.delta(move, seat)
        self.put(move)
        self.scores[seat] += gain
        self.ply += 1
        return gain

    def random_playout(self, rng: random.Random) -> None:
        """Fill the board with uniformly random moves (in place)."""
        rand = rng.random
        empties = self.empties
        scores = self.scores
        while empties:
            cell = empties[int(rand() * len(empties))]
            move = cell * 3 + int(rand() * 3)
            seat = self.ply & 1
            scores[seat] += self.delta(move, seat)
            self.put(move)
            self.ply += 1

"""Shared tactics for the bots: the open ends a move leaves, and what the opponent can take there."""

from __future__ import annotations

from codecup_games.spaghetti.engine import CELLS, COLS, KIND, NODES, SEGMENTS, Position, h_node, v_node


def _node_cells() -> tuple[tuple[int, int], ...]:
    """For each node, the cells on its two sides (-1 beyond a wall)."""
    cells = [[-1, -1] for _ in range(NODES)]
    for cell in range(CELLS):
        row, col = divmod(cell, COLS)
        for node in (h_node(row, col), h_node(row + 1, col), v_node(row, col), v_node(row, col + 1)):
            pair = cells[node]
            pair[0 if pair[0] < 0 else 1] = cell
    return tuple((a, b) for a, b in cells)


NODE_CELLS = _node_cells()


def frontier_cells(before: Position, after: Position, move: int) -> set[int]:
    """The empty cells at the open ends of the paths through ``move``'s segments.

    ``before`` and ``after`` are the positions before and after ``move``. A
    path's far end is either one of the placed cell's sides or was the far end
    of a path that side ended before the move.
    """
    a, b, c, d = SEGMENTS[move]
    other = before.other
    board = after.board
    out: set[int] = set()
    for node in (a, b, c, d, other[a], other[b], other[c], other[d]):
        if KIND[node]:
            continue
        x, y = NODE_CELLS[node]
        ex, ey = board[x] < 0, board[y] < 0
        if ex != ey:
            out.add(x if ex else y)
    return out


def best_at(pos: Position, cells: set[int], seat: int) -> int:
    """The best score change ``seat`` can get with one tile on one of ``cells`` (-99 if none)."""
    best = -99
    delta = pos.delta
    for cell in cells:
        m = cell * 3
        for move in (m, m + 1, m + 2):
            gain = delta(move, seat)
            if gain > best:
                best = gain
    return best


def is_hot(pos: Position, cell: int) -> bool:
    """Whether a tile on the empty ``cell`` can score anything (for either seat).

    A move scores only if it completes a path, and a completed path through
    the cell needs two of the cell's sides whose paths already end on a wall
    or loop back to another side of the cell. A cell without two such sides
    scores 0 with every tile, so searches skip it.
    """
    sides = SEGMENTS[cell * 3]
    other = pos.other
    count = 0
    for x in sides:
        f = other[x]
        if KIND[f] or (f != x and f in sides):
            count += 1
            if count == 2:
                return True
    return False

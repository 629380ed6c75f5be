"""A plain reference scorer: walk along the paths, segment by segment (slow, obviously right)."""

from __future__ import annotations

from codecup_games.spaghetti.engine import COLS, CYCLE_PENALTY, ROWS, SAME_WALL_PENALTY

N, E, S, W = 0, 1, 2, 3
OPPOSITE = {N: S, S: N, E: W, W: E}
STEP = {N: (-1, 0), S: (1, 0), W: (0, -1), E: (0, 1)}
# Each tile's two segments as pairs of sides (l, s, r).
TILE_SEGMENTS = (((N, W), (S, E)), ((N, S), (W, E)), ((N, E), (S, W)))


def _walk(board, start, exit_side, other_seg):
    """Walk out of segment ``start`` = (cell, index) through ``exit_side``.

    Returns (end, count, other_at): end is "open", "cycle", "neutral", "left" or
    "right"; count the segments passed beyond the start; other_at the position
    (1-based) of ``other_seg`` on the way, or None.
    """
    cell, _ = start
    side = exit_side
    count = 0
    other_at = None
    while True:
        r, c = divmod(cell, COLS)
        dr, dc = STEP[side]
        r, c = r + dr, c + dc
        if not (0 <= r < ROWS and 0 <= c < COLS):
            wall = "neutral" if side in (N, S) else ("left" if side == W else "right")
            return wall, count, other_at
        cell = r * COLS + c
        tile = board[cell]
        if tile < 0:
            return "open", count, other_at
        entry = OPPOSITE[side]
        index = next(i for i, seg in enumerate(TILE_SEGMENTS[tile]) if entry in seg)
        if (cell, index) == start:
            return "cycle", count, other_at
        count += 1
        if (cell, index) == other_seg:
            other_at = count
        seg = TILE_SEGMENTS[tile][index]
        side = seg[1] if seg[0] == entry else seg[0]


def naive_delta(board: list[int], move: int, seat: int) -> int:
    """The score change of ``move`` for ``seat`` on ``board`` (tile per cell, -1 empty)."""
    cell, tile = divmod(move, 3)
    board = list(board)
    board[cell] = tile
    own = "left" if seat == 0 else "right"
    total = 0
    done = set()
    for index in (0, 1):
        if index in done:
            continue
        seg = (cell, index)
        other = (cell, 1 - index)
        p, q = TILE_SEGMENTS[tile][index]
        end1, n1, o1 = _walk(board, seg, q, other)
        if end1 == "cycle":
            done.add(index)
            if o1 is not None:
                done.add(1 - index)
            total += CYCLE_PENALTY
            continue
        end2, n2, o2 = _walk(board, seg, p, other)
        done.add(index)
        if o1 is not None or o2 is not None:
            done.add(1 - index)
        if "open" in (end1, end2) or "neutral" in (end1, end2):
            continue
        if end1 == end2:
            total += SAME_WALL_PENALTY
            continue
        if end1 == own:
            n_own, away = n1, o2
        else:
            n_own, away = n2, o1
        dist = n_own + 1
        if away is not None:
            dist = n_own + 1 + away
        total += dist
    return total

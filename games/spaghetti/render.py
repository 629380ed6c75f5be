"""Drawing a Spaghetti position: a text board for the terminal and an SVG for the results site."""

from __future__ import annotations

import attrs

from codecup_games.spaghetti.engine import (
    CELLS,
    COLS,
    KIND,
    NEUTRAL_WALL,
    NODES,
    ROWS,
    SEGMENTS,
    Position,
    v_node,
)
from codecup_games.spaghetti.notation import COL_LETTERS, ROW_LETTERS, format_move
from codecup_games.spaghetti.rules import SpaghettiState

# Path kinds, for colouring segments and marking wall ends.
OPEN, CYCLE, NEUTRAL, SAME_WALL, ACROSS = "open", "cycle", "neutral", "same-wall", "across"


@attrs.frozen
class Snapshot:
    """A position with what the drawings need."""

    pos: Position
    last: int | None  # the last move's cell, if any move was played
    path_kind: tuple[str, ...]  # per node: the kind of the path through it ("" if none)


def snapshot(state: SpaghettiState) -> Snapshot:
    """What the drawings of ``state`` need."""
    last = None if state.last is None else state.last // 3
    return Snapshot(state.pos, last, _path_kinds(state.pos))


def _path_kinds(pos: Position) -> tuple[str, ...]:
    """Classify every node's path by walking components (slow and simple: drawing only)."""
    parent = list(range(NODES))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    degree = [0] * NODES
    for cell in range(CELLS):
        tile = pos.board[cell]
        if tile < 0:
            continue
        a, b, c, d = SEGMENTS[cell * 3 + tile]
        for x, y in ((a, b), (c, d)):
            degree[x] += 1
            degree[y] += 1
            parent[find(x)] = find(y)
    ends: dict[int, list[int]] = {}
    for node in range(NODES):
        if degree[node]:
            ends.setdefault(find(node), [])
            if degree[node] == 1:
                ends[find(node)].append(node)
    kinds = {}
    for root, path_ends in ends.items():
        if not path_ends:
            kinds[root] = CYCLE
            continue
        k = sorted(KIND[n] for n in path_ends)
        if k[0] == 0:
            kinds[root] = OPEN
        elif k[0] == NEUTRAL_WALL:
            kinds[root] = NEUTRAL
        elif k[0] == k[1]:
            kinds[root] = SAME_WALL
        else:
            kinds[root] = ACROSS
    return tuple(kinds.get(find(n), "") if degree[n] else "" for n in range(NODES))


_END_MARK = {"": " ", OPEN: "~", NEUTRAL: "^", SAME_WALL: "=", ACROSS: "#", CYCLE: "o"}


def render_text(state: SpaghettiState) -> str:
    """The board (last move in brackets), what the paths at the side walls end in, and the score.

    Beside each row, Blue's wall (left) and Red's wall (right) show the path
    that ends there: ``~`` still open, ``^`` ends on the top or bottom wall,
    ``=`` returns to the same wall, ``#`` crosses to the other side wall.
    """
    snap = snapshot(state)
    pos = snap.pos
    lines = ["     " + "  ".join(COL_LETTERS)]
    for row in range(ROWS):
        cells = []
        for col in range(COLS):
            cell = row * COLS + col
            tile = pos.board[cell]
            ch = "." if tile < 0 else "LSR"[tile]
            cells.append(f"[{ch}]" if cell == snap.last else f" {ch} ")
        left = _END_MARK[snap.path_kind[v_node(row, 0)]]
        right = _END_MARK[snap.path_kind[v_node(row, COLS)]]
        lines.append(f" {ROW_LETTERS[row]} {left}|{''.join(cells)}|{right}")
    blue, red = pos.scores
    if pos.finished:
        status = "game over"
    else:
        status = f"{'Blue' if pos.mover == 0 else 'Red'} to move ({pos.ply + 1}/{CELLS - 2})"
    last = "" if state.last is None else f"   last: {format_move(state.last)}"
    lines.append(f" Blue {blue}  Red {red}   {status}{last}")
    lines.append(" walls: ~ open  ^ top/bottom  = same wall  # across")
    return "\n".join(lines)


_SIZE = 40
_MARGIN = 24
_COLOURS = {OPEN: "#222", NEUTRAL: "#aaa", CYCLE: "#f4a6a6", SAME_WALL: "#f4a6a6", ACROSS: "#8a2be2"}


def _segment_svg(x: float, y: float, tile: int, half: int, colour: str) -> str:
    """One segment of a tile at cell corner (x, y); ``half`` 0 is the first segment."""
    s = _SIZE
    h = s / 2
    if tile == 1:  # straight: N-S, then W-E
        if half == 0:
            return f'<line x1="{x + h}" y1="{y}" x2="{x + h}" y2="{y + s}" stroke="{colour}"/>'
        return f'<line x1="{x}" y1="{y + h}" x2="{x + s}" y2="{y + h}" stroke="{colour}"/>'
    # Quarter circles about a corner: l joins N-W (corner NW) and S-E (corner SE);
    # r joins N-E (corner NE) and S-W (corner SW).
    if tile == 0:
        start, end = ((x + h, y), (x, y + h)) if half == 0 else ((x + h, y + s), (x + s, y + h))
    else:
        start, end = ((x + h, y), (x + s, y + h)) if half == 0 else ((x + h, y + s), (x, y + h))
    return (
        f'<path d="M {start[0]} {start[1]} A {h} {h} 0 0 {1 if tile == 0 else 0} {end[0]} {end[1]}" '
        f'fill="none" stroke="{colour}"/>'
    )


def render_svg(state: SpaghettiState) -> str:
    """The tiles as arcs and lines, coloured by what their path ends in; walls in the players' colours."""
    snap = snapshot(state)
    pos = snap.pos
    width = COLS * _SIZE + 2 * _MARGIN
    height = ROWS * _SIZE + 2 * _MARGIN + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    m = _MARGIN
    bw, bh = COLS * _SIZE, ROWS * _SIZE
    parts.append(f'<line x1="{m}" y1="{m}" x2="{m}" y2="{m + bh}" stroke="#1f5fd6" stroke-width="5"/>')
    parts.append(
        f'<line x1="{m + bw}" y1="{m}" x2="{m + bw}" y2="{m + bh}" stroke="#d62f1f" stroke-width="5"/>'
    )
    for y in (m, m + bh):
        parts.append(f'<line x1="{m}" y1="{y}" x2="{m + bw}" y2="{y}" stroke="#888" stroke-width="3"/>')
    for i, letter in enumerate(COL_LETTERS):
        parts.append(f'<text x="{m + i * _SIZE + _SIZE / 2 - 3}" y="{m - 8}">{letter}</text>')
    for i, letter in enumerate(ROW_LETTERS):
        parts.append(f'<text x="6" y="{m + i * _SIZE + _SIZE / 2 + 4}">{letter}</text>')
    parts.append('<g stroke-width="4" stroke-linecap="round">')
    for cell in range(CELLS):
        row, col = divmod(cell, COLS)
        x, y = m + col * _SIZE, m + row * _SIZE
        fill = "#fff3a0" if cell == snap.last else "none"
        parts.append(
            f'<rect x="{x}" y="{y}" width="{_SIZE}" height="{_SIZE}" fill="{fill}" '
            f'stroke="#ddd" stroke-width="1"/>'
        )
        tile = pos.board[cell]
        if tile < 0:
            continue
        a, _b, c, _d = SEGMENTS[cell * 3 + tile]
        for half, node in ((0, a), (1, c)):
            colour = _COLOURS.get(snap.path_kind[node], "#222")
            parts.append(_segment_svg(x, y, tile, half, colour))
    parts.append("</g>")
    blue, red = pos.scores
    parts.append(
        f'<text x="{m}" y="{height - 10}"><tspan fill="#1f5fd6">Blue {blue}</tspan>'
        f'<tspan dx="12" fill="#d62f1f">Red {red}</tspan></text>'
    )
    parts.append("</svg>")
    return "".join(parts)

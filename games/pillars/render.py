"""Drawing a position: a labelled text grid for terminals and an SVG board for the site."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codecup_games.pillars.engine import FIELDS, SIZE, bit
from codecup_games.pillars.notation import COLS, ROWS

if TYPE_CHECKING:
    from codecup_games.pillars.rules import PillarsState

SEAT_NAMES = ("Red", "Blue")


def render_text(pic: PillarsState) -> str:
    """The grid: ``#`` pillar, ``r``/``b`` Red/Blue tiles (upper case: the last move), ``.`` empty."""
    b = pic.board
    lines = ["   " + " ".join(COLS)]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            f = bit(row, col)
            if b.pillars & f:
                ch = "#"
            elif b.red & f:
                ch = "r"
            elif b.blue & f:
                ch = "b"
            else:
                ch = "."
            cells.append(ch.upper() if pic.last & f else ch)
        lines.append(f"{ROWS[row]}  " + " ".join(cells))
    lines.append(status(pic))
    return "\n".join(lines)


def joker_text(pic: PillarsState) -> str:
    """The jokers played so far, as ``Red joker, Blue joker`` (empty if none)."""
    return ", ".join(f"{SEAT_NAMES[s]} joker" for s in (0, 1) if pic.jokers[s] is not None)


def status(pic: PillarsState) -> str:
    """One line: the move number, the fields left, who moves or who lost, the jokers."""
    b = pic.board
    plies = pic.plies
    jokers = joker_text(pic)
    extra = f"; {jokers}" if jokers else ""
    if b.over:
        loser = SEAT_NAMES[1 - b.to_move]
        return f"move {plies}: board full, {loser} moved last and loses{extra}"
    return f"move {plies}: {b.empty_count} empty, {SEAT_NAMES[b.to_move]} to move{extra}"


CELL = 36
MARGIN = 28
COLOURS = {
    "empty": "#f4f1e8",
    "pillar": "#444444",
    "red": "#d33b3b",
    "blue": "#3b62d3",
    "grid": "#999999",
    "hatch": "#c9d5f5",
}


def blue_hatch(x: int, y: int) -> str:
    """The diagonal that marks a Blue tile at ``(x, y)``: tiles told apart by more than their
    colours, whose contrast with each other is 1.3:1 (a red team's); a rectangle of them is hatched."""
    return f"M{x} {y + CELL}L{x + CELL} {y}"


def render_svg(pic: PillarsState) -> str:
    """The board as SVG: grey pillars, red and blue tiles, the last move outlined."""
    b = pic.board
    size = MARGIN + SIZE * CELL + 8
    height = size + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" font-family="sans-serif" font-size="14">'
    ]
    for i in range(SIZE):
        centre = MARGIN + i * CELL + CELL // 2
        parts.append(f'<text x="{centre}" y="{MARGIN - 8}" text-anchor="middle">{COLS[i]}</text>')
        parts.append(f'<text x="{MARGIN // 2}" y="{centre + 5}" text-anchor="middle">{ROWS[i]}</text>')
    for p in range(FIELDS):
        row, col = divmod(p, SIZE)
        f = 1 << p
        kind = "pillar" if b.pillars & f else "red" if b.red & f else "blue" if b.blue & f else "empty"
        x, y = MARGIN + col * CELL, MARGIN + row * CELL
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{COLOURS[kind]}" '
            f'stroke="{COLOURS["grid"]}" class="{kind}"/>'
        )
        if kind == "pillar":
            parts.append(f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL / 3}" fill="#bbbbbb"/>')
        elif kind == "blue":  # Blue's tiles hatched: red and blue alike in lightness (a red team's)
            parts.append(f'<path d="{blue_hatch(x, y)}" stroke="{COLOURS["hatch"]}" stroke-width="3"/>')
    if pic.last:
        rows = [p // SIZE for p in range(FIELDS) if pic.last >> p & 1]
        cols = [p % SIZE for p in range(FIELDS) if pic.last >> p & 1]
        x, y = MARGIN + min(cols) * CELL, MARGIN + min(rows) * CELL
        w, h = (max(cols) - min(cols) + 1) * CELL, (max(rows) - min(rows) + 1) * CELL
        parts.append(
            f'<rect x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}" fill="none" '
            f'stroke="#ffd000" stroke-width="4" class="last"/>'
        )
    parts.append(f'<text x="{MARGIN}" y="{height - 8}">{status(pic)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)

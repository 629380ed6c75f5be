"""Text and SVG pictures of a Turn Right position, with the circuit just played marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codecup_games.turn_right.board import FILES, SIZE, square_at, square_name
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.engine import WHITE

if TYPE_CHECKING:
    from codecup_games.turn_right.rules import TurnRightState


def _arrow(circuit: Circuit | None, square: int) -> str:
    """The way the piece on ``square`` moved along the last circuit (blank off the path)."""
    if circuit is None:
        return " "
    bit = 1 << square
    return (
        "^"
        if circuit.up & bit
        else ">"
        if circuit.right & bit
        else "v"
        if circuit.down & bit
        else "<"
        if circuit.left & bit
        else " "
    )


def status(pic: TurnRightState) -> str:
    """One line: phase, points, and the end if reached."""
    pos = pic.pos
    w, b = pos.points
    head = f"placement {pos.placed}/36" if pos.placing else f"circuit {pos.circuits}/26"
    line = f"{head}  points White {w} - Black {b}"
    if pos.winner is not None:
        line += f"  3x3: {'White' if pos.winner == WHITE else 'Black'} wins"
    elif pos.over:
        line += "  game over"
    else:
        line += f"  to move: {'White' if pos.to_move == WHITE else 'Black'}"
    return line


def text(pic: TurnRightState) -> str:
    """The board, rank 6 at the top: ``W``/``B`` pieces, ``.`` free; arrows show the last circuit."""
    pos = pic.pos
    rows = [status(pic)]
    if pic.last is not None:
        rows.append(f"last circuit {pic.last.normal().text()}")
    for rank in reversed(range(SIZE)):
        cells = []
        for file in range(SIZE):
            square = square_at(file, rank)
            bit = 1 << square
            piece = "W" if pos.white & bit else "B" if pos.black & bit else "."
            cells.append(piece + _arrow(pic.last, square))
        rows.append(f"{rank + 1} " + " ".join(cells))
    rows.append("  " + " ".join(f"{f} " for f in FILES))
    return "\n".join(rows)


CELL = 48
MARGIN = 28


def svg(pic: TurnRightState) -> str:
    """An SVG drawing of the board with the last circuit as a red arrowed loop."""
    pos = pic.pos
    size = SIZE * CELL
    width = size + 2 * MARGIN
    height = size + 2 * MARGIN + 24

    def centre(square: int) -> tuple[int, int]:
        file, rank = divmod(square, SIZE)
        return MARGIN + file * CELL + CELL // 2, MARGIN + (SIZE - 1 - rank) * CELL + CELL // 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="tr-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{size}" height="{size}" fill="#d9b77e" stroke="#5a4020"/>',
    ]
    for i in range(1, SIZE):
        p = MARGIN + i * CELL
        parts.append(f'<line x1="{p}" y1="{MARGIN}" x2="{p}" y2="{MARGIN + size}" stroke="#5a4020"/>')
        parts.append(f'<line x1="{MARGIN}" y1="{p}" x2="{MARGIN + size}" y2="{p}" stroke="#5a4020"/>')
    for i in range(SIZE):
        x = MARGIN + i * CELL + CELL // 2
        parts.append(f'<text x="{x}" y="{MARGIN + size + 16}" text-anchor="middle">{FILES[i]}</text>')
        y = MARGIN + (SIZE - 1 - i) * CELL + CELL // 2 + 4
        parts.append(f'<text x="{MARGIN - 12}" y="{y}" text-anchor="middle">{i + 1}</text>')
    for square in range(SIZE * SIZE):
        bit = 1 << square
        if not (pos.white | pos.black) & bit:
            continue
        x, y = centre(square)
        fill = "#ffffff" if pos.white & bit else "#202020"
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{CELL // 2 - 6}" fill="{fill}" stroke="#000">'
            f"<title>{square_name(square)}</title></circle>"
        )
    if pic.last is not None:
        corners = pic.last.corners
        for i, a in enumerate(corners):
            (x1, y1), (x2, y2) = centre(a), centre(corners[(i + 1) % len(corners)])
            parts.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c0392b" stroke-width="3" '
                'marker-end="url(#tr-arrow)"/>'
            )
    parts.append(f'<text x="{MARGIN}" y="{height - 8}">{status(pic)}</text>')
    parts.append("</svg>")
    return "".join(parts)

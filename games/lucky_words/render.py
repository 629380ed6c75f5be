"""Both boards side by side, each scoring word marked, with per-line points (text and SVG)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from codecup_games.lucky_words.engine import SIZE
from codecup_games.lucky_words.rules import LuckyWordsState
from codecup_games.lucky_words.scorer import BoardScore, cols_of

SEATS = ("first", "second")


def _row_text(row: str, spans: Sequence[tuple[int, int]]) -> str:
    # Separators between cells: '[' opens a row word, ']' closes it, ' ' elsewhere.
    seps = [" "] * (SIZE + 1)
    for start, length in spans:
        seps[start] = "[" if seps[start] == " " else "]["
        seps[start + length] = "]"
    out = []
    for i, ch in enumerate(row):
        out.append(seps[i])
        out.append(ch)
    out.append(seps[SIZE])
    return "".join(out)


def board_lines(board: str, score: BoardScore, title: str) -> list[str]:
    """One board's block of text: title, rows with row words bracketed, column points and words."""
    lines = [f"{title}: {score.total} points"]
    for r in range(SIZE):
        row = board[r * SIZE : (r + 1) * SIZE]
        lines.append(f"{_row_text(row, score.rows[r].words):<17}{score.rows[r].points:>3}")
    cols = cols_of(board)
    found = [cols[c][s : s + n] for c in range(SIZE) for s, n in score.cols[c].words]
    lines.append("cols: " + (" ".join(found) if found else "-"))
    lines.append("col pts: " + " ".join(str(c.points) for c in score.cols))
    return lines


def render_text(state: LuckyWordsState) -> str:
    """Both boards of ``state``, side by side."""
    position, scorer = state.position, state.scorer
    blocks = [
        board_lines(board, scorer.board(board), f"{SEATS[s]}") for s, board in enumerate(position.boards)
    ]
    width = max(len(line) for line in blocks[0]) + 4
    lines = [f"{a:<{width}}{b}" for a, b in zip(blocks[0], blocks[1], strict=True)]
    seq = "".join(position.letters)
    picked = len(position.letters)
    lines.append(f"letters: {position.start}|{seq}  ({picked} of 48 picked, {scorer.mode.value} scoring)")
    if not position.letters:  # the opening view says which list scores the game
        lines.append(scorer.words.describe())
    return "\n".join(lines)


CELL = 36
PAD = 24


def render_svg(state: LuckyWordsState) -> str:
    """Both boards of ``state`` as SVG: row words boxed in blue, column words in red."""
    position, scorer = state.position, state.scorer
    board_w = SIZE * CELL + 40
    width = 2 * board_w + 3 * PAD
    height = SIZE * CELL + 100
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="16">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for seat, board in enumerate(position.boards):
        score = scorer.board(board)
        x0 = PAD + seat * (board_w + PAD)
        y0 = 40
        parts.append(f'<text x="{x0}" y="24" font-weight="bold">{SEATS[seat]}: {score.total} points</text>')
        for p, ch in enumerate(board):
            x, y = x0 + (p % SIZE) * CELL, y0 + (p // SIZE) * CELL
            fill = "#fff8dc" if p == 24 else "#f4f4f4"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#999"/>'
            )
            if ch != ".":
                parts.append(
                    f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 6}" '
                    f'text-anchor="middle">{escape(ch)}</text>'
                )
        for r, line in enumerate(score.rows):
            for s, n in line.words:
                parts.append(
                    f'<rect x="{x0 + s * CELL + 3}" y="{y0 + r * CELL + 3}" width="{n * CELL - 6}" '
                    f'height="{CELL - 6}" rx="8" fill="none" stroke="#1f5fbf" stroke-width="2"/>'
                )
            parts.append(
                f'<text x="{x0 + SIZE * CELL + 8}" y="{y0 + r * CELL + CELL / 2 + 6}" '
                f'fill="#1f5fbf">{line.points}</text>'
            )
        for c, line in enumerate(score.cols):
            for s, n in line.words:
                parts.append(
                    f'<rect x="{x0 + c * CELL + 6}" y="{y0 + s * CELL + 6}" width="{CELL - 12}" '
                    f'height="{n * CELL - 12}" rx="8" fill="none" stroke="#bf1f1f" stroke-width="2"/>'
                )
            parts.append(
                f'<text x="{x0 + c * CELL + CELL / 2}" y="{y0 + SIZE * CELL + 20}" text-anchor="middle" '
                f'fill="#bf1f1f">{line.points}</text>'
            )
    seq = escape(position.start + " " + "".join(position.letters))
    parts.append(f'<text x="{PAD}" y="{height - 12}" font-size="12">letters: {seq}</text>')
    parts.append("</svg>")
    return "".join(parts)

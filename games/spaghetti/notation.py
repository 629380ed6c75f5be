"""Move notation: three lower-case letters, row (a..i), column (a..g), tile (l, s, r)."""

from __future__ import annotations

from codecup.errors import InvalidMoveError
from codecup_games.spaghetti.engine import COLS, ROWS, TILES

ROW_LETTERS = "abcdefghi"[:ROWS]
COL_LETTERS = "abcdefg"[:COLS]


def parse_move(text: str) -> int:
    """The move ``cell * 3 + tile`` written as ``text`` (e.g. ``cds``); raise ``InvalidMoveError``."""
    if len(text) != 3:
        raise InvalidMoveError(f"a move is three letters (row a-i, column a-g, tile l/s/r), not {text!r}")
    row = ROW_LETTERS.find(text[0])
    col = COL_LETTERS.find(text[1])
    tile = TILES.find(text[2])
    if row < 0:
        raise InvalidMoveError(f"bad row {text[0]!r} in move {text!r} (rows are a-i)")
    if col < 0:
        raise InvalidMoveError(f"bad column {text[1]!r} in move {text!r} (columns are a-g)")
    if tile < 0:
        raise InvalidMoveError(f"bad tile {text[2]!r} in move {text!r} (tiles are l, s, r)")
    return (row * COLS + col) * 3 + tile


def format_move(move: int) -> str:
    """The text of move ``cell * 3 + tile``."""
    cell, tile = divmod(move, 3)
    row, col = divmod(cell, COLS)
    return ROW_LETTERS[row] + COL_LETTERS[col] + TILES[tile]

"""Shared test helpers: the spec's diagonal setup and whole games played greedily."""

from __future__ import annotations

from codecup_games.pillars.engine import RECT_OF_MASK, Board, legal_masks
from codecup_games.pillars.notation import format_rect, parse_rect
from codecup_games.pillars.setup import parse_setup

DIAGONAL = "\n".join(r + r.lower() for r in "ABCDEFGHIJ")


def greedy_game(setup: str = DIAGONAL, opening: tuple[str, ...] = ()) -> list[str]:
    """A whole game: the ``opening`` moves, then always the largest rectangle (first found)."""
    board = Board.start(parse_setup(setup))
    moves = list(opening)
    for text in opening:
        board = board.play(parse_rect(text))
    while not board.over:
        m = max(legal_masks(board.empty), key=int.bit_count)
        moves.append(format_rect(RECT_OF_MASK[m]))
        board = board.play(RECT_OF_MASK[m])
    return moves


def empty_before(setup: str, moves: list[str], ply: int) -> int:
    """How many fields are empty before move number ``ply`` (0-based)."""
    board = Board.start(parse_setup(setup))
    for text in moves[:ply]:
        board = board.play(parse_rect(text.lstrip("!")))
    return board.empty_count

"""The results site's frames of a Pillars game, drawn in the browser by ``draw.js``."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from codecup_games.pillars.engine import FIELDS, Board
from codecup_games.pillars.notation import Move
from codecup_games.pillars.render import SEAT_NAMES
from codecup_games.pillars.setup import parse_setup


def script() -> str:
    """The drawing script (``codecupDraw``)."""
    return resources.files("codecup_games.pillars").joinpath("draw.js").read_text("utf-8")


def _frame(board: Board, last: Move | None, jokers: list[bool], ply: int) -> dict[str, Any]:
    cells = "".join(
        "#" if board.pillars >> p & 1 else "r" if board.red >> p & 1 else "b" if board.blue >> p & 1 else "."
        for p in range(FIELDS)
    )
    joker_text = ", ".join(f"{SEAT_NAMES[s]} joker" for s in (0, 1) if jokers[s])
    if board.over:
        status = f"move {ply}: board full, {SEAT_NAMES[1 - board.to_move]} moved last and loses"
    else:
        status = f"move {ply}: {board.empty_count} empty"
    r = last.rect if last else None
    return {
        "b": cells,
        "l": [r.top, r.left, r.bottom, r.right] if r else None,
        "st": status,
        "tm": None if board.over else SEAT_NAMES[board.to_move],
        "j": joker_text,
    }


def frames(setup: str, moves: Sequence[str]) -> list[dict[str, Any]]:
    """Per position: the 100 fields (``#`` pillar, ``r``/``b`` tiles, ``.``), the last move, the status."""
    board = Board.start(parse_setup(setup))
    jokers = [False, False]
    last = None
    out = [_frame(board, None, jokers, 0)]
    for k, text in enumerate(moves, start=1):
        last = Move.from_text(text)
        if last.joker:
            jokers[board.to_move] = True
        board = board.play(last.rect)
        out.append(_frame(board, last, jokers, k))
    return out

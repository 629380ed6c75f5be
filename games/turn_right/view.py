"""The results site's frames of a Turn Right game, drawn in the browser by ``draw.js``."""

from __future__ import annotations

from importlib import resources
from typing import Any

from codecup_games.turn_right.board import SIZE
from codecup_games.turn_right.engine import WHITE
from codecup_games.turn_right.rules import TurnRightState

NAMES = ("White", "Black")


def script() -> str:
    """The drawing script (``codecupDraw``)."""
    return resources.files("codecup_games.turn_right").joinpath("draw.js").read_text("utf-8")


def frame(state: TurnRightState) -> dict[str, Any]:
    """One position: the 36 squares (file-major, ``WB.``), the last circuit's corners, the status."""
    pos, last = state.pos, state.last
    squares = "".join(
        "W" if pos.white >> s & 1 else "B" if pos.black >> s & 1 else "." for s in range(SIZE * SIZE)
    )
    w, b = pos.points
    head = f"placement {pos.placed}/36" if pos.placing else f"circuit {pos.circuits}/26"
    if pos.winner is not None:
        over = f"3x3: {NAMES[0] if pos.winner == WHITE else NAMES[1]} wins"
    else:
        over = "game over" if pos.over else ""
    return {
        "p": squares,
        "c": list(last.corners) if last is not None else None,
        "st": f"{head}, points White {w} - Black {b}",
        "over": over,
        "tm": None if over else NAMES[0] if pos.to_move == WHITE else NAMES[1],
    }

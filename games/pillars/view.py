"""The results site's frames of a Pillars game, drawn in the browser by ``draw.js``."""

from __future__ import annotations

from importlib import resources
from typing import Any

from codecup_games.pillars.engine import FIELDS, RECT_OF_MASK
from codecup_games.pillars.render import SEAT_NAMES, joker_text
from codecup_games.pillars.rules import PillarsState


def script() -> str:
    """The drawing script (``codecupDraw``)."""
    return resources.files("codecup_games.pillars").joinpath("draw.js").read_text("utf-8")


def frame(state: PillarsState) -> dict[str, Any]:
    """One position: the 100 fields (``#`` pillar, ``r``/``b`` tiles, ``.``), the last move, the status."""
    board = state.board
    cells = "".join(
        "#" if board.pillars >> p & 1 else "r" if board.red >> p & 1 else "b" if board.blue >> p & 1 else "."
        for p in range(FIELDS)
    )
    if board.over:
        status = f"move {state.plies}: board full, {SEAT_NAMES[1 - board.to_move]} moved last and loses"
    else:
        status = f"move {state.plies}: {board.empty_count} empty"
    r = RECT_OF_MASK[state.last] if state.last else None
    return {
        "b": cells,
        "l": [r.top, r.left, r.bottom, r.right] if r else None,
        "st": status,
        "tm": None if board.over else SEAT_NAMES[board.to_move],
        "j": joker_text(state),
    }

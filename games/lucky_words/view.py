"""The results site's frames of a Lucky Words game, drawn in the browser by ``draw.js``.

Scoring needs the word list, which the browser does not have, so each frame
carries the words found: per line its points and ``(start, length)`` pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from codecup_games.lucky_words.engine import SIZE
from codecup_games.lucky_words.rules import LuckyWordsState
from codecup_games.lucky_words.scorer import LineScore


def script() -> str:
    """The drawing script (``codecupDraw``)."""
    return resources.files("codecup_games.lucky_words").joinpath("draw.js").read_text("utf-8")


def _line(score: LineScore) -> list[int]:
    """``[points, start, length, start, length, ...]``."""
    return [score.points, *(x for word in score.words for x in word)]


def frames(states: Sequence[LuckyWordsState]) -> list[dict[str, Any]]:
    """Per state: both boards (49 letters, ``.`` empty), each line's points and words, the letters."""
    out: list[dict[str, Any]] = []
    for state in states:
        position = state.position
        boards = []
        for board in position.boards:
            score = state.scorer.board(board)
            boards.append(
                {
                    "c": board,
                    "t": score.total,
                    "r": [_line(line) for line in score.rows],
                    "k": [_line(line) for line in score.cols],
                }
            )
        letters = "".join(position.letters)
        out.append({"b": boards, "s": position.start + " " + letters, "n": len(position.letters)})
    assert all(len(b["c"]) == SIZE * SIZE for f in out for b in f["b"])
    return out

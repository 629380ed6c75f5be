"""Competition scoring: game points (2/1/0, or 3/0) and the game score with its bonus (rules 14-18).

The :class:`~codecup.dialogue.Outcome` of a game carries the game score per seat
in ``scores`` and the circuit points and end reason in ``extra``;
:func:`game_points` reads them back. The framework's default standings order
(points, then score, then fewer irregular losses) is rule 18 as it stands.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from codecup_games.turn_right import settled


class End(enum.StrEnum):
    """Why a game ended."""

    CIRCUITS = "26 circuits"
    THREE = "3x3"
    IRREGULAR = "irregular"


@attrs.frozen
class Result:
    """A finished game: game points and game score per seat, from the circuit points and the end."""

    end: End
    points: tuple[int, int]
    """Circuit points (White, Black) at the end."""
    winner: int | None
    """The winning seat, ``None`` for a draw."""
    game_points: tuple[int, int]
    game_score: tuple[int, int]

    def extra(self) -> dict[str, Any]:
        """The record's game-specific data."""
        return {
            "end": self.end.value,
            "points": list(self.points),
            "winner": self.winner,
            "game_points": list(self.game_points),
        }


def _seated(winner: int, win: int, lose: int) -> tuple[int, int]:
    return (win, lose) if winner == 0 else (lose, win)


def after_circuits(points: tuple[int, int]) -> Result:
    """Rules 14-15: 2-0 and 50 + difference (at most 100) to the side ahead; 1-1 and 50-50 if equal."""
    white, black = points
    if white == black:
        d = settled.DRAW_GAME_SCORE
        return Result(End.CIRCUITS, points, None, (1, 1), (d, 100 - d))
    winner = 0 if white > black else 1
    share = settled.share(abs(white - black))
    return Result(End.CIRCUITS, points, winner, _seated(winner, 2, 0), _seated(winner, share, 100 - share))


def after_three(points: tuple[int, int], winner: int) -> Result:
    """Rule 16: 3-0, and the winner's share from the points now (maybe behind) plus the bonus."""
    share = settled.share(points[winner] - points[1 - winner])
    score = _seated(winner, share + settled.WIN_BONUS, 100 - share)
    return Result(End.THREE, points, winner, _seated(winner, 3, 0), score)


def after_irregular(points: tuple[int, int], offender: int) -> Result:
    """Rule 17: the other seat wins 3-0 with its share plus the bonus; the offender gets nothing."""
    winner = 1 - offender
    share = settled.share(points[winner] - points[offender])
    return Result(
        End.IRREGULAR, points, winner, _seated(winner, 3, 0), _seated(winner, share + settled.WIN_BONUS, 0)
    )


def game_points(extra: Mapping[str, Any]) -> tuple[int, int]:
    """The game points recorded in an outcome's ``extra``."""
    white, black = extra["game_points"]
    return int(white), int(black)

"""Competition points: a game's points are the player's score (0 after a fault); totals rank."""

from __future__ import annotations

from codecup.dialogue import Outcome


def points(outcome: Outcome) -> tuple[float, ...]:
    """Points per seat: the final score, which the referee already set to 0 for an offender.

    CodeCup 2022 ranked by the total of these over all games (spec rule 15),
    which is the framework's default standing order (points first).
    """
    return tuple(float(s) for s in outcome.scores)

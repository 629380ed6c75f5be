"""Competition points: the better board wins (2004: 2/1/0; Word Racer: 3/1/0).

A seat that ends other than normally (invalid move, crash, time-out) gets 0
and its opponent the win points, whatever the boards hold.
"""

from __future__ import annotations

from codecup.dialogue import Outcome, Termination
from codecup_games.lucky_words.variants import Rules


def game_points(outcome: Outcome, rules: Rules) -> tuple[float, float]:
    """Points per seat for a finished game."""
    win = float(rules.win_points)
    bad = [end.kind is not Termination.NORMAL for end in outcome.ends]
    if bad[0] and bad[1]:
        return (0.0, 0.0)
    if bad[0]:
        return (0.0, win)
    if bad[1]:
        return (win, 0.0)
    a, b = outcome.scores
    if a > b:
        return (win, 0.0)
    if b > a:
        return (0.0, win)
    return (1.0, 1.0)

"""Every reading of the Turn Right rules chosen where the original page is silent.

The spec (``shared/specs/turn_right.md``) marks these "Settled". They live here,
and only here, so each one is easy to find and to revisit; the engine, referee
and scoring import them rather than repeating the choice.
"""

from __future__ import annotations

WHITE_START_POINTS = 5
"""White's compensation for Black moving first in phase 2 (rule 11; not settled, but a tunable)."""

SCORE_DURING_PLACEMENT = False
"""Rule 4: nothing is scored and no 3x3 is checked while pieces are being placed."""

LISTED_SQUARES_MUST_TURN = True
"""Rule 7: every listed square must be a real corner; a square in a straight run is invalid."""

CLOCKWISE_ONLY = True
"""Rule 9: a circuit listed counter-clockwise (rank 1 at the bottom) is invalid, not reversed."""

SCORE_EVERY_CIRCUIT = True
"""Rule 12: after every circuit each player scores its 2x2 windows; the counts add up over the game."""

WINNING_MOVE_IS_SCORED = True
"""Rule 16: the points "at that moment" of a 3x3 win include the 2x2 windows of the winning move."""

DRAW_GAME_SCORE = 50
"""Rule 15: a drawn game (equal points after 26 circuits) gives each seat a game score of 50."""

SHARE_CLAMP = (0, 100)
"""Rules 15-17: a winner's share 50 + difference is held within 0..100 *before* the bonus of 50.

The page caps it at 100; a 3x3 or irregular win while far behind could take it
below 0, which we clamp too, so the loser never gets more than 100.
"""

WIN_BONUS = 50
"""Rules 16-17: the bonus for a 3x3 win or an opponent's irregular end."""

X_ON_EVERY_IRREGULAR_END = True
"""Rule 23 names an invalid move; we send ``x`` to both seats on a time-out or crash as well.

(The faulted seat's send is a no-op in the framework, so only its opponent sees it.)
"""

PASS_ON_LAST_MOVE = True
"""Rule 24: the move that ends the game (26th circuit or a 3x3) is passed on as usual, then both close.

(Documentation only: the referee and the player session are written this way.)
"""

ANNOUNCE_AUTOMATIC_PLACEMENT = False
"""Rule 3: Black's 36th piece goes down by itself; no seat made it, so it is not a ``Played`` move.

Replaying the announced moves (rendering, bots) fills the last square the same way.
"""


def share(difference: int) -> int:
    """The winner's share 50 + ``difference`` of the 100 game-score points, clamped (rules 15-17)."""
    low, high = SHARE_CLAMP
    return max(low, min(high, 50 + difference))


def both_3x3_winner(mover: int) -> int:
    """Rule 13: when one move gives both colours a 3x3, the seat that did *not* move wins."""
    return 1 - mover

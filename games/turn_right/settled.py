"""Every reading of the Turn Right rules chosen where the original page is silent.

The spec (``shared/specs/turn_right.md``) marks these "Settled". They live here,
and only here, so each one is easy to find and to revisit. The switched readings
are the variant's rule options (:class:`Settled`, ``Variant.options``): the
engine, notation, referee and scoring get them passed, and the tests flip some
of them to show the other reading works. Two readings are built into the shape
of the code rather than switched:

- Rule 12: points are scored after *every* circuit, one per filled 2x2 window
  (25 overlapping windows), and add up over the game (``Position.play_circuit``).
- Rule 3: Black's automatic 36th piece is not announced as a ``Played`` move;
  no seat made it. Replaying the announced moves fills the last square the same
  way (``Position.place``), so records, rendering and bots agree.
"""

from __future__ import annotations

import attrs

# --- switches -----------------------------------------------------------------


@attrs.frozen
class Settled:
    """The switched readings of the rules: a Turn Right variant's rule options."""

    score_during_placement: bool = False
    """Rule 4: nothing is scored and no 3x3 counts while pieces are placed (True: both, after each piece)."""

    listed_squares_must_turn: bool = True
    """Rule 7: every listed square must be a real corner (False: squares in a straight run are dropped)."""

    clockwise_only: bool = True
    """Rule 9: a counter-clockwise listing is invalid (False: it is read as the same loop, clockwise)."""

    winning_move_is_scored: bool = True
    """Rule 16: the points "at that moment" of a 3x3 win include the winning circuit's windows."""

    x_on_every_irregular_end: bool = True
    """Rule 23 names an invalid move; we also send ``x`` on a time-out or crash (False: only on bad moves).

    The faulted seat's send is a no-op in the framework, so only its opponent sees it.
    """

    pass_on_last_move: bool = True
    """Rule 24: the move that ends the game is passed on as usual, then both seats are closed."""


SETTLED = Settled()
"""The readings of the ``codecup2006`` variant."""

# --- values -------------------------------------------------------------------

WHITE_START_POINTS = 5
"""Rule 11 (given, not settled): White's compensation for Black moving first in phase 2."""

DRAW_GAME_SCORE = 50
"""Rule 15: a drawn game (equal points after 26 circuits) gives each seat a game score of 50."""

SHARE_CAP = 100
"""Rules 15-17: a winner's share 50 + difference is at most 100 *before* the bonus.

The spec names no floor (in a 3x3 win or an irregular end "the difference may be negative",
rule 16), and we read it as written: a winner far behind has a share below 0, the loser 100
minus it (more than 100). A 3x3 win from 65 behind gives the winner 50 - 65 + 50 = 35, the
loser 115; from more than 100 behind the winner's game score is negative. (Before, the share
was also held at 0 or more, a floor of our own.)
"""

WIN_BONUS = 50
"""Rules 16-17 (given): the bonus for a 3x3 win or an opponent's irregular end."""


def share(difference: int) -> int:
    """The winner's share 50 + ``difference`` of the 100 game-score points, at most 100 (rules 15-17)."""
    return min(SHARE_CAP, 50 + difference)


def both_3x3_winner(mover: int) -> int:
    """Rule 13 (given): when one move gives both colours a 3x3, the seat that did *not* move wins."""
    return 1 - mover

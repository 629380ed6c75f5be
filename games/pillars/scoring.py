"""Game scores (rules 8-10) and competition ranking (total score)."""

from __future__ import annotations

from collections.abc import Sequence

from codecup_games.pillars.engine import BLUE

WIN = 18
LOSS = 9
BLUE_FIRST_JOKER = 9


def joker_value(empty_before: int, seat: int, moves_made_by_seat: int) -> int:
    """J for a joker played with ``empty_before`` empty fields (rule 8).

    Blue's joker on its very first move is worth 9 whatever the count.
    """
    if seat == BLUE and moves_made_by_seat == 0:
        return BLUE_FIRST_JOKER
    return empty_before // 10


def regular_scores(loser: int, jokers: Sequence[int | None]) -> tuple[int, int]:
    """The board is full and ``loser`` moved last: winner 18 + J, loser 9 - J (rule 9)."""
    winner = 1 - loser
    scores = [0, 0]
    scores[winner] = WIN + (jokers[winner] or 0)
    scores[loser] = LOSS - (jokers[loser] or 0)
    return scores[0], scores[1]


def irregular_scores(offender: int, jokers: Sequence[int | None], empty: int) -> tuple[int, int]:
    """``offender`` moved invalidly, crashed or timed out with ``empty`` fields open (rule 10).

    The offender scores 0; the winner 18 + its J, or, without a joker played,
    18 + empty // 10, as if it had just played the joker.
    """
    winner = 1 - offender
    own = jokers[winner]
    scores = [0, 0]
    scores[winner] = WIN + (own if own is not None else empty // 10)
    return scores[0], scores[1]

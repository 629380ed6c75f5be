"""The referee dialogue of Turn Right (rules 19-25).

White (seat 0) gets ``Start``; each accepted move is passed on to the other
seat, circuits in normal form. Black's automatic last placement is neither
written nor received. On an irregular move or a fault both seats get ``x``.
After the 26th circuit or a 3x3 the last move is passed on and both seats closed.
The settled readings (:class:`~codecup_games.turn_right.settled.Settled`) are the variant's.
"""

from __future__ import annotations

from codecup.dialogue import (
    NORMAL,
    Close,
    Dialogue,
    Outcome,
    Played,
    Receive,
    SeatEnd,
    Send,
    Termination,
    ends_after,
    send_all,
)
from codecup.rules import judge_reply
from codecup_games.turn_right import scoring
from codecup_games.turn_right.engine import Position
from codecup_games.turn_right.rules import TurnRightState
from codecup_games.turn_right.settled import SETTLED, Settled

START = "Start"
ABORT = "x"


def referee(rules: Settled = SETTLED) -> Dialogue:
    """One game from the empty board; there is no random start and no referee randomness."""
    state = TurnRightState.start(rules)
    yield Send(0, START)
    while (seat := state.to_move) is not None:
        reply = yield Receive(seat)
        judged = judge_reply(state, reply)
        if isinstance(judged, SeatEnd):
            return (yield from _irregular(state.pos, seat, judged))
        state = judged.state
        yield Played(seat, judged.move)
        if not state.terminal or rules.pass_on_last_move:
            yield Send(1 - seat, judged.move)
    # Rule 24: the game is over; the seats have had the last move (as settled) and are done.
    yield Close(0)
    yield Close(1)
    result = state.result()
    return Outcome(result.game_score, (NORMAL, NORMAL), result.extra())


def _irregular(pos: Position, offender: int, end: SeatEnd) -> Dialogue:
    """Rule 23 (and settled: every fault): ``x`` to both seats; rule 17's result."""
    if end.kind in (Termination.INVALID, Termination.ILLEGAL) or pos.rules.x_on_every_irregular_end:
        yield from send_all(ABORT)
    result = scoring.after_irregular(pos.points, offender)
    return Outcome(result.game_score, ends_after(offender, end), result.extra())

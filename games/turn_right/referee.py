"""The referee dialogue of Turn Right (rules 19-25).

White (seat 0) gets ``Start``; each accepted move is passed on to the other
seat, circuits in normal form. Black's automatic last placement is neither
written nor received. On an irregular move or a fault both seats get ``x``.
After the 26th circuit or a 3x3 the last move is passed on and both seats closed.
"""

from __future__ import annotations

from codecup.dialogue import (
    NORMAL,
    Close,
    Dialogue,
    Fault,
    Outcome,
    Played,
    Receive,
    SeatEnd,
    Send,
    Termination,
)
from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup_games.turn_right import scoring, settled
from codecup_games.turn_right.engine import Position
from codecup_games.turn_right.notation import format_move, read_move

START = "Start"
ABORT = "x"


def referee() -> Dialogue:
    """One game from the empty board; there is no random start and no referee randomness."""
    pos = Position()
    yield Send(0, START)
    while not pos.over:
        seat = pos.to_move
        reply = yield Receive(seat)
        assert reply is not None  # a Receive is answered with a line or a fault
        end: SeatEnd | None = None
        if isinstance(reply, Fault):
            end = SeatEnd.from_fault(reply)
        else:
            try:
                move = read_move(reply)
                pos = pos.play(move)
            except InvalidMoveError as exc:
                end = SeatEnd(Termination.INVALID, f"{_quote(reply)}: {exc}")
            except IllegalMoveError as exc:
                end = SeatEnd(Termination.ILLEGAL, f"{_quote(reply)}: {exc}")
        if end is not None:
            return (yield from _irregular(pos, seat, end))
        text = format_move(move)
        yield Played(seat, text)
        if not pos.over or settled.PASS_ON_LAST_MOVE:
            yield Send(1 - seat, text)
    # Rule 24: the game is over; the seats have had the last move (as settled) and are done.
    yield Close(0)
    yield Close(1)
    if pos.winner is not None:
        result = scoring.after_three(pos.points, pos.winner)
    else:
        result = scoring.after_circuits(pos.points)
    return Outcome(result.game_score, (NORMAL, NORMAL), result.extra())


def _quote(line: str, limit: int = 80) -> str:
    """The offending line for a message, cut short if it is long."""
    return repr(line) if len(line) <= limit else repr(line[:limit]) + "..."


def _irregular(pos: Position, offender: int, end: SeatEnd) -> Dialogue:
    """Rule 23 (and settled: every fault): ``x`` to both seats; rule 17's result."""
    if end.kind in (Termination.INVALID, Termination.ILLEGAL) or settled.X_ON_EVERY_IRREGULAR_END:
        yield Send(0, ABORT)
        yield Send(1, ABORT)
    result = scoring.after_irregular(pos.points, offender)
    ends = [NORMAL, NORMAL]
    ends[offender] = end
    return Outcome(result.game_score, (ends[0], ends[1]), result.extra())

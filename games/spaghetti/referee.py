"""The Spaghetti referee dialogue (variant ``codecup2022``), written sans-I/O.

Both players get the two jury moves, one per line; Blue gets ``Start``; each
accepted move is passed on unchanged to the other player; after Blue's 31st
move both get ``Quit`` (Red is not sent that last move).

A seat that faults (time-out, crash, unreadable output, a bad or illegal
move) is sent ``Quit``, closed, and scores 0. A random player run by the
referee takes over its seat, so the opponent plays on and keeps scoring
without being told. The take-over player is seeded from the referee's seed,
so a record replays exactly.
"""

from __future__ import annotations

import random

import attrs

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
from codecup.errors import InvalidMoveError
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.jury import parse_setup
from codecup_games.spaghetti.notation import format_move, parse_move

START = "Start"
QUIT = "Quit"


@attrs.frozen
class TakeOver:
    """Where a random player took over a faulted seat: the move number (1-based, player moves)."""

    move: int
    seat: int
    reason: Termination
    message: str

    def to_json(self) -> dict[str, object]:
        """JSON-compatible form for the record's ``extra``."""
        return {"move": self.move, "seat": self.seat, "reason": self.reason.value, "message": self.message}


def _judge(pos: Position, line: str | Fault) -> tuple[int, None] | tuple[None, SeatEnd]:
    """The move a seat's reply stands for, or how the seat ends."""
    if isinstance(line, Fault):
        return None, SeatEnd.from_fault(line)
    try:
        # Surrounding whitespace (a trailing space, a stray \r) is forgiven.
        move = parse_move(line.strip())
    except InvalidMoveError as exc:
        return None, SeatEnd(Termination.INVALID, str(exc))
    if not pos.is_empty(move // 3):
        return None, SeatEnd(
            Termination.ILLEGAL, f"cell {line.strip()[:2]} of move {line!r} already holds a tile"
        )
    return move, None


def referee(setup: str, seed: int) -> Dialogue:
    """The dialogue of one game from the setup text (two jury moves) and the referee's seed."""
    jury = parse_setup(setup)
    pos = Position.start(jury)
    takeover_rng = random.Random(seed)
    ends: list[SeatEnd] = [NORMAL, NORMAL]
    takeovers: list[TakeOver] = []
    move: int | None
    for move in jury:
        for seat in (0, 1):
            yield Send(seat, format_move(move))
    yield Send(0, START)
    while not pos.finished:
        seat = pos.mover
        if ends[seat] is NORMAL:
            reply = yield Receive(seat)
            assert reply is not None  # a Receive is answered with a line or a fault
            move, end = _judge(pos, reply)
            if end is not None:
                ends[seat] = end
                takeovers.append(TakeOver(pos.ply + 1, seat, end.kind, end.message))
                yield Send(seat, QUIT)
                yield Close(seat)
        if ends[seat] is not NORMAL:
            cell = takeover_rng.choice(sorted(pos.empties))
            move = cell * 3 + takeover_rng.randrange(3)
        assert move is not None
        pos.play(move)
        text = format_move(move)
        yield Played(seat, text)
        if not pos.finished and ends[1 - seat] is NORMAL:
            yield Send(1 - seat, text)
    for seat in (0, 1):
        if ends[seat] is NORMAL:
            yield Send(seat, QUIT)
    board_scores = tuple(pos.scores)
    scores = tuple(0 if ends[seat] is not NORMAL else board_scores[seat] for seat in (0, 1))
    extra = {
        "jury": [format_move(m) for m in jury],
        "board_scores": list(board_scores),
        "takeovers": [t.to_json() for t in takeovers],
    }
    return Outcome(scores=scores, ends=tuple(ends), extra=extra)

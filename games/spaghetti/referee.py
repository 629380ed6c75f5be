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
    Outcome,
    Played,
    Receive,
    SeatEnd,
    Send,
    Termination,
)
from codecup.rules import judge_reply
from codecup_games.spaghetti.jury import parse_setup
from codecup_games.spaghetti.notation import format_move
from codecup_games.spaghetti.rules import SpaghettiState, random_move

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


def referee(setup: str, seed: int) -> Dialogue:
    """The dialogue of one game from the setup text (two jury moves) and the referee's seed."""
    state = SpaghettiState.start(setup)
    jury = parse_setup(setup)
    takeover_rng = random.Random(seed)
    ends: list[SeatEnd] = [NORMAL, NORMAL]
    takeovers: list[TakeOver] = []
    for tile in jury:
        for seat in (0, 1):
            yield Send(seat, format_move(tile))
    yield Send(0, START)
    while (mover := state.to_move) is not None:
        if ends[mover] is NORMAL:
            judged = judge_reply(state, (yield Receive(mover)))
            if isinstance(judged, SeatEnd):
                ends[mover] = judged
                takeovers.append(TakeOver(state.pos.ply + 1, mover, judged.kind, judged.message))
                yield Send(mover, QUIT)
                yield Close(mover)
            else:
                move, state = judged.move, judged.state
        if ends[mover] is not NORMAL:
            move = format_move(random_move(state.pos, takeover_rng))
            state = state.apply(move)
        yield Played(mover, move)
        if not state.terminal and ends[1 - mover] is NORMAL:
            yield Send(1 - mover, move)
    for seat in (0, 1):
        if ends[seat] is NORMAL:
            yield Send(seat, QUIT)
    board_scores = tuple(state.pos.scores)
    scores = tuple(0 if ends[seat] is not NORMAL else board_scores[seat] for seat in (0, 1))
    extra = {
        "jury": [format_move(m) for m in jury],
        "board_scores": list(board_scores),
        "takeovers": [t.to_json() for t in takeovers],
    }
    return Outcome(scores=scores, ends=tuple(ends), extra=extra)

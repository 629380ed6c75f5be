"""The referee dialogue (rules 12-16): pillars to both, ``Start`` to Red, moves passed on
without the joker mark, ``Quit`` to both at the end."""

from __future__ import annotations

from codecup.dialogue import NORMAL, Dialogue, Fault, Outcome, Played, Receive, SeatEnd, Send, Termination
from codecup.errors import InvalidMoveError
from codecup_games.pillars.engine import RED, Board
from codecup_games.pillars.notation import Move, format_rect
from codecup_games.pillars.scoring import irregular_scores, joker_value, regular_scores
from codecup_games.pillars.setup import format_setup, parse_setup

START = "Start"
QUIT = "Quit"
SEATS = ("Red", "Blue")


def judge(board: Board, line: str, joker_used: bool) -> Move | SeatEnd:
    """The move a line stands for, or how the seat's game ends if it is no legal move."""
    try:
        move = Move.from_text(line.strip())
    except InvalidMoveError as exc:
        return SeatEnd(Termination.INVALID, f"not a move: {exc}")
    if move.joker and joker_used:
        return SeatEnd(Termination.ILLEGAL, f"{line.strip()!r}: the joker was already used")
    if not board.is_legal(move.rect):
        return SeatEnd(
            Termination.ILLEGAL,
            f"{format_rect(move.rect)!r} covers a pillar or a tile, not only empty fields",
        )
    return move


def referee(setup: str) -> Dialogue:
    """One game from the ``setup`` text (ten pillar fields)."""
    cols = parse_setup(setup)
    board = Board.start(cols)
    for seat in (0, 1):
        for line in format_setup(cols).splitlines():
            yield Send(seat, line)
    yield Send(RED, START)
    jokers: list[int | None] = [None, None]
    made = [0, 0]
    seat = RED
    while True:
        reply = yield Receive(seat)
        assert reply is not None  # a Receive is answered with a line or a fault
        judged = (
            SeatEnd.from_fault(reply)
            if isinstance(reply, Fault)
            else judge(board, reply, jokers[seat] is not None)
        )
        if isinstance(judged, SeatEnd):
            empty = board.empty_count
            yield Send(0, QUIT)
            yield Send(1, QUIT)
            ends = [NORMAL, NORMAL]
            ends[seat] = judged
            return Outcome(
                irregular_scores(seat, jokers, empty),
                (ends[0], ends[1]),
                _extra(board, jokers, loser=seat, irregular=True),
            )
        if judged.joker:
            jokers[seat] = joker_value(board.empty_count, seat, made[seat])
        made[seat] += 1
        board = board.play(judged.rect)
        yield Played(seat, judged.text())
        if board.over:
            yield Send(0, QUIT)
            yield Send(1, QUIT)
            return Outcome(regular_scores(seat, jokers), (NORMAL, NORMAL), _extra(board, jokers, seat, False))
        seat = 1 - seat
        yield Send(seat, format_rect(judged.rect))


def _extra(board: Board, jokers: list[int | None], loser: int, irregular: bool) -> dict[str, object]:
    """What the record keeps beyond the scores: who lost, the jokers, the fields left."""
    return {
        "loser": SEATS[loser],
        "irregular": irregular,
        "jokers": list(jokers),
        "empty": board.empty_count,
    }

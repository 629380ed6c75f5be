"""The referee dialogue (rules 12-16): pillars to both, ``Start`` to Red, moves passed on
without the joker mark, ``Quit`` to both at the end."""

from __future__ import annotations

from codecup.dialogue import NORMAL, Dialogue, Outcome, Played, Receive, SeatEnd, Send, ends_after, send_all
from codecup.rules import judge_reply
from codecup_games.pillars.engine import RED
from codecup_games.pillars.rules import PillarsState, pass_on
from codecup_games.pillars.scoring import irregular_scores, regular_scores
from codecup_games.pillars.setup import format_setup, parse_setup

START = "Start"
QUIT = "Quit"
SEATS = ("Red", "Blue")


def referee(setup: str) -> Dialogue:
    """One game from the ``setup`` text (ten pillar fields)."""
    state = PillarsState.start(setup)
    for seat in (0, 1):
        for line in format_setup(parse_setup(setup)).splitlines():
            yield Send(seat, line)
    yield Send(RED, START)
    seat = RED
    while True:
        reply = yield Receive(seat)
        judged = judge_reply(state, reply)
        if isinstance(judged, SeatEnd):
            yield from send_all(QUIT)
            return Outcome(
                irregular_scores(seat, state.jokers, state.board.empty_count),
                ends_after(seat, judged),
                _extra(state, loser=seat, irregular=True),
            )
        state = judged.state
        yield Played(seat, judged.move)
        if state.terminal:
            yield from send_all(QUIT)
            return Outcome(regular_scores(seat, state.jokers), (NORMAL, NORMAL), _extra(state, seat, False))
        seat = 1 - seat
        yield Send(seat, pass_on(judged.move))


def _extra(state: PillarsState, loser: int, irregular: bool) -> dict[str, object]:
    """What the record keeps beyond the scores: who lost, the jokers, the fields left."""
    return {
        "loser": SEATS[loser],
        "irregular": irregular,
        "jokers": list(state.jokers),
        "empty": state.board.empty_count,
    }

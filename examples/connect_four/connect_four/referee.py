"""The referee dialogue, sans-I/O: the setup line (if any) to both seats, ``Start`` to Red, each move
passed on to the other seat, ``Quit`` to both at the end. A reply that is not a move (``invalid``), a
move into a full column (``illegal``) or a fault (time-out, crash, ...) loses the game for that seat.
"""

from codecup.dialogue import NORMAL, Dialogue, Outcome, Played, Receive, SeatEnd, Send, ends_after, send_all
from codecup.rules import State, judge_reply


def referee(state: State, setup_lines: list[str]) -> Dialogue:
    """One game from ``state`` (after the opening, if any); both seats are sent ``setup_lines`` first."""
    for line in setup_lines:
        yield from send_all(line)
    yield Send(0, "Start")
    while (seat := state.to_move) is not None:
        reply = yield Receive(seat)
        judged = judge_reply(state, reply)  # the move and the state after it, or the seat's end
        if isinstance(judged, SeatEnd):  # the seat loses the game
            outcome = Outcome((float(seat), 1.0 - seat), ends_after(seat, judged))
            break
        state = judged.state
        yield Played(seat, judged.move)
        if not state.terminal:
            yield Send(1 - seat, judged.move)
    else:  # no break: four in a row or a full board
        outcome = Outcome(state.scores(), (NORMAL, NORMAL))
    yield from send_all("Quit")
    return outcome

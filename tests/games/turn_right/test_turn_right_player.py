"""The player session mirrors the dialogue: Start, the skipped placement, x, the end."""

from __future__ import annotations

import pytest

from codecup.dialogue import Termination
from codecup.drive import play_bots
from codecup_games.turn_right.bots import make_bot
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.game import TurnRight, session
from codecup_games.turn_right.notation import parse_move, read_move
from tests.games.turn_right.tr_support import CHECKER_WHITE, circuit_lines, placements


def test_white_starts_and_black_answers_the_first_placement():
    white = session(make_bot("random", 1))
    black = session(make_bot("random", 2))
    [first] = white.receive("Start")
    assert isinstance(parse_move(first), int)
    [answer] = black.receive(first)
    assert isinstance(parse_move(answer), int) and answer != first


def test_black_writes_a_circuit_after_whites_18th_placement():
    wp, bp = placements(CHECKER_WHITE)

    class Scripted:
        """Plays Black's scripted placements, then asks the real bot."""

        def __init__(self) -> None:
            self.moves = iter(bp)
            self.bot = make_bot("baseline", 0)

        def choose(self, state):
            if state.pos.placing:
                return next(self.moves)
            return self.bot.choose(state)

    black = session(Scripted())
    for i in range(17):
        black.receive(wp[i])
    [circuit] = black.receive(wp[17])
    move = read_move(circuit)
    assert isinstance(move, Circuit) and move.size == 4  # the first circuit is a rectangle
    assert black.state.pos.free == 0 and not black.finished


def test_x_ends_the_session():
    white = session(make_bot("random", 1))
    white.receive("Start")
    assert white.receive("x") == [] and white.finished
    assert white.receive("a1") == []


def test_session_finishes_after_the_26th_circuit():
    wp, bp = placements(CHECKER_WHITE)
    wc, bc = circuit_lines()

    class Script:
        def __init__(self, lines):
            self.lines = iter(lines)

        def choose(self, state):
            return next(self.lines)

    white = session(Script(wp + wc))
    black = session(Script(bp + bc))
    line = white.receive("Start")[0]
    seats = [white, black]
    seat = 1
    while True:
        answer = seats[seat].receive(line)
        if not answer:
            break
        line = answer[0]
        seat = 1 - seat
    # White played the 26th circuit and knows the game is over; Black received it and answers nothing.
    assert white.finished and black.finished
    assert white.state.pos.circuits == black.state.pos.circuits == 26 and white.state.pos == black.state.pos


@pytest.mark.parametrize("bots", [("random", "random"), ("baseline", "random"), ("random", "baseline")])
@pytest.mark.parametrize("seed", [1, 2])
def test_in_process_games_end_normally(bots, seed):
    result = play_bots(TurnRight(), bots, seed=seed)
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert result.outcome.extra["end"] in ("26 circuits", "3x3")
    assert sum(result.outcome.extra["game_points"]) in (2, 3)


def test_same_seed_same_game():
    a = play_bots(TurnRight(), ("random", "random"), seed=9)
    b = play_bots(TurnRight(), ("random", "random"), seed=9)
    assert a.moves == b.moves and a.outcome == b.outcome

"""The settled readings are the variant's rule options: flipping one gives the other reading."""

from __future__ import annotations

import attrs
import pytest

from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup.errors import IllegalMoveError
from codecup_games.turn_right.board import parse_square
from codecup_games.turn_right.engine import WHITE, Position
from codecup_games.turn_right.notation import format_move, read_move
from codecup_games.turn_right.referee import referee
from codecup_games.turn_right.settled import Settled
from tests.games.turn_right.tr_support import THREE_WHITE, placed, placements


def test_counter_clockwise_read_as_clockwise():
    with pytest.raises(IllegalMoveError):
        read_move("a1-d1-d4-a4")
    rules = Settled(clockwise_only=False)
    assert read_move("a1-d1-d4-a4", rules).normal() == read_move("a1-a4-d4-d1", rules)
    assert format_move(read_move("a1-d1-d4-a4", rules)) == "a1-a4-d4-d1"


def test_straight_squares_dropped():
    with pytest.raises(IllegalMoveError):
        read_move("a1-a2-a3-b3-b1")
    rules = Settled(listed_squares_must_turn=False)
    assert format_move(read_move("a1-a2-a3-b3-b1", rules)) == "a1-a3-b3-b1"


def test_winning_move_not_scored():
    pos = placed(THREE_WHITE)
    assert pos.play(read_move("d4-d6-f6-f4")).points == (9, 1)
    pos = attrs.evolve(pos, rules=Settled(winning_move_is_scored=False))
    assert pos.play(read_move("d4-d6-f6-f4")).points == (5, 0)


def test_scoring_during_placement():
    wp, bp = placements(THREE_WHITE)
    pos = Position(rules=Settled(score_during_placement=True))
    for i in range(18):
        pos = pos.place(parse_square(wp[i]))
        if pos.over:
            break
        pos = pos.place(parse_square(bp[i]))
    assert pos.placing and pos.winner == WHITE and pos.points[0] > 5


def test_no_x_on_a_time_out():
    rules = Settled(x_on_every_irregular_end=False)
    result = drive(referee(rules), ScriptedChannel.of(["a1"], [Fault(Termination.TIMEOUT, "late")]))
    assert result.sent_to(0) == ["Start"] and result.sent_to(1) == ["a1"]
    result = drive(referee(rules), ScriptedChannel.of(["a1"], ["a1"]))
    assert result.sent_to(0) == ["Start", "x"]


def test_last_move_not_passed_on():
    wp, bp = placements(THREE_WHITE)
    rules = Settled(pass_on_last_move=False)
    result = drive(referee(rules), ScriptedChannel.of(wp, [*bp, "d4-d6-f6-f4"]))
    assert result.sent_to(0)[-1] == bp[-1] and result.moves[-1] == (1, "d4-d6-f6-f4")

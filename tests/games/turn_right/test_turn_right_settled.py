"""The settled readings are live switches: flipping one gives the other reading."""

from __future__ import annotations

import pytest

from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup.errors import IllegalMoveError
from codecup_games.turn_right import settled
from codecup_games.turn_right.board import parse_square
from codecup_games.turn_right.engine import WHITE, Position
from codecup_games.turn_right.notation import format_move, read_move
from codecup_games.turn_right.referee import referee
from tests.games.turn_right.tr_support import THREE_WHITE, placed, placements


def test_counter_clockwise_read_as_clockwise(monkeypatch):
    with pytest.raises(IllegalMoveError):
        read_move("a1-d1-d4-a4")
    monkeypatch.setattr(settled, "CLOCKWISE_ONLY", False)
    assert read_move("a1-d1-d4-a4").normal() == read_move("a1-a4-d4-d1")
    assert format_move(read_move("a1-d1-d4-a4")) == "a1-a4-d4-d1"


def test_straight_squares_dropped(monkeypatch):
    with pytest.raises(IllegalMoveError):
        read_move("a1-a2-a3-b3-b1")
    monkeypatch.setattr(settled, "LISTED_SQUARES_MUST_TURN", False)
    assert format_move(read_move("a1-a2-a3-b3-b1")) == "a1-a3-b3-b1"


def test_winning_move_not_scored(monkeypatch):
    pos = placed(THREE_WHITE)
    assert pos.play(read_move("d4-d6-f6-f4")).points == (9, 1)
    monkeypatch.setattr(settled, "WINNING_MOVE_IS_SCORED", False)
    assert pos.play(read_move("d4-d6-f6-f4")).points == (5, 0)


def test_scoring_during_placement(monkeypatch):
    monkeypatch.setattr(settled, "SCORE_DURING_PLACEMENT", True)
    wp, bp = placements(THREE_WHITE)
    pos = Position()
    for i in range(18):
        pos = pos.place(parse_square(wp[i]))
        if pos.over:
            break
        pos = pos.place(parse_square(bp[i]))
    assert pos.placing and pos.winner == WHITE and pos.points[0] > 5


def test_no_x_on_a_time_out(monkeypatch):
    monkeypatch.setattr(settled, "X_ON_EVERY_IRREGULAR_END", False)
    result = drive(referee(), ScriptedChannel.of(["a1"], [Fault(Termination.TIMEOUT, "late")]))
    assert result.sent_to(0) == ["Start"] and result.sent_to(1) == ["a1"]
    result = drive(referee(), ScriptedChannel.of(["a1"], ["a1"]))
    assert result.sent_to(0) == ["Start", "x"]


def test_last_move_not_passed_on(monkeypatch):
    monkeypatch.setattr(settled, "PASS_ON_LAST_MOVE", False)
    wp, bp = placements(THREE_WHITE)
    result = drive(referee(), ScriptedChannel.of(wp, [*bp, "d4-d6-f6-f4"]))
    assert result.sent_to(0)[-1] == bp[-1] and result.moves[-1] == (1, "d4-d6-f6-f4")

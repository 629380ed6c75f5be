"""The settled readings are the variant's rule options: flipping one gives the other reading."""

from __future__ import annotations

import attrs
import pytest

from codecup.dialogue import Fault, SeatEnd, Termination
from codecup.drive import ScriptedChannel, drive
from codecup.errors import IllegalMoveError
from codecup.rules import Accepted, judge, replay
from codecup_games.turn_right.board import parse_square
from codecup_games.turn_right.engine import WHITE, Position
from codecup_games.turn_right.game import TurnRight
from codecup_games.turn_right.notation import format_move, read_move
from codecup_games.turn_right.referee import referee
from codecup_games.turn_right.settled import Settled
from tests.games.turn_right.tr_support import CHECKER_WHITE, THREE_WHITE, placed, placements


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


def test_the_variant_carries_the_readings_through_the_rules():
    assert TurnRight().info.default_variant.options == Settled()
    lenient = attrs.evolve(TurnRight.info.variants[0], name="lenient", options=Settled(clockwise_only=False))

    class Lenient(TurnRight):
        info = attrs.evolve(TurnRight.info, variants=(*TurnRight.info.variants, lenient))

    wp, bp = placements(CHECKER_WHITE)
    moves = [m for pair in zip(wp, [*bp, None], strict=True) for m in pair if m is not None]
    for variant, kind in (("codecup2006", Termination.ILLEGAL), ("lenient", None)):
        state = replay(Lenient().new_state("", variant), moves)[-1]
        judged = judge(state, "a1-d1-d4-a4")  # counter-clockwise
        if kind is None:
            assert isinstance(judged, Accepted) and judged.move == "a1-a4-d4-d1"
        else:
            assert isinstance(judged, SeatEnd) and judged.kind is kind

"""The referee dialogue with scripted lines: order of lines, the skipped placement, x, every fault."""

from __future__ import annotations

import attrs
import pytest

from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup_games.turn_right.notation import format_move, read_move
from codecup_games.turn_right.referee import referee
from tests.games.turn_right.tr_support import CHECKER_WHITE, THREE_WHITE, circuit_lines, placements


@attrs.define(eq=False)
class ClosingChannel(ScriptedChannel):
    """A scripted channel that remembers which seats were closed, in order."""

    closed: list[int] = attrs.Factory(list)

    def close(self, seat: int) -> None:
        self.closed.append(seat)


def run(white: list, black: list):
    channel = ClosingChannel.of(white, black)
    result = drive(referee(), channel)
    channel.assert_done()
    return result, channel


def normal(text: str) -> str:
    return format_move(read_move(text))


def full_game() -> tuple[list[str], list[str]]:
    wp, bp = placements(CHECKER_WHITE)
    wc, bc = circuit_lines()
    return wp + wc, bp + bc


def test_full_game_lines_in_order():
    white, black = full_game()
    result, channel = run(white, black)
    wp, bp = placements(CHECKER_WHITE)
    wc, bc = circuit_lines()
    # White: Start, then each Black placement, then each Black circuit in normal form.
    assert result.sent_to(0) == ["Start", *bp, *(normal(c) for c in bc)]
    # Black: each White placement (the 18th too), then each White circuit, the 26th included.
    assert result.sent_to(1) == [*wp, *(normal(c) for c in wc)]
    assert len(result.moves) == 35 + 26
    assert channel.closed == [0, 1]
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert result.outcome.extra["points"] == [26, 7]
    assert result.outcome.extra["end"] == "26 circuits"
    assert result.outcome.scores == (69, 31)
    assert result.outcome.extra["game_points"] == [2, 0]


def test_automatic_placement_is_skipped():
    white, black = full_game()
    result, _ = run(white, black)
    wp, bp = placements(CHECKER_WHITE)
    moves = [m for _, m in result.moves]
    # 35 placements are announced; Black's 18th (f5, the last free square) is neither written nor sent.
    assert moves[:35] == [sq for pair in zip(wp, [*bp, None], strict=True) for sq in pair if sq]
    assert "f5" not in moves[:35] and "f5" not in result.sent_to(0)
    # After White's 18th placement White's next input is Black's first circuit.
    assert result.sent_to(1)[17] == wp[17]
    assert result.sent_to(0)[18] == "a1-a4-d4-d1"
    assert result.moves[35] == (1, "a1-a4-d4-d1")


def test_circuit_passed_on_in_normal_form():
    white, black = full_game()
    result, _ = run(white, black)
    assert black[17] == "a4-d4-d1-a1"
    assert "a4-d4-d1-a1" not in result.sent_to(0)
    assert "a1-a4-d4-d1" in result.sent_to(0)


def test_3x3_ends_the_game_and_the_move_is_passed_on():
    wp, bp = placements(THREE_WHITE)
    result, channel = run(wp, [*bp, "f4-d4-d6-f6"])
    assert result.sent_to(0)[-1] == "d4-d6-f6-f4"
    assert channel.closed == [0, 1]
    outcome = result.outcome
    assert outcome.extra["end"] == "3x3" and outcome.extra["winner"] == 0
    assert outcome.extra["points"] == [9, 1]
    assert outcome.scores == (108, 42) and outcome.extra["game_points"] == [3, 0]


CASES = [
    # (seat, ply of that seat, line, expected kind)
    (0, 0, "hello", Termination.INVALID),
    (1, 3, "g7", Termination.INVALID),
    (0, 20, "a1-a2-b2-", Termination.INVALID),
    (1, 2, "a1", Termination.ILLEGAL),  # White placed a1 first: occupied
    (0, 5, "a1-a2-b2-b1", Termination.ILLEGAL),  # a circuit while placing
    (1, 17, "a1-b1-b2-a2", Termination.ILLEGAL),  # counter-clockwise
    (1, 17, "a1-a2-b2-b3-c3-c1", Termination.ILLEGAL),  # 6 corners on a first circuit
    (0, 18, "c1-c5-d5-d3-a3-a2-e2-e1", Termination.ILLEGAL),  # crosses itself
    (0, 19, "a1-a2-a3-b3-b1", Termination.ILLEGAL),  # a2 is no corner
    (1, 18, "e5", Termination.ILLEGAL),  # a placement among circuits
    (0, 5, Fault(Termination.TIMEOUT, "no answer in time"), Termination.TIMEOUT),
    (1, 20, Fault(Termination.TIMEOUT, "no answer in time"), Termination.TIMEOUT),
    (0, 19, Fault(Termination.CRASH, "exit 1"), Termination.CRASH),
    (1, 0, Fault(Termination.CRASH, "end of output"), Termination.CRASH),
    (0, 10, Fault(Termination.INVALID, "not utf-8"), Termination.INVALID),
    (1, 25, Fault(Termination.INVALID, "line too long"), Termination.INVALID),
]


@pytest.mark.parametrize(("seat", "ply", "bad", "kind"), CASES)
def test_irregular_move_sends_x_to_both_and_loses_3_0(seat, ply, bad, kind):
    white, black = full_game()
    scripts = [white[:], black[:]]
    scripts[seat] = [*scripts[seat][:ply], bad]
    # The other seat answered every line it was sent before the bad move: White moves first in
    # both phases' line order (W0 B0 W1 B1 ...), so Black made ``ply`` moves before White's, and
    # White ``ply + 1`` before Black's.
    other = 1 - seat
    answered = ply if seat == 0 else ply + 1
    scripts[other] = scripts[other][:answered]
    result, _ = run(scripts[0], scripts[1])
    assert result.sent_to(0)[-1] == "x" and result.sent_to(1)[-1] == "x"
    assert result.sent_to(0).count("x") == result.sent_to(1).count("x") == 1
    ends = result.outcome.ends
    assert ends[seat].kind is kind and ends[other].kind is Termination.NORMAL
    assert result.outcome.extra["end"] == "irregular"
    assert result.outcome.extra["game_points"][seat] == 0 and result.outcome.extra["game_points"][other] == 3
    assert result.outcome.scores[seat] == 0 and result.outcome.scores[other] >= 50
    assert len(result.moves) == ply + answered  # every move before the bad one was announced


def test_irregular_during_placement_scores_from_the_start_points():
    # White (5 points) crashes at once: Black's share is 50 - 5, plus 50.
    result, _ = run([Fault(Termination.CRASH, "gone")], [])
    assert result.outcome.scores == (0, 95)
    assert result.sent_to(0) == ["Start", "x"] and result.sent_to(1) == ["x"]


def test_end_message_names_the_line_and_the_rule():
    wp, bp = placements(CHECKER_WHITE)
    result, _ = run(wp, [*bp, "a1-b1-b2-a2"])
    end = result.outcome.ends[1]
    assert end.kind is Termination.ILLEGAL
    assert "'a1-b1-b2-a2'" in end.message and "counter-clockwise" in end.message
    result, _ = run(["a1-" * 100], [])
    assert result.outcome.ends[0].kind is Termination.INVALID
    assert "..." in result.outcome.ends[0].message and len(result.outcome.ends[0].message) < 200

"""The position: placement (with Black's automatic last piece), corner limits, points, the 3x3 win."""

from __future__ import annotations

import pytest

from codecup.errors import IllegalMoveError
from codecup_games.turn_right.board import FULL, count2, has3, parse_square
from codecup_games.turn_right.engine import BLACK, WHITE, Position, corner_limit
from codecup_games.turn_right.game import TurnRight
from codecup_games.turn_right.generate import random_circuit
from codecup_games.turn_right.notation import read_move
from tests.games.turn_right.tr_support import CHECKER_WHITE, THREE_WHITE, mask, placed, placements


def test_white_places_first_and_black_last_piece_is_automatic():
    pos = Position()
    assert pos.to_move == WHITE and pos.placing and pos.points == (5, 0)
    w, b = placements(CHECKER_WHITE)
    for i in range(17):
        pos = pos.place(parse_square(w[i]))
        assert pos.to_move == BLACK
        pos = pos.place(parse_square(b[i]))
        assert pos.to_move == WHITE
    assert pos.placed == 34
    pos = pos.place(parse_square(w[17]))
    # 35 pieces stood, so Black's last went down by itself: Black now writes its first circuit.
    assert pos.placed == 36 and not pos.placing and pos.free == 0
    assert pos.white == mask(CHECKER_WHITE) and pos.black == FULL ^ mask(CHECKER_WHITE)
    assert pos.to_move == BLACK and pos.circuits == 0
    assert pos.points == (5, 0) and pos.winner is None  # nothing scored while placing


def test_no_3x3_checked_during_placement():
    pos = placed(THREE_WHITE)
    assert has3(pos.white) and pos.winner is None and not pos.over


def test_3x3_means_all_nine_squares_of_one_window():
    """Every 3x3 window filled is one; the same with any one of its nine squares missing is none
    (nor is the board's 2x2 count of it more than its 4 windows)."""
    for file in range(4):
        for rank in range(4):
            window = [(file + f) * 6 + rank + r for f in range(3) for r in range(3)]
            full = sum(1 << s for s in window)
            assert has3(full) and count2(full) == 4
            for square in window:
                assert not has3(full & ~(1 << square)), (file, rank, square)


def test_occupied_square_and_wrong_phase_are_illegal():
    pos = Position().place(0)
    with pytest.raises(IllegalMoveError, match="occupied"):
        pos.place(0)
    with pytest.raises(IllegalMoveError, match="placement phase"):
        pos.play(read_move("b2-b3-c3-c2"))
    with pytest.raises(IllegalMoveError, match="circuit phase"):
        placed(CHECKER_WHITE).place(0)


def test_corner_limit_on_each_turn():
    # Circuit k (0-based, Black first) is its mover's N-th with N = k // 2 + 1: at most 2(N+1) corners.
    assert [corner_limit(k) for k in range(26)] == [2 * (k // 2 + 2) for k in range(26)]
    assert corner_limit(0) == corner_limit(1) == 4
    assert corner_limit(24) == corner_limit(25) == 28


def _with_corners(n: int) -> str:
    """A staircase circuit with exactly ``n`` corners (n = 4, 6, ..., 12) from a1."""
    steps = (n - 4) // 2
    up = ["a1"]
    # climb a staircase: a1 up to a2, right to b2, up to b3, ... then back down the right side.
    file, rank = 0, 1
    up.append(f"a{rank + 1}")
    for _ in range(steps):
        file += 1
        up.append(f"{'abcdef'[file]}{rank + 1}")
        rank += 1
        up.append(f"{'abcdef'[file]}{rank + 1}")
    file += 1
    up.append(f"{'abcdef'[file]}{rank + 1}")
    up.append(f"{'abcdef'[file]}1")
    return "-".join(up)


@pytest.mark.parametrize("turn", range(26))
def test_corner_limit_enforced_on_every_turn(turn):
    limit = corner_limit(turn)
    pos = Position(mask(CHECKER_WHITE), FULL ^ mask(CHECKER_WHITE), 36, turn)
    sizes = [n for n in (4, 6, 8, 10, 12) if n <= limit]
    for n in sizes:
        c = read_move(_with_corners(n))
        assert c.size == n
        pos.play(c)
    if limit < 12:
        too_big = read_move(_with_corners(limit + 2))
        with pytest.raises(IllegalMoveError, match=f"at most {limit}"):
            pos.play(too_big)


def test_points_add_up_after_every_circuit():
    pos = placed(CHECKER_WHITE)
    assert count2(pos.white) == count2(pos.black) == 0
    expected = list(pos.points)
    c = read_move("a1-a2-b2-b1")
    for _ in range(6):
        pos = pos.play(c)
        expected[0] += count2(pos.white)
        expected[1] += count2(pos.black)
        assert list(pos.points) == expected
    assert pos.circuits == 6


def test_3x3_wins_for_its_colour_even_on_the_opponents_move():
    pos = placed(THREE_WHITE)
    after = pos.play(read_move("d4-d6-f6-f4"))  # Black moves, White keeps its 3x3
    assert after.winner == WHITE and after.over
    assert after.points == (5 + 4, 1)  # the winning move is scored (settled)
    with pytest.raises(IllegalMoveError, match="over"):
        after.play(read_move("a1-a2-b2-b1"))


def test_both_colours_3x3_means_the_mover_loses():
    white = mask("a1 a2 a3 b1 b2 b3 c1 c2 c3")  # a 3x3 for White ...
    black = FULL ^ white  # ... and Black, in the top-right corner, holds d4-f6 too
    assert has3(white) and has3(black)
    # A circuit that leaves both 3x3s alone: a loop round a4-b5 is Black-only, so it changes nothing.
    c = read_move("a4-a5-b5-b4")
    for turn, mover in ((0, BLACK), (1, WHITE)):
        pos = Position(white, black, 36, turn)
        assert pos.to_move == mover
        assert pos.play(c).winner == 1 - mover


def test_26_circuits_end_the_game():
    pos = placed(CHECKER_WHITE)
    c = read_move("a1-a2-b2-b1")
    for _ in range(26):
        assert not pos.over
        pos = pos.play(c)
    assert pos.over and pos.circuits == 26


def test_random_circuits_keep_the_board_full():
    import random

    rng = random.Random(5)
    pos = placed(CHECKER_WHITE)
    while not pos.over:
        pos = pos.play(random_circuit(rng, pos.limit))
        assert pos.white | pos.black == FULL and not pos.white & pos.black
        assert pos.white.bit_count() == 18


@pytest.mark.parametrize(
    "listed", ["a1-a2-b2-b1", "a1-b1-b2-a2", "a1-c3-b2-b1"], ids=["clockwise", "counter", "crooked"]
)
def test_a_circuit_in_the_placement_phase_is_said_to_be_that_however_it_is_listed(listed):
    """A red team's circuit listed counter-clockwise during placement was said to be listed
    counter-clockwise: the phase is what makes it illegal there."""
    state = TurnRight().new_state("", TurnRight().info.variants[0].name)
    with pytest.raises(IllegalMoveError, match="a circuit in the placement phase"):
        state.apply(listed)

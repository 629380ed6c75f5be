"""The rules engine against the spec's test vectors and a plain walk along the paths."""

from __future__ import annotations

import random

import pytest

from codecup_games.spaghetti.engine import BLUE, CELLS, PLAYER_MOVES, RED, Position
from codecup_games.spaghetti.jury import random_jury
from codecup_games.spaghetti.notation import parse_move
from tests.games.spaghetti.spaghetti_naive import naive_delta

FIGURE3 = (
    "LLLLLRL",
    ".RLSSRL",
    "SLSS.RS",
    "SLLRRLR",
    "LRRSSSS",
    "LRSRRLL",
    "SLSRLS.",
    "SLSRRSR",
    "SRSSRSS",
)


def figure3() -> Position:
    return Position.from_board(FIGURE3, (66, 47))


def board_of(*moves: str) -> Position:
    pos = Position.empty()
    for text in moves:
        pos.put(parse_move(text))
    return pos


def test_figure3_is_blue_to_move_with_three_cells_left():
    pos = figure3()
    assert pos.mover == BLUE
    assert len(pos.empties) == 3
    assert pos.scores == [66, 47]


def test_figure3_cer_scores_10_for_blue_and_11_for_red():
    pos = figure3()
    assert pos.delta(parse_move("cer"), BLUE) == 10
    assert pos.delta(parse_move("cer"), RED) == 11
    assert pos.play(parse_move("cer")) == 10
    assert pos.scores == [76, 47]


def test_figure3_game_ends_73_44():
    pos = figure3()
    pos.play(parse_move("cer"))
    assert pos.play(parse_move("ggs")) == -3
    assert pos.scores == [76, 44]
    assert pos.play(parse_move("bal")) == -3
    assert pos.scores == [73, 44]
    assert pos.finished


def test_figure3_cel_scores_1_for_blue_2_for_red():
    pos = figure3()
    assert pos.delta(parse_move("cel"), BLUE) == 1
    assert pos.delta(parse_move("cel"), RED) == 2


@pytest.mark.parametrize(("move", "gain"), [("ccs", -5), ("ccl", -10), ("ccr", -5)])
def test_cycles(move, gain):
    pos = board_of("bbl", "bcr", "cbr", "cdr", "dcr", "ddl")
    for seat in (BLUE, RED):
        assert pos.delta(parse_move(move), seat) == gain


def test_row_of_straights_counts_to_the_movers_wall():
    pos = board_of("dbs", "dcs", "dds", "des", "dfs", "dgs")
    assert pos.delta(parse_move("das"), BLUE) == 1
    assert pos.delta(parse_move("das"), RED) == 7


def test_left_left_path_costs_3():
    pos = board_of("dar")
    assert pos.delta(parse_move("eal"), BLUE) == -3
    assert pos.delta(parse_move("eal"), RED) == -3


def test_right_right_path_costs_3():
    pos = board_of("dgl")  # S-E of row d reaches the right wall going south
    assert pos.delta(parse_move("egr"), RED) == -3


def test_row_a_completed_at_the_far_end_scores_the_whole_row():
    pos = board_of("aas", "abs", "acs", "ads", "aes", "afs")
    assert pos.delta(parse_move("ags"), BLUE) == 7
    assert pos.delta(parse_move("ags"), RED) == 1


def test_top_or_bottom_wall_scores_nothing():
    empty = Position.empty()
    assert empty.delta(parse_move("aal"), BLUE) == 0  # top wall to left wall
    assert empty.delta(parse_move("agr"), RED) == 0  # top wall to right wall
    column = board_of(*(f"{row}as" for row in "abcdefgh"))
    assert column.delta(parse_move("ias"), BLUE) == 0  # top to bottom; the W-E segment stays open
    assert column.delta(parse_move("iar"), BLUE) == 0  # bottom wall to left wall, N-E open


def test_naive_agrees_on_the_vectors():
    pos = figure3()
    assert naive_delta(pos.board, parse_move("cer"), BLUE) == 10
    assert naive_delta(pos.board, parse_move("cer"), RED) == 11
    assert naive_delta(pos.board, parse_move("cel"), RED) == 2
    cyc = board_of("bbl", "bcr", "cbr", "cdr", "dcr", "ddl")
    assert naive_delta(cyc.board, parse_move("ccl"), BLUE) == -10


def test_incremental_engine_agrees_with_a_walk_on_random_games():
    for seed in range(60):
        rng = random.Random(seed)
        pos = Position.start(random_jury(rng))
        while not pos.finished:
            for move in rng.sample(pos.legal_moves(), 3):
                for seat in (BLUE, RED):
                    assert pos.delta(move, seat) == naive_delta(pos.board, move, seat), (seed, move, seat)
            cell = rng.choice(pos.empties)
            move = cell * 3 + rng.randrange(3)
            expected = naive_delta(pos.board, move, pos.mover)
            assert pos.play(move) == expected, (seed, move)
        assert pos.ply == PLAYER_MOVES


def test_random_playout_fills_the_board_and_keeps_copies_apart():
    pos = Position.start(random_jury(random.Random(5)))
    copy = pos.copy()
    copy.random_playout(random.Random(1))
    assert copy.finished and copy.ply == PLAYER_MOVES
    assert len(pos.empties) == CELLS - 2 and pos.scores == [50, 50]


def test_legal_moves_are_three_per_empty_cell():
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    moves = pos.legal_moves()
    assert len(moves) == 3 * (CELLS - 2) == len(set(moves))
    assert not pos.is_empty(parse_move("cds") // 3)

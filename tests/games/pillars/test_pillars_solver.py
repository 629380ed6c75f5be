"""The region-splitting misère solver against a plain search of the whole board."""

from __future__ import annotations

import functools
import random

import pytest

from codecup_games.pillars.engine import FIELDS, Board, bit, legal_masks
from codecup_games.pillars.solver import BudgetExceeded, Solver


@functools.cache
def brute_wins(empty: int) -> bool:
    """Misère negamax on the raw bitboard: no regions, no shapes, no shortcuts."""
    if not empty:
        return True
    return any(not brute_wins(empty ^ m) for m in legal_masks(empty))


def small_position(rng: random.Random, fields: int) -> int:
    cells = rng.sample(range(FIELDS), fields)
    return sum(1 << p for p in cells)


def clustered_position(rng: random.Random, fields: int) -> int:
    """A few blobs of empty fields: more rectangles than scattered cells."""
    empty = 0
    while empty.bit_count() < fields:
        r, c = rng.randrange(10), rng.randrange(10)
        empty |= bit(r, c)
        if r < 9 and rng.random() < 0.7:
            empty |= bit(r + 1, c)
        if c < 9 and rng.random() < 0.7:
            empty |= bit(r, c + 1)
    return empty


@pytest.mark.parametrize("maker", [small_position, clustered_position])
def test_solver_agrees_with_brute_force(maker):
    rng = random.Random(11)
    solver = Solver()
    for _ in range(60):
        empty = maker(rng, rng.randrange(1, 11))
        assert solver.wins(empty, 10**6) == brute_wins(empty), bin(empty)


def test_winning_move_really_wins():
    rng = random.Random(12)
    solver = Solver()
    found = 0
    for _ in range(40):
        empty = clustered_position(rng, 9)
        move = solver.winning_move(empty, 10**6)
        if move is None:
            assert not brute_wins(empty)
        else:
            found += 1
            assert move & empty == move and not brute_wins(empty ^ move)
    assert found > 0


def test_single_fields_cancel_in_pairs_and_lines_add_like_nim():
    solver = Solver()
    rng = random.Random(13)
    singles = bit(9, 0) | bit(9, 2)
    for _ in range(40):
        empty = clustered_position(rng, 8) & ((1 << 80) - 1)  # rows A..H: the singles stay apart
        assert solver.wins(empty | singles, 10**6) == brute_wins(empty)
    row_of_three = bit(0, 0) | bit(0, 1) | bit(0, 2)
    column_of_three = bit(2, 5) | bit(3, 5) | bit(4, 5)
    assert not solver.wins(row_of_three | column_of_three, 10**6)  # 3 ^ 3 == 0
    assert solver.wins(row_of_three | column_of_three | bit(9, 9), 10**6)


def test_known_positions():
    solver = Solver()
    assert solver.wins(0, 10)  # the opponent filled the last field
    assert not solver.wins(bit(0, 0), 10)  # forced to fill the last field
    assert solver.wins(bit(0, 0) | bit(5, 5), 10)  # two singles: leave one
    assert not solver.wins(bit(0, 0) | bit(5, 5) | bit(9, 9), 10)
    assert solver.wins(bit(0, 0) | bit(0, 1), 10)  # a pair: take one, leave one


def test_budget_is_enforced():
    solver = Solver()
    with pytest.raises(BudgetExceeded):
        solver.wins(Board.start(tuple(range(10))).empty, 1)

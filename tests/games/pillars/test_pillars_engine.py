"""The bitboard engine against brute force."""

from __future__ import annotations

import random

import pytest

from codecup_games.pillars.engine import (
    ALL_MASKS,
    FIELDS,
    FULL,
    RECTS,
    Board,
    Rect,
    bit,
    components,
    count_legal,
    legal_masks,
    normalise,
    random_pillars,
    random_playout,
)


def random_empty(rng: random.Random, density: float) -> int:
    return sum(1 << p for p in range(FIELDS) if rng.random() < density)


def test_rectangle_count_and_masks():
    assert len(RECTS) == 55 * 55
    assert Rect(1, 3, 2, 7).mask == sum(bit(r, c) for r in (1, 2) for c in range(3, 8))
    assert Rect(2, 3, 2, 3).mask == bit(2, 3)
    assert Rect(0, 0, 9, 9).mask == FULL
    assert Rect(1, 3, 2, 7).area == 10


@pytest.mark.parametrize("density", [0.2, 0.5, 0.8, 0.95])
def test_legal_masks_match_brute_force(density):
    rng = random.Random(int(density * 100))
    for _ in range(20):
        empty = random_empty(rng, density)
        brute = sorted(m for m in ALL_MASKS if m & empty == m)
        assert sorted(legal_masks(empty)) == brute
        assert count_legal(empty) == len(brute)


def test_start_position():
    board = Board.start(tuple(range(10)))
    assert board.empty_count == 90
    assert len(board.legal_moves()) == 990
    assert not board.is_legal(Rect(0, 0, 0, 1))  # covers the pillar Aa
    assert board.is_legal(Rect(0, 1, 0, 9))


def test_play_fills_for_the_side_to_move_and_alternates():
    board = Board.start(tuple(range(10)))
    after = board.play(Rect(0, 2, 1, 3))
    assert after.red == Rect(0, 2, 1, 3).mask and after.blue == 0 and after.to_move == 1
    again = after.play(Rect(0, 4, 0, 9))
    assert again.blue == Rect(0, 4, 0, 9).mask and again.to_move == 0
    assert again.empty_count == 80
    assert not again.is_legal(Rect(0, 3, 0, 4))  # overlaps both tiles


def test_components_partition_and_are_connected():
    rng = random.Random(5)
    for _ in range(30):
        empty = random_empty(rng, 0.55)
        parts = components(empty)
        assert sum(parts) == empty and all(a & b == 0 for a in parts for b in parts if a is not b)
        # No rectangle of empty fields spans two regions.
        for m in legal_masks(empty):
            assert sum(1 for p in parts if p & m) == 1


def test_normalise_is_translation_invariant():
    shape = bit(0, 0) | bit(0, 1) | bit(1, 1)
    moved = shape << (3 * 10 + 4)
    assert normalise(moved) == normalise(shape) == shape
    l_shape = bit(2, 5) | bit(3, 4) | bit(3, 5)
    assert normalise(l_shape) == bit(0, 1) | bit(1, 0) | bit(1, 1)


def test_random_pillars_is_a_permutation():
    rng = random.Random(1)
    for _ in range(20):
        assert sorted(random_pillars(rng)) == list(range(10))


def test_random_playout_fills_the_board():
    rng = random.Random(2)
    board = Board.start(random_pillars(rng))
    for _ in range(20):
        n = random_playout(board.empty, rng)
        assert 1 <= n <= 90


def test_random_playout_picks_uniformly():
    # Two adjacent fields: three rectangles; the pair ends it in one move (1 in 3),
    # either single in two.
    rng = random.Random(3)
    pair = bit(4, 4) | bit(4, 5)
    counts = [random_playout(pair, rng) for _ in range(3000)]
    assert set(counts) == {1, 2}
    assert 900 < counts.count(1) < 1100

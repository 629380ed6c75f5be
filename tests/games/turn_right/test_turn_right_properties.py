"""Seeded random properties of circuits: rotation permutes pieces; normal form is idempotent."""

from __future__ import annotations

import random

import pytest

from codecup.errors import IllegalMoveError
from codecup_games.turn_right.board import FULL, bits, file_of, rank_of
from codecup_games.turn_right.circuit import Circuit, normal_form
from codecup_games.turn_right.generate import all_circuits, loop_corners, random_circuit

TRIALS = 400


def path_of(corners: tuple[int, ...]) -> list[int]:
    """The squares of the loop in order, walked square by square (a reference, independent of masks)."""
    path = []
    for i, a in enumerate(corners):
        b = corners[(i + 1) % len(corners)]
        step = (1 if b > a else -1) if file_of(a) == file_of(b) else (6 if b > a else -6)
        path.extend(range(a, b, step))
    return path


def reference_rotate(corners: tuple[int, ...], mask: int) -> int:
    """Rotate one square at a time along the explicit path."""
    path = path_of(corners)
    out = mask & ~sum(1 << s for s in path)
    for i, s in enumerate(path):
        if mask >> s & 1:
            out |= 1 << path[(i + 1) % len(path)]
    return out


def random_listing(rng: random.Random, c: Circuit) -> tuple[int, ...]:
    """The circuit listed from a random corner."""
    k = rng.randrange(c.size)
    return c.corners[k:] + c.corners[:k]


def test_rotation_permutes_the_pieces():
    rng = random.Random(2006)
    for _ in range(TRIALS):
        c = random_circuit(rng, rng.choice(range(4, 29, 2)))
        white = sum(1 << s for s in rng.sample(range(36), 18))
        after = c.rotate(white)
        black_after = c.rotate(FULL ^ white)
        assert after.bit_count() == 18 and black_after.bit_count() == 18
        assert after & black_after == 0 and after | black_after == FULL
        assert after == reference_rotate(c.corners, white)
        # each single piece goes to exactly one square, and pieces off the path stay
        for s in bits(white):
            moved = c.rotate(1 << s)
            assert moved.bit_count() == 1
            if not c.path >> s & 1:
                assert moved == 1 << s


def test_rotation_cycles_back_after_path_length_steps():
    rng = random.Random(7)
    for _ in range(50):
        c = random_circuit(rng, 12)
        white = sum(1 << s for s in rng.sample(range(36), 18))
        w = white
        for _ in range(c.path.bit_count()):
            w = c.rotate(w)
        assert w == white


def test_normal_form_is_idempotent_and_preserves_the_rotation():
    rng = random.Random(26)
    for _ in range(TRIALS):
        c = random_circuit(rng, rng.choice(range(4, 29, 2)))
        listing = random_listing(rng, c)
        listed = Circuit.from_corners(listing)
        once = normal_form(listing)
        assert normal_form(once) == once
        assert once[0] == min(listing)
        normal = Circuit.from_corners(once)
        assert (normal.up, normal.right, normal.down, normal.left) == (
            listed.up,
            listed.right,
            listed.down,
            listed.left,
        )
        white = sum(1 << s for s in rng.sample(range(36), 18))
        assert normal.rotate(white) == listed.rotate(white)


def test_random_circuits_are_legal_and_within_the_limit():
    rng = random.Random(3)
    seen_sizes = set()
    for _ in range(TRIALS):
        limit = rng.choice(range(4, 29, 2))
        c = random_circuit(rng, limit)
        assert 4 <= c.size <= limit
        assert Circuit.from_corners(c.corners) == c
        assert c.corners == normal_form(c.corners)
        seen_sizes.add(c.size)
    assert max(seen_sizes) >= 16


def test_random_circuit_can_fill_the_board():
    c = random_circuit(random.Random(0), 28, target=25)
    assert c.path.bit_count() >= 20


def test_enumeration_counts_and_validity():
    assert len(all_circuits(4)) == 225  # C(6,2)^2 rectangles
    assert len(all_circuits(6)) == 225 + 1600  # plus L-shapes: 4 corners x 20 x 20
    eight = all_circuits(8)
    assert len({c.corners for c in eight}) == len(eight)
    rng = random.Random(1)
    for c in rng.sample(eight, 300):
        assert Circuit.from_corners(c.corners) == c and c.size <= 8 and c.corners == normal_form(c.corners)
    assert {c.size for c in eight} == {4, 6, 8}
    # by corners 225, 1600, 9450, 39360: the start of the census of all 1,222,363 loops
    # (the cycles of the 6x6 grid graph, OEIS A140517) that bench/turn_right_circuits.py --census checks
    assert len(eight) == 225 + 1600 + 9450
    assert len(loop_corners(10)) - len(eight) == 39360


def test_enumeration_contains_every_random_circuit():
    rng = random.Random(11)
    known = {c.corners for c in all_circuits(8)}
    for _ in range(200):
        assert random_circuit(rng, 8).corners in known


def test_lowest_square_is_a_corner():
    rng = random.Random(4)
    for _ in range(100):
        c = random_circuit(rng, 20)
        lowest = min(path_of(c.corners))
        assert lowest == c.corners[0]
        assert file_of(lowest) < 5 and rank_of(lowest) < 5


def test_every_small_loop_validates_from_any_corner_and_never_reversed():
    for c in all_circuits(6):
        for k in range(c.size):
            listing = c.corners[k:] + c.corners[:k]
            assert Circuit.from_corners(listing).path == c.path
        with pytest.raises(IllegalMoveError, match="counter-clockwise"):
            Circuit.from_corners(tuple(reversed(c.corners)))

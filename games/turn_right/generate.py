"""Circuits for bots: every legal circuit up to a corner count, and random circuits of any size.

Enumeration walks loops run by run from their lowest square. A clockwise loop
turns right four times more than it turns left, so a loop of at most ``k``
corners has at most ``(k - 4) / 2`` left turns: that bound prunes the walk.

Random circuits grow a random hole-free region of the 5x5 grid of "cells"
between square centres; a loop through square centres is exactly the boundary
of such a region whose cells never touch only at a corner. The direction masks
of the boundary come from the region mask by a few shifts.
"""

from __future__ import annotations

import functools
import random

from codecup_games.turn_right.board import DOWN, LEFT, RIGHT, SIZE, SQUARES, UP, file_of, rank_of
from codecup_games.turn_right.circuit import Circuit, corner_count

_TURN_RIGHT = {UP: RIGHT, RIGHT: DOWN, DOWN: LEFT, LEFT: UP}
_TURN_LEFT = {v: k for k, v in _TURN_RIGHT.items()}
CELLS = sum(1 << (f * SIZE + r) for f in range(SIZE - 1) for r in range(SIZE - 1))
"""Cell (i, j) of the 5x5 grid is stored at the bit of its lower-left square."""


def _on_board(square: int, step: int) -> bool:
    """Whether one ``step`` from ``square`` stays on the board."""
    if step == UP:
        return rank_of(square) < SIZE - 1
    if step == DOWN:
        return rank_of(square) > 0
    if step == RIGHT:
        return file_of(square) < SIZE - 1
    return file_of(square) > 0


def loop_corners(max_corners: int) -> list[tuple[int, ...]]:
    """The corner lists (normal form, clockwise) of every loop with at most ``max_corners`` corners."""
    max_left = (max_corners - 4) // 2
    found: list[tuple[int, ...]] = []

    def run(start: int, square: int, step: int, seen: int, corners: list[int], lefts: int) -> None:
        # Follow a straight run from the corner ``square``; at each square, close or turn.
        rights = len(corners) - lefts  # the start counts as a right turn
        while _on_board(square, step):
            square += step
            if square == start:
                if step == LEFT:
                    found.append(tuple(corners))
                return
            if square < start or seen >> square & 1:
                return
            seen |= 1 << square
            if len(corners) < max_corners:
                corners.append(square)
                if rights < max_left + 4:
                    run(start, square, _TURN_RIGHT[step], seen, corners, lefts)
                if lefts < max_left:
                    run(start, square, _TURN_LEFT[step], seen, corners, lefts + 1)
                corners.pop()

    for start in range(SQUARES):
        if _on_board(start, UP) and _on_board(start, RIGHT):
            run(start, start, UP, 1 << start, [start], 0)
    return found


@functools.cache
def all_circuits(max_corners: int) -> tuple[Circuit, ...]:
    """Every legal circuit with at most ``max_corners`` corners, in normal form (cached)."""
    return tuple(Circuit.from_corners(c) for c in loop_corners(max_corners))


def region_masks(cells: int) -> tuple[int, int, int, int]:
    """The (up, right, down, left) masks of the clockwise boundary of a region of cells."""
    up = cells & ~(cells << SIZE)  # left edges, where the cell to the left is outside
    right = (cells & ~(cells >> 1)) << 1  # top edges
    down = (cells & ~(cells >> SIZE)) << (SIZE + 1)  # right edges
    left = (cells & ~(cells << 1)) << SIZE  # bottom edges
    return up, right, down, left


def _simple(cells: int, masks: tuple[int, int, int, int]) -> bool:
    """Whether an edge-connected region's boundary is one simple loop: no pinch, no hole.

    A pinch makes two boundary edges leave one square, so the masks overlap. A
    hole shows in the Euler characteristic V - E + F of the closed region.
    """
    up, right, down, left = masks
    if (
        up.bit_count() + right.bit_count() + down.bit_count() + left.bit_count()
        != (up | right | down | left).bit_count()
    ):
        return False
    vertices = (cells | cells << 1 | cells << SIZE | cells << (SIZE + 1)).bit_count()
    edges = (cells | cells << 1).bit_count() + (cells | cells << SIZE).bit_count()
    return vertices - edges + cells.bit_count() == 1


def _neighbours(cells: int) -> int:
    """Cells next to the region (by an edge) and outside it."""
    return CELLS & ~cells & (cells << 1 | cells >> 1 | cells << SIZE | cells >> SIZE)


def random_circuit(rng: random.Random, max_corners: int, target: int | None = None) -> Circuit:
    """A random legal circuit with at most ``max_corners`` corners (at least 4).

    Grows a region from a random cell towards ``target`` cells (random when not
    given), adding a random neighbouring cell that keeps the boundary a simple
    loop within the corner limit, until the target is met or no cell fits.
    """
    if max_corners < 4:
        raise ValueError("a circuit has at least 4 corners")
    cell_list = [s for s in range(SQUARES) if CELLS >> s & 1]
    cells = 1 << rng.choice(cell_list)
    goal = target if target is not None else rng.randint(1, len(cell_list))
    masks = region_masks(cells)
    while cells.bit_count() < goal:
        candidates = _neighbours(cells)
        options = []
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            grown = cells | low
            grown_masks = region_masks(grown)
            if _simple(grown, grown_masks) and corner_count(*grown_masks) <= max_corners:
                options.append((grown, grown_masks))
        if not options:
            break
        cells, masks = rng.choice(options)
    return Circuit.from_masks(*masks)

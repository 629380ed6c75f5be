"""The endgame's move equivalences: sound classes, and the exact search's values unchanged."""

from __future__ import annotations

import random

import pytest

from codecup_games.spaghetti.bots.endgame import cell_codes, distinct_moves, is_inert, state_key
from codecup_games.spaghetti.bots.playout import safe_move
from codecup_games.spaghetti.bots.search import INF, SearchBot
from codecup_games.spaghetti.engine import Position


def endgame(seed: int, empties: int) -> Position:
    """A position with ``empties`` empty cells, reached by safe playout moves from a random start."""
    rng = random.Random(seed)
    a, b = rng.sample([r * 7 + c for r in range(1, 8) for c in range(1, 6) if r * 7 + c != 31], 2)
    pos = Position.start([a * 3 + rng.randrange(3), b * 3 + rng.randrange(3)])
    while len(pos.empties) > empties:
        pos.play(safe_move(pos, rng))
    return pos


def after(pos: Position, move: int) -> Position:
    child = pos.copy()
    child.play(move)
    return child


@pytest.mark.parametrize("seed", range(8))
def test_every_move_has_an_equivalent_representative(seed):
    # Each legal move scores what some kept move scores and leaves a position of the same key.
    pos = endgame(seed, 10)
    seat = pos.mover
    kept = {(gain, state_key(after(pos, move))) for gain, move in distinct_moves(pos, seat)}
    for move in pos.legal_moves():
        assert (pos.delta(move, seat), state_key(after(pos, move))) in kept
    assert len(distinct_moves(pos, seat)) < len(pos.legal_moves())


def test_inert_cells_count_once():
    # Cells whose every side leads to the top or bottom wall are kept as one move.
    found = 0
    for seed in range(40):
        pos = endgame(seed, 8)
        inert = [c for c in pos.empties if is_inert(cell_codes(pos, c))]
        moves = [m for _, m in distinct_moves(pos, pos.mover)]
        assert sum(m // 3 in inert for m in moves) == min(len(inert), 1)
        found += len(inert)
    assert found  # some positions hold inert cells


def test_the_table_move_stands_for_its_class():
    pos = endgame(3, 9)
    for move in pos.legal_moves():
        moves = [m for _, m in distinct_moves(pos, pos.mover, first=move)]
        assert move in moves


@pytest.mark.parametrize("seed", range(6))
def test_exact_values_are_those_without_equivalences(seed):
    # The exact search's root values: the best equal, with or without the equivalences, in fewer nodes.
    pos = endgame(seed, 7)
    best = []
    nodes = []
    for equivalences in (False, True):
        bot = SearchBot(1, max_nodes=10**9, mc_low=7, equivalences=equivalences)
        bot.budget, bot.root, bot.deadline = 10**9, pos.mover, float("inf")
        values = bot._root(pos, pos.legal_moves(), len(pos.empties))
        best.append(max(values.values()))
        nodes.append(bot.nodes)
    assert best[0] == best[1] > -INF
    assert nodes[1] < nodes[0]

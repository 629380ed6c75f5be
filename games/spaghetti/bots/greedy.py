"""``greedy``: the best immediate score for itself; among equals, the least left for the reply.

CodeCup 2022 counts each player's own points, so ``greedy`` never gives up
points of its own to deny the opponent some: it takes the best immediate score
change, and among moves of equal change the one after which the opponent can
take least with one tile on the paths it touched (those paths stay open for
us). :func:`greedy_value` (the change less that threat) orders the search's
root, where a margin still matters.
"""

from __future__ import annotations

import random

from codecup_games.spaghetti.bots.tactics import best_at, frontier_cells
from codecup_games.spaghetti.engine import Position


def greedy_value(pos: Position, move: int, seat: int) -> int:
    """``move``'s immediate score change for ``seat`` less the opponent's best gain on its paths.

    Cycles and same-wall paths cost points, so they are avoided when anything
    else is possible; a move that opens a path the opponent can close for many
    points is charged for it.
    """
    gain = pos.delta(move, seat)
    after = pos.copy()
    after.play(move)
    cells = frontier_cells(pos, after, move)
    if cells:
        threat = best_at(after, cells, 1 - seat)
        if threat > 0:
            gain -= threat
    return gain


def own_value(pos: Position, move: int, seat: int) -> tuple[int, int]:
    """``move``'s immediate score change for ``seat``, then less the opponent's best gain on its paths."""
    gain = pos.delta(move, seat)
    after = pos.copy()
    after.play(move)
    cells = frontier_cells(pos, after, move)
    threat = best_at(after, cells, 1 - seat) if cells else 0
    return gain, -max(threat, 0)


class GreedyBot:
    """Plays the move of best :func:`own_value`, ties broken at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def observe(self, pos: Position, move: int) -> None:
        """Nothing to learn."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """The best move by one-ply value."""
        seat = pos.mover
        best = (-(10**9), 0)
        choices: list[int] = []
        for move in pos.legal_moves():
            value = own_value(pos, move, seat)
            if value > best:
                best, choices = value, [move]
            elif value == best:
                choices.append(move)
        choices.sort()
        return self.rng.choice(choices)

"""``random``: a uniformly random legal move."""

from __future__ import annotations

import random

from codecup_games.spaghetti.engine import Position


class RandomBot:
    """Uniform over empty cells and tiles (so uniform over legal moves)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def observe(self, pos: Position, move: int) -> None:
        """Nothing to learn."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """A random empty cell, a random tile."""
        cell = self.rng.choice(sorted(pos.empties))
        return cell * 3 + self.rng.randrange(3)

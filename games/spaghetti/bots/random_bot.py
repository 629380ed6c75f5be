"""``random``: a uniformly random legal move, drawn as the referee's take-over player draws it."""

from __future__ import annotations

import random

from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.rules import random_move


class RandomBot:
    """Uniform over empty cells and tiles (so uniform over legal moves).

    Not the framework's derived bot (one draw among the listed moves): this
    one draws a cell, then a tile, so seeded games stay the games they were.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def observe(self, pos: Position, move: int) -> None:
        """Nothing to learn."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """A random empty cell, a random tile."""
        return random_move(pos, self.rng)

"""The built-in Spaghetti bots, by name.

- ``random``: uniform over legal moves.
- ``greedy``: the best immediate score for itself, avoiding cycles and own-wall
  paths; among equal scores, the move that leaves the opponent least to take.
- ``search``: Monte Carlo with safe playouts, then alpha-beta at the end, for its
  own points (less half the opponent's); its work is planned from its clock. It spots
  the referee's random take-over player and then plays against a random opponent.
- ``search-diff``: the same search for the score difference (head-to-head play).
- ``search-fast``, ``search-diff-fast``: those with a twentieth of the work, for
  tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable

from codecup_games.spaghetti.bots.base import Bot
from codecup_games.spaghetti.bots.greedy import GreedyBot
from codecup_games.spaghetti.bots.random_bot import RandomBot
from codecup_games.spaghetti.bots.search import SearchBot

FAST_SCALE = 0.05  # search-fast's share of search's work

BOTS: dict[str, Callable[[int, float], Bot]] = {
    "random": lambda seed, clock: RandomBot(seed),
    "greedy": lambda seed, clock: GreedyBot(seed),
    "search": lambda seed, clock: SearchBot(seed, clock),
    "search-diff": lambda seed, clock: SearchBot(seed, clock, opponent_weight=1.0, mc_opponent_weight=None),
    "search-fast": lambda seed, clock: SearchBot(seed, clock, scale=FAST_SCALE),
    "search-diff-fast": lambda seed, clock: SearchBot(
        seed, clock, scale=FAST_SCALE, opponent_weight=1.0, mc_opponent_weight=None
    ),
}


def make_bot(name: str, seed: int, clock: float = 30.0) -> Bot:
    """A fresh bot called ``name`` (one of :data:`BOTS`) for a game of ``clock`` seconds a seat."""
    return BOTS[name](seed, clock)

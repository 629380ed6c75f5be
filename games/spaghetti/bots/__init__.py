"""The built-in Spaghetti bots, by name.

- ``random``: uniform over legal moves.
- ``greedy``: best immediate score, avoiding cycles and own-wall paths and
  charging a move for what the opponent can then take on the paths it touched.
- ``search``: Monte Carlo with safe playouts, then exact alpha-beta at the end, on the
  30-second clock (at most 5 s a move).
- ``search-fast``: the same search with at most 0.05 s a move, for tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable

from games.spaghetti.bots.base import Bot
from games.spaghetti.bots.greedy import GreedyBot
from games.spaghetti.bots.random_bot import RandomBot
from games.spaghetti.bots.search import SearchBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "search-fast": lambda seed: SearchBot(seed, move_time=0.05),
}


def make_bot(name: str, seed: int) -> Bot:
    """A fresh bot called ``name`` (one of :data:`BOTS`)."""
    return BOTS[name](seed)

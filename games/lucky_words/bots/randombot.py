"""``random``: legal but aimless."""

from __future__ import annotations

from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.engine import LETTERS


class RandomBot(Bot):
    """Calls a uniformly random letter and puts every letter in a random empty cell."""

    def choose_pick(self) -> tuple[str, int]:
        """A random letter in a random cell."""
        return self.rng.choice(LETTERS), self.rng.choice(self.free)

    def choose_place(self, letter: str) -> int:
        """A random empty cell."""
        return self.rng.choice(self.free)

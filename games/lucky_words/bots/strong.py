"""``strong``: expected-value placement with letter choice for itself and against the opponent.

Each line's future points are estimated from how many words still fit each
window and how many letters they miss (:mod:`evaluate`). Placement takes the
cell that raises the estimate most. A pick takes the letter and cell best
for its own board, less a share of what that letter is worth to the
opponent, whose board it models by placing the opponent's letters with the
same estimate (the letters are public, only the cells are hidden).
"""

from __future__ import annotations

from games.lucky_words.bots.base import Bot
from games.lucky_words.bots.evaluate import LineEvaluator, placement_gains
from games.lucky_words.bots.index import index_for
from games.lucky_words.engine import LETTERS
from games.lucky_words.words import load_words


class StrongBot(Bot):
    """The strongest built-in bot."""

    # Tuned against zracer on the official list (strength benchmark): a window is worth
    # about points * 0.72 ** missing letters once any word still fits it.
    q = 1.0
    d = 0.72

    def prepare(self) -> None:
        """Index the word list."""
        self.ev = LineEvaluator(index_for(load_words()), q=self.q, d=self.d)

    def _best(self, letter: str) -> tuple[float, int]:
        gains = placement_gains(self.ev, self.board, letter)
        return max(gains)

    def choose_place(self, letter: str) -> int:
        """The cell where the letter gains most."""
        return self._best(letter)[1]

    def choose_pick(self) -> tuple[str, int]:
        """The letter and cell best for its own board."""
        best = max(((*self._best(letter), letter) for letter in LETTERS), key=lambda t: t[0])
        return best[2], best[1]

"""``zracer``: a medium baseline in the spirit of Word Racer's sample bot, which "uses Z where possible".

It places every letter where a crude estimate (any fitting word, discounted
by the letters still missing) gains most. When it picks, it calls Z, a
letter that rarely fits the opponent's words, whenever Z serves its own
board nearly as well as the best letter; otherwise it calls the best letter.
"""

from __future__ import annotations

from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.bots.evaluate import LineEvaluator, placement_gains
from codecup_games.lucky_words.bots.index import index_for
from codecup_games.lucky_words.engine import LETTERS
from codecup_games.lucky_words.words import load_words

Z_SHARE = 0.8
"""Z is called when its gain is at least this share of the best letter's (and positive)."""


class ZRacer(Bot):
    """Greedy one-ply placement on a crude estimate; calls Z where it nearly pays for itself."""

    def prepare(self) -> None:
        """Index the word list."""
        self.ev = LineEvaluator(index_for(load_words()), q=0.1, exact_only=True)

    def _best(self, letter: str) -> tuple[float, int]:
        gains = placement_gains(self.ev, self.board, letter)
        top = max(g for g, _ in gains)
        cells = [c for g, c in gains if g >= top - 1e-9]
        return top, self.rng.choice(cells)

    def choose_place(self, letter: str) -> int:
        """The cell where the letter gains most."""
        return self._best(letter)[1]

    def choose_pick(self) -> tuple[str, int]:
        """Z where it nearly pays for itself, else the best letter for its own board."""
        best = max(((*self._best(letter), letter) for letter in LETTERS), key=lambda t: t[0])
        z_gain, z_cell = self._best("Z")
        if z_gain > 0 and z_gain >= Z_SHARE * best[0]:
            return "Z", z_cell
        return best[2], best[1]

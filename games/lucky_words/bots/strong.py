"""``strong``: expected-value placement with letter choice for itself and against the opponent.

Each line's future points are estimated from whether words still fit each
window and how many letters they miss (:mod:`evaluate`): about
``points * 0.72 ** missing``. Placement takes the cell that raises the
estimate most. A pick takes the letter (and cell) best for its own board,
less a share of what that letter is worth to the opponent, whose board it
models by placing every letter of the game with the same estimate (the
letters are public, only the cells are hidden).
"""

from __future__ import annotations

from games.lucky_words.bots.base import Bot
from games.lucky_words.bots.evaluate import LineEvaluator, placement_gains
from games.lucky_words.bots.index import index_for
from games.lucky_words.engine import LETTERS, new_board
from games.lucky_words.words import load_words


class StrongBot(Bot):
    """The strongest built-in bot."""

    # Tuned against zracer on the official list (bench/lucky_words_strength.py).
    q = 1.0
    d = 0.72
    spite = 0.4  # share of the letter's worth to the model opponent subtracted from a pick

    def prepare(self) -> None:
        """Index the word list; start the model of the opponent's board."""
        index = index_for(load_words())
        self.ev = LineEvaluator(index, q=self.q, d=self.d)
        # The model opponent places with a cruder estimate than ours: with our own it would
        # mirror our board, and spite would only scale our own gains.
        self.model_ev = LineEvaluator(index, q=0.1, exact_only=True)
        self.model = list(new_board(self.board[24]))

    def _best(self, board: list[str], letter: str, ev: LineEvaluator | None = None) -> tuple[float, int]:
        return max(placement_gains(ev or self.ev, board, letter))

    def _model_place(self, letter: str) -> None:
        self.model[self._best(self.model, letter, self.model_ev)[1]] = letter

    def choose_place(self, letter: str) -> int:
        """The cell where the letter gains most."""
        self._model_place(letter)
        return self._best(self.board, letter)[1]

    def choose_pick(self) -> tuple[str, int]:
        """The letter best for its own board less a share of its worth to the opponent."""
        best: tuple[float, int, str] | None = None
        for letter in LETTERS:
            gain, cell = self._best(self.board, letter)
            if self.spite:
                gain -= self.spite * self._best(self.model, letter)[0]
            if best is None or gain > best[0]:
                best = (gain, cell, letter)
        assert best is not None
        self._model_place(best[2])
        return best[2], best[1]

"""``strong`` as it was before the planning rewrite (the strength baseline for bench/), kept verbatim.

Original docstring: expected-value placement with one letter of look-ahead, picking also against the opponent.

Each line's future points are estimated from whether words still fit each
window and how many letters they miss (:mod:`evaluate`): about
``points * 0.72 ** missing``. A move's first score is how much it raises
that estimate; the best six moves are then re-ranked by adding three times
the expected best gain of the *next* letter on the board they leave (letters
drawn by their share in the word list), so the bot keeps room for what is
still to come. A pick's score also subtracts 0.4 times that letter's best
gain on a model of the opponent's board: every letter of the game placed by
a cruder estimate (the letters are public, only the cells are hidden). After
3 s of its own thinking in a game the bot drops the look-ahead, to stay well
inside Word Racer's 10 s clock on a busy machine.
"""

from __future__ import annotations

import time

from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.bots.evaluate import AFFECTED, LineEvaluator, placement_gains
from codecup_games.lucky_words.bots.index import index_for
from codecup_games.lucky_words.engine import LETTERS, new_board
from codecup_games.lucky_words.words import load_words


class StrongV0(Bot):
    """The previous built-in ``strong``."""

    # Tuned against zracer on the official list (bench/lucky_words_strength.py).
    q = 1.0
    d = 0.72
    spite = 0.4  # share of the letter's worth to the model opponent subtracted from a pick
    # One letter of look-ahead: the best few moves are re-ranked by the expected best gain of
    # the next letter (by the list's letter shares) on the board they leave, weighted by beta.
    look_picks = 6
    look_places = 6
    beta = 3.0
    budget = 3.0
    """Seconds of its own thinking after which the bot drops the look-ahead (Word Racer's
    10 s clock counts start-up too; a loaded machine can make a game take twice as long)."""

    def prepare(self) -> None:
        """Index the word list; start the model of the opponent's board."""
        self.thinking = 0.0
        index = index_for(load_words())
        self.ev = LineEvaluator(index, q=self.q, d=self.d)
        # The model opponent places with a cruder estimate than ours: with our own it would
        # mirror our board, and spite would only scale our own gains.
        self.model_ev = LineEvaluator(index, q=0.1, exact_only=True)
        self.model = list(new_board(self.board[24]))
        words = load_words()
        text = "".join(words.words)
        self.share = [(ch, text.count(ch) / len(text)) for ch in LETTERS]

    def _table(self) -> dict[str, list[tuple[float, int]]]:
        """Every letter's placement gains on the bot's board, best first."""
        return {ch: sorted(placement_gains(self.ev, self.board, ch), reverse=True) for ch in LETTERS}

    def _flex(self, table: dict[str, list[tuple[float, int]]], cell: int) -> float:
        """The expected best gain of the next letter (drawn by the list's letter shares)
        once ``cell`` is filled: only the cells in its row and column change their gains."""
        affected = AFFECTED[cell]
        board = self.board
        total = 0.0
        for ch, weight in self.share:
            best = -1e9
            for gain, other in table[ch]:
                if other not in affected:
                    best = gain
                    break
            for gain, _ in placement_gains(self.ev, board, ch, affected):
                if gain > best:
                    best = gain
            if best > -1e9:
                total += weight * best
        return total

    def _lookahead(self, k: int) -> int:
        return k if self.thinking < self.budget else 1

    def pick(self) -> tuple[str, int]:
        """As :meth:`Bot.pick`, timed."""
        start = time.perf_counter()
        try:
            return super().pick()
        finally:
            self.thinking += time.perf_counter() - start

    def place(self, letter: str) -> int:
        """As :meth:`Bot.place`, timed."""
        start = time.perf_counter()
        try:
            return super().place(letter)
        finally:
            self.thinking += time.perf_counter() - start

    def _rerank(
        self, options: list[tuple[float, int, str]], k: int, table: dict[str, list[tuple[float, int]]]
    ) -> tuple[float, int, str]:
        options.sort(reverse=True)
        if k <= 1 or self.board.count(".") <= 2:
            return options[0]
        best = None
        for score, cell, letter in options[:k]:
            self.board[cell] = letter
            total = score + self.beta * self._flex(table, cell)
            self.board[cell] = "."
            if best is None or total > best[0]:
                best = (total, cell, letter)
        assert best is not None
        return best

    def _best(self, board: list[str], letter: str, ev: LineEvaluator | None = None) -> tuple[float, int]:
        return max(placement_gains(ev or self.ev, board, letter))

    def _model_place(self, letter: str) -> None:
        self.model[self._best(self.model, letter, self.model_ev)[1]] = letter

    def choose_place(self, letter: str) -> int:
        """The cell where the letter gains most."""
        self._model_place(letter)
        if self._lookahead(self.look_places) > 1:
            table = self._table()
            options = [(g, c, letter) for g, c in table[letter]]
            return self._rerank(options, self.look_places, table)[1]
        return self._best(self.board, letter)[1]

    def choose_pick(self) -> tuple[str, int]:
        """The letter best for its own board less a share of its worth to the opponent."""
        table = self._table()
        options = []
        for letter in LETTERS:
            gain, cell = table[letter][0]
            if self.spite:
                gain -= self.spite * self._best(self.model, letter)[0]
            options.append((gain, cell, letter))
        best = self._rerank(options, self._lookahead(self.look_picks), table)
        self._model_place(best[2])
        return best[2], best[1]


if __name__ == "__main__":
    from bench_options import not_a_bench

    not_a_bench(
        __file__, "a frozen copy of the old strong bot, for bench/lucky_words_strength.py (v0); run that"
    )

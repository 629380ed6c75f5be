"""Sparring partners for ``strong`` (bench code, not built-in bots), and in-process games between them.

- :class:`FramePlanner`: fixes complete 7-letter words in its first columns
  from move one (chosen so that the rows they start stay fertile) and picks
  its own letters to complete them; an opponent's letter that fits a frame
  cell goes there, any other where it gains most on the board as it will be.
  Once the frame is done it picks the letter that gains most.
- :class:`ZRacerClass`: a greedy placer of real strength in the manner of the
  Word Racer contest's sample bot ZRacer ("uses Z where possible", medium
  level): every letter goes where it gains most on a good line estimate;
  when it picks it calls the best letter for its own board, or Z when Z
  serves it nearly as well (Z rarely helps the opponent).
- ``v0``: ``strong`` as it was before its planning rewrite
  (:mod:`lucky_words_strong_v0`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

from codecup.drive import DriveResult, SessionChannel, derive_seed, drive
from codecup_games.lucky_words.bots import make_bot
from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.bots.evaluate import LineEvaluator, placement_gains
from codecup_games.lucky_words.bots.index import index_for
from codecup_games.lucky_words.engine import LETTERS
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.player import LuckyWordsPlayer
from codecup_games.lucky_words.variants import rules_of
from codecup_games.lucky_words.words import load_words

GAME = LuckyWords()


class FramePlanner(Bot):
    """Completes 7-letter words in columns ``0..columns-1`` with its own picks."""

    columns = 3
    candidates = 4000  # 7-letter words tried per column (a seeded sample)
    top = 8  # the frame word is drawn among this many best

    def prepare(self) -> None:
        """Choose the frame words; index the list for the greedy part."""
        words = load_words()
        self.ev = LineEvaluator(index_for(words), q=1.0, d=0.72)
        sevens = sorted(words.by_length[7])
        prefixes: Counter[str] = Counter()
        for n in range(self.columns + 1, 8):
            for w in words.by_length[n]:
                for k in range(1, self.columns + 1):
                    prefixes[w[:k]] += 1
        rows = [""] * 7
        self.plan: dict[int, str] = {}
        start = self.board[24]
        for col in range(self.columns):
            # Column 3 holds the starting letter in row 3.
            fits = [w for w in sevens if w[3] == start] if col == 3 else sevens
            sample = self.rng.sample(fits, min(self.candidates, len(fits)))
            scored = sorted((sum(math.log1p(prefixes[rows[r] + w[r]]) for r in range(7)), w) for w in sample)
            word = self.rng.choice(scored[-self.top :])[1]
            for r in range(7):
                rows[r] += word[r]
                if r * 7 + col != 24:
                    self.plan[r * 7 + col] = word[r]

    def _virtual(self) -> list[str]:
        board = list(self.board)
        for cell, letter in self.plan.items():
            board[cell] = letter
        return board

    def _open(self) -> list[int]:
        return [p for p in self.free if p not in self.plan]

    def choose_pick(self) -> tuple[str, int]:
        """The next frame letter, top to bottom; after the frame, the best letter."""
        if self.plan:
            cell = min(self.plan)
            return self.plan.pop(cell), cell
        best = max((*max(placement_gains(self.ev, self.board, ch)), ch) for ch in LETTERS)
        return best[2], best[1]

    def choose_place(self, letter: str) -> int:
        """A frame cell that wants this letter, else the best open cell on the planned board."""
        for cell in sorted(self.plan):
            if self.plan[cell] == letter:
                del self.plan[cell]
                return cell
        open_cells = self._open()
        if not open_cells:  # never with 3 columns: the frame is done by the picker's own letters
            cell = min(self.plan)
            del self.plan[cell]
            return cell
        return max(placement_gains(self.ev, self._virtual(), letter, open_cells))[1]


class ZRacerClass(Bot):
    """Greedy one-ply placement on the line estimate; calls Z where it nearly pays for itself."""

    z_share = 0.0
    """Z is called when its gain is positive and at least this share of the best letter's
    (0: whenever Z gains at all, "where possible"; with this it scores about 80 against the
    previous strong, as the contest's ZRacer did)."""

    def prepare(self) -> None:
        """Index the word list."""
        self.ev = LineEvaluator(index_for(load_words()), q=1.0, d=0.72)

    def _best(self, letter: str) -> tuple[float, int]:
        gains = placement_gains(self.ev, self.board, letter)
        top = max(g for g, _ in gains)
        return top, self.rng.choice([c for g, c in gains if g >= top - 1e-9])

    def choose_place(self, letter: str) -> int:
        """The cell where the letter gains most."""
        return self._best(letter)[1]

    def choose_pick(self) -> tuple[str, int]:
        """Z where it nearly pays for itself, else the best letter for its own board."""
        best = max(((*self._best(ch), ch) for ch in LETTERS), key=lambda t: t[0])
        z_gain, z_cell = self._best("Z")
        if z_gain > 0 and z_gain >= self.z_share * best[0]:
            return "Z", z_cell
        return best[2], best[1]


def _v0(seed: int) -> Bot:
    from lucky_words_strong_v0 import StrongV0

    return StrongV0(seed)


SPARRING: dict[str, Callable[[int], Bot]] = {
    "frame": FramePlanner,
    "frame4": type("FramePlanner4", (FramePlanner,), {"columns": 4}),
    "frame2": type("FramePlanner2", (FramePlanner,), {"columns": 2}),
    "zracer-class": ZRacerClass,
    "v0": _v0,
    "greedy": type("Greedy", (ZRacerClass,), {"z_share": 0.8}),
}
"""Bench opponents by name; any other name is a built-in bot."""


def new_bot(name: str, seed: int, clock: float) -> Bot:
    """A bench opponent or a built-in bot (given the seat's clock)."""
    if name in SPARRING:
        return SPARRING[name](seed)
    return make_bot(name, seed, clock)


def play(names: Sequence[str], seed: int, variant: str) -> DriveResult:
    """One in-process game (no clocks) between bots by name, seeded as ``codecup.drive.play_bots``."""
    v = GAME.info.variant(variant)
    setup = GAME.start_position(seed, v.name)
    rules = rules_of(v.name)
    sessions = [
        LuckyWordsPlayer(new_bot(name, derive_seed(seed, "seat", seat), v.clock), rules)
        for seat, name in enumerate(names)
    ]
    return drive(GAME.referee(setup, v.name, derive_seed(seed, "referee")), SessionChannel(sessions))


if __name__ == "__main__":
    from bench_options import not_a_bench

    not_a_bench(__file__, "the sparring bots of bench/lucky_words_strength.py; run that")

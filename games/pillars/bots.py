"""Built-in bots: ``random`` (uniform over legal rectangles) and ``baseline`` (an exact
misère solver once the position is small enough, big moves before that)."""

from __future__ import annotations

import random

import attrs

from games.pillars.engine import RECT_OF_MASK, count_legal, legal_masks
from games.pillars.notation import Move
from games.pillars.player import Bot, View
from games.pillars.solver import BudgetExceeded, Solver

BOTS = ("random", "baseline")


@attrs.define(eq=False)
class RandomBot:
    """A uniformly random legal rectangle; never plays the joker."""

    rng: random.Random

    def choose(self, view: View) -> Move:
        """Any legal rectangle, each equally likely."""
        return Move(RECT_OF_MASK[self.rng.choice(legal_masks(view.board.empty))])


@attrs.define(eq=False)
class BaselineBot:
    """Solve exactly when the search fits its budget; otherwise fill big rectangles.

    Big moves early bring the game into the solver's reach while the opponent
    still has many ways to go wrong. Once a win is proven the bot cannot lose
    (the search is exact), so it plays its joker then: floor(empty / 10) extra
    points, more the earlier the proof comes. A proven loss plays for the
    opponent's mistakes: the move leaving the most options.
    """

    rng: random.Random
    solve_below: int = 34  # empty fields; above that the search rarely finishes
    budget: int = 12_000  # nodes per move, about a quarter of a second
    solver: Solver = attrs.field(factory=Solver)

    def choose(self, view: View) -> Move:
        """The proven winning move (with the joker when it pays), else a heuristic one."""
        empty = view.board.empty
        count = empty.bit_count()
        moves = legal_masks(empty)
        if count <= self.solve_below:
            try:
                win = self.solver.winning_move(empty, self.budget)
            except BudgetExceeded:
                pass
            else:
                if win is not None:
                    return Move(RECT_OF_MASK[win], joker=view.joker_available and count >= 10)
                return Move(RECT_OF_MASK[self._hope(empty, moves)])
        return Move(RECT_OF_MASK[self._big(moves)])

    def _big(self, moves: list[int]) -> int:
        """One of the largest rectangles, chosen at random among equals."""
        best = max(m.bit_count() for m in moves)
        return self.rng.choice([m for m in moves if m.bit_count() == best])

    def _hope(self, empty: int, moves: list[int]) -> int:
        """In a lost position: the move leaving the opponent the most ways to go wrong."""
        return max(moves, key=lambda m: (count_legal(empty ^ m), -m.bit_count()))


def make_bot(name: str, seed: int) -> Bot:
    """A fresh bot by name."""
    rng = random.Random(seed)
    if name == "random":
        return RandomBot(rng)
    if name == "baseline":
        return BaselineBot(rng)
    raise ValueError(f"no Pillars bot called {name!r}")

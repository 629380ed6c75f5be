"""Built-in bots: ``random`` (uniform over legal rectangles) and ``baseline`` (an exact
misère solver once the position is small enough, a simplifying heuristic before that)."""

from __future__ import annotations

import random
import time

import attrs

from games.pillars.engine import RECT_OF_MASK, components, count_legal, legal_masks, normalise
from games.pillars.notation import Move
from games.pillars.player import Bot, View
from games.pillars.solver import LINE_LENGTH, BudgetExceeded, Solver

BOTS = ("random", "baseline")


@attrs.define(eq=False)
class RandomBot:
    """A uniformly random legal rectangle; never plays the joker."""

    rng: random.Random

    def choose(self, view: View) -> Move:
        """Any legal rectangle, each equally likely."""
        return Move(RECT_OF_MASK[self.rng.choice(legal_masks(view.board.empty))])


def tangle(empty: int) -> int:
    """How hard a position is to solve: the rectangles in its regions that are not lines.

    Straight lines cost the solver nothing (they add up like Nim heaps).
    """
    return sum(count_legal(r) for r in components(empty) if r & (r - 1) and normalise(r) not in LINE_LENGTH)


@attrs.define(eq=False)
class BaselineBot:
    """Solve exactly when the search fits its budget; otherwise simplify the position.

    Before the solver can settle the game, the bot plays the move that leaves
    the fewest rectangles outside straight lines, counting each field it fills
    as ``weight`` such rectangles (so a proof comes early while many fields are
    still empty), ties broken at random. Once a win is proven the bot cannot
    lose (the search is exact), so it plays its joker with that move:
    floor(empty / 10) extra points, more the earlier the proof. A proven loss
    plays for the opponent's mistakes: the move leaving the most options.

    The node budgets keep it deterministic and well inside the 5 s clock; the
    CPU-time cap is only a safety net for a very slow machine.
    """

    rng: random.Random
    solve_below: int = 44  # empty fields; above that the search rarely finishes
    per_move: int = 30_000  # solver nodes, about half a second
    per_game: int = 100_000  # solver nodes
    floor: int = 2_000  # solver nodes every move, even past the game's budget
    weight: float = 20.0
    cpu_cap: float = 2.5  # seconds of thinking per game before it plays only cheap moves
    solver: Solver = attrs.field(factory=Solver)
    spent: int = 0
    thinking: float = 0.0

    def choose(self, view: View) -> Move:
        """The proven winning move (with the joker when it pays), else a heuristic one."""
        start = time.process_time()
        try:
            return self._choose(view)
        finally:
            self.thinking += time.process_time() - start

    def _choose(self, view: View) -> Move:
        empty = view.board.empty
        count = empty.bit_count()
        moves = legal_masks(empty)
        late = self.thinking > self.cpu_cap
        # Small endings cost the solver little, so it always gets a few nodes.
        budget = self.floor if late else max(self.floor, min(self.per_move, self.per_game - self.spent))
        if count <= self.solve_below:
            try:
                win = self.solver.winning_move(empty, budget)
            except BudgetExceeded:
                pass
            else:
                if win is not None:
                    return Move(RECT_OF_MASK[win], joker=view.joker_available and count >= 10)
                return Move(RECT_OF_MASK[self._hope(empty, moves)])
            finally:
                self.spent += self.solver.nodes
        if late:
            return Move(RECT_OF_MASK[max(moves, key=int.bit_count)])
        return Move(RECT_OF_MASK[self._simplify(empty, moves)])

    def _simplify(self, empty: int, moves: list[int]) -> int:
        """The move leaving the least tangled position, keeping fields empty where possible."""
        w = self.weight
        scored = [(tangle(empty ^ m) + w * m.bit_count(), self.rng.random(), m) for m in moves]
        return min(scored)[2]

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

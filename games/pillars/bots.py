"""Built-in bots: ``random`` (the framework's, uniform over legal rectangles, never a joker)
and ``baseline`` (an exact misère solver once the position is small enough, a simplifying
heuristic before that)."""

from __future__ import annotations

import random
from typing import Protocol

import attrs

from codecup.bots import RANDOM, Bot, RandomBot
from codecup.budget import Thinking, clock_scale
from codecup.rules import State
from codecup_games.pillars.engine import RECT_OF_MASK, components, count_legal, legal_masks, normalise
from codecup_games.pillars.notation import Move
from codecup_games.pillars.rules import PillarsState, View
from codecup_games.pillars.solver import LINE_LENGTH, BudgetExceeded, Solver

BOTS = (RANDOM, "baseline")


class Strategy(Protocol):
    """A Pillars strategy on the engine's terms: a :class:`View` in, a :class:`Move` out."""

    def choose(self, view: View) -> Move:
        """The move to play (``joker=True`` to claim victory with it)."""
        ...


@attrs.define(eq=False)
class StrategyBot:
    """A :class:`Strategy` as the framework's :class:`~codecup.bots.Bot`."""

    strategy: Strategy

    def choose(self, state: State) -> str:
        """The strategy's move for the seat to move, as written."""
        assert isinstance(state, PillarsState)
        return self.strategy.choose(state.view()).text()


def tangle(empty: int) -> int:
    """How hard a position is to solve: the rectangles in its regions that are not lines.

    Straight lines cost the solver nothing (they add up like Nim heaps).
    """
    return sum(count_legal(r) for r in components(empty) if r & (r - 1) and normalise(r) not in LINE_LENGTH)


STANDARD_CLOCK = 5.0
"""The CodeCup 2009 clock, in seconds per player per game."""

NODES_PER_SECOND = 12_000
"""Solver nodes per second of clock: about a sixth of a second of CPU on the reference machine."""

POSITIONS_PER_SECOND = 1_200
"""Positions the heuristic may score per second of clock: about 0.1 s of CPU (most games use less)."""

CLOCK_RANGE = (0.5, 20.0)
"""Clocks outside this range budget as its ends (below: still a playable game; above: memory)."""

SAMPLE = 20
"""Positions the heuristic always scores per move, even past the game's budget."""

HURRY_NODES = 100
"""Solver nodes per move once the safety net has fired."""


@attrs.frozen
class Budget:
    """The baseline's work for one game, in solver nodes and heuristic positions.

    All of it scales with the seat's clock (:meth:`for_clock`): at the 5 s
    standard clock a game's whole budget is about a fifth of the clock's CPU
    time on the reference machine, so a machine three times slower, or loaded
    with two busy processes per core, still plays it in full.
    """

    nodes: int  # solver nodes per game
    per_move: int  # solver nodes per move at most
    floor: int  # solver nodes every move, even past the game's budget: small endings cost little
    positions: int  # positions the heuristic scores per game
    per_move_positions: int  # positions the heuristic scores per move at most

    @classmethod
    def for_clock(cls, clock: float) -> Budget:
        """The budget for a seat with ``clock`` seconds for the whole game."""
        seconds = clock_scale(clock, 1.0, *CLOCK_RANGE)
        nodes = round(NODES_PER_SECOND * seconds)
        positions = round(POSITIONS_PER_SECOND * seconds)
        return cls(nodes, nodes * 3 // 10, nodes // 30, positions, positions // 6)


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

    Its budget is work, scaled from its clock (:class:`Budget`), so under a
    seed it plays the same game on any machine. Time is only a safety net
    (:class:`~codecup.budget.Thinking`): past three quarters of the clock it
    plays big moves with a tiny solver budget.
    """

    rng: random.Random
    clock: float = STANDARD_CLOCK
    solve_below: int = 44  # empty fields; above that the search rarely finishes
    weight: float = 20.0
    budget: Budget = attrs.field()
    solver: Solver = attrs.field(factory=Solver)
    thinking: Thinking = attrs.field()
    spent: int = 0  # solver nodes this game
    scored: int = 0  # heuristic positions this game

    @budget.default
    def _budget(self) -> Budget:
        return Budget.for_clock(self.clock)

    @thinking.default
    def _thinking(self) -> Thinking:
        return Thinking(self.clock)

    def choose(self, view: View) -> Move:
        """The proven winning move (with the joker when it pays), else a heuristic one."""
        hurried = self.thinking.hurried
        with self.thinking:
            return self._choose(view, hurried)

    def _choose(self, view: View, hurried: bool) -> Move:
        empty = view.board.empty
        count = empty.bit_count()
        moves = legal_masks(empty)
        b = self.budget
        # Small endings cost the solver little, so it always gets a few nodes.
        budget = HURRY_NODES if hurried else max(b.floor, min(b.per_move, b.nodes - self.spent))
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
        if hurried:
            return Move(RECT_OF_MASK[max(moves, key=int.bit_count)])
        return Move(RECT_OF_MASK[self._simplify(empty, moves)])

    def _simplify(self, empty: int, moves: list[int]) -> int:
        """The move leaving the least tangled position, keeping fields empty where possible.

        Past its share of the positions budget, the heuristic scores a seeded
        sample of the moves.
        """
        b = self.budget
        size = min(len(moves), b.per_move_positions, max(SAMPLE, b.positions - self.scored))
        if size < len(moves):
            moves = self.rng.sample(moves, size)
        self.scored += size
        w = self.weight
        scored = [(tangle(empty ^ m) + w * m.bit_count(), self.rng.random(), m) for m in moves]
        return min(scored)[2]

    def _hope(self, empty: int, moves: list[int]) -> int:
        """In a lost position: the move leaving the opponent the most ways to go wrong."""
        return max(moves, key=lambda m: (count_legal(empty ^ m), -m.bit_count()))


def make_bot(name: str, seed: int, clock: float = STANDARD_CLOCK) -> Bot:
    """A fresh bot by name, budgeting from ``clock`` seconds for the whole game."""
    if name == RANDOM:
        return RandomBot.seeded(seed)
    if name == "baseline":
        return StrategyBot(BaselineBot(random.Random(seed), clock))
    raise ValueError(f"no Pillars bot called {name!r}")

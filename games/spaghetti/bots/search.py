"""``search``: iterative-deepening alpha-beta over the coming moves, on the clock.

The value of a position is the score difference seen by the side to move.
The root looks at every legal move; inner nodes look at the moves that score
most for the side to move or take a cell where the other side would score
(a block), at most ``width`` of them; a node one ply above the horizon is
valued exactly by the mover's best immediate gain (no copy needed). Near the
end of the game every move is searched, to the end of the game once the
clock allows it, so the last forced moves are played exactly.

Time: the bot knows its clock (30 s a game). Each move gets the time left,
less a reserve, divided by the moves it still has to make, and never more
than ``move_time`` seconds; ``move_time`` and ``max_nodes`` make the budget
small for tests and benchmarks (the ``search-fast`` bot).
"""

from __future__ import annotations

import random
import time

from games.spaghetti.bots.greedy import greedy_value
from games.spaghetti.engine import Position

INF = 10**6
RESERVE = 1.5  # seconds kept back for the transport and the last moves
FULL_WIDTH_EMPTIES = 9  # at or below this many empty cells every move is searched


class _OutOfTime(Exception):
    """The move's budget ran out in the middle of an iteration."""


class SearchBot:
    """Alpha-beta search with a per-move time budget drawn from the game clock."""

    def __init__(self, seed: int, *, move_time: float = 3.0, max_nodes: int | None = None, width: int = 10):
        self.rng = random.Random(seed)
        self.move_time = move_time
        self.max_nodes = max_nodes
        self.width = width
        self.nodes = 0
        self.deadline = 0.0
        self.last_depth = 0

    def budget(self, pos: Position, clock_left: float) -> float:
        """Seconds to spend on this move: an even share of the usable clock, capped."""
        my_moves_left = (len(pos.empties) + 1) // 2
        usable = max(0.0, clock_left - RESERVE)
        return min(self.move_time, usable / max(1, my_moves_left))

    def choose(self, pos: Position, clock_left: float) -> int:
        """The best move found within the budget."""
        seat = pos.mover
        moves = pos.legal_moves()
        if len(moves) == 1:
            return moves[0]
        started = time.perf_counter()
        self.deadline = started + self.budget(pos, clock_left)
        self.nodes = 0
        # Order the root by the one-ply greedy value; random tie-breaks vary play.
        keyed = [(greedy_value(pos, m, seat), self.rng.random(), m) for m in moves]
        keyed.sort(reverse=True)
        order = [m for _, _, m in keyed]
        best = order[0]
        depth = 2
        max_depth = len(pos.empties)
        while depth <= max_depth:
            try:
                values = self._root(pos, order, depth)
            except _OutOfTime:
                break
            order = sorted(order, key=lambda m: values[m], reverse=True)
            best = order[0]
            self.last_depth = depth
            if time.perf_counter() > started + (self.deadline - started) / 3:
                break  # the next iteration would not finish
            depth += 1
        return best

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfTime

    def _root(self, pos: Position, order: list[int], depth: int) -> dict[int, int]:
        values: dict[int, int] = {}
        alpha = -INF
        for move in order:
            child = pos.copy()
            child.play(move)
            # A null window would be faster but the full value keeps the ordering useful.
            value = -self._negamax(child, depth - 1, -INF, -alpha + 1)
            values[move] = value
            alpha = max(alpha, value)
        return values

    def _candidates(self, pos: Position, seat: int) -> list[int]:
        """Moves worth searching at an inner node, best first."""
        delta = pos.delta
        keyed = []
        for cell in pos.empties:
            m = cell * 3
            block = max(delta(m, 1 - seat), delta(m + 1, 1 - seat), delta(m + 2, 1 - seat))
            bonus = block if block > 0 else 0
            for move in (m, m + 1, m + 2):
                keyed.append((delta(move, seat) + bonus, move))
        keyed.sort(reverse=True)
        if len(pos.empties) > FULL_WIDTH_EMPTIES:
            keyed = keyed[: self.width]
        return [m for _, m in keyed]

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        self._tick()
        seat = pos.ply & 1
        diff = pos.scores[seat] - pos.scores[1 - seat]
        if not pos.empties or depth <= 0:
            return diff
        if depth == 1:
            delta = pos.delta
            return diff + max(delta(m, seat) for m in pos.legal_moves())
        best = -INF
        for move in self._candidates(pos, seat):
            child = pos.copy()
            child.play(move)
            value = -self._negamax(child, depth - 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

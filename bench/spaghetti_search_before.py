"""The ``search`` bot as it was before it played for its own points (a verbatim copy), the bench baseline.

Copied from ``games/spaghetti/bots/search.py`` at commit e6761d0 so the benches
can compare the new bot with it; only this paragraph was added, and the
``greedy_value`` it orders its root by is copied in, as it was then.

``search``: Monte Carlo in the middle game, alpha-beta at the end, on the clock.

Between careful players almost every point is scored in the last few moves,
when the board fills up and tiles are forced to close paths (mostly into
penalties), so the search is aimed at the endgame.

- From ``MC_HIGH`` empty cells down to the exact limit, the root's best
  ``MC_WIDTH`` moves by the one-ply greedy value are compared by their mean
  final score difference over "safe" playouts (see :mod:`.playout`), the
  playouts shared out by UCB1; the most played move is chosen.
- Otherwise (the opening, and the last 7 to 9 empty cells, more with more
  time) an iterative-deepening alpha-beta search of the future score
  difference (negamax; a position's value excludes the points already scored,
  so a transposition table keyed by the board alone is sound). Inner nodes
  look at the moves that score for the side to move or take a cell where the
  other side would score (a block), at most ``width`` of them, plus a few
  quiet moves standing in for those on cells where nothing can score; with
  ``FULL_WIDTH_EMPTIES`` or fewer empty cells every move, so the last moves
  are solved exactly. A node one ply above the horizon is valued by the
  mover's best immediate gain.

Time: the bot knows its clock (30 s a game). Each of its remaining moves has a
weight (``ENDGAME_WEIGHT`` for moves with ``ENDGAME_EMPTIES`` or fewer empty
cells, 1 before); a move gets its weight's share of 90% of the time left,
never more than ``move_time`` seconds. ``move_time`` and ``max_nodes`` make the
budget small for tests and benchmarks (the ``search-fast`` bot).
"""

from __future__ import annotations

import math
import random
import time

from codecup_games.spaghetti.bots.playout import safe_playout
from codecup_games.spaghetti.bots.tactics import best_at, frontier_cells, is_hot
from codecup_games.spaghetti.engine import Position

INF = 10**6
SAFETY = 0.9  # share of the clock the bot plans to use; the rest absorbs transport and overruns
FULL_WIDTH_EMPTIES = 9  # at or below this many empty cells every move is searched
QUIET_MOVES = 3  # quiet moves searched at an inner node, standing in for the rest
ENDGAME_EMPTIES = 18  # moves from here on get ENDGAME_WEIGHT times the time
ENDGAME_WEIGHT = 6.0
EXACT, LOWER, UPPER = 0, 1, 2
# Between the exact limit (MC_LOW, more with more time) and MC_HIGH empty cells the
# root's best MC_WIDTH moves are compared by safe playouts instead of the depth-limited
# search, which sees nothing there: nothing scores until the last few moves.
MC_LOW, MC_HIGH, MC_WIDTH = 7, 45, 16
UCB_C = 4.0


def greedy_value(pos: Position, move: int, seat: int) -> int:
    """Today's ``greedy`` value (copied too): the move's gain less the reply's best gain on its paths."""
    gain = pos.delta(move, seat)
    after = pos.copy()
    after.play(move)
    cells = frontier_cells(pos, after, move)
    if cells:
        threat = best_at(after, cells, 1 - seat)
        if threat > 0:
            gain -= threat
    return gain


class _OutOfTime(Exception):
    """The move's budget ran out in the middle of an iteration."""


class SearchBot:
    """Monte Carlo and alpha-beta search with a per-move time budget drawn from the game clock."""

    def __init__(self, seed: int, *, move_time: float = 5.0, max_nodes: int | None = None, width: int = 10):
        self.rng = random.Random(seed)
        self.move_time = move_time
        self.max_nodes = max_nodes
        self.width = width
        self.nodes = 0
        self.deadline = 0.0
        self.last_depth = 0
        self.table: dict[bytes, tuple[int, int, int, int]] = {}
        self.mc_low = MC_LOW
        self.mc_high = MC_HIGH
        self.mc_width = MC_WIDTH
        self.playouts = 0
        self.playout = safe_playout

    def _monte_carlo(self, pos: Position, moves: list[int]) -> int:
        """The most played root move of UCB1 over safe playouts (final score difference)."""
        seat = pos.mover
        rand = self.rng
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        self.playouts = 0
        while True:
            n = self.playouts
            if n >= len(moves):
                if time.perf_counter() > self.deadline:
                    break
                if self.max_nodes is not None and n * 16 > self.max_nodes:
                    break
                log_n = math.log(n)
                i = max(
                    range(len(moves)),
                    key=lambda j: totals[j] / counts[j] + UCB_C * math.sqrt(log_n / counts[j]),
                )
            else:
                i = n
            child = pos.copy()
            child.play(moves[i])
            self.playout(child, rand)
            totals[i] += child.scores[seat] - child.scores[1 - seat]
            counts[i] += 1
            self.playouts += 1
        return moves[max(range(len(moves)), key=lambda j: (counts[j], totals[j] / counts[j]))]

    def budget(self, pos: Position, clock_left: float) -> float:
        """Seconds to spend on this move: its weighted share of the usable clock, capped."""
        usable = max(0.0, SAFETY * clock_left - 0.05)
        empties = len(pos.empties)
        weights = [self._weight(e) for e in range(empties, 0, -2)]
        return min(self.move_time, usable * weights[0] / sum(weights))

    @staticmethod
    def _weight(empties: int) -> float:
        if empties <= 1:
            return 0.05  # the last move is a choice of three tiles
        return ENDGAME_WEIGHT if empties <= ENDGAME_EMPTIES else 1.0

    def choose(self, pos: Position, clock_left: float) -> int:
        """The best move found within the budget."""
        seat = pos.mover
        moves = pos.legal_moves()
        started = time.perf_counter()
        self.deadline = started + self.budget(pos, clock_left)
        self.nodes = 0
        self.table = {}
        # Order the root by the one-ply greedy value; random tie-breaks vary play.
        keyed = [(greedy_value(pos, m, seat), self.rng.random(), m) for m in moves]
        keyed.sort(reverse=True)
        order = [m for _, _, m in keyed]
        best = order[0]
        empties = len(pos.empties)
        if self._exact_limit(self.deadline - started) < empties <= self.mc_high:
            return self._monte_carlo(pos, order[: self.mc_width])
        depth = 2
        self.last_depth = 1
        while depth <= empties:
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

    def _exact_limit(self, budget: float) -> int:
        """Up to how many empty cells the alpha-beta search (exact near the end) is used."""
        if budget >= 2.5:
            return max(self.mc_low, 9)
        if budget >= 0.6:
            return max(self.mc_low, 8)
        return self.mc_low

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfTime

    def _root(self, pos: Position, order: list[int], depth: int) -> dict[int, int]:
        """Each root move's value (exact for the best, an upper bound for the others)."""
        values: dict[int, int] = {}
        alpha = -INF
        for move in order:
            child = pos.copy()
            gain = child.play(move)
            value = gain - self._negamax(child, depth - 1, -INF, gain - alpha)
            values[move] = value
            alpha = max(alpha, value)
        return values

    def _best_gain(self, pos: Position, seat: int) -> int:
        """The best immediate score change ``seat`` can make (exact; cold cells give 0)."""
        best = -INF
        delta = pos.delta
        for cell in pos.empties:
            if is_hot(pos, cell):
                m = cell * 3
                for move in (m, m + 1, m + 2):
                    gain = delta(move, seat)
                    if gain > best:
                        best = gain
            elif best < 0:
                best = 0
        return best

    def _candidates(self, pos: Position, seat: int, first: int) -> list[tuple[int, int]]:
        """``(gain, move)`` pairs worth searching at an inner node, best first.

        Scoring moves and blocks (a cell where the other side would score) are
        ranked by gain plus the other side's loss; a few quiet moves (on cells
        where nothing can score) stand in for all the others. ``first`` (the
        table's best move, or -1) goes first.
        """
        delta = pos.delta
        keyed = []
        quiet = []
        other = 1 - seat
        full = len(pos.empties) <= FULL_WIDTH_EMPTIES
        for cell in pos.empties:
            m = cell * 3
            if full:
                for move in (m, m + 1, m + 2):
                    gain = delta(move, seat)
                    keyed.append((gain, gain, move))
                continue
            if not is_hot(pos, cell):
                if len(quiet) < QUIET_MOVES or m <= first < m + 3:
                    move = first if m <= first < m + 3 else m + len(quiet) % 3
                    quiet.append((0, 0, move))
                continue
            block = max(delta(m, other), delta(m + 1, other), delta(m + 2, other))
            bonus = block if block > 0 else 0
            for move in (m, m + 1, m + 2):
                gain = delta(move, seat)
                keyed.append((gain + bonus, gain, move))
        keyed += quiet
        keyed.sort(reverse=True)
        if not full:
            keyed = keyed[: self.width]
        out = [(gain, move) for _, gain, move in keyed]
        if first >= 0:
            for i, (_gain, move) in enumerate(out):
                if move == first:
                    out.insert(0, out.pop(i))
                    break
        return out

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """The future score difference for the side to move (points already scored excluded)."""
        self._tick()
        empties = len(pos.empties)
        if empties == 0 or depth <= 0:
            return 0
        seat = pos.ply & 1
        if depth == 1:
            return self._best_gain(pos, seat)
        exact = depth >= empties
        key = bytes(b + 1 for b in pos.board)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            e_depth, e_flag, e_value, first = entry
            if e_depth >= depth or e_depth >= empties:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        if exact:
            depth = empties
        alpha0 = alpha
        best = -INF
        best_move = -1
        for gain, move in self._candidates(pos, seat, first):
            child = pos.copy()
            child.play(move)
            value = gain - self._negamax(child, depth - 1, gain - beta, gain - alpha)
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.table[key] = (depth, flag, best, best_move)
        return best


if __name__ == "__main__":
    from bench_options import not_a_bench

    not_a_bench(
        __file__,
        "a frozen copy of the old Spaghetti search, for bench/spaghetti_points.py (search-before); run that",
    )

"""``search``: Monte Carlo in the middle game, alpha-beta at the end, for its own points.

CodeCup 2022 ranks by the sum of each player's own points, not by the margin
over the opponent, so a playout is valued by the bot's own final score
(``mc_opponent_weight`` 0), the expected own points under the playout policy.
The alpha-beta search needs one zero-sum value, so it searches own points
less a fraction ``opponent_weight`` (``OWN_OPPONENT_WEIGHT``, a half) of the
opponent's: the opponent is modelled as caring about both scores, and the bot
weighs its own points double. ``opponent_weight=1`` with
``mc_opponent_weight=None`` (the same) is the old objective, the score
difference (the ``search-diff`` bot, for head-to-head play).

Between careful players almost every point is scored in the last few moves,
when the board fills up and tiles are forced to close paths (mostly into
penalties), so the search is aimed at the endgame.

- From ``MC_HIGH`` empty cells down to the exact limit, the root's best
  ``MC_WIDTH`` moves by the one-ply greedy value are compared by their mean
  final value over "safe" playouts (see :mod:`.playout`), the playouts shared
  out by UCB1; the most played move is chosen. Against an opponent taken for
  the random take-over player (see :meth:`SearchBot.observe`) the playouts
  play it at random and the best ``RANDOM_WIDTH`` moves are compared: the
  greedy order, made for a careful opponent, says little there. There our
  playout moves look for what a score-0 move sets up for us
  (:func:`.playout.setup_move`: a chance left open is seldom taken by a random
  player), and the moves are compared by successive halving (:meth:`SearchBot._halving`),
  not UCB1.
- Otherwise (the opening, and the last 7 to 10 empty cells, more with more
  work) an iterative-deepening alpha-beta search of the future value
  (negamax with the opponent's gains weighted; a position's value excludes the
  points already scored, so a transposition table keyed by the board alone is
  sound within one move). Inner nodes look at the moves that score for the
  side to move or take a cell where the other side would score (a block), at
  most ``width`` of them, plus a few quiet moves standing in for those on cells
  where nothing can score; with ``FULL_WIDTH_EMPTIES`` or fewer empty cells
  every move, so the last moves are solved exactly. A node one ply above the
  horizon is valued by the mover's best immediate gain. After a node's first
  move the others are searched with a null window (principal variation
  search), and the full-width nodes try moves of equal gain in the order of
  how often each cut the search off before in this move (the history
  heuristic): together about a third fewer nodes for an exact 9-cell search.
  With ``FULL_WIDTH_EMPTIES`` or fewer empty cells the transposition key is
  what the future depends on (:func:`.endgame.state_key`: the path ends at the
  empty cells' sides, a path to the top or bottom wall dead whatever its
  length) and equivalent moves are searched once (:func:`.endgame.distinct_moves`):
  about a fifth of the nodes for the same values, so the exact search takes
  over at 10 empty cells from 100,000 nodes of work (``EXACT_WORK``).
  The iteration that reaches the end of the game is always tried, whatever
  work is left; if it runs out, the previous iteration's best move stands.

Budget: in work (nodes, playout plies), planned from the clock the bot is
given (see :mod:`.budget`), so a seed gives the same game whatever the
machine's load; time is only a safety net. ``scale`` shrinks the work for
tests and benchmarks (the ``search-fast`` bot), ``max_nodes`` caps a move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from codecup.budget import wall_charged
from codecup_games.spaghetti.bots.budget import PLAN, PLY_WORK, move_work, safety_seconds
from codecup_games.spaghetti.bots.endgame import Codes, distinct_moves, empty_cells, state_key
from codecup_games.spaghetti.bots.greedy import greedy_value
from codecup_games.spaghetti.bots.playout import (
    against_random_playout,
    best_moves,
    safe_playout,
    setup_against_random_playout,
)
from codecup_games.spaghetti.bots.tactics import is_hot
from codecup_games.spaghetti.engine import CELLS, Position

INF = 10**6
FULL_WIDTH_EMPTIES = 9  # at or below this many empty cells every move is searched
QUIET_MOVES = 3  # quiet moves searched at an inner node, standing in for the rest
EXACT, LOWER, UPPER = 0, 1, 2
# Between the exact limit (MC_LOW, more with more work) and MC_HIGH empty cells the
# root's best MC_WIDTH moves are compared by safe playouts instead of the depth-limited
# search, which sees nothing there: nothing scores until the last few moves.
MC_LOW, MC_HIGH, MC_WIDTH = 7, 45, 16
UCB_C = 4.0
# Work a move needs before the alpha-beta search takes over at 9 or 8 empty cells
# without the move equivalences (an exact search of 9 empty cells takes about
# 180,000 nodes, of 8 about 34,000: 20 positions each, iterations included).
EXACT_9_WORK, EXACT_8_WORK = 150_000, 40_000
# With them (:mod:`.endgame`) the exact search needs about a fifth of the nodes
# (of 10 empty cells about 110,000, of 9 38,000, of 8 6,700, of 7 2,700): the
# work from which the alpha-beta search takes over at 10, 9 and 8 empty cells.
EXACT_WORK: tuple[tuple[int, int], ...] = ((10, 100_000), (9, 35_000), (8, 6_000))
OWN_OPPONENT_WEIGHT = 0.5  # ``search``'s alpha-beta: own points less half the opponent's
OWN_MC_OPPONENT_WEIGHT = 0.0  # ``search``'s playouts: own points alone
# An opponent that takes a penalty while a move costing nothing is there, with more
# than BLUNDER_EMPTIES empty cells (where careful players never do), is taken to be
# the referee's random take-over player (or as weak as one).
BLUNDER_EMPTIES = 12
# Against a random opponent the root's greedy order means little (it ranks moves by what
# a careful opponent could take), so the Monte Carlo compares three times as many moves.
RANDOM_WIDTH = 48
# Against the random player our playout moves are chosen for what a score-0 move sets
# up for us (RANDOM_SETUP), and the root's moves compared by successive halving
# (RANDOM_HALVING): each round gives every move still in the running the same number of
# playouts, one at least, and keeps the better half. With fewer playouts in a move's
# work than that (the middle game at a tenth of the work: 15 to 30 for 48 moves) the
# move takes the playouts the rounds need (104 for 48 moves), more than its share.
RANDOM_SETUP = True
RANDOM_HALVING = True
WEIGHT_UNIT = 4  # the weights as integers: own gains count 4, the opponent's 4 * weight


class _OutOfWork(Exception):
    """The move's budget (work, or the time safety net) ran out in the middle of an iteration."""


wall_time: Callable[[], float] = time.perf_counter
"""The wall clock the safety net reads where the game's clock may charge wall time (a test's fake)."""


class SearchBot:
    """Monte Carlo and alpha-beta search with a per-move work budget planned from the game clock."""

    def __init__(
        self,
        seed: int,
        clock: float = 30.0,
        *,
        scale: float = 1.0,
        opponent_weight: float = OWN_OPPONENT_WEIGHT,
        mc_opponent_weight: float | None = OWN_MC_OPPONENT_WEIGHT,
        max_nodes: int | None = None,
        width: int = 10,
        detect_random: bool = True,
        plan: tuple[tuple[int, float], ...] = PLAN,
        ucb_c: float = UCB_C,
        mc_width: int = MC_WIDTH,
        mc_low: int = MC_LOW,
        random_width: int = RANDOM_WIDTH,
        equivalences: bool = True,
        random_setup: bool = RANDOM_SETUP,
        random_halving: bool = RANDOM_HALVING,
        careful_halving: bool = False,
    ):
        self.rng = random.Random(seed)
        self.clock = clock
        self.scale = scale
        self.plan = plan
        self.own_mult = WEIGHT_UNIT
        self.opp_mult = round(WEIGHT_UNIT * opponent_weight)
        mc_weight = opponent_weight if mc_opponent_weight is None else mc_opponent_weight
        self.mc_opp_mult = round(WEIGHT_UNIT * mc_weight)
        self.ucb_c = ucb_c
        self.max_nodes = max_nodes
        self.width = width
        self.work = 0
        self.nodes = 0
        self.budget = 0
        self.deadline = 0.0
        self.last_depth = 0
        self.table: dict[tuple[int, ...] | bytes, tuple[int, int, int, int]] = {}
        self.history = [0] * (3 * CELLS)  # cut-offs per move (a move ordering heuristic)
        self.root = 0
        self.mc_low = mc_low
        self.mc_high = MC_HIGH
        self.mc_width = mc_width
        self.playouts = 0
        self.playout = safe_playout
        self.detect_random = detect_random
        self.random_width = random_width
        self.opponent_random = False
        self.equivalences = equivalences
        self.random_playout = setup_against_random_playout if random_setup else against_random_playout
        self.random_halving = random_halving
        self.timer: Callable[[], float] = time.thread_time  # the safety net's clock (see choose)
        self.careful_halving = careful_halving

    def observe(self, pos: Position, move: int) -> None:
        """Spot the random take-over player: a penalty taken early while a move costing nothing was there."""
        if (
            self.detect_random
            and not self.opponent_random
            and len(pos.empties) > BLUNDER_EMPTIES
            and pos.delta(move, pos.mover) < 0 <= best_moves(pos)[0]
        ):
            self.opponent_random = True

    def _value(self, pos: Position, seat: int) -> int:
        """A finished playout's value for ``seat``: own score less the weighted opponent's."""
        return self.own_mult * pos.scores[seat] - self.mc_opp_mult * pos.scores[1 - seat]

    def _monte_carlo(self, pos: Position, moves: list[int]) -> int:
        """The most played root move of UCB1 over safe playouts (final value)."""
        seat = pos.mover
        rand = self.rng
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        cost = PLY_WORK * len(pos.empties)
        c = self.ucb_c
        self.playouts = 0
        while True:
            n = self.playouts
            if n and self.timer() > self.deadline:
                break  # the safety net, even before every move has had a playout
            if n >= len(moves):
                if self.work >= self.budget:
                    break
                log_n = math.log(n)
                i = max(
                    range(len(moves)),
                    key=lambda j: totals[j] / counts[j] + c * math.sqrt(log_n / counts[j]),
                )
            else:
                i = n
            child = pos.copy()
            child.play(moves[i])
            if self.opponent_random:
                self.random_playout(child, rand, seat)
            else:
                self.playout(child, rand)
            totals[i] += self._value(child, seat)
            counts[i] += 1
            self.playouts += 1
            self.work += cost
        return moves[max(range(len(moves)), key=lambda j: (counts[j], totals[j] / max(counts[j], 1)))]

    def _halving(self, pos: Position, moves: list[int]) -> int:
        """The best root move by successive halving over playouts against a random opponent.

        The move's playouts (its work over a playout's, at least one a move) are
        shared over ``ceil(log2(len(moves)))`` rounds; each round plays every move
        still in the running equally often (at least once) and keeps the better
        half by mean final value. The last round's best is chosen.
        """
        seat = pos.mover
        rand = self.rng
        cost = PLY_WORK * len(pos.empties)
        rounds = max(1, math.ceil(math.log2(len(moves))))
        per_round = max(len(moves), self.budget // cost) // rounds
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        alive = list(range(len(moves)))
        self.playouts = 0
        for _ in range(rounds):
            each = max(1, per_round // len(alive))
            for i in alive:
                for _ in range(each):
                    child = pos.copy()
                    child.play(moves[i])
                    if self.opponent_random:
                        self.random_playout(child, rand, seat)
                    else:
                        self.playout(child, rand)
                    totals[i] += self._value(child, seat)
                    counts[i] += 1
                self.playouts += each
                self.work += cost * each
            alive.sort(key=lambda j: totals[j] / counts[j], reverse=True)
            if len(alive) == 1 or self.timer() > self.deadline:
                break  # the safety net stops the halving between rounds
            alive = alive[: (len(alive) + 1) // 2]
        return moves[alive[0]]

    def move_budget(self, pos: Position) -> int:
        """The work (nodes) planned for this move: its share of the game's, capped by ``max_nodes``."""
        work = move_work(self.clock, len(pos.empties), self.scale, self.plan)
        return work if self.max_nodes is None else min(work, self.max_nodes)

    def choose(self, pos: Position, clock_left: float) -> int:
        """The best move found within the work budget (and the time safety net)."""
        seat = pos.mover
        self.root = seat
        moves = pos.legal_moves()
        # The safety net's time: the thread's processor time, which a load does not stretch (the
        # cpu clock's charge); wall time where the clock may charge it, else a loaded machine
        # would run a move past the clock (a wall-clock game timed out under six busy loops).
        self.timer = wall_time if wall_charged() else time.thread_time
        started = self.timer()
        empties = len(pos.empties)
        self.deadline = started + safety_seconds(clock_left, empties, self.plan)
        self.budget = self.move_budget(pos)
        self.work = 0
        self.nodes = 0
        self.table = {}
        self.history = [0] * (3 * CELLS)
        # Order the root by the one-ply greedy value; random tie-breaks vary play.
        keyed = [(greedy_value(pos, m, seat), self.rng.random(), m) for m in moves]
        keyed.sort(reverse=True)
        order = [m for _, _, m in keyed]
        if empties <= 2 and self.mc_opp_mult == 0:
            # Its last move (the opponent's, if any, ends the game, and only the mover scores): a
            # point given up here to deny the opponent is lost for good, so of the moves that gain
            # it most, the search picks the one that leaves the opponent least.
            top = max(pos.delta(m, seat) for m in order)
            order = [m for m in order if pos.delta(m, seat) == top]
        best = order[0]
        if self._exact_limit() < empties <= self.mc_high or (self.opponent_random and empties > 2):
            # Against the random take-over player the search would model a foe that is
            # not there: playouts with a random opponent estimate our points to the end.
            if self.opponent_random:
                if self.random_halving:
                    return self._halving(pos, order[: self.random_width])
                return self._monte_carlo(pos, order[: self.random_width])
            if self.careful_halving:
                return self._halving(pos, order[: self.mc_width])
            return self._monte_carlo(pos, order[: self.mc_width])
        depth = 2
        self.last_depth = 1
        while depth <= empties:
            try:
                values = self._root(pos, order, depth)
            except _OutOfWork:
                break
            order = sorted(order, key=lambda m: values[m], reverse=True)
            best = order[0]
            self.last_depth = depth
            if self.work * 3 > self.budget and depth + 1 < empties:
                break  # the next iteration would not finish
            # The exact iteration (to the end) is tried whatever is left: if it
            # runs out, the last one's best move stands.
            depth += 1
        return best

    def _exact_limit(self) -> int:
        """Up to how many empty cells the alpha-beta search (exact near the end) is used."""
        if not self.equivalences:
            thresholds: tuple[tuple[int, int], ...] = ((9, EXACT_9_WORK), (8, EXACT_8_WORK))
        else:
            thresholds = EXACT_WORK
        for empties, work in thresholds:
            if self.budget >= work:
                return max(self.mc_low, empties)
        return self.mc_low

    def _tick(self) -> None:
        self.nodes += 1
        self.work += 1
        if self.work > self.budget:
            raise _OutOfWork
        if self.nodes & 63 == 0 and self.timer() > self.deadline:
            raise _OutOfWork

    def _mult(self, seat: int) -> int:
        """What a point of ``seat``'s counts in the searched value."""
        return self.own_mult if seat == self.root else self.opp_mult

    def _root(self, pos: Position, order: list[int], depth: int) -> dict[int, int]:
        """Each root move's value (exact for the best, an upper bound for the others)."""
        values: dict[int, int] = {}
        alpha = -INF
        for move in order:
            child = pos.copy()
            gain = self.own_mult * child.play(move)
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
        keyed: list[tuple[int, int, int]] = []
        quiet: list[tuple[int, int, int]] = []
        other = 1 - seat
        full = len(pos.empties) <= FULL_WIDTH_EMPTIES
        if full:
            history = self.history
            for cell in pos.empties:
                m = cell * 3
                for move in (m, m + 1, m + 2):
                    gain = delta(move, seat)
                    keyed.append((gain * 1_000_000 + history[move], gain, move))
            keyed.sort(reverse=True)
            if first >= 0:
                return [(delta(first, seat), first)] + [(g, m) for _, g, m in keyed if m != first]
            return [(g, m) for _, g, m in keyed]
        for cell in pos.empties:
            m = cell * 3
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

    def _distinct_candidates(
        self, pos: Position, seat: int, first: int, cells: list[tuple[int, Codes]]
    ) -> list[tuple[int, int]]:
        """Every move but equivalent ones (:func:`.endgame.distinct_moves`), by gain then history."""
        history = self.history
        moves = distinct_moves(pos, seat, first, cells)
        moves.sort(key=lambda gm: (gm[1] == first, gm[0], history[gm[1]]), reverse=True)
        return moves

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """The future value for the side to move (points already scored excluded).

        The value is the root player's future gains less the weighted
        opponent's (times ``WEIGHT_UNIT``), negated on the opponent's turns.
        """
        self._tick()
        empties = len(pos.empties)
        if empties == 0 or depth <= 0:
            return 0
        seat = pos.ply & 1
        mult = self._mult(seat)
        if depth == 1:
            return mult * self._best_gain(pos, seat)
        exact = depth >= empties
        cells = empty_cells(pos) if self.equivalences and empties <= FULL_WIDTH_EMPTIES else None
        key = state_key(pos, cells) if cells is not None else bytes(b + 1 for b in pos.board)
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
        if cells is not None:
            candidates = self._distinct_candidates(pos, seat, first, cells)
        else:
            candidates = self._candidates(pos, seat, first)
        for raw, move in candidates:
            gain = mult * raw
            child = pos.copy()
            child.play(move)
            if best_move < 0 or beta - alpha <= 1:
                value = gain - self._negamax(child, depth - 1, gain - beta, gain - alpha)
            else:
                # Principal variation search: after the first move a null window
                # only asks whether this one is better; re-search if it is.
                value = gain - self._negamax(child, depth - 1, gain - alpha - 1, gain - alpha)
                if alpha < value < beta:
                    value = gain - self._negamax(child, depth - 1, gain - beta, gain - value)
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self.history[move] += depth * depth
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.table[key] = (depth, flag, best, best_move)
        return best

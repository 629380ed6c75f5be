"""Built-in bots: ``random`` (the framework's, over the listed legal moves) and ``baseline``.

A strategy sees a :class:`Position` where it is to move and returns a move.
The bots pick among the circuits of :func:`all_circuits` up to a corner cap
(the full sets grow fast: 225, 1825, 11275, 50635 loops for 4, 6, 8, 10 corners).
"""

from __future__ import annotations

import functools
import random
from typing import Protocol

import attrs

from codecup.bots import RANDOM, Bot, RandomBot
from codecup.budget import Thinking, clock_scale
from codecup_games.turn_right.board import FULL, ORIGINS2, ORIGINS3, SIZE, SQUARES, bits, count2, has3
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.engine import BLACK, CIRCUITS, WHITE, Move, Position, corner_limit
from codecup_games.turn_right.generate import all_circuits
from codecup_games.turn_right.notation import format_move
from codecup_games.turn_right.rules import TurnRightState

BASELINE_CAP = 8
"""``baseline`` searches (and guards against) circuits of at most this many corners."""


class Strategy(Protocol):
    """A move chooser on the engine's terms."""

    def choose(self, pos: Position) -> Move:
        """The move to play in ``pos`` (the bot's seat is ``pos.to_move``)."""
        ...


@attrs.define(eq=False)
class StrategyBot:
    """A :class:`Strategy` as the framework's :class:`~codecup.bots.Bot`."""

    strategy: Strategy

    def choose(self, state: TurnRightState) -> str:
        """The strategy's move, as passed on."""
        return format_move(self.strategy.choose(state.pos))


Table = tuple[tuple[Circuit, int, int, int, int, int], ...]
"""Circuits with their path and direction masks unpacked."""


@functools.cache
def _table(max_corners: int) -> Table:
    """Each circuit with its masks unpacked, so the search loop avoids attribute lookups."""
    return tuple((c, c.path, c.up, c.right, c.down, c.left) for c in all_circuits(max_corners))


def _windows(span: int) -> tuple[int, ...]:
    """The masks of every ``span`` x ``span`` window."""
    origins = ORIGINS2 if span == 2 else ORIGINS3
    return tuple(
        sum(1 << (o + df * SIZE + dr) for df in range(span) for dr in range(span)) for o in bits(origins)
    )


WINDOWS2 = _windows(2)
WINDOWS3 = _windows(3)
WINDOWS_AT = tuple(
    (tuple(w for w in WINDOWS2 if w >> s & 1), tuple(w for w in WINDOWS3 if w >> s & 1))
    for s in range(SQUARES)
)
"""For each square, the 2x2 and the 3x3 windows that contain it."""

ENDGAME_FREE = 8
"""With this many free squares or fewer, ``baseline`` places by searching to the end of phase 1."""

THREE_WEIGHT = 2
"""How much more a 3x3 window counts than a 2x2 one in the placement heuristic."""

WIN = 1000


def _rotate(white: int, path: int, up: int, right: int, down: int, left: int) -> int:
    """White's pieces after a circuit, from the circuit's precomputed path and direction masks."""
    return (
        (white & ~path)
        | (white & up) << 1
        | (white & down) >> 1
        | (white & right) << SIZE
        | (white & left) >> SIZE
    )


def winning_circuit(white: int, mover: int, limit: int, cap: int = BASELINE_CAP) -> Circuit | None:
    """A circuit of at most ``min(limit, cap)`` corners that wins for ``mover`` by a 3x3."""
    return _first_win(white, mover, _table(min(limit, cap)))[0]


def _first_win(white: int, mover: int, table: Table) -> tuple[Circuit | None, int]:
    """The first circuit of ``table`` that wins for ``mover`` by a 3x3, and how many were tried."""
    for tried, (c, path, up, right, down, left) in enumerate(table, 1):
        w = _rotate(white, path, up, right, down, left)
        mine, theirs = (w, FULL ^ w) if mover == WHITE else (FULL ^ w, w)
        if has3(mine) and not has3(theirs):
            return c, tried
    return None, len(table)


STANDARD_CLOCK = 30.0
"""The CodeCup 2006 clock, in seconds per player per game."""

POSITIONS_PER_SECOND = 75_000
"""Positions per second of clock (a circuit tried on a board, or a placement-search node).

About a fifth of a second of CPU on the reference machine (a position costs
about 2.5 us): at the standard clock every move gets the full 8-corner search
with its checks.
"""

CLOCK_RANGE = (0.5, 120.0)
"""Clocks outside this range budget as its ends."""

CAPS = {4: 225, 6: 1825, 8: 11275}
"""The corner caps ``baseline`` chooses from (each move the largest it can afford) and their circuits."""

BUILD_COST = 6
"""Positions a circuit of a cap's table costs to build, charged when a bot first uses that cap.

The table is built once per process, and ``codecup bot`` is one game per
process, so a bot is charged for it in every game, built or not: the same
seed then plays the same game in-process and as a program.
"""


@attrs.frozen
class Budget:
    """The baseline's work for one game, in positions, scaled from its clock."""

    positions: int  # per game
    floor: int  # per move at least, even past the game's budget: a 4-corner search and its checks

    @classmethod
    def for_clock(cls, clock: float) -> Budget:
        """The budget for a seat with ``clock`` seconds for the whole game."""
        seconds = clock_scale(clock, 1.0, *CLOCK_RANGE)
        return cls(round(POSITIONS_PER_SECOND * seconds), 4 * CAPS[4])


class BaselineBot:
    """Greedy: win by a 3x3 when possible, never hand one over, else maximise own minus opponent's 2x2s.

    Ties on that lead go to the lead in windows with three pieces of four.

    Placement: the free square that most extends windows still open to its own
    colour, and most blocks windows the opponent has started.

    Its work is counted in positions and budgeted from its clock
    (:class:`Budget`): each circuit gets an equal share of what is left, and
    searches the largest corner cap (at most ``cap``) whose scan fits in half of
    it, the rest going to checking that the chosen circuit hands over no 3x3.
    Time is only a safety net (:class:`~codecup.budget.Thinking`): past three
    quarters of the clock it searches 4-corner circuits and places by the
    window heuristic alone.
    """

    def __init__(self, rng: random.Random, cap: int = BASELINE_CAP, clock: float = STANDARD_CLOCK) -> None:
        self.rng = rng
        self.cap = cap
        self.budget = Budget.for_clock(clock)
        self.thinking = Thinking(clock)
        self.spent = 0  # positions this game
        self.built: set[int] = set()  # the caps whose tables this game has paid for

    def choose(self, pos: Position) -> Move:
        """The greedy move."""
        hurried = self.thinking.hurried
        with self.thinking:
            if pos.placing:
                return self.place(pos, hurried)
            return self.circuit(pos, hurried)

    def place(self, pos: Position, hurried: bool = False) -> int:
        """Near the end, search the remaining placements; before that, the best window value."""
        free = bits(pos.free)
        if len(free) <= ENDGAME_FREE and not hurried:
            return self.place_endgame(pos)
        me = pos.to_move
        mine, theirs = pos.mask(me), pos.mask(1 - me)
        best: list[int] = []
        best_value = -1
        for square in free:
            value = window_value(square, mine, theirs)
            if value > best_value:
                best, best_value = [square], value
            elif value == best_value:
                best.append(square)
        return self.rng.choice(best)

    def place_endgame(self, pos: Position) -> int:
        """The placement whose worst case, over the remaining placements, is best for this seat.

        A full board is judged by Black's first circuit (a rectangle): a 3x3 win
        for either side if it is forced, else White's 2x2 windows minus Black's.
        Its cost is bounded (at most a few thousand nodes from 8 free squares).
        """
        me = pos.to_move
        sign = 1 if me == WHITE else -1
        options = []
        seen: dict[tuple[int, int], int] = {}
        for square in bits(pos.free):
            bit = 1 << square
            white, black = (pos.white | bit, pos.black) if me == WHITE else (pos.white, pos.black | bit)
            value = sign * _placement_search(white, black, pos.placed + 1, seen)
            options.append((value, self.rng.random(), square))
        self.spent += len(seen)
        return max(options)[2]

    def move_budget(self, pos: Position) -> int:
        """Positions for this circuit: an equal share of what is left for the seat's circuits."""
        own_left = (CIRCUITS - pos.circuits + 1) // 2
        return max(self.budget.floor, (self.budget.positions - self.spent) // max(1, own_left))

    def circuit(self, pos: Position, hurried: bool = False) -> Circuit:
        """The best-scoring safe circuit within this move's budget."""
        budget = self.budget.floor if hurried else self.move_budget(pos)
        limits = (pos.limit, corner_limit(pos.circuits + 1))  # ours, and the opponent's reply's
        cap = max(c for c in CAPS if c == 4 or (c <= self.cap and self._cost(c, *limits) <= budget))
        mine_cap, reply_cap = (min(limit, cap) for limit in limits)
        for corners in {mine_cap, reply_cap} - self.built:
            self.built.add(corners)
            self.spent += BUILD_COST * CAPS[corners]
            budget -= BUILD_COST * CAPS[corners]
        me = pos.to_move
        white = pos.white
        table = _table(mine_cap)
        self.spent += len(table)
        budget -= len(table)
        scored: list[tuple[int, int, float, Circuit, int]] = []
        for c, path, up, right, down, left in table:
            w = _rotate(white, path, up, right, down, left)
            mine, theirs = (w, FULL ^ w) if me == WHITE else (FULL ^ w, w)
            mine3, theirs3 = has3(mine), has3(theirs)
            if mine3 and not theirs3:
                return c
            if theirs3:
                continue  # a 3x3 for the opponent, or for both (which the opponent wins)
            # Ties on the 2x2 lead (common: the counts are small) go to the lead in windows
            # one piece short of full, which are the next move's 2x2s.
            scored.append(
                (count2(mine) - count2(theirs), near2(mine) - near2(theirs), self.rng.random(), c, w)
            )
        scored.sort(key=lambda t: t[:3], reverse=True)
        replies = _table(reply_cap)
        # A check scans the opponent's circuits until one wins (an unsafe candidate
        # is usually refuted early). Past the budget the best-scoring circuit goes unchecked.
        for *_, c, w in scored:
            if budget <= 0:
                break
            win, tried = _first_win(w, 1 - me, replies)
            self.spent += tried
            budget -= tried
            if win is None:
                return c
        if scored:
            return scored[0][3]
        return self.rng.choice(all_circuits(mine_cap))

    def _cost(self, cap: int, limit: int, reply_limit: int) -> int:
        """What a search up to ``cap`` corners costs at least: its scan, one check, and new tables."""
        mine, reply = min(limit, cap), min(reply_limit, cap)
        build = sum(BUILD_COST * CAPS[c] for c in {mine, reply} - self.built)
        return CAPS[mine] + CAPS[reply] + build


def near2(mask: int) -> int:
    """How many 2x2 windows hold at least three pieces of ``mask``."""
    a, b, c, d = mask, mask >> 1, mask >> SIZE, mask >> (SIZE + 1)
    return (((a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)) & ORIGINS2).bit_count()


def window_value(square: int, mine: int, theirs: int) -> int:
    """How much a piece on ``square`` extends windows open to its colour and blocks the opponent's."""
    value = 0
    windows2, windows3 = WINDOWS_AT[square]
    for window in windows2:
        own, opp = (window & mine).bit_count(), (window & theirs).bit_count()
        if not opp:
            value += (own + 1) ** 2
        elif not own:
            value += opp**2
    for window in windows3:
        own, opp = (window & mine).bit_count(), (window & theirs).bit_count()
        if not own:
            value += THREE_WEIGHT * opp**2
        elif not opp:
            value += own + 1
    return value


def _placement_search(white: int, black: int, placed: int, seen: dict[tuple[int, int], int]) -> int:
    """Minimax value for White of the rest of phase 1 (Black's 36th piece goes down by itself).

    The order of placements does not matter, only who holds which square, so
    ``seen`` memoises positions: k free squares give about 2^k nodes, not k!.
    """
    key = (white, black)
    if key in seen:
        return seen[key]
    free = FULL & ~(white | black)
    if placed >= SQUARES - 1:
        value = _full_board_value(white, black | free)
    elif placed % 2 == 0:
        value = max(_placement_search(white | 1 << s, black, placed + 1, seen) for s in bits(free))
    else:
        value = min(_placement_search(white, black | 1 << s, placed + 1, seen) for s in bits(free))
    seen[key] = value
    return value


def _full_board_value(white: int, black: int) -> int:
    """White's view of the board at the end of phase 1, Black to play a rectangle."""
    if winning_circuit(white, BLACK, 4) is not None:
        return -WIN
    if has3(white) and all(has3(c.rotate(white)) for c in all_circuits(4)):
        return WIN
    return count2(white) - count2(black)


BOTS = (RANDOM, "baseline")
"""The built-in bots' names."""


def make_bot(name: str, seed: int, clock: float = STANDARD_CLOCK) -> Bot[TurnRightState]:
    """A fresh bot by name, budgeting from ``clock`` seconds for the whole game."""
    if name == RANDOM:
        return RandomBot.seeded(seed)
    if name == "baseline":
        return StrategyBot(BaselineBot(random.Random(seed), clock=clock))
    raise ValueError(f"no Turn Right bot called {name!r}")

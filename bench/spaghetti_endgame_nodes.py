"""Spaghetti: the nodes an exact endgame search needs, with and without the move equivalences.

Fixed positions (a random start, then safe playout moves down to ``--empties``
empty cells, seeded) are solved to the end by ``search``'s iterative-deepening
alpha-beta search, once without :mod:`codecup_games.spaghetti.bots.endgame`'s
equivalences and once with them. Printed per position: the nodes of each
(every iteration counted), the move chosen and its value; then the totals and
how many positions got the same value and the same move.

    python bench/spaghetti_endgame_nodes.py [--empties 9] [--positions 20] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time

from bench_options import int_between, positive_int
from bench_origin import print_origin

from codecup_games.spaghetti.bots.playout import safe_move
from codecup_games.spaghetti.bots.search import SearchBot
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.notation import format_move

# The official generator's region for the jury's two tiles: rows b..h, columns b..f, not the centre.
JURY_CELLS = [r * 7 + c for r in range(1, 8) for c in range(1, 6) if r * 7 + c != 31]


class Probe(SearchBot):
    """``search`` that keeps the root's values of its last iteration."""

    values: dict[int, int]

    def _root(self, pos: Position, order: list[int], depth: int) -> dict[int, int]:
        self.values = super()._root(pos, order, depth)
        return self.values


def positions(empties: int, count: int, seed: int) -> list[Position]:
    """``count`` positions with ``empties`` empty cells: random starts, then safe playout moves."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b = rng.sample(JURY_CELLS, 2)
        pos = Position.start([a * 3 + rng.randrange(3), b * 3 + rng.randrange(3)])
        while len(pos.empties) > empties:
            pos.play(safe_move(pos, rng))
        out.append(pos)
    return out


def solve(pos: Position, equivalences: bool) -> tuple[int, int, int, float]:
    """The exact search's move, its value, the nodes and the seconds it took."""
    empties = len(pos.empties)
    bot = Probe(0, scale=1000.0, max_nodes=10**9, mc_low=empties, equivalences=equivalences)
    started = time.perf_counter()
    move = bot.choose(pos, 1e9)
    return move, bot.values[move], bot.nodes, time.perf_counter() - started


FEWEST_EMPTIES, MOST_EMPTIES = 2, 12
"""Empty cells solved: with one the bot plays it without a search; each more multiplies the nodes by
about 4 (10 cells: minutes a position, more would not end in a bench's time)."""


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any search."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--empties",
        type=int_between(FEWEST_EMPTIES, MOST_EMPTIES),
        default=9,
        help=f"empty cells, {FEWEST_EMPTIES} to {MOST_EMPTIES}",
    )
    p.add_argument("--positions", type=positive_int, default=20)
    p.add_argument("--seed", type=int, default=7)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    totals = {False: [0, 0.0], True: [0, 0.0]}
    same_value = same_move = 0
    print("position   nodes before  move value |  nodes with  move value")
    for i, pos in enumerate(positions(args.empties, args.positions, args.seed)):
        results = {}
        for equivalences in (False, True):
            move, value, nodes, seconds = solve(pos, equivalences)
            results[equivalences] = (move, value, nodes)
            totals[equivalences][0] += nodes
            totals[equivalences][1] += seconds
        (m0, v0, n0), (m1, v1, n1) = results[False], results[True]
        same_value += v0 == v1
        same_move += m0 == m1
        print(f"{i:8d} {n0:14,d}  {format_move(m0)} {v0:5d} | {n1:11,d}  {format_move(m1)} {v1:5d}")
    (n0, s0), (n1, s1) = totals[False], totals[True]
    print(
        f"{args.positions} positions of {args.empties} empty cells: {n0:,} nodes in {s0:.1f} s without the"
        f" equivalences, {n1:,} in {s1:.1f} s with them ({n0 / max(n1, 1):.2f} times fewer);"
        f" same value {same_value}, same move {same_move}"
    )


if __name__ == "__main__":
    main()
